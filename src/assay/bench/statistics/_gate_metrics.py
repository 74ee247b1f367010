"""Gate quantities (the governed-score paper's Table 8) and the Reliability Score RS(lambda).

Gate: pass accuracy P(right | show), pass share P(show), correct withheld P(withhold | right),
wrong withheld P(withhold | wrong), and the show / warn / withhold counts by correctness.

RS(lambda), from TrustSQL as the trajectory paper uses it: +1 for a correct answer, +1 for a
correct refusal of an unanswerable question, 0 for a missed answer, -lambda otherwise (a wrong
answer, or an answer to an unanswerable question); averaged over questions. Refusing every
question scores the share of unanswerable questions (the always-abstain reference).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from assay.bench.statistics._bootstrap import nan_with_reason

__all__ = ["RS_LAMBDAS", "always_abstain_rs", "gate_table", "reliability_score"]

RS_LAMBDAS = (1.0, 4.0, 9.0)
ACTIONS = ("show", "warn", "withhold")


def _share(numerator: int, denominator: int, what: str) -> float:
    if denominator == 0:
        return nan_with_reason(f"{what} is undefined: its denominator is empty")
    return numerator / denominator


def gate_table(actions: Sequence[str], labels: Sequence[int]) -> dict[str, Any]:
    """Counts by action and correctness, and the four gate quantities."""
    if len(actions) != len(labels):
        raise ValueError("actions and labels differ in length")
    counts = {a: {"right": 0, "wrong": 0} for a in ACTIONS}
    for action, label in zip(actions, labels, strict=True):
        counts[action]["right" if label == 1 else "wrong"] += 1
    right = sum(c["right"] for c in counts.values())
    wrong = sum(c["wrong"] for c in counts.values())
    shown = counts["show"]["right"] + counts["show"]["wrong"]
    return {
        "counts": counts,
        "n": right + wrong,
        "pass_accuracy": _share(counts["show"]["right"], shown, "pass accuracy"),
        "pass_share": _share(shown, right + wrong, "pass share"),
        "correct_withheld": _share(counts["withhold"]["right"], right, "correct withheld"),
        "wrong_withheld": _share(counts["withhold"]["wrong"], wrong, "wrong withheld"),
    }


def reliability_score(
    answered: Sequence[bool],
    answerable: Sequence[bool],
    correct: Sequence[bool],
    lam: float,
) -> float:
    """Mean RS(lambda) over questions.

    Example:
        >>> reliability_score([True, False, True], [True, False, True], [True, False, False], 4)
        -0.6666666666666666
    """
    a = np.asarray(answered, dtype=bool)
    u = np.asarray(answerable, dtype=bool)
    c = np.asarray(correct, dtype=bool)
    if a.size == 0:
        return nan_with_reason("RS is undefined with no questions")
    points = np.where(a & u & c, 1.0, np.where(~a & ~u, 1.0, np.where(~a & u, 0.0, -float(lam))))
    return float(points.mean())


def always_abstain_rs(answerable: Sequence[bool]) -> float:
    """RS of refusing every question: the share of unanswerable questions, for any lambda."""
    u = np.asarray(answerable, dtype=bool)
    if u.size == 0:
        return nan_with_reason("RS is undefined with no questions")
    return float((~u).mean())
