"""No false rejections on real SQL: all 22 TPC-H and 99 TPC-DS official queries pass the guard
and execute through the DuckDB connector at scale factor 0.01, with the same rows as the
original text run directly."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from assay.bench.datasets import tpc_queries
from assay.connectors import PooledConnector, connect
from assay.pipeline import run_sql
from assay.settings import load_settings

SETTINGS = load_settings({}, time_limit_ms=60_000, max_rows=10_000)
QUERIES = [(b, n, q) for b in ("tpch", "tpcds") for n, q in tpc_queries(b)]


@pytest.fixture(scope="module")
def tpc_paths(tpch_duckdb: Path, tpcds_duckdb: Path) -> dict[str, Path]:
    return {"tpch": tpch_duckdb, "tpcds": tpcds_duckdb}


@pytest.fixture(scope="module")
def tpc_connectors(tpc_paths: dict[str, Path]) -> Iterator[dict[str, PooledConnector]]:
    connectors = {b: connect(str(p)) for b, p in tpc_paths.items()}
    yield connectors
    for connector in connectors.values():
        connector.close()


def test_all_official_queries_are_here() -> None:
    assert sum(1 for b, _, _ in QUERIES if b == "tpch") == 22
    assert sum(1 for b, _, _ in QUERIES if b == "tpcds") == 99


def _canonical(rows: list[tuple[object, ...]] | tuple[tuple[object, ...], ...]) -> list[str]:
    return sorted(repr(tuple(r)) for r in rows)


@pytest.mark.parametrize(
    ("bench", "number", "sql"), QUERIES, ids=[f"{b}-q{n}" for b, n, _ in QUERIES]
)
def test_official_query_passes_and_matches(
    bench: str,
    number: int,
    sql: str,
    tpc_connectors: dict[str, PooledConnector],
    tpc_paths: dict[str, Path],
) -> None:
    run = run_sql(sql, tpc_connectors[bench], SETTINGS)
    assert run.report.ok, [v.to_dict() for v in run.report.violations]
    assert run.result is not None and not run.result.truncated
    direct = duckdb.connect(str(tpc_paths[bench]), read_only=True)
    try:
        expected = direct.execute(sql).fetchall()
    finally:
        direct.close()
    assert _canonical(run.result.rows) == _canonical(expected)
