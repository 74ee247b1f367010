"""The joins ``assay semantic init`` would infer, scored against the true foreign keys.

Usage:
    .venv/bin/python scripts/drafted_joins_eval.py [--tpcds PATH.duckdb] [--spider]

For each database: profile it, discover its keys from the data (``discover_foreign_keys``) and
keep those the drafter proposes as joins (a key whose names agree, ``InferredKey.named``; a
version of Assay without that field proposes every discovered key). Declared keys are ignored
(the drafter would take those as declared): this measures inference alone. Truth: Spider's
declared keys from ``tables.json`` (the slice ``../shared/data/spider-slice``), and TPC-DS's
``*_sk`` -> dimension rule (``tpcds_keys``). Prints one JSON line per database, then a pooled
line per benchmark, with every inferred join, every false one and every miss.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from assay.catalog import (
    deep_profile,
    discover_foreign_keys,
    evaluate_keys,
    spider_keys,
    tpcds_keys,
)
from assay.connectors import connect

SLICE = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "spider-slice"
Edge = tuple[str, str, str, str]


def _joins(db: Path) -> tuple[tuple[Edge, ...], list[tuple[str, str]]]:
    with connect(str(db)) as connector:
        catalog = connector.catalog()
        keys = discover_foreign_keys(connector, deep_profile(connector, catalog))
    columns = [(t.name, c.name) for t in catalog.tables for c in t.columns]
    kept = tuple(
        (k.table, k.column, k.ref_table, k.ref_column)
        for k in keys.keys
        if getattr(k, "named", True)
    )
    return kept, columns


def _line(name: str, found: tuple[Edge, ...], truth: tuple[Edge, ...]) -> dict[str, object]:
    scored = evaluate_keys(found, truth).to_dict()
    return {"database": name, "inferred": [f"{a}.{b} -> {c}.{d}" for a, b, c, d in found], **scored}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tpcds", type=Path, help="a TPC-DS DuckDB file (sf 0.01 is enough)")
    parser.add_argument("--spider", action="store_true", help="the Spider slice's databases")
    args = parser.parse_args()
    if args.spider:
        pooled_found: list[Edge] = []
        pooled_truth: list[Edge] = []
        for db in ("car_1", "concert_singer", "pets_1"):
            found, _ = _joins(SLICE / "database" / db / f"{db}.sqlite")
            truth = spider_keys(SLICE / "tables.json", db)
            print(json.dumps(_line(db, found, truth)), flush=True)
            pooled_found += [(f"{db}.{t}", c, f"{db}.{rt}", rc) for t, c, rt, rc in found]
            pooled_truth += [(f"{db}.{t}", c, f"{db}.{rt}", rc) for t, c, rt, rc in truth]
        scored = evaluate_keys(tuple(pooled_found), tuple(pooled_truth)).to_dict()
        print(json.dumps({"database": "spider-slice (pooled)", **scored}), flush=True)
    if args.tpcds:
        found, columns = _joins(args.tpcds)
        print(json.dumps(_line("tpcds", found, tpcds_keys(columns))), flush=True)


if __name__ == "__main__":
    main()
