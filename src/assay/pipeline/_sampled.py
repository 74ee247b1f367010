"""``model_agreement``: the model's sampled SQL beside the planner's answer, on plain ``ask``.

The planner's answer is sample 0 and stays the answer shown; the model's K samples only agree
with it or not (the governed-score paper, section 3.1: a sample that ran no successful query
is ``R_k = ⊥``, its own cluster, so it does not agree). What this adds to that rule is that
every way the check fell short is named on the verdict, in plain words:

- the endpoint could not be reached at all (down, HTTP error, timeout, no choices): agreement
  was not measured, so the configured check did not run; ``cap.model_unavailable`` caps the
  answer at a warning and names the endpoint's error (fail closed: a check that could not run
  never leaves an answer shown as if it had passed);
- replies with no runnable SQL (no query in the reply, refused by the guard, failed in the
  engine): counted as not agreeing, as the paper does, and named by ``note.model_unusable``
  with how many of K and why;
- samples that ran and returned another result: named by ``note.model_disagreed``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from assay.agreement import Agreement, MatchingPolicy, agreement
from assay.generators import ModelPath, ModelSamples
from assay.semantic import Metric, Reading
from assay.types import Finding, FindingCode, Result

__all__ = [
    "MODEL_NOTES",
    "RESULT_ONE",
    "SampleRun",
    "SampledAgreement",
    "explained",
    "model_agreement",
]

# One deterministic candidate agrees with itself: A = 1.
RESULT_ONE = Result(("x",), ((1,),), 1)
# Why a reply had no SQL: the reader (``generators.extract_sql``) takes a ```sql block, a
# ``SQL:`` or ``FINAL_SQL:`` line, or a reply that starts with SELECT/WITH.
_NO_SQL = "held no SQL query (none in a ```sql block, after SQL:, or at the start of the reply)"
# The notes that explain a low agreement; named among the reasons when the score decided.
MODEL_NOTES = (FindingCode.NOTE_MODEL_UNUSABLE.value, FindingCode.NOTE_MODEL_DISAGREED.value)


@dataclass(frozen=True)
class SampleRun:
    """One model sample's result, or why it has none: a predicate in plain words ("held no
    SQL query", "refused by the guard (guard.forbidden_statement)")."""

    result: Result | None
    why_none: str = ""


@dataclass(frozen=True)
class SampledAgreement:
    """Agreement over the planner's answer and the model's samples, the findings that say how
    the check went, and the step recorded in the verdict's provenance."""

    agreed: Agreement
    findings: tuple[Finding, ...] = ()
    record: dict[str, Any] = field(default_factory=dict)


def model_agreement(
    model: ModelPath,
    text: str,
    reading: Reading,
    metric: Metric,
    shown: Result,
    run_sample: Callable[[str], SampleRun],
    *,
    catalog: Any,
    dialect: str,
    matching: str,
) -> SampledAgreement:
    """A over the governed answer and the model's K samples (escalating when low)."""
    samples = model.sample_sql(text, metric, reading, catalog, dialect)
    if samples.failures and not any(samples.sql):
        failure = samples.failures[0]
        finding = Finding(
            FindingCode.CAP_MODEL_UNAVAILABLE.value,
            "cap",
            f"The model check could not run: {failure} The answer rests on the planner "
            "alone, so it is shown with a warning.",
            {"failure": failure, "failures": list(samples.failures)},
        )
        record = {"step": "sample_sql", "failures": samples.failures, "fallback": True}
        policy = cast(MatchingPolicy, matching)
        return SampledAgreement(agreement([RESULT_ONE], policy=policy), (finding,), record)
    policy = cast(MatchingPolicy, matching)
    runs = _runs(samples, run_sample)
    agreed = agreement([shown, *(r.result for _, r in runs)], policy=policy)
    if agreed.a < model.escalate_below and model.escalate(
        text, metric, reading, catalog, dialect, samples
    ):
        runs = _runs(samples, run_sample)
        agreed = agreement([shown, *(r.result for _, r in runs)], policy=policy)
    record = {
        "step": "sample_sql",
        "sql": samples.sql,
        "usage": samples.usage,
        "failures": samples.failures,
        "escalated": samples.escalated,
        "unusable": [{"sample": i + 1, "why": r.why_none} for i, r in runs if r.result is None],
    }
    findings = (*_said(runs, agreed, samples), *_escalation_failed(samples))
    return SampledAgreement(agreed, findings, record)


def _runs(
    samples: ModelSamples, run_sample: Callable[[str], SampleRun]
) -> list[tuple[int, SampleRun]]:
    """Each sample's run, by its index into ``samples.sql``. A request that failed (the
    escalation endpoint down) drew no samples: a system failure, recorded and named, never
    counted as disagreement."""
    out: list[tuple[int, SampleRun]] = []
    for index, sql in enumerate(samples.sql):
        if index in samples.failed:
            continue
        out.append((index, run_sample(sql) if sql else SampleRun(None, _NO_SQL)))
    return out


def _escalation_failed(samples: ModelSamples) -> tuple[Finding, ...]:
    """A note naming an escalation endpoint that gave no reply (its samples are not counted)."""
    if not samples.failed:
        return ()
    failure = next(iter(samples.failed.values()))
    return (
        Finding(
            FindingCode.NOTE_MODEL_UNUSABLE.value,
            "note",
            f"The escalation endpoint gave no reply ({failure}); agreement is over the first "
            "model's samples alone.",
            {"failure": failure},
        ),
    )


def _said(
    runs: list[tuple[int, SampleRun]], agreed: Agreement, samples: ModelSamples
) -> tuple[Finding, ...]:
    n = len(runs)
    out: list[Finding] = []
    unusable = [r.why_none for _, r in runs if r.result is None]
    if unusable:
        why = "; ".join(f"{count} {reason}" for reason, count in sorted(Counter(unusable).items()))
        out.append(
            Finding(
                FindingCode.NOTE_MODEL_UNUSABLE.value,
                "note",
                f"{len(unusable)} of the model's {n} replies held no runnable SQL ({why}); "
                "each counts as a sample that does not agree with this answer.",
                {"unusable": len(unusable), "samples": n, "why": unusable},
            )
        )
    # Position k in the agreement is runs[k - 1] (position 0 is the answer shown).
    agreeing = {*agreed.agreeing, *agreed.undetermined}
    other = [
        index
        for k, (index, r) in enumerate(runs, start=1)
        if r.result is not None and k not in agreeing
    ]
    if other:
        first = str(samples.sql[other[0]] or "")
        shown = first if len(first) <= 160 else first[:157] + "..."
        out.append(
            Finding(
                FindingCode.NOTE_MODEL_DISAGREED.value,
                "note",
                f"{len(other)} of the model's {n} queries ran and returned another result "
                f"than this answer's, e.g. {shown}",
                {"disagreeing": len(other), "samples": n, "sql": [samples.sql[i] for i in other]},
            )
        )
    return tuple(out)


def explained(reasons: tuple[str, ...], findings: tuple[Finding, ...]) -> tuple[str, ...]:
    """The gate's reasons, with the model notes that explain a low score named after it (the
    score's own reason alone does not say that the model's samples failed or disagreed).

    Example:
        >>> explained(("score.below_warn",), (Finding("note.model_disagreed", "note", "m"),))
        ('score.below_warn', 'note.model_disagreed')
        >>> explained((), (Finding("note.model_disagreed", "note", "m"),))
        ()
    """
    if not any(r in ("score.below_warn", "score.below_show") for r in reasons):
        return reasons
    said = tuple(f.code for f in findings if f.code in MODEL_NOTES)
    return tuple(dict.fromkeys((*reasons, *said)))
