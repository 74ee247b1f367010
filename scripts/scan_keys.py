"""Fire ``partial_key_join`` (``assay.checks._partial_keys``) and ``date_join``
(``assay.checks._date_joins``: two tables joined on dates alone beside a shared key) on answers
known right or wrong, and count: every firing on a right answer is a false positive to read.

Usage:
    .venv/bin/python scripts/scan_keys.py [--show]

Two parts:
- The loop of ``scan_conditions.py`` (EHRSQL gold, Spider right and wrong, InterCode right and
  wrong), with each Spider database's profiles read from its SQLite file; EHRSQL has no
  database, so only its declared keys are read there.
- The official TPC-DS (99) and TPC-H (22) queries on the sf 0.01 warehouses the benchmarks
  build (``/tmp/assay-scan-keys``): right by definition, and a negative control, for they join
  returns to sales on the ticket or order number AND the item, and lineitem to partsupp on
  the part AND the supplier.
"""

from __future__ import annotations

import sys
from pathlib import Path

import scan_conditions as scan
import scan_named as named

from assay.bench.datasets import build_tpc, tpc_queries
from assay.catalog import Catalog, Profiles
from assay.checks import CheckContext
from assay.checks._date_joins import date_join
from assay.checks._partial_keys import partial_key_join
from assay.connectors import connect
from assay.types import Candidate

TPC = Path("/tmp/assay-scan-keys")
KEY_CHECKS = (partial_key_join, date_join)


def _fired(question: str, sql: str, catalog: Catalog | None) -> list[tuple[str, str]]:
    if catalog is None:
        return []
    db = named._DBS.get(id(catalog))
    profiles = Profiles(named._Runner(db), catalog) if db is not None else None
    ctx = CheckContext(question, Candidate(sql), "sqlite", catalog, profiles=profiles)
    return [(f.code, f.message) for check in KEY_CHECKS for f in check(ctx).findings]


def _tpc(show: bool) -> None:
    for name in ("tpcds", "tpch"):
        connector = connect(str(build_tpc(name, 0.01, TPC / f"{name}.duckdb")))
        catalog = connector.catalog()
        profiles = Profiles(connector, catalog)
        queries = tpc_queries(name)
        fired = 0
        for number, sql in queries:
            ctx = CheckContext("", Candidate(sql), "duckdb", catalog, profiles=profiles)
            findings = [f for check in KEY_CHECKS for f in check(ctx).findings]
            fired += bool(findings)
            for f in findings if show else ():
                print(f"{name} q{number} {f.code} | {f.message}")
        print(f"{name} official queries: {len(queries)}, the key checks fired on {fired}")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    scan._sqlite_catalog = named._remember
    scan._fired = _fired
    scan.main()
    _tpc("--show" in sys.argv)
