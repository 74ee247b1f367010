"""Assay's own ReAct SQL agent (Sentinel Appendix H protocol), optionally watched live.

Each turn the model replies with ``THOUGHT:`` and one of ``SQL:`` (explore), ``FINAL_SQL:``
(the answer) or ``FINAL: null`` (the database cannot answer). Every query goes through
``run_sql``: the guard first, then the read-only connector. Each step is written to the run
record as it happens (``docs/trajectories.md``). With a monitor, the exit gate and early exit
are read at every state (t = 0 before the first model call), and Chow's rule decides delivery;
the delivery decision is returned as a finding. A model or database failure ends the run as a
failure with its code, never as an abstention.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from assay.catalog import Catalog
from assay.connectors import Connector, QueryCache
from assay.errors import ExecutionError, LLMUnavailable
from assay.generators import ChatClient, reply_fields, unfenced
from assay.monitor import ActionKind, Decision, Monitor, Run, Step, deliver, watch
from assay.pipeline._guarded import run_sql
from assay.settings import Settings
from assay.types import Finding, FindingKind

__all__ = ["MAX_AGENT_STEPS", "AgentRun", "ReactAgent", "parse_reply", "system_prompt"]

MAX_AGENT_STEPS = 10  # the paper's harness and InterCode's 10-turn episodes
_SAMPLE_ROWS = 3


def system_prompt(schema: str, dialect: str) -> str:
    """Appendix H's system prompt, with the clinical framing and clock removed."""
    return (
        f"You are a careful data analyst answering questions against a SQL database "
        f"({dialect}).\n{schema}\n"
        "Protocol - reply with exactly one action per turn:\n"
        "THOUGHT: <brief reasoning>\nSQL: <one exploratory query> (to inspect data; keep LIMIT "
        "small)\nOR, when you know how to answer:\nTHOUGHT: <brief reasoning>\nFINAL_SQL: <the "
        "single query whose result answers the question>\nOR, ONLY if the database truly "
        "cannot answer this question (the needed information is not stored in any table):\n"
        "THOUGHT: <brief reasoning>\nFINAL: null\n"
        "Rules:\n- Your goal is ALWAYS to end with FINAL_SQL. Even if you can already see the "
        "answer in an exploration result, you must still provide the FINAL_SQL query that "
        "produces it - the query IS your answer.\n- An empty result does not mean the question "
        "is unanswerable; it may mean your query is wrong. Reconsider before giving up.\n"
        "- Use FINAL: null only when the schema genuinely lacks the information.\n"
        "Notes: use table/column names as given; do not modify data."
    )


def parse_reply(text: str) -> tuple[ActionKind, str, str | None]:
    """(action, thought, sql) of one reply; action is ``sql``, ``final_sql``, ``final_null``
    or ``text`` (unreadable: the protocol was not followed).

    Example:
        >>> parse_reply("THOUGHT: count them\\nFINAL_SQL: SELECT count(*) FROM t")
        ('final_sql', 'count them', 'SELECT count(*) FROM t')
    """
    fields = reply_fields(text)  # the plain path's reader too (``extract_sql``)
    thought = fields.get("THOUGHT", "")
    final_sql, sql = unfenced(fields.get("FINAL_SQL", "")), unfenced(fields.get("SQL", ""))
    if final_sql:
        return "final_sql", thought, final_sql
    if "FINAL" in fields and fields["FINAL"].strip().lower().startswith("null"):
        return "final_null", thought, None
    if sql:
        return "sql", thought, sql
    return "text", thought, None


@dataclass(frozen=True)
class AgentRun:
    """The run record, why it stopped, and the monitor's delivery finding (when watched).

    ``stopped`` is None when the agent ended on its own; else ``monitor.gate``,
    ``monitor.early_exit``, ``agent.max_steps`` or ``llm.unavailable``. ``cause`` says why a
    failure happened, in plain words: the endpoint's error, or what the last step was when the
    step limit was reached (a query the guard refused, and why).
    """

    run: Run
    stopped: str | None
    decisions: tuple[Decision, ...] = ()
    finding: Finding | None = None
    cause: str = ""

    @property
    def delivered(self) -> bool:
        """Whether the answer may be shown: the agent answered and no monitor withheld it."""
        if self.run.final != "answer" or self.stopped is not None:
            return False
        return self.finding is None or self.finding.evidence.get("action") == "deliver"


def _schema_text(catalog: Catalog) -> str:
    lines = ["Tables:"]
    for table in catalog.tables:
        lines.append(f"- {table.name}({', '.join(c.name for c in table.columns)})")
    return "\n".join(lines)


def _logprob_fields(
    raw: dict[str, Any],
) -> tuple[tuple[float, ...] | None, tuple[float, ...] | None]:
    """Chosen-token log-probabilities and top-k entropies, only when the endpoint sent them."""
    try:
        content = raw["choices"][0]["logprobs"]["content"]
        lps = tuple(float(tok["logprob"]) for tok in content)
        ents = []
        for tok in content:
            top = [math.exp(float(t["logprob"])) for t in tok.get("top_logprobs") or []]
            ents.append(-sum(p * math.log(p) for p in top if p > 0))
    except (KeyError, TypeError, ValueError, IndexError):
        return None, None
    if not lps:
        return None, None
    if all(tok.get("top_logprobs") for tok in content):
        return lps, tuple(ents)
    return lps, None


class ReactAgent:
    """The ReAct loop over an OpenAI-compatible client, every query guarded and read-only."""

    def __init__(
        self,
        client: ChatClient,
        connector: Connector | QueryCache,
        settings: Settings,
        *,
        database: str = "",
        monitor: Monitor | None = None,
        lam: float = 1.0,
        max_steps: int = MAX_AGENT_STEPS,
        on_step: Callable[[Run], None] | None = None,
        temperature: float = 0.0,
    ):
        self.client = client
        self.connector = connector
        self.settings = settings
        self.catalog = connector.catalog()
        self.database = database or self.catalog.database or "db"
        self.monitor = monitor
        self.lam = lam
        self.max_steps = max_steps
        self.on_step = on_step
        # 0 for one run (the model's best guess); N runs drawn for agreement are sampled warmer
        # (``generators.SAMPLING_TEMPERATURE``), or they would repeat one another.
        self.temperature = temperature

    def _observe(self, step: Step) -> Step:
        assert step.sql is not None
        try:
            guarded = run_sql(step.sql, self.connector, self.settings, catalog=self.catalog)
        except ExecutionError as exc:
            return replace(step, error=f"{exc.code}: {exc.message}")
        if guarded.result is None:
            codes = ", ".join(guarded.report.codes) or "refused"
            violations = guarded.report.violations
            errors = [v for v in violations if v.severity == "error"] or list(violations)
            why = f": {errors[0].message}" if errors else ""
            return replace(step, error=f"refused by the guard ({codes}){why}")
        result = guarded.result
        sample = [list(map(str, row)) for row in result.rows[:_SAMPLE_ROWS]]
        count = result.row_count if result.row_count is not None else len(result.rows)
        return replace(
            step,
            row_count=count,
            n_columns=len(result.columns),
            observation=f"columns {list(result.columns)}; sample {sample}",
        )

    def run(self, question: str, *, run_id: str | None = None) -> AgentRun:
        """Answer ``question``; the run record grows one step per model turn."""
        run = Run(
            run_id=run_id or f"assay:{uuid.uuid4().hex[:12]}",
            question=question,
            database=self.database,
            agent=self.client.endpoint.model,
            source="assay.react",
            dialect=self.connector.dialect,
        )
        prompt = system_prompt(_schema_text(self.catalog), self.connector.dialect)
        messages = [
            {"role": "system", "content": prompt},
            {"role": "user", "content": f"QUESTION: {question}"},
        ]
        decisions: list[Decision] = []
        for _ in range(self.max_steps):
            if self.monitor is not None:
                decision = watch(self.monitor, run, lam=self.lam)
                decisions.append(decision)
                if decision.action == "exit":
                    return AgentRun(run, decision.code, tuple(decisions))
            try:
                reply = self.client.complete(messages, temperature=self.temperature)
            except LLMUnavailable as exc:
                cause = f"The model could not be asked: {exc}"
                return AgentRun(run, LLMUnavailable.code, tuple(decisions), cause=cause)
            text = reply.texts[0]
            action, thought, sql = parse_reply(text)
            lps, ents = _logprob_fields(reply.raw)
            step = Step(action, thought=thought, sql=sql, token_logprobs=lps, token_entropies=ents)
            if sql is not None:
                step = self._observe(step)
            elif action == "text":
                step = replace(step, observation=text[:300])
            run = replace(run, steps=(*run.steps, step))
            if self.on_step is not None:
                self.on_step(run)
            if action == "final_null":
                return AgentRun(replace(run, final="abstain"), None, tuple(decisions))
            if action == "final_sql" and step.error is None:
                done = replace(run, final="answer", final_sql=sql)
                return self._deliver(done, decisions)
            messages.append({"role": "assistant", "content": text})
            messages.append({"role": "user", "content": _feedback(step)})
        return AgentRun(run, "agent.max_steps", tuple(decisions), cause=_out_of_steps(run))

    def _deliver(self, run: Run, decisions: list[Decision]) -> AgentRun:
        if self.monitor is None:
            return AgentRun(run, None, tuple(decisions))
        decision = deliver(self.monitor, run, lam=self.lam)
        decisions.append(decision)
        # A withheld answer is a veto under the monitor's own code; a delivered one is a note.
        delivered = decision.action == "deliver"
        kind: FindingKind = "note" if delivered else "veto"
        finding = Finding(
            "note.monitor_delivered" if delivered else decision.code,
            kind,
            decision.message,
            {
                "action": decision.action,
                "p": decision.p_corr,
                "tau": decision.threshold,
                "lambda": self.lam,
                "steps": len(run.steps),
            },
        )
        return AgentRun(run, None, tuple(decisions), finding)


def _out_of_steps(run: Run) -> str:
    """Why a run reached the step limit, from its last step: the user is told what the model
    last did (a query the guard refused, and why; a reply outside the protocol), not a code
    only (outside tryout 38)."""
    head = f"The agent reached its limit of {len(run.steps)} steps without a final answer"
    last = run.steps[-1] if run.steps else None
    if last is None:
        return f"{head}."
    if last.error is not None:
        what = "final query" if last.action == "final_sql" else "last query"
        error = last.error if last.error.endswith(".") else f"{last.error}."
        verb = "was" if error.startswith("refused") else "failed:"
        return f"{head}: the model's {what} {verb} {error}"
    if last.action == "text":
        return (
            f"{head}: the model's last reply did not follow the protocol (THOUGHT, then SQL, "
            "FINAL_SQL or FINAL: null)."
        )
    return f"{head}: the model was still exploring."


def _feedback(step: Step) -> str:
    if step.action == "text":
        return (
            "Your reply did not follow the protocol. Reply with THOUGHT and SQL, FINAL_SQL "
            "or FINAL: null."
        )
    if step.error is not None:
        return f"RESULT: error: {step.error}"
    if step.row_count == 0:
        return "RESULT: empty (0 rows)"
    return f"RESULT: {step.row_count} rows x {step.n_columns} cols; {step.observation}"
