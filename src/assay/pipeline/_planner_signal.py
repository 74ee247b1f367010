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
Nor is a signal that read the metric's own name the reading matched as something the SQL
should carry (outside tryout 40, F-7): ``signal.literal_missing`` naming only words of that
phrase ("total LTV pre-tax": 'LTV' is the metric's label, no value to filter on), or
``signal.aggregate_mismatch`` saying only that an average is asked and the SQL has no AVG, where
every "average" or "mean" said is inside that phrase ("What is the average order value?": the
layer defines the metric as a ratio of sums, which IS the average order value).
Those signals are not listed under the answer either (``without_misread``).
Done here, not in the scoring rule: ``agreement_first`` is the
preregistered rule for sampled answers and is left as it is.
"""

from __future__ import annotations

import re

from assay.checks import QUESTION_SIGNALS
from assay.semantic import Reading
from assay.types import Finding

__all__ = ["planner_signals", "without_misread"]


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


_AVERAGE = re.compile(r"\b(?:average|mean|avg)\b", re.IGNORECASE)
_NO_AVG = (
    "Asked quantity and aggregate disagree: the question asks for an average but the SQL has "
    "no AVG."
)


def _metric_phrases(reading: Reading | None) -> list[str]:
    if reading is None:
        return []
    return [m.phrase.lower() for m in reading.matches if m.kind == "metric"]


def _said_in(pattern: re.Pattern[str], question: str, phrases: list[str]) -> bool:
    """Some word ``pattern`` finds is said, and each time inside a metric's phrase."""
    said = len(pattern.findall(question))
    return said > 0 and said == sum(len(pattern.findall(p)) for p in phrases)


def _reads_the_metric_name(finding: Finding, reading: Reading | None) -> bool:
    """The signal read only words of the metric's own name the reading matched (see the
    module docstring)."""
    phrases = _metric_phrases(reading)
    if reading is None or not phrases:
        return False
    if finding.code == "signal.aggregate_mismatch":
        return finding.message == _NO_AVG and _said_in(_AVERAGE, reading.question, phrases)
    if finding.code != "signal.literal_missing":
        return False
    evidence = finding.evidence
    codes, names = list(evidence.get("codes") or ()), list(evidence.get("names") or ())
    shown = [f"{c} (in no condition)" for c in codes] + [f"{n} (no value compared)" for n in names]
    only = f"The question names {', '.join(shown)}, which no literal in the SQL carries."
    if not shown or finding.message != only:
        return False  # a number, a quoted value or a fiscal label is named too
    return all(
        _said_in(re.compile(rf"\b{re.escape(str(w))}\b", re.IGNORECASE), reading.question, phrases)
        for w in codes + names
    )


def without_misread(
    findings: tuple[Finding, ...], reading: Reading | None = None
) -> tuple[Finding, ...]:
    """``findings`` less the signals that read only the metric's own name the reading matched
    (``_reads_the_metric_name``): they decide nothing, and listed under the answer they said
    something false ("the question asks for an average but the SQL has no AVG" under the
    Average Order Value, a ratio of sums the layer defines; outside recheck 40b).

    Example:
        >>> f = Finding("signal.column_mismatch", "signal", "m.")
        >>> without_misread((f,)) == (f,)
        True
    """
    return tuple(
        f for f in findings if not (f.kind == "signal" and _reads_the_metric_name(f, reading))
    )


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
        and not _reads_the_metric_name(f, reading)
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
