"""Fire the col15 readings (``assay.checks._named_fit``, ``_text_numbers``) and count16's
(``aggregate_fit`` with the database's profiles, ``comparison_fit`` on years said as ages) on
answers known right or wrong, with the loop of ``scan_conditions.py``: every firing on a right
answer is a false positive to read.

Usage:
    .venv/bin/python scripts/scan_named.py [--show]

Each reading is called directly, not through the check that hosts it (``ranking_fit`` adds the
direction problems only when it found none of its own; ``table_fit`` counts only when the
question's tables share a word with those read), so the counts are an upper bound. The number
reading needs a database: it runs on the Spider slice and InterCode, not on EHRSQL (no
database there). The Spider slice was looked at while the readings were built (tuned on).
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

import scan_conditions as scan

from assay.catalog import Catalog, Profiles
from assay.checks import CheckContext
from assay.checks._consistency import _read, aggregate_fit, comparison_fit
from assay.checks._named_fit import counted_elsewhere, direction_problems, one_word_columns
from assay.checks._sql import parse_query
from assay.checks._text_numbers import numbers_in_text
from assay.checks._values import _owner
from assay.types import Candidate, Result

_DBS: dict[int, Path] = {}
_catalog = scan._sqlite_catalog


def _remember(db: Path) -> Catalog:
    catalog = _catalog(db)
    _DBS[id(catalog)] = db
    return catalog


class _Runner:
    dialect = "sqlite"  # profile_column writes its SQL for it

    def __init__(self, db: Path) -> None:
        self.db = db

    def execute(self, sql: str, *, time_limit_ms: int, max_rows: int) -> Result:
        con = sqlite3.connect(self.db)
        con.text_factory = lambda b: b.decode(errors="replace")
        try:
            rows = con.execute(sql).fetchmany(max_rows)
        finally:
            con.close()
        return Result(("v",), tuple(tuple(r) for r in rows), len(rows))


def _fired(question: str, sql: str, catalog: Catalog | None) -> list[tuple[str, str]]:
    tree = parse_query(sql, "sqlite")
    if tree is None or catalog is None:
        return []
    found = [(f.code, f.message) for f in one_word_columns(question, tree, catalog)]
    ctx = CheckContext(question, Candidate(sql), "sqlite", catalog)
    read = _read(ctx)
    if read is not None:
        cues = read[0]
        wants_max = "max" in cues.aggregates and "min" not in cues.aggregates
        wants_min = "min" in cues.aggregates and "max" not in cues.aggregates
        for problem in direction_problems(question, tree, (wants_max, wants_min)):
            found.append(("signal.ranking_mismatch (direction)", problem))
    counted = counted_elsewhere(question, tree, catalog)
    if counted is not None:
        found.append((counted.code, counted.message))
    db = _DBS.get(id(catalog))
    if db is not None:
        profiled = CheckContext(
            question, Candidate(sql), "sqlite", catalog, profiles=Profiles(_Runner(db), catalog)
        )
        found += [(f.code, f.message) for f in numbers_in_text(profiled, tree, _owner)]
        ctx = profiled  # aggregate_fit reads which columns are keys from the profiles
    for check in (aggregate_fit, comparison_fit):
        found += [(f.code, f.message) for f in check(ctx).findings]
    return found


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    scan._sqlite_catalog = _remember
    scan._fired = _fired
    scan.main()
