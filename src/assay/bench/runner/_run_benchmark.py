"""Running a system over the benchmark's tasks, writing one record per task as it goes.

Systems are pluggable: ``always_abstain`` and ``answer_first_reading`` ship here as reference
baselines, ``samples:PATH`` reads any outside system's answers, and Assay's own pipeline
registers itself. Cost is measured once and sealed into the record: generation time, tokens,
and one serial execution of the returned SQL, quantised to the millisecond, so rescoring never
re-measures. A system that raises or runs past its time limit is recorded as a failure, never
as an abstention, and the run goes on.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from assay.bench.datasets._tasks import Task
from assay.connectors import PooledConnector, connect
from assay.errors import BenchError, ExecutionError
from assay.pipeline import run_sql
from assay.settings import Settings
from assay.types import Result

__all__ = [
    "SYSTEMS",
    "AssaySystem",
    "RunContext",
    "System",
    "SystemAnswer",
    "make_system",
    "run_benchmark",
]


@dataclass(frozen=True)
class SystemAnswer:
    behaviour: str  # answer | clarify | abstain | refuse
    sql: str | None = None
    message: str = ""
    result: Result | None = None
    tokens: int = 0
    statements: tuple[str, ...] = ()
    features: dict[str, float] = field(default_factory=dict)


@dataclass
class RunContext:
    folder: Path
    settings: Settings
    connectors: dict[str, PooledConnector] = field(default_factory=dict)

    def connector(self, domain: str) -> PooledConnector:
        if domain not in self.connectors:
            self.connectors[domain] = connect(str(self.folder / f"{domain}.duckdb"), self.settings)
        return self.connectors[domain]

    def close(self) -> None:
        for connector in self.connectors.values():
            connector.close()


class System(Protocol):
    name: str

    def answer(self, task: Task, ctx: RunContext) -> SystemAnswer: ...


class AlwaysAbstain:
    """Abstains on every question: scores exactly the share of tasks that require it."""

    name = "always_abstain"

    def answer(self, task: Task, ctx: RunContext) -> SystemAnswer:
        return SystemAnswer("abstain", message="I cannot answer this from the warehouse.")


class AnswerFirstReading:
    """Answers every question with the SQL of its first reading; never asks back."""

    name = "answer_first_reading"

    def answer(self, task: Task, ctx: RunContext) -> SystemAnswer:
        sql = task.accepted_sql[0] if task.accepted_sql else task.naive_sql
        return SystemAnswer("answer", sql=sql or None)


class SamplesSystem:
    """An outside system's answers: JSONL ``{"task_id", "behaviour", "sql", "message"}``."""

    def __init__(self, path: Path):
        self.name = f"samples:{path.name}"
        self.answers: dict[str, dict[str, Any]] = {}
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                raw = json.loads(line)
                self.answers[str(raw["task_id"])] = raw

    def answer(self, task: Task, ctx: RunContext) -> SystemAnswer:
        raw = self.answers.get(task.id)
        if raw is None:
            raise BenchError(
                f"The samples file has no answer for task {task.id!r}.",
                hint="Give one line per task id.",
            )
        return SystemAnswer(
            str(raw.get("behaviour", "answer")), raw.get("sql"), str(raw.get("message", ""))
        )


SYSTEMS: dict[str, Callable[[], System]] = {
    "always_abstain": AlwaysAbstain,
    "answer_first_reading": AnswerFirstReading,
}


def make_system(name: str) -> System:
    if name.startswith("samples:"):
        return SamplesSystem(Path(name.split(":", 1)[1]))
    if name not in SYSTEMS:
        known = ", ".join([*SYSTEMS, "samples:PATH"])
        raise BenchError(f"Unknown system {name!r}.", hint=f"Use one of: {known}.")
    return SYSTEMS[name]()


def _call(system: System, task: Task, ctx: RunContext, limit_s: float) -> SystemAnswer:
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["answer"] = system.answer(task, ctx)
        except BaseException as exc:  # a crashing system is a recorded failure
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(limit_s)
    if thread.is_alive():
        raise TimeoutError(f"system {system.name} ran past {limit_s:g} s on task {task.id}")
    if "error" in box:
        raise box["error"]
    return box["answer"]  # type: ignore[no-any-return]


def _record(task: Task, system: System, ctx: RunContext, limit_s: float) -> dict[str, Any]:
    connector = ctx.connector(task.domain)
    before = connector.statement_count
    started = time.perf_counter()
    record: dict[str, Any] = {"task_id": task.id, "system": system.name, "failure": None}
    try:
        answer = _call(system, task, ctx, limit_s)
    except Exception as exc:  # recorded as a failure, never as an abstention
        code = "system.timeout" if isinstance(exc, TimeoutError) else "system.error"
        record.update(
            behaviour="failure",
            failure={"code": code, "message": str(exc)[:300]},
            cost={
                "generation_s": round(time.perf_counter() - started, 3),
                "execution_s": 0.0,
                "tokens": 0,
            },
        )
        return record
    generation = time.perf_counter() - started
    result, execution, guard = answer.result, 0.0, None
    if answer.behaviour == "answer" and answer.sql and result is None:
        try:
            run = run_sql(answer.sql, connector, ctx.settings)
            result, guard = run.result, run.report.codes or None
            execution = (result.elapsed_ms / 1000.0) if result else 0.0
        except ExecutionError as exc:
            guard = (exc.code,)
    statements = [s.sql for s in connector.statements_since(before) if s.purpose == "query"]
    record.update(
        behaviour=answer.behaviour,
        sql=answer.sql,
        message=answer.message,
        result=result.to_dict() if result else None,
        guard=list(guard) if guard else [],
        statements=[*answer.statements, *statements],
        features=answer.features,
        cost={
            "generation_s": round(generation, 3),
            "execution_s": round(execution, 3),
            "tokens": answer.tokens,
        },
    )
    return record


def run_benchmark(
    tasks: list[Task],
    system: System,
    out: Path,
    ctx: RunContext,
    *,
    task_set_hash: str,
    resume: bool = False,
    limit_s: float = 60.0,
    progress: Callable[[Task], None] | None = None,
) -> dict[str, int]:
    """Run ``system`` on every task, appending one record a line; ``resume`` skips ids done."""
    done: set[str] = set()
    if out.exists():
        if not resume:
            raise BenchError(
                f"Run file {str(out)!r} already exists.",
                hint="Pass --resume to continue it, or remove it.",
            )
        done = _resumed(out, {t.id for t in tasks})
    counts = {"run": 0, "skipped": 0, "failures": 0}
    if done - {t.id for t in tasks}:
        counts["dropped"] = len(done - {t.id for t in tasks})  # removed from the file
    done &= {t.id for t in tasks}
    with out.open("a", encoding="utf-8") as handle:
        for task in tasks:
            if task.id in done:
                counts["skipped"] += 1
                continue
            record = _record(task, system, ctx, limit_s)
            record["task_set_hash"] = task_set_hash
            handle.write(json.dumps(record, sort_keys=True, default=str) + "\n")
            handle.flush()
            counts["run"] += 1
            counts["failures"] += record["behaviour"] == "failure"
            if progress:
                progress(task)
    return counts


def _resumed(out: Path, wanted: set[str]) -> set[str]:
    """The task ids a run file holds; records of tasks not asked for now (another split or
    task set) are removed from the file rather than kept, and their ids returned with the
    rest for the caller to count. A last line cut short by a crash is removed too."""
    done: set[str] = set()
    kept: list[str] = []
    lines = out.read_text(encoding="utf-8").splitlines()
    for line in lines:
        try:
            ident = json.loads(line)["task_id"]
        except (json.JSONDecodeError, KeyError):
            break
        done.add(ident)
        if ident in wanted:
            kept.append(line + "\n")
    if len(kept) != len(lines):
        out.write_text("".join(kept), encoding="utf-8")
    return done


class AssaySystem:
    """Assay's own rule-gated agent: one ``Agent`` per domain, no model.

    A shown or warned answer is an answer; a withheld one is reported as an abstention (the
    user is shown no number), with the reasons in the message.
    """

    name = "assay"

    def __init__(self) -> None:
        self.agents: dict[str, Any] = {}

    def answer(self, task: Task, ctx: RunContext) -> SystemAnswer:
        from assay.pipeline import Agent
        from assay.semantic import load_semantic

        if task.domain not in self.agents:
            layer = load_semantic(ctx.folder / f"{task.domain}.yaml")
            self.agents[task.domain] = Agent(ctx.connector(task.domain), layer, ctx.settings)
        verdict = self.agents[task.domain].ask(task.question, ident=task.id)
        candidate = verdict.candidate
        if verdict.behaviour == "answer":
            if verdict.action == "withhold":
                return SystemAnswer(
                    "abstain",
                    candidate.final_sql if candidate else None,
                    "withheld: " + ", ".join(verdict.reasons),
                )
            return SystemAnswer(
                "answer",
                candidate.final_sql if candidate else None,
                candidate.text or "" if candidate else "",
                candidate.result if candidate else None,
            )
        return SystemAnswer(verdict.behaviour, None, str(verdict.provenance.get("message", "")))


SYSTEMS["assay"] = AssaySystem
