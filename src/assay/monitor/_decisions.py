"""The decisions of Sentinel Section 3.2 and 3.4, as pure functions over score traces.

RS(lambda) (Eq. 1): +1 for a correct answer or a correct refusal, 0 for a missed answer, -lambda
otherwise. Chow's rule (Eq. 2): deliver iff the calibrated p >= tau = lambda / (1 + lambda). The
exit gate theta is the largest threshold that wrongly exits at most 0.5% of answerable questions
on the calibration pool. The early-exit threshold s_lambda maximises RS(lambda) on the
calibration pool, ties broken toward more steps saved.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from assay.monitor._trajectory import Run

__all__ = [
    "GATE_WRONG_EXIT_RATE",
    "LAMBDAS",
    "IsotonicMap",
    "Outcome",
    "Trace",
    "auroc",
    "choose_stop",
    "chow_tau",
    "ece",
    "gate_theta",
    "reliability_score",
    "simulate",
]

LAMBDAS: tuple[float, ...] = (1.0, 4.0, 9.0)
GATE_WRONG_EXIT_RATE = 0.005


def chow_tau(lam: float) -> float:
    """Chow's delivery threshold.

    Example:
        >>> [chow_tau(x) for x in (1.0, 4.0, 9.0)]
        [0.5, 0.8, 0.9]
    """
    return lam / (1.0 + lam)


@dataclass(frozen=True)
class IsotonicMap:
    """A fitted isotonic regression, applied as its clipped piecewise-linear interpolation
    (exactly ``IsotonicRegression(out_of_bounds="clip").predict``)."""

    x: tuple[float, ...]
    y: tuple[float, ...]

    def __call__(self, scores: np.ndarray) -> np.ndarray:
        out: np.ndarray = np.interp(scores, np.asarray(self.x), np.asarray(self.y))
        return out

    @classmethod
    def fit(cls, scores: Sequence[float], labels: Sequence[int]) -> IsotonicMap | None:
        """None when fewer than two distinct scores or one class: nothing to calibrate."""
        from sklearn.isotonic import IsotonicRegression

        s, y = np.asarray(scores, dtype=float), np.asarray(labels, dtype=float)
        if len(np.unique(s)) < 2 or len(np.unique(y)) < 2:
            return None
        iso = IsotonicRegression(out_of_bounds="clip", y_min=0.0, y_max=1.0).fit(s, y)
        return cls(
            tuple(float(v) for v in iso.X_thresholds_), tuple(float(v) for v in iso.y_thresholds_)
        )


def auroc(scores: Sequence[float], labels: Sequence[int]) -> float:
    """Area under the ROC curve (Mann-Whitney, ties count half); NaN with a warning when a class
    is missing, never 0.5 or 0."""
    s, y = np.asarray(scores, dtype=float), np.asarray(labels, dtype=int)
    n_pos, n_neg = int(y.sum()), int(len(y) - y.sum())
    if n_pos == 0 or n_neg == 0:
        warnings.warn("AUROC is undefined with one class; reported as NaN.", stacklevel=2)
        return math.nan
    from scipy.stats import rankdata

    ranks = rankdata(s)
    return float((ranks[y == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def ece(probs: Sequence[float], labels: Sequence[int], *, n_bins: int = 10) -> float:
    """Expected calibration error over equal-width bins; NaN when there is nothing to bin."""
    p, y = np.asarray(probs, dtype=float), np.asarray(labels, dtype=float)
    if len(p) == 0:
        return math.nan
    bins = np.minimum((p * n_bins).astype(int), n_bins - 1)
    total = 0.0
    for b in range(n_bins):
        mask = bins == b
        if mask.any():
            total += mask.sum() / len(p) * abs(p[mask].mean() - y[mask].mean())
    return float(total)


def gate_theta(min_p_ans: Sequence[float], *, rate: float = GATE_WRONG_EXIT_RATE) -> float | None:
    """The largest theta with #{answerable questions whose p_ans ever falls below theta} <=
    floor(rate * n); ``min_p_ans`` is each answerable question's lowest p_ans over its states.

    Example:
        >>> gate_theta([0.9] * 199 + [0.1])  # one of 200 may exit wrongly: theta 0.9
        0.9
        >>> gate_theta([0.9] * 99 + [0.1])  # none of 100 may: theta at the lowest value
        0.1
    """
    values = np.sort(np.asarray(min_p_ans, dtype=float))
    if len(values) == 0:
        return None
    allowed = math.floor(rate * len(values))
    return float(values[allowed])


@dataclass(frozen=True)
class Trace:
    """One run's monitor readings: p_ans and calibrated p_corr at t = 0..T, and the calibrated
    delivery estimate (None unless the run answered)."""

    run: Run
    p_ans: np.ndarray | None
    p_corr: np.ndarray | None
    p_deliver: float | None
    raw_corr: np.ndarray | None = None  # the correctness head before calibration


Action = Literal["answer", "abstain", "exit_gate", "exit_early", "withhold"]


@dataclass(frozen=True)
class Outcome:
    """What the monitored system output for one run, at which step, and its RS."""

    action: Action
    steps_used: int
    steps_total: int

    @property
    def answered(self) -> bool:
        return self.action == "answer"


def simulate(
    trace: Trace, *, theta: float | None, stop: float | None, tau: float | None
) -> Outcome:
    """Replay the monitor on a finished run: gate at every state, early exit before the end,
    Chow at delivery. ``None`` disables a stage; ``tau`` None withholds every answer."""
    run = trace.run
    T = len(run.steps)
    for t in range(T + 1):
        if theta is not None and trace.p_ans is not None and trace.p_ans[t] < theta:
            return Outcome("exit_gate", t, T)
        if t < T and stop is not None and trace.p_corr is not None and trace.p_corr[t] < stop:
            return Outcome("exit_early", t, T)
    if run.final != "answer":
        return Outcome("abstain", T, T)
    if tau is None or trace.p_deliver is None or trace.p_deliver < tau:
        return Outcome("withhold", T, T)
    return Outcome("answer", T, T)


def vanilla(run: Run) -> Outcome:
    T = len(run.steps)
    return Outcome("answer" if run.final == "answer" else "abstain", T, T)


def reliability_score(run: Run, outcome: Outcome, lam: float) -> float:
    """RS(lambda) of one run's output (Eq. 1)."""
    if outcome.answered:
        return 1.0 if run.answerable is not False and run.correct else -lam
    return 1.0 if run.answerable is False else 0.0


def choose_stop(
    traces: Sequence[Trace], *, theta: float | None, tau: float | None, lam: float
) -> tuple[float | None, float, int]:
    """(s_lambda, mean RS, steps saved) maximising RS(lambda) on the calibration traces, ties
    toward more steps saved; None (no early exit) is a candidate."""
    levels = sorted({float(v) for tr in traces if tr.p_corr is not None for v in tr.p_corr[:-1]})
    candidates: list[float | None] = [None, *(float(np.nextafter(v, 2.0)) for v in levels)]
    best: tuple[float, int, float | None] = (-math.inf, -1, None)
    for stop in candidates:
        outcomes = [simulate(tr, theta=theta, stop=stop, tau=tau) for tr in traces]
        rs = float(
            np.mean(
                [reliability_score(tr.run, o, lam) for tr, o in zip(traces, outcomes, strict=True)]
            )
        )
        saved = sum(o.steps_total - o.steps_used for o in outcomes)
        if rs > best[0] + 1e-12 or (abs(rs - best[0]) <= 1e-12 and saved > best[1]):
            best = (rs, saved, stop)
    return best[2], best[0], best[1]
