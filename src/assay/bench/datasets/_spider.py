"""The Spider slice as K sampled answers: six published systems' SQL for each question.

``../shared/data/spider-slice`` holds three Spider dev databases and, for 179 questions, the
final SQL of six published systems. Taken in a fixed order (DAIL-SQL first, as sample 0) they
stand in for K = 6 sampled answers; sample 0 is labelled by execution match with the gold SQL,
the columns in any order (as Spider's official evaluation accepts them).
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from assay.agreement import normalise_row
from assay.connectors import PooledConnector, connect
from assay.errors import BenchError, ExecutionError
from assay.generators import SampleModel, SampleRecord
from assay.settings import load_settings
from assay.types import Result

__all__ = [
    "SPIDER_SYSTEMS",
    "default_spider_root",
    "execution_match",
    "spider_records",
    "system_labels",
]

# Sample 0 first: the answer shown is DAIL-SQL + GPT-4's.
SPIDER_SYSTEMS = (
    "dailsql_gpt4",
    "dinsql_gpt4",
    "codes_7b",
    "c3sql_chatgpt",
    "graphix_t5",
    "chatgpt_zeroshot",
)


def default_spider_root() -> Path:
    """``../shared/data/spider-slice`` beside the project (or the ``spider_root`` setting)."""
    configured = load_settings().spider_root
    if configured:
        return Path(configured)
    here = Path(__file__).resolve()
    for parent in here.parents:
        candidate = parent.parent / "shared" / "data" / "spider-slice"
        if candidate.exists():
            return candidate
    return Path.cwd().parent / "shared" / "data" / "spider-slice"


MAX_PERMUTED_COLUMNS = 8


def execution_match(gold: Result, predicted: Result, ordered: bool) -> bool:
    """Spider's execution match: the same rows (in order when the gold SQL orders them), the
    columns in any order, as the official evaluation (test-suite ``result_eq``) accepts them.

    Column orders are tried among those whose columns hold the same values as the gold's
    (content fingerprints), so the search stays small; results wider than
    ``MAX_PERMUTED_COLUMNS`` are compared in their given column order.

    Example:
        >>> gold = Result(("a", "b"), ((1, "x"), (2, "y")), 2)
        >>> execution_match(gold, Result(("b", "a"), (("x", 1), ("y", 2)), 2), ordered=True)
        True
        >>> execution_match(gold, Result(("b", "a"), (("y", 2), ("x", 1)), 2), ordered=True)
        False
    """
    if len(gold.columns) != len(predicted.columns) or len(gold.rows) != len(predicted.rows):
        return False
    a = [normalise_row(r) for r in gold.rows]
    b = [normalise_row(r) for r in predicted.rows]
    n = len(gold.columns)
    orders: Iterable[tuple[int, ...]] = [tuple(range(n))]
    if 1 < n <= MAX_PERMUTED_COLUMNS:
        gold_cols = [Counter(r[j] for r in a) for j in range(n)]
        pred_cols = [Counter(r[j] for r in b) for j in range(n)]
        orders = (
            p
            for p in itertools.permutations(range(n))
            if all(pred_cols[p[j]] == gold_cols[j] for j in range(n))
        )
    for order in orders:
        moved = [tuple(r[i] for i in order) for r in b]
        if (a == moved) if ordered else (Counter(a) == Counter(moved)):
            return True
    return False


def _run(connector: PooledConnector, sql: str) -> Result | None:
    try:
        return connector.execute(sql, time_limit_ms=30_000, max_rows=100_000)
    except ExecutionError:
        return None


def spider_records(root: Path | None = None, k: int = 6) -> Iterator[SampleRecord]:
    """Records with the first ``k`` systems as samples (SQL only; Assay executes them) and
    execution-match labels of sample 0. ``k = 5`` is issue 10's setting (no ChatGPT
    zero-shot); ``k = 6`` the earlier one."""
    if not 1 <= k <= len(SPIDER_SYSTEMS):
        raise BenchError(
            f"K = {k} is outside 1..{len(SPIDER_SYSTEMS)}.",
            hint=f"The slice has {len(SPIDER_SYSTEMS)} systems.",
        )
    root = root or default_spider_root()
    questions = root / "questions.jsonl"
    if not questions.exists():
        raise BenchError(
            f"The Spider slice is not at {str(root)!r}.",
            hint="Set ASSAY_SPIDER_ROOT to the spider-slice folder.",
        )
    rows = [
        json.loads(line)
        for line in questions.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    connectors: dict[str, PooledConnector] = {}
    try:
        for row in rows:
            db = str(root / "database" / row["db_id"] / f"{row['db_id']}.sqlite")
            if db not in connectors:
                connectors[db] = connect(db)
            yield _record(row, db, connectors[db], k)
    finally:
        for connector in connectors.values():
            connector.close()


def system_labels(root: Path | None = None, k: int = 6) -> dict[str, dict[str, bool]]:
    """For each question id, whether each of the first ``k`` systems' SQL matches the gold
    result (the same execution match as sample 0's label): what sampler reliabilities are
    measured from."""
    root = root or default_spider_root()
    rows = [
        json.loads(line)
        for line in (root / "questions.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    out: dict[str, dict[str, bool]] = {}
    connectors: dict[str, PooledConnector] = {}
    try:
        for row in rows:
            db = str(root / "database" / row["db_id"] / f"{row['db_id']}.sqlite")
            if db not in connectors:
                connectors[db] = connect(db)
            gold = _run(connectors[db], row["gold_sql"])
            ordered = "order by" in row["gold_sql"].lower()
            out[row["id"]] = {}
            for name in SPIDER_SYSTEMS[:k]:
                got = _run(connectors[db], row["predictions"][name])
                out[row["id"]][name] = (
                    gold is not None and got is not None and execution_match(gold, got, ordered)
                )
    finally:
        for connector in connectors.values():
            connector.close()
    return out


def _record(row: dict[str, Any], db: str, connector: PooledConnector, k: int) -> SampleRecord:
    gold = _run(connector, row["gold_sql"])
    shown_sql = row["predictions"][SPIDER_SYSTEMS[0]]
    shown = _run(connector, shown_sql)
    label = None
    if gold is not None:
        ordered = "order by" in row["gold_sql"].lower()
        label = int(shown is not None and execution_match(gold, shown, ordered))
    samples = [
        SampleModel(final_sql=row["predictions"][name], sampler=name) for name in SPIDER_SYSTEMS[:k]
    ]
    return SampleRecord(id=row["id"], db=db, question=row["question"], samples=samples, label=label)
