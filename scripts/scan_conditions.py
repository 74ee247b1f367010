"""Fire the condition checks (``assay.checks._conditions``) on answers known right or wrong,
and count: every firing on a right answer is a false positive to read.

Usage:
    .venv/bin/python scripts/scan_conditions.py [--show]

Three sets from ../shared/data (each skipped when absent):
- EHRSQL 2024 (train and valid): every answerable question's gold SQL, right by definition;
  the catalogue from its ``tables.json``.
- The Spider slice: the gold SQL and the six systems' answers, right when their rows equal the
  gold's on the SQLite database (order ignored).
- InterCode-SQL trajectories: every distinct SELECT the agents ran on the slice's questions,
  labelled the same way.
The Spider slice was looked at while the checks were built (tuned on); EHRSQL and InterCode
were only scanned.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from collections import Counter
from pathlib import Path

from assay.catalog import Catalog, ColumnInfo, ForeignKey, TableInfo
from assay.checks import CheckContext
from assay.checks._conditions import CONDITION_CHECKS
from assay.types import Candidate

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
SPIDER = SHARED / "spider-slice"


def _fired(question: str, sql: str, catalog: Catalog | None) -> list[tuple[str, str]]:
    ctx = CheckContext(question, Candidate(sql), "sqlite", catalog)
    return [(f.code, f.message) for c in CONDITION_CHECKS for f in c(ctx).findings]


def _rows(db: Path, sql: str) -> list[str] | None:
    con = sqlite3.connect(db)
    con.text_factory = lambda b: b.decode(errors="replace")
    try:
        return sorted(map(repr, con.execute(sql).fetchmany(5000)))
    except Exception:  # a query that fails on SQLite is no labelled answer
        return None
    finally:
        con.close()


def _sqlite_catalog(db: Path) -> Catalog:
    con = sqlite3.connect(db)
    try:
        names = [n for (n,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        tables = tuple(
            TableInfo(
                n, tuple(ColumnInfo(c[1], c[2]) for c in con.execute(f'PRAGMA table_info("{n}")'))
            )
            for n in names
        )
    finally:
        con.close()
    return Catalog(tables, dialect="sqlite")


def _ehrsql(counts: Counter[str], show: bool) -> None:
    root = SHARED / "ehrsql-2024"
    if not root.exists():
        return
    schema = json.loads((root / "tables.json").read_text())[0]
    tables, columns = schema["table_names_original"], schema["column_names_original"]
    catalog = Catalog(
        tuple(
            TableInfo(t, tuple(ColumnInfo(c, "") for i, c in columns if i == n))
            for n, t in enumerate(tables)
        ),
        # The keys its schema (mimic_iv.sql) declares, as a connector reads them.
        foreign_keys=tuple(
            ForeignKey(
                tables[columns[a][0]], (columns[a][1],), tables[columns[b][0]], (columns[b][1],)
            )
            for a, b in schema["foreign_keys"]
        ),
        dialect="sqlite",
    )
    for split in ("train", "valid"):
        data = json.loads((root / split / "data.json").read_text())["data"]
        label = json.loads((root / split / "label.json").read_text())
        for row in data:
            sql = label.get(row["id"])
            if not sql or sql == "null":
                continue
            counts["ehrsql gold"] += 1
            for code, message in _fired(row["question"], sql, catalog):
                counts[f"ehrsql gold: {code}"] += 1
                print("ehrsql gold", code, "|", row["question"], "|", sql, "|", message)


def _labelled(
    counts: Counter[str],
    name: str,
    question: str,
    db: Path,
    gold: list[str] | None,
    sql: str,
    catalog: Catalog,
    show: bool,
    right: bool | None = None,
) -> None:
    if right is None:
        rows = _rows(db, sql)
        if rows is None:
            return
        right = gold is not None and rows == gold
    key = f"{name} {'right' if right else 'wrong'}"
    counts[key] += 1
    for code, message in _fired(question, sql, catalog):
        counts[f"{key}: {code}"] += 1
        if show or right:
            print(key, code, "|", question, "|", sql, "|", message)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print firings on wrong answers too")
    show = parser.parse_args().show
    counts: Counter[str] = Counter()
    _ehrsql(counts, show)
    catalogs: dict[str, Catalog] = {}
    questions = SPIDER / "questions.jsonl"
    for line in questions.read_text().splitlines() if questions.exists() else []:
        r = json.loads(line)
        db = SPIDER / "database" / r["db_id"] / f"{r['db_id']}.sqlite"
        catalog = catalogs.setdefault(r["db_id"], _sqlite_catalog(db))
        gold = _rows(db, r["gold_sql"])
        _labelled(counts, "spider", r["question"], db, gold, r["gold_sql"], catalog, show, True)
        for sql in r["predictions"].values():
            _labelled(counts, "spider", r["question"], db, gold, sql, catalog, show)
    tasks_file = SHARED / "intercode-sql" / "tasks.jsonl"
    tasks = {}
    for line in tasks_file.read_text().splitlines() if tasks_file.exists() else []:
        task = json.loads(line)
        tasks[task["task_id"]] = task
    seen: set[tuple[int, str]] = set()
    for path in sorted((SHARED / "intercode-sql" / "trajectories").glob("*.jsonl")):
        for line in path.read_text().splitlines():
            run = json.loads(line)
            task = tasks.get(run.get("task_id"))
            if task is None:
                continue
            db = SPIDER / "database" / task["db"] / f"{task['db']}.sqlite"
            if not db.exists():
                continue
            catalog = catalogs.setdefault(task["db"], _sqlite_catalog(db))
            gold = _rows(db, task["gold"])
            for sql in run["turn_history"]["actions"]:
                if not isinstance(sql, str) or not sql.strip().lower().startswith("select"):
                    continue
                if (task["task_id"], sql) in seen:
                    continue
                seen.add((task["task_id"], sql))
                _labelled(counts, "intercode", task["query"], db, gold, sql, catalog, show)
    for key, value in sorted(counts.items()):
        print(f"{key}: {value}" if ": " not in key else f"  {key}: {value}")


if __name__ == "__main__":
    main()
