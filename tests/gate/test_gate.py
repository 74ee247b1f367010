"""The gate: thresholds, Chow's rule, and the isotonic calibrator against scikit-learn."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from sklearn.isotonic import IsotonicRegression

from assay.errors import ConfigError, InputError, ScoringError
from assay.gate import GatePolicy, chow_threshold, decide
from assay.scoring import IsotonicCalibrator, RuleScore, fit_isotonic


@pytest.mark.parametrize(
    ("score", "action"), [(0.8, "show"), (0.79, "warn"), (0.6, "warn"), (0.59, "withhold")]
)
def test_thresholds(score: float, action: str) -> None:
    assert decide(GatePolicy(), RuleScore(score, score)).action == action


def test_low_score_names_itself() -> None:
    assert decide(GatePolicy(), RuleScore(0.4, 0.4)).reasons == ("score.below_warn",)
    assert decide(GatePolicy(), RuleScore(0.6, 0.6)).reasons == ("score.below_show",)


@pytest.mark.parametrize(("cost", "tau"), [(1, 0.5), (4, 0.8), (9, 0.9)])
def test_chow_threshold(cost: float, tau: float) -> None:
    assert chow_threshold(cost) == pytest.approx(tau)


def test_chow_threshold_rejects_bad_cost() -> None:
    with pytest.raises(ConfigError, match="positive"):
        chow_threshold(0)


def test_isotonic_matches_sklearn(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    scores = rng.uniform(0, 1, 300).round(1)
    labels = (rng.uniform(0, 1, 300) < scores).astype(int)
    ours = fit_isotonic(scores.tolist(), labels.tolist(), rule="agreement_first")
    reference = IsotonicRegression(y_min=0, y_max=1, out_of_bounds="clip").fit(scores, labels)
    grid = np.linspace(0, 1, 41)
    assert np.allclose([ours(x) for x in grid], reference.predict(grid), atol=1e-8)
    path = tmp_path / "cal.json"
    ours.save(path)
    loaded = IsotonicCalibrator.load(path)
    assert loaded == ours and loaded.digest == ours.digest


def test_chow_policy_shows_and_withholds() -> None:
    calibrator = IsotonicCalibrator((0.0, 0.6, 1.0), (0.1, 0.5, 0.95), 100)
    policy = GatePolicy.chow(4, calibrator)
    assert decide(policy, RuleScore(1.0, 1.0)).action == "show"
    low = decide(policy, RuleScore(0.6, 0.6))
    assert low.action == "withhold" and "chow.below_threshold" in low.reasons
    capped = decide(policy, RuleScore(1.0, 1.0, ("cap.uncited_number",)))
    assert capped.action == "warn" and capped.reasons == ("cap.uncited_number",)
    assert "lambda=4" in policy.name


def test_calibration_needs_two_classes() -> None:
    with pytest.raises(ScoringError, match="both classes"):
        fit_isotonic([0.1, 0.9], [1, 1])


def test_bad_calibrator_file(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"kind": "platt"}')
    with pytest.raises(InputError, match="assay calibrate"):
        IsotonicCalibrator.load(path)
