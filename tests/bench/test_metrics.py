"""Metrics against their oracles: scikit-learn, scipy, and a seeded coverage simulation."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.calibration import calibration_curve
from sklearn.metrics import roc_auc_score

from assay.bench.statistics import (
    TaskOutcome,
    UndefinedStatisticWarning,
    accuracy_at_coverage,
    always_abstain_rs,
    aurc,
    auroc,
    auroc_interval,
    bootstrap_counts,
    brier,
    cost_per_correct,
    ece,
    gate_table,
    mcnemar_exact,
    paired_auroc_difference,
    paired_cost_difference,
    reliability_bins,
    reliability_score,
    task_metrics,
)


@pytest.mark.parametrize("seed", range(6))
def test_auroc_matches_sklearn_random_and_tied(seed: int) -> None:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 300)
    y[:2] = [0, 1]
    continuous = rng.normal(y * 0.7, 1)
    tied = np.round(continuous, 0) / 5  # heavy ties
    assert auroc(continuous, y) == pytest.approx(roc_auc_score(y, continuous))
    assert auroc(tied, y) == pytest.approx(roc_auc_score(y, tied))


def test_auroc_one_class_is_nan_with_a_reason() -> None:
    with pytest.warns(UndefinedStatisticWarning, match="one class"):
        assert math.isnan(auroc([0.2, 0.4], [1, 1]))


def test_interval_matches_scipy_on_the_same_resamples() -> None:
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 120)
    s = rng.normal(y, 1.0).round(1)
    ours = auroc_interval(s, y, n_resamples=500, rng=11)

    def statistic(scores: np.ndarray, labels: np.ndarray, axis: int = -1) -> np.ndarray:
        if scores.ndim == 1:
            return np.asarray(roc_auc_score(labels, scores))
        return np.array([roc_auc_score(labels[i], scores[i]) for i in range(scores.shape[0])])

    reference = stats.bootstrap(
        (s, y),
        statistic,
        paired=True,
        vectorized=True,
        n_resamples=500,
        method="percentile",
        random_state=np.random.default_rng(11),
    )
    assert ours.low == pytest.approx(reference.confidence_interval.low)
    assert ours.high == pytest.approx(reference.confidence_interval.high)
    assert (ours.method, ours.n_resamples, ours.confidence_level, ours.seed) == (
        "percentile bootstrap",
        500,
        0.95,
        11,
    )


def test_paired_difference_uses_the_same_resamples() -> None:
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 200)
    a = rng.normal(y * 0.3, 1)
    b = rng.normal(y * 1.0, 1)
    diff = paired_auroc_difference(a, b, y, n_resamples=400, rng=5)
    assert diff.value == pytest.approx(auroc(b, y) - auroc(a, y))
    same = paired_auroc_difference(a, a, y, n_resamples=400, rng=5)
    assert same.low == same.high == 0.0  # paired: identical scores differ by exactly zero
    assert diff.low > 0


def test_cluster_bootstrap_draws_whole_clusters() -> None:
    counts = bootstrap_counts(
        6, 50, np.random.default_rng(0), clusters=["a", "a", "b", "b", "c", "c"]
    )
    assert (counts[:, 0] == counts[:, 1]).all() and (counts[:, 4] == counts[:, 5]).all()
    assert (counts.sum(axis=1) == 6).all()


@pytest.mark.slow
def test_seeded_coverage_of_the_95_percent_interval() -> None:
    """Positives ~ N(1, 1), negatives ~ N(0, 1): true AUROC = Phi(1 / sqrt 2).

    300 simulations of 100 + 100 answers with 300 resamples each (a tenth of the work of
    600 x (150 + 150) x 1,000): the coverage's standard error is 0.0126, so a 90 % interval
    (0.90) or a resampling that narrows it still falls outside [0.93, 0.97]. Seeded coverage
    0.95 here; 400 x (75 + 75) x 250, 400 x (100 + 100) x 400 and 500 x (100 + 100) x 300 gave
    0.9375, 0.955 and 0.96 (none tuned: all four pass)."""
    truth = stats.norm.cdf(1 / math.sqrt(2))
    rng = np.random.default_rng(2024)
    covered = 0
    n_sims, per_class = 300, 100
    y = np.r_[np.ones(per_class), np.zeros(per_class)]
    for sim in range(n_sims):
        s = np.r_[rng.normal(1, 1, per_class), rng.normal(0, 1, per_class)]
        interval = auroc_interval(s, y, n_resamples=300, rng=sim)
        covered += interval.low <= truth <= interval.high
    assert 0.93 <= covered / n_sims <= 0.97


def test_calibration_bins_match_sklearn() -> None:
    rng = np.random.default_rng(9)
    p = rng.uniform(0, 1, 500).round(2)
    y = (rng.uniform(0, 1, 500) < p).astype(int)
    prob_true, prob_pred = calibration_curve(y, p, n_bins=10, strategy="uniform")
    bins = reliability_bins(p, y)
    assert [b["accuracy"] for b in bins] == pytest.approx(prob_true)
    assert [b["confidence"] for b in bins] == pytest.approx(prob_pred)
    weights = np.array([b["count"] for b in bins]) / len(p)
    assert ece(p, y) == pytest.approx(float(np.sum(weights * np.abs(prob_true - prob_pred))))
    assert brier(p, y) == pytest.approx(float(np.mean((p - y) ** 2)))


def test_risk_coverage_and_aurc() -> None:
    scores = [0.9, 0.8, 0.7, 0.6]
    labels = [1, 1, 0, 1]
    result = aurc(scores, labels)
    assert result["aurc"] == pytest.approx((0 + 0 + 1 / 3 + 1 / 4) / 4)
    assert result["random"] == pytest.approx(0.25)
    assert result["oracle"] == pytest.approx((0 + 0 + 0 + 1 / 4) / 4)
    assert 0 < result["normalised"] < 1
    assert accuracy_at_coverage(scores, labels, 0.5) == 1.0
    # Ties enter together at their mean error.
    assert accuracy_at_coverage([1, 1, 0, 0], [1, 0, 1, 1], 0.25) == pytest.approx(0.5)


def test_aurc_undefined_when_all_right() -> None:
    with pytest.warns(UndefinedStatisticWarning, match="every answer"):
        assert math.isnan(aurc([0.1, 0.2], [1, 1])["normalised"])


def test_gate_table() -> None:
    table = gate_table(["show", "show", "warn", "withhold", "withhold"], [1, 0, 1, 1, 0])
    assert table["counts"]["show"] == {"right": 1, "wrong": 1}
    assert table["pass_accuracy"] == 0.5
    assert table["pass_share"] == 0.4
    assert table["correct_withheld"] == pytest.approx(1 / 3)
    assert table["wrong_withheld"] == 0.5


def test_reliability_score() -> None:
    answered = [True, True, False, False, True]
    answerable = [True, True, True, False, False]
    correct = [True, False, False, False, False]
    # +1, -lambda, 0, +1, -lambda
    assert reliability_score(answered, answerable, correct, 4) == pytest.approx(
        (1 - 4 + 0 + 1 - 4) / 5
    )
    assert always_abstain_rs(answerable) == pytest.approx(2 / 5)
    assert reliability_score([False] * 5, answerable, correct, 9) == always_abstain_rs(answerable)


def test_task_metrics_denominators() -> None:
    outcomes = [
        TaskOutcome("answer", "answer", True, 2.0),
        TaskOutcome("answer", "answer", False, 3.0),
        TaskOutcome("answer", "abstain", False, 1.0),
        TaskOutcome("clarify", "clarify", True),
        TaskOutcome("abstain", "answer", False),
        TaskOutcome("refuse", "failure", False),
    ]
    metrics = task_metrics(outcomes)
    assert metrics["business_truth_rate"] == pytest.approx(2 / 6)
    assert metrics["false_success_rate"] == pytest.approx(2 / 3)
    assert metrics["coverage"] == pytest.approx(2 / 3)
    assert metrics["answer_accuracy"] == pytest.approx(1 / 3)
    assert metrics["failures"] == 1
    assert cost_per_correct(outcomes) == pytest.approx(6.0)


def test_paired_cost_counts_usable_resamples() -> None:
    a = [TaskOutcome("answer", "answer", i % 2 == 0, 1.0) for i in range(20)]
    b = [TaskOutcome("answer", "answer", i == 0, 1.0) for i in range(20)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedStatisticWarning)
        diff = paired_cost_difference(a, b, n_resamples=300, rng=1)
    assert diff.value == pytest.approx(20 / 1 - 20 / 10)
    assert 0 < diff.n_usable < 300  # resamples without task 0 have no ratio for b


def test_mcnemar_exact() -> None:
    result = mcnemar_exact([1] * 10 + [0] * 2, [0] * 10 + [1] * 2)
    assert (result["only_a"], result["only_b"]) == (10, 2)
    assert result["p_value"] == pytest.approx(stats.binomtest(10, 12, 0.5).pvalue)
