"""Guard speed: parse, every rule and regeneration over the 121 TPC queries, and on a 20 KB
statement. Baseline in the same run: sqlglot's parse alone on the same text."""

from __future__ import annotations

import sqlglot

from assay.bench.datasets import build_tpc, tpc_queries
from assay.catalog import Catalog
from assay.connectors import connect
from assay.guard import validate
from assay.settings import load_settings
from benchmarks._common import median, percentile, report, timings, write


def _catalogs() -> dict[str, Catalog]:
    cache = load_settings().cache_path
    out = {}
    for bench in ("tpch", "tpcds"):
        path = build_tpc(bench, 0.01, cache / f"{bench}-sf0.01.duckdb")
        with connect(str(path)) as connector:
            out[bench] = connector.catalog()
    return out


def big_statement(target_bytes: int = 20_000) -> str:
    parts = []
    i = 0
    while sum(len(p) + 2 for p in parts) < target_bytes - 200:
        parts.append(
            f"CASE WHEN l_quantity > {i % 50} THEN l_extendedprice * {i % 7 + 1} ELSE 0 END AS c{i}"
        )
        i += 1
    return "SELECT " + ",\n  ".join(parts) + "\nFROM lineitem WHERE l_shipdate < DATE '1998-01-01'"


def run() -> dict[str, object]:
    catalogs = _catalogs()
    queries = [(b, q) for b in ("tpch", "tpcds") for _, q in tpc_queries(b)]
    for bench, sql in queries:  # warm caches and imports
        assert validate(sql, catalog=catalogs[bench], dialect="duckdb").ok
    guard_ms: list[float] = []
    parse_ms: list[float] = []
    for _ in range(5):
        for bench, sql in queries:
            catalog = catalogs[bench]
            guard_ms += timings(
                lambda s=sql, c=catalog: validate(s, catalog=c, dialect="duckdb"), 1
            )
            parse_ms += timings(lambda s=sql: sqlglot.parse_one(s, read="duckdb"), 1)
    big = big_statement()
    assert validate(big, catalog=catalogs["tpch"], dialect="duckdb").ok
    big_ms = timings(lambda: validate(big, catalog=catalogs["tpch"], dialect="duckdb"), 20)
    big_parse = timings(lambda: sqlglot.parse_one(big, read="duckdb"), 20)
    record = {
        "n_queries": len(queries),
        "guard_p50_ms": round(median(guard_ms), 3),
        "guard_p95_ms": round(percentile(guard_ms, 95), 3),
        "parse_p50_ms": round(median(parse_ms), 3),
        "parse_p95_ms": round(percentile(parse_ms, 95), 3),
        "guard_over_parse_p95": round(percentile(guard_ms, 95) / percentile(parse_ms, 95), 2),
        "big_statement_bytes": len(big.encode()),
        "big_guard_median_ms": round(median(big_ms), 3),
        "big_parse_median_ms": round(median(big_parse), 3),
        "sqlglot_compiled": sqlglot.parser.__file__.endswith(".so"),
    }
    write("guard", record)
    report(
        "guard",
        [
            (
                "p95 over 121 TPC queries",
                f"{record['guard_p95_ms']} ms",
                "< 10 ms",
                record["guard_p95_ms"] < 10,
            ),
            (
                "20 KB statement (median)",
                f"{record['big_guard_median_ms']} ms",
                "< 50 ms",
                record["big_guard_median_ms"] < 50,
            ),
            ("guard / parse alone at p95", f"{record['guard_over_parse_p95']}x", "reported", True),
        ],
    )
    return record
