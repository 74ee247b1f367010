"""Live decisions on a run in progress: the exit gate and early exit at every state, Chow's
rule at delivery. Each decision names its reason with a stable code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from assay.monitor._decisions import chow_tau
from assay.monitor._heads import text_counts
from assay.monitor._monitor import Monitor
from assay.monitor._trajectory import Run

__all__ = ["Decision", "deliver", "watch"]

DecisionAction = Literal["continue", "exit", "deliver", "withhold"]


@dataclass(frozen=True)
class Decision:
    """What the monitor says at one state: ``code`` is ``monitor.gate``,
    ``monitor.early_exit``, ``monitor.continue``, ``monitor.deliver``, ``monitor.withhold`` or
    ``monitor.no_estimate`` (no correctness head: withheld, failing closed)."""

    action: DecisionAction
    code: str
    message: str
    t: int
    p_ans: float | None = None
    p_corr: float | None = None
    threshold: float | None = None


def watch(monitor: Monitor, run: Run, *, lam: float) -> Decision:
    """The decision at the current state of a run in progress (its steps so far, no final)."""
    t = len(run.steps)
    counts = text_counts(monitor.prefix_texts(run, [t]))  # one vectorisation for both heads
    p_ans = monitor.p_ans(counts)
    pa = None if p_ans is None else float(p_ans[0])
    if pa is not None and monitor.theta is not None and pa < monitor.theta:
        return Decision(
            "exit",
            "monitor.gate",
            f"The question looks unanswerable at step {t}: p_ans {pa:.3f} < theta "
            f"{monitor.theta:.3f}.",
            t,
            pa,
            None,
            monitor.theta,
        )
    stop = monitor.stops.get(str(float(lam)))
    if monitor.correctness is None or stop is None:
        return Decision("continue", "monitor.continue", "No early exit set.", t, pa)
    raw = monitor.correctness.score_counts(counts)
    pc = float((monitor.prefix_map(raw) if monitor.prefix_map else raw)[0])
    if pc < stop:
        return Decision(
            "exit",
            "monitor.early_exit",
            f"The run is unlikely to end in a correct answer at step {t}: p_corr {pc:.3f} < "
            f"s_lambda {stop:.3f} (lambda {lam:g}).",
            t,
            pa,
            pc,
            stop,
        )
    return Decision("continue", "monitor.continue", f"p_corr {pc:.3f} >= {stop:.3f}.", t, pa, pc)


def deliver(monitor: Monitor, run: Run, *, lam: float) -> Decision:
    """The gate on the terminal state, then Chow's rule: deliver iff calibrated p >= tau."""
    t = len(run.steps)
    tau = chow_tau(lam)
    trace = monitor.trace(run)
    if trace.p_ans is not None and monitor.theta is not None and trace.p_ans[-1] < monitor.theta:
        pa = float(trace.p_ans[-1])
        return Decision(
            "withhold",
            "monitor.gate",
            f"The question looks unanswerable at delivery: p_ans {pa:.3f} < theta "
            f"{monitor.theta:.3f}.",
            t,
            pa,
            None,
            monitor.theta,
        )
    if trace.p_deliver is None or not np.isfinite(trace.p_deliver):
        return Decision(
            "withhold",
            "monitor.no_estimate",
            "The monitor has no correctness estimate for this answer; withheld.",
            t,
            threshold=tau,
        )
    p = trace.p_deliver
    if p >= tau:
        return Decision(
            "deliver", "monitor.deliver", f"p {p:.3f} >= tau {tau:.3f}.", t, None, p, tau
        )
    return Decision(
        "withhold",
        "monitor.withhold",
        f"The answer is likely wrong: calibrated p {p:.3f} < tau {tau:.3f} (lambda {lam:g}).",
        t,
        None,
        p,
        tau,
    )
