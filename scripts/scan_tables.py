"""Fire the readings of which rows and keys the SQL reads (``table_fit``, ``aggregate_fit``,
``_date_keys.date_keys_misread`` and the guard's ``guard.unrelated_join`` at error level) on
answers known right or wrong, with the loop of ``scan_conditions.py``: every firing on a right
answer is a false positive to read.

Usage:
    .venv/bin/python scripts/scan_tables.py [--show]

The catalogues are read from the SQLite files (EHRSQL: its ``tables.json``) without their
declared foreign keys, so the guard judges joins by their names alone, as it does on a
database that declares no keys (TPC-DS as ``build_tpc`` writes it). The checks whose silence
these readings widen (``table_fit``'s store channel, ``aggregate_fit``'s breakdown by a
measure) are counted too, so a lost catch on a wrong answer shows. The Spider slice was looked
at while the readings were built (tuned on); EHRSQL and InterCode were only scanned.
"""

from __future__ import annotations

import sys
from pathlib import Path

import scan_conditions as scan

from assay.catalog import Catalog
from assay.checks import CheckContext
from assay.checks._consistency import aggregate_fit, table_fit
from assay.checks._date_keys import date_keys_misread
from assay.checks._sql import parse_query
from assay.guard import validate
from assay.types import Candidate


def _fired(question: str, sql: str, catalog: Catalog | None) -> list[tuple[str, str]]:
    ctx = CheckContext(question, Candidate(sql), "sqlite", catalog)
    found = [
        (f"{check.__name__}: {f.code}", f.message)
        for check in (table_fit, aggregate_fit)
        for f in check(ctx).findings
    ]
    tree = parse_query(sql, "sqlite")
    if tree is not None and catalog is not None:
        found += [
            (f"date keys: {f.code}", f.message) for f in date_keys_misread(question, tree, catalog)
        ]
    report = validate(sql, catalog=catalog, dialect="sqlite")
    found += [
        (f"{v.code} ({v.severity})", v.message)
        for v in report.violations
        if v.code == "guard.unrelated_join" and v.severity == "error"
    ]
    return found


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    scan._fired = _fired
    scan.main()
