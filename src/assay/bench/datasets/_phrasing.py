"""The free-phrased stratum: hand-written questions in analysts' own words, read from
``bench/phrasing/<domain>.jsonl``.

Each line is one record: ``id`` (``phrasing.<domain>.<NNN>``), ``domain``, ``question``,
``required`` (``answer | clarify | abstain | refuse``), ``accepted_sql`` (answers only; every
accepted result shape), ``ordered``, ``readings`` (clarify only: each competing metric and the
words that name it), ``constructs`` (tags), ``reason`` and ``split`` (``dev | test``). The split
is a warehouse-balanced random draw (``phrasing_splits``): within each domain, ids sorted,
shuffled with ``random.Random("phrasing-" + domain)``, the first half (rounded up) ``dev``.
The questions were written before the parser that answers them, and the test half is held out.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from assay.bench.datasets._tasks import Task
from assay.errors import BenchError

__all__ = ["PHRASING_DIR", "load_phrasing", "phrasing_splits", "phrasing_task"]

PHRASING_DIR = Path(__file__).resolve().parents[1] / "phrasing"
_FIELDS = {
    "id": str,
    "domain": str,
    "question": str,
    "required": str,
    "accepted_sql": list,
    "ordered": bool,
    "readings": list,
    "constructs": list,
    "reason": str,
    "split": str,
}
_BEHAVIOURS = ("abstain", "answer", "clarify", "refuse")
_SPLITS = ("dev", "test")
_ID = re.compile(r"phrasing\.(?P<domain>[a-z_]+)\.\d{3}")


def phrasing_splits(ids: Iterable[str], domain: str) -> dict[str, str]:
    """Each id's split: sorted, shuffled with the domain's own seed, first half (rounded up) dev.

    Args:
        ids: the domain's record ids.
        domain: the warehouse the records are asked on; it seeds the shuffle.

    Returns:
        id -> ``"dev"`` or ``"test"``.
    """
    order = sorted(ids)
    random.Random("phrasing-" + domain).shuffle(order)
    n_dev = (len(order) + 1) // 2
    return {rid: ("dev" if i < n_dev else "test") for i, rid in enumerate(order)}


def _problems(raw: Any) -> list[str]:
    """Every rule one record breaks (empty when it is valid)."""
    if not isinstance(raw, dict):
        return [f"a record is a JSON object, not {type(raw).__name__}"]
    problems = [
        f"field {name!r} must be a {kind.__name__}"
        for name, kind in _FIELDS.items()
        if not isinstance(raw.get(name), kind)
    ]
    problems += [f"unknown field {name!r}" for name in sorted(set(raw) - set(_FIELDS))]
    if problems:
        return problems
    match = _ID.fullmatch(raw["id"])
    if match is None or match["domain"] != raw["domain"]:
        problems.append(f"id {raw['id']!r} must read 'phrasing.{raw['domain']}.NNN'")
    if raw["required"] not in _BEHAVIOURS:
        problems.append(f"required {raw['required']!r} must be one of {', '.join(_BEHAVIOURS)}")
    if raw["split"] not in _SPLITS:
        problems.append(f"split {raw['split']!r} must be dev or test")
    if not raw["question"].strip():
        problems.append("question is empty")
    sqls = raw["accepted_sql"]
    if (raw["required"] == "answer") != bool(sqls):
        problems.append("accepted_sql is required for answers and only for answers")
    if not all(isinstance(s, str) and s.strip() for s in sqls):
        problems.append("every accepted_sql entry must be a non-empty string")
    if not all(isinstance(c, str) and c for c in raw["constructs"]):
        problems.append("every construct must be a non-empty string")
    readings = raw["readings"]
    # A "did you mean" (a misspelt word with one close match) is asked back with one reading.
    least = 1 if "did_you_mean" in raw["constructs"] else 2
    if raw["required"] == "clarify" and len(readings) < least:
        problems.append("a clarify record names at least two readings (one for a did_you_mean)")
    if raw["required"] != "clarify" and readings:
        problems.append("readings belong to clarify records only")
    for reading in readings:
        tokens = reading.get("tokens") if isinstance(reading, dict) else None
        if (
            not isinstance(reading, dict)
            or not isinstance(reading.get("metric"), str)
            or not isinstance(tokens, list)
            or not tokens
            or not all(isinstance(t, str) and t for t in tokens)
        ):
            problems.append("a reading is {'metric': str, 'tokens': [str, ...]}")
    return problems


def phrasing_task(raw: dict[str, Any]) -> Task:
    """A validated record as a benchmark task of type ``phrasing`` (its own family)."""
    return Task(
        id=raw["id"],
        domain=raw["domain"],
        family=raw["id"],
        type="phrasing",
        required=raw["required"],
        question=raw["question"],
        accepted_sql=tuple(raw["accepted_sql"]),
        ordered=raw["ordered"],
        readings=tuple(dict(r) for r in raw["readings"]),
        reason=raw["reason"],
        split=raw["split"],
        variant={"constructs": list(raw["constructs"])},
    )


def _read(path: Path) -> list[Task]:
    tasks = []
    domain = path.stem
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            problems = [f"not JSON ({exc.msg})"]
        else:
            problems = _problems(raw)
            if not problems and raw["domain"] != domain:
                problems = [f"domain {raw['domain']!r} in the file of domain {domain!r}"]
        if problems:
            raise BenchError(
                f"Bad phrasing record in {str(path)!r}, line {number}: {'; '.join(problems)}.",
                hint="Fix the record (see assay.bench.datasets._phrasing for the format).",
                details={"file": str(path), "line": number, "problems": problems},
            )
        tasks.append(phrasing_task(raw))
    return tasks


def load_phrasing(folder: Path = PHRASING_DIR, domains: Iterable[str] | None = None) -> list[Task]:
    """Every ``<domain>.jsonl`` record in ``folder`` as a task, files and lines in order.

    Args:
        folder: where the records lie (the package's own ``phrasing`` folder by default).
        domains: keep only these warehouses' files (all files when None).

    Raises:
        BenchError: a record breaks the format (naming the file and line), two records share an
            id, or a stored split differs from the draw ``phrasing_splits`` makes.
    """
    wanted = None if domains is None else set(domains)
    tasks: list[Task] = []
    for path in sorted(folder.glob("*.jsonl")):
        if wanted is not None and path.stem not in wanted:
            continue
        found = _read(path)
        ids = [t.id for t in found]
        if len(set(ids)) != len(ids):
            twice = sorted({i for i in ids if ids.count(i) > 1})
            raise BenchError(
                f"Duplicate phrasing ids in {str(path)!r}: {', '.join(twice)}.",
                hint="Give every record its own id.",
            )
        draw = phrasing_splits(ids, path.stem)
        wrong = [t.id for t in found if t.split != draw[t.id]]
        if wrong:
            raise BenchError(
                f"Phrasing splits in {str(path)!r} differ from the draw for {', '.join(wrong)}.",
                hint="Rerun scripts/split_phrasing.py; never choose a split by hand.",
            )
        tasks.extend(found)
    return tasks
