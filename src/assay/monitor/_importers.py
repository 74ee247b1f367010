"""Importers from third-party trajectory and question files into run records.

``import_intercode`` maps InterCode-SQL result files (Yang et al., 2023) and ``import_ehrsql``
maps EHRSQL 2024 questions (runs of zero steps, ``answerable`` false where the gold label is
``null``). Every source record that cannot be mapped is returned as a ``RunReject`` with the
reason; none is dropped silently.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from assay.errors import InputError
from assay.monitor._trajectory import Run, RunReject, Step

__all__ = ["import_ehrsql", "import_intercode", "parse_observation"]

_ERROR_PREFIX = "error executing query"
_EXECUTE = re.compile(r"^\s*execute\[(?P<sql>.*)\]\s*$", re.DOTALL)
# InterCode's multi-turn episodes stop at the first reward of 1, so a failed run always uses
# every turn: in these files the step count is the label (README of the shared data).
_LEAKING = re.compile(r"multiturn_.*_10_turns")


def parse_observation(text: str) -> tuple[int | None, int | None, str | None]:
    """(row count, column count, error) of an InterCode observation.

    Example:
        >>> parse_observation("[('usa',), ('japan',)]")
        (2, 1, None)
        >>> parse_observation("Error executing query: Table 'x' doesn't exist")
        (None, None, "Table 'x' doesn't exist")
    """
    stripped = text.strip()
    if stripped.lower().startswith(_ERROR_PREFIX):
        return None, None, stripped.split(":", 1)[-1].strip() or stripped
    try:
        value = ast.literal_eval(stripped) if len(stripped) < 200_000 else None
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return None, None, None
    if isinstance(value, list):
        width = len(value[0]) if value and isinstance(value[0], tuple) else None
        return len(value), width, None
    return None, None, None


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"Cannot read {str(path)!r} as UTF-8 JSON: {exc}.") from exc


def _read_tasks(path: Path) -> dict[str, dict[str, Any]]:
    tasks: dict[str, dict[str, Any]] = {}
    for number, line in enumerate(path.read_bytes().split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            task = json.loads(line.decode("utf-8"))
            tasks[str(task["task_id"])] = task
        except (UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError) as exc:
            raise InputError(f"Task line {number} of {str(path)!r} is malformed: {exc}.") from exc
    return tasks


def _intercode_step(action: str, observation: str, reward: Any, thought: str) -> Step:
    text = action.strip()
    if text.lower() == "submit":
        return Step("submit", thought=thought, observation=observation, reward=_reward(reward))
    match = _EXECUTE.match(text)
    sql = match.group("sql").strip() if match else text
    if not sql:
        return Step("text", thought=thought, observation=observation, reward=_reward(reward))
    rows, cols, error = parse_observation(observation)
    return Step(
        "sql",
        thought=thought,
        sql=sql,
        observation=observation,
        row_count=rows,
        n_columns=cols,
        error=error,
        reward=_reward(reward),
    )


def _reward(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None


def _map_turns(raw: dict[str, Any]) -> tuple[list[Step], float | None]:
    if "turn_history" in raw:
        th = raw["turn_history"]
        actions, observations = th["actions"], th["observations"]
        rewards, thoughts = th["rewards"], th.get("thoughts") or [""] * len(actions)
        if not len(actions) == len(observations) == len(rewards) == len(thoughts):
            raise InputError(
                f"turn_history lists differ in length (actions {len(actions)}, observations "
                f"{len(observations)}, rewards {len(rewards)}, thoughts {len(thoughts)})"
            )
        steps = [
            _intercode_step(str(a), str(o), r, str(t or ""))
            for a, o, r, t in zip(actions, observations, rewards, thoughts, strict=True)
        ]
        return steps, _reward(rewards[-1]) if rewards else None
    trajectory = raw["trajectory"]
    steps = [_intercode_step(str(s["action"]), str(s["observation"]), None, "") for s in trajectory]
    return steps, _reward(raw.get("reward"))


def _intercode_run(
    raw: Any, source: str, line: int, tasks: dict[str, dict[str, Any]], by_question: dict[str, str]
) -> Run:
    if not isinstance(raw, dict) or "query" not in raw:
        raise InputError("not an InterCode record (no 'query')")
    task_id = str(raw["task_id"]) if "task_id" in raw else by_question.get(str(raw["query"]))
    if task_id is None or task_id not in tasks:
        raise InputError(f"task {raw.get('task_id', raw.get('query_idx'))!r} is not in the tasks")
    task = tasks[task_id]
    try:
        steps, final_reward = _map_turns(raw)
    except (KeyError, TypeError) as exc:
        raise InputError(f"missing or malformed turn field: {exc}") from exc
    if not steps:
        raise InputError("the run has no steps")
    sqls = [s.sql for s in steps if s.sql]
    if not sqls:
        raise InputError("no step ran SQL, so there is no answer to label")
    if final_reward is None:
        raise InputError("the final reward is missing, so correctness is unknown")
    stem = Path(source).stem
    return Run(
        run_id=f"intercode:{stem}:{task_id}",
        question=str(raw["query"]),
        database=str(task["db"]),
        steps=tuple(steps),
        final="answer",
        final_sql=sqls[-1],
        answerable=True,
        correct=final_reward >= 1.0,
        group=f"{task['db']}:{task_id}",
        agent=stem.split("__")[0],
        source=f"{Path(source).name}:{line}",
        dialect="mysql",
        step_count_leaks=bool(_LEAKING.search(stem)),
    )


def import_intercode(paths: Iterable[Path], tasks_path: Path) -> tuple[list[Run], list[RunReject]]:
    """Runs from InterCode-SQL trajectory files; every unmappable record as a reject.

    The answer is the last query run; it is correct when InterCode's final reward is 1 (the
    execution match with the gold answer). Spider's questions are all answerable.
    """
    tasks = _read_tasks(tasks_path)
    by_question = {str(t["query"]): k for k, t in sorted(tasks.items())}
    runs: list[Run] = []
    rejects: list[RunReject] = []
    for path in paths:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise InputError(f"Cannot read {str(path)!r}: {exc.strerror}.") from exc
        for number, line in enumerate(data.split(b"\n"), start=1):
            if not line.strip():
                continue
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError as exc:
                rejects.append(RunReject(str(path), number, f"not UTF-8 at byte {exc.start}"))
                continue
            try:
                runs.append(_intercode_run(json.loads(text), str(path), number, tasks, by_question))
            except json.JSONDecodeError as exc:
                rejects.append(RunReject(str(path), number, f"not JSON: {exc.msg}", text))
            except InputError as exc:
                rejects.append(RunReject(str(path), number, exc.message, text))
    return runs, rejects


def import_ehrsql(
    data_path: Path, labels_path: Path, *, database: str = "mimic_iv"
) -> tuple[list[Run], list[RunReject]]:
    """EHRSQL questions as runs of zero steps; ``answerable`` is false where the label is the
    string ``"null"``. Questions without a label, and labels without a question, are rejects."""
    data = _read_json(data_path)
    labels = _read_json(labels_path)
    if not isinstance(data, dict) or not isinstance(data.get("data"), list):
        raise InputError(f"{str(data_path)!r} has no 'data' list; is it EHRSQL's data.json?")
    if not isinstance(labels, dict):
        raise InputError(f"{str(labels_path)!r} is not an object of id -> SQL or 'null'.")
    runs: list[Run] = []
    rejects: list[RunReject] = []
    seen: set[str] = set()
    for number, item in enumerate(data["data"], start=1):
        if not isinstance(item, dict) or not item.get("id") or not item.get("question"):
            rejects.append(RunReject(str(data_path), number, "no id or question", repr(item)))
            continue
        qid = str(item["id"])
        seen.add(qid)
        if qid not in labels:
            rejects.append(RunReject(str(data_path), number, f"no label for id {qid!r}"))
            continue
        label = labels[qid]
        if not isinstance(label, str):
            reason = f"label for id {qid!r} is not SQL or 'null'"
            rejects.append(RunReject(str(labels_path), number, reason))
            continue
        runs.append(
            Run(
                run_id=f"ehrsql:{qid}",
                question=str(item["question"]),
                database=database,
                answerable=label.strip().lower() != "null",
                group=qid,
                agent="none",
                source=f"{data_path.parent.name}/{data_path.name}:{number}",
            )
        )
    for qid in sorted(set(labels) - seen):
        rejects.append(RunReject(str(labels_path), 0, f"label id {qid!r} has no question"))
    return runs, rejects
