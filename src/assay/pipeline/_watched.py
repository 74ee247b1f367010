"""``ask_agent``: a question answered by Assay's ReAct agent, watched by the trajectory monitor,
and given a verdict through the same rule and gate as every other answer.

refuse? (question intent, before any model call) -> the agent runs (every query guarded and
read-only; with a monitor, the exit gate at t = 0 and at every step, early exit mid-run) ->
an abstention, a stop with its named reason, or a system failure, each showing nothing -> an
answer is scored like any sampled answer, by the default rule (assay-1.0, as ``assay score``
and /api/sql: its question-SQL signals withhold an answer to another year, value or ranking),
the monitor's delivery decision (Chow's rule) joins the findings, and the gate decides
show / warn / withhold. One trajectory is one sample: an answer is never shown without a
warning (``cap.single_sample``). A failure carries its cause (the endpoint's error, what the
guard refused last) as a finding, not a code only.

With ``n_runs`` above 1 the agent is run that many times, independently, at the sampling
temperature, and the runs are scored as samples (``_runs.score_runs``): agreement among their
results can then show an answer, and a run that gave no answer counts against it, named.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from assay.agreement import agreement
from assay.connectors import PooledConnector
from assay.gate import GatePolicy, decide
from assay.generators import SAMPLING_TEMPERATURE, ChatClient, SampleRecord
from assay.guard import refusals
from assay.monitor import Monitor
from assay.pipeline._react import AgentRun, ReactAgent
from assay.pipeline._runs import SYSTEM_FAILURES, draw_run, score_runs
from assay.pipeline._scorer import Scorer
from assay.pipeline._verdict import MONITOR_STOP, build_verdict
from assay.scoring import DEFAULT_RULE, ScoreInputs, get_rule
from assay.settings import Settings
from assay.types import Finding, Verdict

__all__ = ["ask_agent"]


def _shows_nothing(
    ident: str, behaviour: str, code: str, message: str, run: AgentRun, policy: GatePolicy
) -> Verdict:
    return build_verdict(
        ident=ident,
        behaviour=behaviour,
        rule=MONITOR_STOP,
        policy=policy,
        findings=(Finding(code, "veto", message),),
        reasons=(code,),
        provenance={"question": run.run.question, "message": message, "run": run.run.to_dict()},
    )


def ask_agent(
    question: str,
    db: str,
    connector: PooledConnector,
    settings: Settings,
    client: ChatClient,
    *,
    monitor: Monitor | None = None,
    lam: float = 1.0,
    policy: GatePolicy | None = None,
    ident: str = "question",
    n_runs: int = 1,
) -> Verdict:
    """The verdict for one question answered by the watched agent (see the module docstring).

    ``n_runs``: how many independent runs are drawn and scored as samples (1: one run at
    temperature 0, warned at best).
    """
    policy = policy or GatePolicy()
    found = refusals(question.strip())
    if found:
        return build_verdict(
            ident=ident,
            behaviour="refuse",
            rule=MONITOR_STOP,
            policy=policy,
            reasons=tuple(dict.fromkeys(r.code for r in found)),
            provenance={"question": question[:200], "message": found[0].message},
        )
    if n_runs > 1:
        agent = ReactAgent(
            client, connector, settings, monitor=monitor, lam=lam, temperature=SAMPLING_TEMPERATURE
        )
        drawn = [draw_run(agent, question, ident, k) for k in range(1, n_runs + 1)]
        return score_runs(question, db, drawn, settings, policy, ident)
    agent = ReactAgent(client, connector, settings, monitor=monitor, lam=lam)
    outcome = agent.run(question, run_id=ident)
    run = outcome.run
    if outcome.stopped in SYSTEM_FAILURES:
        message = outcome.cause or f"The agent failed ({outcome.stopped})."
        message = f"{message} Nothing is shown."
        verdict = _shows_nothing(ident, "answer", outcome.stopped or "", message, outcome, policy)
        return replace(verdict, failure={"code": outcome.stopped, "message": message})
    if outcome.stopped is not None:
        message = outcome.decisions[-1].message if outcome.decisions else outcome.stopped
        return _shows_nothing(ident, "abstain", outcome.stopped, message, outcome, policy)
    if run.final != "answer" or run.final_sql is None:
        message = "The agent found that the database cannot answer this question."
        return _shows_nothing(ident, "abstain", "agent.final_null", message, outcome, policy)
    queries = [s.sql for s in run.steps if s.sql]
    sample = {"final_sql": run.final_sql, "queries": queries, "sampler": run.agent}
    record = SampleRecord.model_validate(
        {"id": ident, "db": db, "question": question, "samples": [sample]}
    )
    # The scorer executes the final SQL again through the guard (identical SQL runs once).
    # The model's SQL is the answer here, so the question-SQL checks decide, as on /api/sql:
    # agreement_first (one sample) only noted them, and 1996's count was shown, warned, for
    # 1995 (outside tryout 38: 70 of 90 wrong Spider answers shown).
    with Scorer(get_rule(DEFAULT_RULE), policy=policy, settings=settings) as scorer:
        verdict = scorer.score(record)
    provenance: dict[str, Any] = {**verdict.provenance, "question": question, "run": run.to_dict()}
    if outcome.finding is None:
        return replace(verdict, provenance=provenance)
    findings = (*verdict.findings, outcome.finding)
    result = verdict.candidate.result if verdict.candidate is not None else None
    scored = scorer.rule(
        ScoreInputs(findings, dict(verdict.provenance.get("measures") or {}), agreement([result]))
    )
    decision = decide(policy, scored)
    return replace(
        verdict,
        findings=findings,
        score=scored.score,
        action=decision.action,
        reasons=decision.reasons,
        provenance=provenance,
    )
