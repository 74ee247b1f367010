"""``score_runs``: N independent runs of the agent scored as N samples, as ``assay score``
scores samples (the governed-score paper, section 3.1).

Each run is drawn on its own (the same question, the sampling temperature); its final SQL is
its sample. A run that gives no answer (the model failed, the step limit, a stop or a withheld
delivery by the monitor, an abstention, an exception) is a sample with no result, R_k = ⊥: it
agrees with nothing, and it is named with its cause. The answer shown is the majority's: the
run whose result the most runs agree with (by the scoring's own matching; the earliest run on a
tie). It is sample 0, the others follow in run order, and the default rule (assay-1.0) scores
them: agreement among the executed results, the deterministic checks on the answer shown. When
no run answered, nothing is shown: an abstention when every run abstained, else a withheld
answer whose reasons are the runs' failures.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, cast

from assay.agreement import MatchingPolicy, agreement
from assay.gate import GatePolicy, decide
from assay.generators import SampleRecord
from assay.pipeline._react import AgentRun, ReactAgent
from assay.pipeline._sampled import explained
from assay.pipeline._scorer import Scorer
from assay.pipeline._verdict import MONITOR_STOP, build_verdict
from assay.scoring import DEFAULT_RULE, ScoreInputs, get_rule
from assay.settings import Settings
from assay.types import Finding, FindingCode, Result, Verdict

__all__ = ["SYSTEM_FAILURES", "DrawnRun", "draw_run", "ending", "score_runs"]

SYSTEM_FAILURES = frozenset({"llm.unavailable", "agent.max_steps"})
# Runs that ended without an answer and without a failure: the agent (or the monitor's gate
# and early exit) abstained. When every run did, the question is abstained on, as for one run.
_ABSTAINED = frozenset({"agent.final_null", "monitor.gate", "monitor.early_exit"})
_CANNOT_ANSWER = "The agent found that the database cannot answer this question."


@dataclass(frozen=True)
class DrawnRun:
    """One run of the agent: its number (from 1), ``answer`` or the code of why it has none,
    that cause in plain words, and the run (None when it raised)."""

    number: int
    code: str
    cause: str
    outcome: AgentRun | None

    @property
    def sql(self) -> str | None:
        """The run's final SQL when it answered."""
        return self.outcome.run.final_sql if self.code == "answer" and self.outcome else None


def draw_run(agent: ReactAgent, question: str, ident: str, number: int) -> DrawnRun:
    """Run the agent once; whatever it raises is this run's failure (``agent.error``), named
    with the exception, never a crash and never dropped."""
    try:
        outcome = agent.run(question, run_id=f"{ident}:run{number}")
    except Exception as exc:  # the run boundary: one run's exception fails that run only
        said = f"The run raised {type(exc).__name__}: {str(exc)[:300]}"
        return DrawnRun(number, "agent.error", said, None)
    code, cause = ending(outcome)
    return DrawnRun(number, code, cause, outcome)


def ending(outcome: AgentRun) -> tuple[str, str]:
    """``("answer", "")`` for a delivered answer, else the code and cause of its ending."""
    if outcome.stopped in SYSTEM_FAILURES:
        return outcome.stopped or "", outcome.cause or f"The agent failed ({outcome.stopped})."
    if outcome.stopped is not None:
        decided = outcome.decisions[-1].message if outcome.decisions else outcome.stopped
        return outcome.stopped, decided
    if outcome.run.final != "answer" or outcome.run.final_sql is None:
        return "agent.final_null", _CANNOT_ANSWER
    if outcome.finding is not None and outcome.finding.kind == "veto":
        return outcome.finding.code, outcome.finding.message
    return "answer", ""


def score_runs(
    question: str,
    db: str,
    drawn: list[DrawnRun],
    settings: Settings,
    policy: GatePolicy,
    ident: str,
) -> Verdict:
    """The verdict for the runs (see the module docstring). Whatever scoring them raises is a
    named failure (``score.internal_error``, with the exception), never a crash."""
    if not any(d.code == "answer" for d in drawn):
        return _nothing_answered(question, drawn, policy, ident)
    try:
        return _scored(question, db, drawn, settings, policy, ident)
    except Exception as exc:  # the boundary of the N runs' verdict: fail closed, named
        message = (
            f"Scoring the agent's {len(drawn)} runs raised {type(exc).__name__}: "
            f"{str(exc)[:300]} Nothing is shown."
        )
        return build_verdict(
            ident=ident,
            behaviour="answer",
            rule=get_rule(DEFAULT_RULE),
            policy=policy,
            findings=(Finding("score.internal_error", "veto", message),),
            reasons=("score.internal_error",),
            provenance={
                "question": question,
                "message": message,
                "agent_runs": _summary(drawn, set(), None),
            },
            failure={"code": "score.internal_error", "message": message},
        )


def _scored(
    question: str,
    db: str,
    drawn: list[DrawnRun],
    settings: Settings,
    policy: GatePolicy,
    ident: str,
) -> Verdict:
    matching = cast(MatchingPolicy, settings.matching)
    with Scorer(get_rule(DEFAULT_RULE), policy=policy, settings=settings, matching=matching) as s:
        candidates, _ = s.execute_samples(_record(ident, db, question, drawn))
        pairs = zip(drawn, candidates, strict=True)
        results = [c.result if d.code == "answer" else None for d, c in pairs]
        first = _majority(results, matching)
        order = [first, *(i for i in range(len(drawn)) if i != first)]
        verdict = s.score(_record(ident, db, question, [drawn[i] for i in order]))
        agreed = agreement([results[i] for i in order], policy=matching)
        agreeing = {order[k] for k in (*agreed.agreeing, *agreed.undetermined)}
        shown = drawn[first]
        extra = _notes(drawn, results, agreeing)
        if shown.outcome is not None and shown.outcome.finding is not None:
            extra = (*extra, shown.outcome.finding)  # the monitor delivered the answer shown
        findings = (*verdict.findings, *extra)
        measures = dict(verdict.provenance.get("measures") or {})
        scored = s.rule(ScoreInputs(findings, measures, agreed))
    decision = decide(policy, scored)
    assert shown.outcome is not None  # an answer has its run
    provenance: dict[str, Any] = {
        **verdict.provenance,
        "question": question,
        "run": shown.outcome.run.to_dict(),
        "agent_runs": _summary(drawn, agreeing, first),
    }
    return replace(
        verdict,
        findings=findings,
        score=scored.score,
        action=decision.action,
        reasons=explained(decision.reasons, findings),
        provenance=provenance,
    )


def _record(ident: str, db: str, question: str, drawn: list[DrawnRun]) -> SampleRecord:
    """The runs as one sample record; a run without an answer is a sample with no SQL (⊥)."""
    samples = []
    for d in drawn:
        steps = d.outcome.run.steps if d.outcome is not None else ()
        samples.append(
            {
                "final_sql": d.sql,
                "queries": [s.sql for s in steps if s.sql],
                "sampler": d.outcome.run.agent if d.outcome is not None else None,
            }
        )
    return SampleRecord.model_validate(
        {"id": ident, "db": db, "question": question, "samples": samples}
    )


def _majority(results: list[Result | None], matching: MatchingPolicy) -> int:
    """The run whose result the most runs agree with, by the score's own A (earliest on a tie;
    the first run when none has a result, so that its failure is what the score reports).

    Example:
        >>> one, two = Result(("n",), ((1,),), 1), Result(("n",), ((2,),), 1)
        >>> _majority([two, one, None, one], "permuted")
        1
    """
    best, best_a = 0, -1.0
    for i, result in enumerate(results):
        if result is None:
            continue
        a = agreement([result, *results[:i], *results[i + 1 :]], policy=matching).a
        if a > best_a:
            best, best_a = i, a
    return best


def _notes(
    drawn: list[DrawnRun], results: list[Result | None], agreeing: set[int]
) -> tuple[Finding, ...]:
    """What the runs that do not agree did: no answer (by cause), or another result."""
    n = len(drawn)
    out: list[Finding] = []
    unusable = [(i, d) for i, d in enumerate(drawn) if results[i] is None]
    if unusable:
        causes: dict[str, str] = {}
        for _, d in unusable:
            code = d.code if d.code != "answer" else "execution.failed"
            cause = d.cause or "Its final query did not run again when it was scored."
            causes.setdefault(code, cause)
        counts = Counter(d.code if d.code != "answer" else "execution.failed" for _, d in unusable)
        why = "; ".join(f"{counts[c]} {c}: {causes[c]}" for c in causes)
        out.append(
            Finding(
                FindingCode.NOTE_MODEL_UNUSABLE.value,
                "note",
                f"{len(unusable)} of the agent's {n} runs gave no answer that ran ({why}); each "
                "counts as a sample that does not agree with this answer.",
                {"unusable": len(unusable), "samples": n, "why": dict(counts)},
            )
        )
    other = [d for i, d in enumerate(drawn) if results[i] is not None and i not in agreeing]
    if other:
        first = str(other[0].sql or "")
        said = first if len(first) <= 160 else first[:157] + "..."
        out.append(
            Finding(
                FindingCode.NOTE_MODEL_DISAGREED.value,
                "note",
                f"{len(other)} of the agent's {n} runs ended on a query that returned another "
                f"result than this answer's, e.g. {said}",
                {"disagreeing": len(other), "samples": n, "sql": [d.sql for d in other]},
            )
        )
    return tuple(out)


def _summary(drawn: list[DrawnRun], agreeing: set[int], shown: int | None) -> dict[str, Any]:
    """How many runs, how many agreed with the answer shown, the failures by cause, and each
    run's ending and final SQL (its record too, when it ran)."""
    failed = Counter(d.code for d in drawn if d.code != "answer")
    return {
        "n": len(drawn),
        "agreed": len(agreeing),
        "answered": sum(d.code == "answer" for d in drawn),
        "failed": dict(sorted(failed.items())),
        "shown_run": drawn[shown].number if shown is not None else None,
        "runs": [
            {
                "run": d.number,
                "ending": d.code,
                "cause": d.cause,
                "sql": d.sql,
                "agrees": i in agreeing,
                "record": d.outcome.run.to_dict() if d.outcome is not None else None,
            }
            for i, d in enumerate(drawn)
        ],
    }


def _nothing_answered(
    question: str, drawn: list[DrawnRun], policy: GatePolicy, ident: str
) -> Verdict:
    """No run answered: abstain when every run abstained, else withhold naming each failure."""
    n = len(drawn)
    counts = Counter(d.code for d in drawn)
    first_cause: dict[str, str] = {}
    for d in drawn:
        first_cause.setdefault(d.code, d.cause)
    provenance: dict[str, Any] = {"question": question, "agent_runs": _summary(drawn, set(), None)}
    findings = tuple(
        Finding(code, "veto", f"{counts[code]} of the agent's {n} runs: {first_cause[code]}")
        for code in counts
    )
    if all(d.code in _ABSTAINED for d in drawn):
        message = " ".join(f.message for f in findings)
        return build_verdict(
            ident=ident,
            behaviour="abstain",
            rule=MONITOR_STOP,
            policy=policy,
            findings=findings,
            reasons=tuple(counts),
            provenance={**provenance, "message": message},
        )
    message = (
        f"None of the agent's {n} runs gave an answer: "
        + "; ".join(f.message for f in findings)
        + " Nothing is shown."
    )
    main = counts.most_common(1)[0][0]
    return build_verdict(
        ident=ident,
        behaviour="answer",
        rule=MONITOR_STOP,
        policy=policy,
        findings=findings,
        reasons=tuple(counts),
        provenance={**provenance, "message": message},
        failure={"code": main, "message": message},
    )
