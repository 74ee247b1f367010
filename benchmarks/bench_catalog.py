"""Catalog reconstruction on TPC-H SF 1: the deep profile against DuckDB's own ``SUMMARIZE`` of
the same tables on the same connection in the same run (target: within 2x), key discovery
(target: under 30 s), and the profiler's Python memory at SF 0.1 and SF 1 (target: flat, the
sample is bounded; the engine's memory is bounded by its own limit)."""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path
from typing import Any

import duckdb

from assay.bench.datasets import build_tpc
from assay.catalog import (
    TPCH_KEYS,
    Catalog,
    ColumnInfo,
    TableInfo,
    deep_profile,
    discover_foreign_keys,
    evaluate_keys,
)
from assay.settings import load_settings
from assay.types import Result
from benchmarks._common import report, write

THREADS = 2
REPEAT = 3


class DirectRunner:
    """A ``SqlRunner`` over one DuckDB connection (both sides of the ratio use it)."""

    dialect = "duckdb"

    def __init__(self, path: Path):
        self.con = duckdb.connect(str(path), read_only=True, config={"threads": THREADS})

    def execute(self, sql: str, *, time_limit_ms: int, max_rows: int) -> Result:
        cursor = self.con.execute(sql)
        rows = cursor.fetchmany(max_rows)
        columns = tuple(d[0] for d in cursor.description or ())
        return Result(columns, tuple(tuple(r) for r in rows), None)

    def catalog(self) -> Catalog:
        rows = self.con.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = 'main' ORDER BY table_name, ordinal_position"
        ).fetchall()
        tables: dict[str, list[ColumnInfo]] = {}
        for table, column, type_ in rows:
            tables.setdefault(table, []).append(ColumnInfo(column, type_))
        return Catalog(tuple(TableInfo(t, tuple(c)) for t, c in sorted(tables.items())))


def _summarize(runner: DirectRunner, catalog: Catalog) -> None:
    for table in catalog.tables:
        runner.con.execute(f'SUMMARIZE "{table.name}"').fetchall()


def _python_peak_mb(path: Path) -> float:
    runner = DirectRunner(path)
    tracemalloc.start()
    deep_profile(runner, runner.catalog())
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    runner.con.close()
    return peak / 2**20


def run() -> dict[str, Any]:
    cache = load_settings().cache_path
    sf1 = build_tpc("tpch", 1, cache / "tpch-sf1.duckdb")
    sf01 = build_tpc("tpch", 0.1, cache / "tpch-sf0.1.duckdb")
    runner = DirectRunner(sf1)
    catalog = runner.catalog()
    _summarize(runner, catalog)  # warm the buffer pool for both
    summarize_s: list[float] = []
    profile_s: list[float] = []
    profile = None
    for _ in range(REPEAT):  # interleaved, so drift hits both alike
        started = time.perf_counter()
        _summarize(runner, catalog)
        summarize_s.append(time.perf_counter() - started)
        started = time.perf_counter()
        profile = deep_profile(runner, catalog)
        profile_s.append(time.perf_counter() - started)
    assert profile is not None
    started = time.perf_counter()
    keys = discover_foreign_keys(runner, profile)
    keys_s = time.perf_counter() - started
    runner.con.close()
    found = tuple((k.table, k.column, k.ref_table, k.ref_column) for k in keys.keys)
    quality = evaluate_keys(found, TPCH_KEYS)
    ratio = min(profile_s) / min(summarize_s)
    peak_small, peak_large = _python_peak_mb(sf01), _python_peak_mb(sf1)
    memory_ratio = peak_large / peak_small
    record = {
        "scale_factor": 1,
        "threads": THREADS,
        "repeat": REPEAT,
        "summarize_best_s": round(min(summarize_s), 3),
        "profile_best_s": round(min(profile_s), 3),
        "profile_over_summarize": round(ratio, 3),
        "key_discovery_s": round(keys_s, 3),
        "key_pairs": keys.n_pairs,
        "key_pairs_pruned": keys.n_pruned,
        "key_joins": keys.n_joins,
        "key_precision": round(quality.precision, 4),
        "key_recall": round(quality.recall, 4),
        "python_peak_mb_sf0_1": round(peak_small, 2),
        "python_peak_mb_sf1": round(peak_large, 2),
        "python_peak_ratio": round(memory_ratio, 3),
    }
    write("catalog", record)
    report(
        "catalog",
        [
            ("deep profile / SUMMARIZE, TPC-H SF1", f"{ratio:.2f}x", "<= 2x", ratio <= 2.0),
            ("key discovery, TPC-H SF1", f"{keys_s:.1f} s", "< 30 s", keys_s < 30),
            (
                "profiler Python peak, SF1 / SF0.1",
                f"{memory_ratio:.2f}x ({peak_large:.1f} MiB)",
                "flat (<= 1.5x)",
                memory_ratio <= 1.5,
            ),
        ],
    )
    return record


if __name__ == "__main__":
    run()
