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


def test_chow_never_shows_a_vetoed_answer() -> None:
    """Outside tryout 41: fitted on feedback for answers that all scored 1.0, the map gave
    every score P(right) = 0.85 >= 0.80, and answers vetoed to 0.59 were shown."""
    flat = IsotonicCalibrator((1.0,), (0.8525,), 61)
    policy = GatePolicy.chow(4, flat)
    vetoed = decide(policy, RuleScore(0.59, 1.0, ("veto.stand_in_in_aggregate",)))
    assert vetoed.action == "withhold"
    assert vetoed.reasons == ("veto.stand_in_in_aggregate",)
    # Over a map that has seen low scores too, a vetoed answer stays withheld.
    wide = GatePolicy.chow(1, IsotonicCalibrator((0.0, 1.0), (0.9, 0.95), 100))
    assert decide(wide, RuleScore(0.59, 0.9, ("signal.value_swapped",))).action == "withhold"
    assert decide(policy, RuleScore(1.0, 1.0)).action == "show"


def test_chow_below_the_fitted_scores_falls_back_to_thresholds() -> None:
    policy = GatePolicy.chow(4, IsotonicCalibrator((0.9, 1.0), (0.85, 0.9), 60))
    thin = decide(policy, RuleScore(0.79, 0.9, ("cap.thin_evidence",)))
    assert thin.action == "warn"
    assert thin.reasons == ("cap.thin_evidence", "chow.outside_calibration")
    low = decide(policy, RuleScore(0.5, 0.5))
    assert low.action == "withhold" and "chow.outside_calibration" in low.reasons
    # Within the fitted scores Chow's rule decides as before.
    assert decide(policy, RuleScore(0.95, 0.95)).action == "show"


def test_calibration_needs_two_classes() -> None:
    with pytest.raises(ScoringError, match="both classes"):
        fit_isotonic([0.1, 0.9], [1, 1])


def test_bad_calibrator_file(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"kind": "platt"}')
    with pytest.raises(InputError, match="assay calibrate"):
        IsotonicCalibrator.load(path)
