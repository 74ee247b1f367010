"""The trajectory record: one agent run as one JSON line (``docs/trajectories.md``).

A run is a question posed against a database, the agent's steps (thought, action, SQL,
observation as text, row count, error), its final answer or abstention, and the labels when they
are known (answerable, correct, per-step reward). ``read_runs`` reads a JSON-lines file record by
record: a record that cannot be read becomes a ``RunReject`` naming its line and the reason, and
the rest are read.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, cast, get_args

from assay.errors import InputError

__all__ = [
    "FORMAT",
    "ActionKind",
    "FinalKind",
    "Run",
    "RunReject",
    "Step",
    "read_runs",
    "run_from_dict",
    "write_jsonl",
]

FORMAT = "assay.trajectory/1"

ActionKind = Literal["sql", "final_sql", "final_null", "text", "submit"]
FinalKind = Literal["answer", "abstain", "none"]


@dataclass(frozen=True)
class Step:
    """One agent step. ``row_count`` is None when nothing ran or it could not be told.

    ``token_logprobs`` and ``token_entropies`` are per generated token, present only when the
    endpoint returned log-probabilities; absent is None, never zeros.
    """

    action: ActionKind
    thought: str = ""
    sql: str | None = None
    observation: str = ""
    row_count: int | None = None
    n_columns: int | None = None
    error: str | None = None
    reward: float | None = None
    token_logprobs: tuple[float, ...] | None = None
    token_entropies: tuple[float, ...] | None = None

    @property
    def executed(self) -> bool:
        """Whether a query ran (or was tried) at this step."""
        return self.sql is not None and (self.row_count is not None or self.error is not None)


@dataclass(frozen=True)
class Run:
    """One agent run. ``final`` is ``answer`` (with ``final_sql``), ``abstain`` (FINAL: null)
    or ``none`` (a question with no agent run, as EHRSQL's questions are imported).

    ``group`` is the question template (runs of one question share it) and pools are split by
    it or by ``database``. ``step_count_leaks`` marks sources where the number of steps reveals
    the label (InterCode's ``multiturn_*_10_turns`` files end an episode at the first success).
    """

    run_id: str
    question: str
    database: str
    steps: tuple[Step, ...] = ()
    final: FinalKind = "none"
    final_sql: str | None = None
    answerable: bool | None = None
    correct: bool | None = None
    group: str = ""
    agent: str = ""
    source: str = ""
    dialect: str = "sqlite"
    step_count_leaks: bool = False
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def delivered_correct(self) -> bool | None:
        """The joint event of the paper: an answer, to an answerable question, correct."""
        if self.final != "answer":
            return False if self.final == "abstain" else None
        if self.answerable is False:
            return False
        return self.correct

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "run_id": self.run_id,
            "question": self.question,
            "database": self.database,
            "group": self.group,
            "agent": self.agent,
            "source": self.source,
            "dialect": self.dialect,
            "step_count_leaks": self.step_count_leaks,
            "steps": [_step_dict(s) for s in self.steps],
            "final": {"kind": self.final, "sql": self.final_sql},
            "labels": {"answerable": self.answerable, "correct": self.correct},
            **({"extra": self.extra} if self.extra else {}),
        }


@dataclass(frozen=True)
class RunReject:
    """A source record that could not be mapped or read, kept with the reason."""

    source: str
    line: int
    reason: str
    record: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "line": self.line,
            "reason": self.reason,
            "record": self.record[:500],
        }


def _step_dict(step: Step) -> dict[str, Any]:
    out: dict[str, Any] = {
        "action": step.action,
        "thought": step.thought,
        "sql": step.sql,
        "observation": step.observation,
        "row_count": step.row_count,
        "n_columns": step.n_columns,
        "error": step.error,
        "reward": step.reward,
    }
    if step.token_logprobs is not None:
        out["token_logprobs"] = list(step.token_logprobs)
    if step.token_entropies is not None:
        out["token_entropies"] = list(step.token_entropies)
    return out


def _opt_str(value: Any, name: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise InputError(f"Field {name!r} is {type(value).__name__}, expected a string or null.")


def _opt_int(value: Any, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(f"Field {name!r} is {value!r}, expected a count >= 0 or null.")
    return value


def _opt_floats(value: Any, name: str) -> tuple[float, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(
        isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in value
    ):
        raise InputError(f"Field {name!r} must be a list of finite numbers or absent.")
    return tuple(float(v) for v in value)


def _opt_bool(value: Any, name: str) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    raise InputError(f"Label {name!r} is {value!r}, expected true, false or null.")


def _step_from(raw: Any, i: int) -> Step:
    if not isinstance(raw, dict):
        raise InputError(f"Step {i + 1} is {type(raw).__name__}, expected an object.")
    action = raw.get("action")
    if action not in get_args(ActionKind):
        raise InputError(
            f"Step {i + 1} has action {action!r}; expected one of {list(get_args(ActionKind))}."
        )
    reward = raw.get("reward")
    if reward is not None and (isinstance(reward, bool) or not isinstance(reward, int | float)):
        raise InputError(f"Step {i + 1} has reward {reward!r}, expected a number or null.")
    return Step(
        action=cast(ActionKind, action),
        thought=_opt_str(raw.get("thought", ""), "thought") or "",
        sql=_opt_str(raw.get("sql"), "sql"),
        observation=_opt_str(raw.get("observation", ""), "observation") or "",
        row_count=_opt_int(raw.get("row_count"), "row_count"),
        n_columns=_opt_int(raw.get("n_columns"), "n_columns"),
        error=_opt_str(raw.get("error"), "error"),
        reward=None if reward is None else float(reward),
        token_logprobs=_opt_floats(raw.get("token_logprobs"), "token_logprobs"),
        token_entropies=_opt_floats(raw.get("token_entropies"), "token_entropies"),
    )


def run_from_dict(raw: Any) -> Run:
    """A ``Run`` from its JSON object.

    Raises:
        InputError: the record is malformed; the message names the field and the fix.
    """
    if not isinstance(raw, dict):
        raise InputError(f"A run record is {type(raw).__name__}, expected a JSON object.")
    if raw.get("format") != FORMAT:
        raise InputError(
            f"Record format {raw.get('format')!r} is not {FORMAT!r}.",
            hint="Write runs with `assay monitor import` or the agent.",
        )
    for key in ("run_id", "question", "database"):
        if not isinstance(raw.get(key), str) or not raw[key]:
            raise InputError(f"Field {key!r} is missing or empty; every run needs it.")
    steps_raw = raw.get("steps", [])
    if not isinstance(steps_raw, list):
        raise InputError("Field 'steps' must be a list.")
    final = raw.get("final") or {}
    kind = final.get("kind") if isinstance(final, dict) else None
    if kind not in get_args(FinalKind):
        raise InputError(f"Final kind {kind!r} is not one of {list(get_args(FinalKind))}.")
    labels = raw.get("labels") or {}
    if not isinstance(labels, dict):
        raise InputError("Field 'labels' must be an object.")
    steps = tuple(_step_from(s, i) for i, s in enumerate(steps_raw))
    if kind != "none" and not steps:
        raise InputError(
            f"Run {raw['run_id']!r} has no steps but a final {kind!r}; an agent's run has at "
            "least its final step.",
            hint="Import a question without an agent run with final kind 'none'.",
        )
    final_sql = _opt_str(final.get("sql"), "final.sql")
    if kind == "answer" and not final_sql:
        raise InputError(f"Run {raw['run_id']!r} answers but has no final SQL.")
    return Run(
        run_id=raw["run_id"],
        question=raw["question"],
        database=raw["database"],
        steps=steps,
        final=cast(FinalKind, kind),
        final_sql=final_sql,
        answerable=_opt_bool(labels.get("answerable"), "answerable"),
        correct=_opt_bool(labels.get("correct"), "correct"),
        group=str(raw.get("group") or raw["run_id"]),
        agent=str(raw.get("agent") or ""),
        source=str(raw.get("source") or ""),
        dialect=str(raw.get("dialect") or "sqlite"),
        step_count_leaks=bool(raw.get("step_count_leaks", False)),
        extra=dict(raw.get("extra") or {}),
    )


def read_runs(paths: Iterable[Path]) -> tuple[list[Run], list[RunReject]]:
    """Every run of the JSON-lines files, and every line that could not be read with why
    (not UTF-8, not JSON, a malformed record, a duplicate run id)."""
    runs: list[Run] = []
    rejects: list[RunReject] = []
    seen: set[str] = set()
    for path in paths:
        for number, raw_line in _lines(path):
            if not raw_line.strip():
                continue
            try:
                text = raw_line.decode("utf-8")
            except UnicodeDecodeError as exc:
                reason = f"not UTF-8 at byte {exc.start}"
                rejects.append(RunReject(str(path), number, reason))
                continue
            try:
                run = run_from_dict(json.loads(text))
            except json.JSONDecodeError as exc:
                rejects.append(RunReject(str(path), number, f"not JSON: {exc.msg}", text))
                continue
            except InputError as exc:
                rejects.append(RunReject(str(path), number, exc.message, text))
                continue
            if run.run_id in seen:
                reason = f"duplicate run id {run.run_id!r}"
                rejects.append(RunReject(str(path), number, reason, text))
                continue
            seen.add(run.run_id)
            runs.append(run)
    return runs, rejects


def _lines(path: Path) -> Iterator[tuple[int, bytes]]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"Cannot read runs file {str(path)!r}: {exc.strerror}.") from exc
    yield from enumerate(data.split(b"\n"), start=1)


def write_jsonl(path: Path, records: Iterable[dict[str, Any]]) -> int:
    """Write records as JSON lines through a temporary file, so that nothing is half-written."""
    tmp = path.with_name(path.name + ".partial")
    n = 0
    with tmp.open("w", encoding="utf-8") as fh:
        for record in records:
            fh.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
            n += 1
    tmp.replace(path)
    return n
