"""Foreign-key reconstruction against declared and specified keys, mangled and not.

Usage:
    .venv/bin/python scripts/catalog_keys_eval.py [--tpch-sf 0.01] [--tpcds-sf 0.01] \
        [--seeds 0 1 2] [--work /tmp/keys-eval]

For the Spider slice (``../shared/data/spider-slice``, declared keys from ``tables.json``), TPC-H
(the specification's nine single-column keys) and TPC-DS (the specification's ``*_sk`` rule),
at severity 0 and 1 and each mangling seed: each database is mangled with
``assay.catalog.mangle``, its keys are discovered from the data alone, and the result is scored
against the truth translated through the name map. Prints one JSON line per benchmark,
severity and seed (pooled over the slice's databases), with misses and false keys by name.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import duckdb

from assay.bench.datasets import build_tpc
from assay.catalog import (
    TPCH_KEYS,
    deep_profile,
    discover_foreign_keys,
    evaluate_keys,
    mangle,
    spider_keys,
    tpcds_keys,
)
from assay.connectors import connect

SLICE = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "spider-slice"


def _found(db: Path) -> tuple[tuple[str, str, str, str], ...]:
    with connect(str(db)) as connector:
        keys = discover_foreign_keys(connector, deep_profile(connector, connector.catalog()))
    return tuple((k.table, k.column, k.ref_table, k.ref_column) for k in keys.keys)


def _cases(args: argparse.Namespace, work: Path) -> dict[str, list[tuple[str, Path, tuple]]]:
    cases: dict[str, list[tuple[str, Path, tuple]]] = {}
    if SLICE.exists():
        cases["spider-slice"] = [
            (db, SLICE / "database" / db / f"{db}.sqlite", spider_keys(SLICE / "tables.json", db))
            for db in ("car_1", "concert_singer", "pets_1")
        ]
    tpch = build_tpc("tpch", args.tpch_sf, work / f"tpch-{args.tpch_sf}.duckdb")
    cases[f"tpch-sf{args.tpch_sf}"] = [("tpch", tpch, TPCH_KEYS)]
    tpcds = build_tpc("tpcds", args.tpcds_sf, work / f"tpcds-{args.tpcds_sf}.duckdb")
    con = duckdb.connect(str(tpcds), read_only=True)
    columns = con.execute(
        "SELECT table_name, column_name FROM information_schema.columns"
    ).fetchall()
    con.close()
    cases[f"tpcds-sf{args.tpcds_sf}"] = [("tpcds", tpcds, tpcds_keys(columns))]
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tpch-sf", type=float, default=0.01)
    parser.add_argument("--tpcds-sf", type=float, default=0.01)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/keys-eval"))
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    for bench, dbs in _cases(args, args.work).items():
        for severity in (0.0, 1.0):
            for seed in args.seeds if severity else [0]:
                totals = [0, 0, 0]
                misses: list[str] = []
                false: list[str] = []
                for name, source, truth in dbs:
                    out = args.work / f"m-{name}-{severity}-{seed}{source.suffix}"
                    out.unlink(missing_ok=True)
                    Path(f"{out}.names.json").unlink(missing_ok=True)
                    names = mangle(source, out, severity=severity, seed=seed)
                    result = evaluate_keys(_found(out), truth, names)
                    totals = [
                        totals[0] + result.n_truth,
                        totals[1] + result.n_found,
                        totals[2] + result.n_correct,
                    ]
                    record = result.to_dict()
                    misses += [f"{name}: {m}" for m in record["misses"]]  # type: ignore[union-attr]
                    false += [f"{name}: {f}" for f in record["false_keys"]]  # type: ignore[union-attr]
                print(
                    json.dumps(
                        {
                            "benchmark": bench,
                            "severity": severity,
                            "seed": seed,
                            "truth": totals[0],
                            "found": totals[1],
                            "correct": totals[2],
                            "precision": round(totals[2] / totals[1], 4) if totals[1] else None,
                            "recall": round(totals[2] / totals[0], 4) if totals[0] else None,
                            "misses": misses,
                            "false_keys": false,
                        }
                    ),
                    flush=True,
                )
    shutil.rmtree(args.work / "unused", ignore_errors=True)


if __name__ == "__main__":
    main()
