"""Decisions and statistics against their oracles (scikit-learn, scipy) and by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.isotonic import IsotonicRegression
from sklearn.metrics import roc_auc_score

from assay.monitor import (
    IsotonicMap,
    Run,
    Step,
    Trace,
    auroc,
    chow_tau,
    clustered_bootstrap,
    ece,
    gate_theta,
    reliability_score,
    simulate,
)
from assay.monitor._decisions import Outcome, choose_stop


def test_chow_thresholds_of_the_paper() -> None:
    assert [chow_tau(x) for x in (1.0, 4.0, 9.0)] == [0.5, 0.8, 0.9]


def test_auroc_matches_sklearn_with_ties() -> None:
    rng = np.random.default_rng(0)
    s = rng.integers(0, 5, 200) / 4
    y = (rng.random(200) < 0.3 + 0.4 * s).astype(int)
    assert auroc(s, y) == pytest.approx(roc_auc_score(y, s), abs=1e-12)


def test_auroc_with_one_class_is_nan_with_a_warning() -> None:
    with pytest.warns(UserWarning, match="undefined"):
        assert math.isnan(auroc([0.1, 0.2], [1, 1]))


def test_isotonic_map_is_sklearns_prediction() -> None:
    rng = np.random.default_rng(1)
    s, y = rng.random(300), (rng.random(300) < 0.5).astype(int)
    fitted = IsotonicMap.fit(s, y)
    oracle = IsotonicRegression(out_of_bounds="clip", y_min=0, y_max=1).fit(s, y)
    grid = np.linspace(-0.5, 1.5, 101)
    assert fitted is not None
    np.testing.assert_allclose(fitted(grid), oracle.predict(grid), atol=1e-12)
    assert IsotonicMap.fit([0.3, 0.3], [0, 1]) is None


def test_ece_by_hand() -> None:
    # two bins: p 0.15 with accuracy 0 and p 0.95 with accuracy 1 -> 0.5 * 0.15 + 0.5 * 0.05
    assert ece([0.1, 0.2, 0.9, 1.0], [0, 0, 1, 1]) == pytest.approx(0.1)


@pytest.mark.parametrize(("n", "expected"), [(100, 0.0), (200, 0.005), (1000, 0.005)])
def test_gate_theta_wrongly_exits_at_most_half_a_percent(n: int, expected: float) -> None:
    mins = np.arange(n) / n
    theta = gate_theta(mins)
    assert theta == pytest.approx(expected)
    assert np.mean(mins < theta) <= 0.005
    assert gate_theta([]) is None


def _run(
    n_steps: int, *, final: str = "answer", correct: bool = True, answerable: bool = True
) -> Run:
    steps = tuple(Step("sql", sql="SELECT 1", row_count=1) for _ in range(n_steps))
    return Run(
        "r",
        "q",
        "d",
        steps,
        final=final,
        final_sql="SELECT 1" if final == "answer" else None,  # type: ignore[arg-type]
        correct=correct,
        answerable=answerable,
    )


def test_rs_payoffs_of_equation_one() -> None:
    ans, abst = Outcome("answer", 1, 1), Outcome("abstain", 1, 1)
    assert reliability_score(_run(1), ans, 4) == 1
    assert reliability_score(_run(1, correct=False), ans, 4) == -4
    assert reliability_score(_run(1, answerable=False), ans, 4) == -4
    assert reliability_score(_run(1, answerable=False), abst, 4) == 1
    assert reliability_score(_run(1), abst, 4) == 0


def test_simulate_gate_then_early_exit_then_chow() -> None:
    run = _run(3)
    trace = Trace(run, np.array([0.9, 0.9, 0.2, 0.9]), np.array([0.6, 0.4, 0.3, 0.3]), 0.7)
    assert simulate(trace, theta=0.5, stop=None, tau=0.5) == Outcome("exit_gate", 2, 3)
    assert simulate(trace, theta=None, stop=0.5, tau=0.5) == Outcome("exit_early", 1, 3)
    assert simulate(trace, theta=None, stop=None, tau=0.5).action == "answer"
    assert simulate(trace, theta=None, stop=None, tau=0.8).action == "withhold"
    assert simulate(trace, theta=None, stop=None, tau=None).action == "withhold"


def test_stop_threshold_ties_go_to_more_steps_saved() -> None:
    # Both runs are withheld at delivery anyway, so every stop threshold gives RS 0; the
    # highest one saves the most steps and must win.
    runs = [_run(3, correct=False), _run(3, correct=False)]
    traces = [Trace(r, None, np.array([0.2, 0.3, 0.4, 0.4]), 0.1) for r in runs]
    stop, rs, saved = choose_stop(traces, theta=None, tau=0.5, lam=1.0)
    assert rs == 0 and saved == 6 and stop is not None and stop > 0.2


def test_clustered_bootstrap_keeps_clusters_and_pairs() -> None:
    values = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]])
    out = clustered_bootstrap(values, ["a", "a", "b", "b"], n_resamples=200, seed=3)
    assert out["mean"] == [0.5, 0.5] and out["n_clusters"] == 2
    boot = np.array(out["ci"])
    # whole clusters move: each resample mean is 0, 0.5 or 1
    assert set(np.round(boot.ravel(), 6)) <= {0.0, 0.5, 1.0}
    single = clustered_bootstrap(values, ["a"] * 4)
    assert math.isnan(single["ci"][0][0]) and single["reason"] == "fewer than two clusters"
