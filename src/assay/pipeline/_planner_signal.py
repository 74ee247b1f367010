"""``planner_signals``: a question-SQL signal on the planner's own answer caps it at a warning.

The agent scores its planned answer with ``agreement_first``, which reads vetoes and caps but
no signal: a signal was listed under the verdict ("also found") and decided nothing. The
planner's SQL is deterministic, so there is no other sample for a signal to be outvoted by; a
check reading that SQL against the question and disagreeing (``signal.column_mismatch``: "the
question asks about what was received but the SQL reads l_shipdate instead of l_receiptdate",
outside tryout 39, F0, shown at 1.00) is evidence against the one answer there is. Each such
signal (``QUESTION_SIGNALS``, the ones the default ``assay`` rule withholds a sampled answer
on) adds one ``cap.planner_signal`` naming them, so the answer is warned at most, its reason
named. ``signal.grouping_missing`` is not counted where every "per", "each" or "every" said
lies inside a metric's own name the reading matched ("sales per employee": one metric, asked
whole, no group). Nor is ``signal.period_bound``: the planner's bounds are the reading's
periods, which ``period_applied`` checks against the layer (its fiscal calendar included),
while ``period_bound`` reads the question again without the layer; every firing of it seen
on a planner answer was false ("fiscal Q1 2024" read as the calendar's Q1 under a July fiscal
year; "Q1 and Q3 2024" with the bounds of the two OR'ed ranges mixed, outside tryout 39 F12).
Done here, not in the scoring rule: ``agreement_first`` is the
preregistered rule for sampled answers and is left as it is.
"""

from __future__ import annotations

import re

from assay.checks import QUESTION_SIGNALS
from assay.semantic import Reading
from assay.types import Finding

__all__ = ["planner_signals"]


# question-SQL signals a layer check already decides for a planned answer (see above)
_READ_BY_THE_LAYER = frozenset({"signal.period_bound"})
_PER = re.compile(r"\b(?:per|each|every)\b", re.IGNORECASE)


def _per_in_metric_name(reading: Reading | None) -> bool:
    """Every per-word of the question is inside a metric's phrase the reading matched."""
    if reading is None:
        return False
    said = len(_PER.findall(reading.question))
    named = sum(len(_PER.findall(m.phrase)) for m in reading.matches if m.kind == "metric")
    return said > 0 and said == named


def planner_signals(
    findings: tuple[Finding, ...], reading: Reading | None = None
) -> tuple[Finding, ...]:
    """One ``cap.planner_signal`` naming every question-SQL signal among ``findings``, or none.

    Example:
        >>> (cap,) = planner_signals((Finding("signal.column_mismatch", "signal", "m."),))
        >>> cap.code, cap.evidence
        ('cap.planner_signal', {'signals': ['signal.column_mismatch']})
    """
    fired = [
        f
        for f in findings
        if f.kind == "signal"
        and f.code in QUESTION_SIGNALS
        and f.code not in _READ_BY_THE_LAYER
        and not (f.code == "signal.grouping_missing" and _per_in_metric_name(reading))
    ]
    if not fired:
        return ()
    said = " ".join(dict.fromkeys(f.message.strip() for f in fired))
    return (
        Finding(
            "cap.planner_signal",
            "cap",
            f"A check of the SQL against the question disagrees: {said} "
            "Confirm it before trusting the number.",
            {"signals": list(dict.fromkeys(f.code for f in fired))},
        ),
    )
