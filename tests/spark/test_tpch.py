"""The 22 TPC-H queries, written by DuckDB's extension and transpiled to Spark's dialect, pass
the Spark guard (with Spark's own analysis as the cross-check) and return DuckDB's rows, to the
decimals both engines print."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import sqlglot

from assay.bench.datasets._tpc import tpc_queries
from assay.connectors._spark import SparkConnector
from assay.guard._spark import validate_spark

QUERIES = tpc_queries("tpch")


def _places(value: Decimal) -> int:
    exponent = value.as_tuple().exponent
    return -exponent if isinstance(exponent, int) and exponent < 0 else 0


def same_value(a: Any, b: Any) -> bool:
    """Equal, numbers compared to the fewer decimals of the two as printed.

    Example:
        >>> same_value(Decimal("25.575155"), 25.575154611454693)
        True
        >>> same_value(Decimal("25.575155"), 25.575164611454693)
        False
    """
    numbers = (int, float, Decimal)
    if isinstance(a, numbers) and isinstance(b, numbers) and not isinstance(a, bool):
        da, db = Decimal(str(a)), Decimal(str(b))
        places = min(_places(da), _places(db))
        quantum = Decimal(1).scaleb(-places)
        return da.quantize(quantum) == db.quantize(quantum)
    if isinstance(a, dt.datetime) and isinstance(b, dt.datetime):
        return a.replace(tzinfo=None) == b.replace(tzinfo=None)
    return bool(a == b)


def test_same_value_reads_decimals_as_printed() -> None:
    assert same_value(Decimal("0.000000"), 0.0)
    assert same_value(1995, 1995) and not same_value("a", "b")
    assert not same_value(Decimal("1.25"), Decimal("1.26"))


@pytest.mark.slow
@pytest.mark.parametrize(("number", "query"), QUERIES, ids=[f"q{n:02d}" for n, _ in QUERIES])
def test_tpch_through_the_guard_equals_duckdb(
    number: int, query: str, spark: SparkConnector, tpch_duckdb: Path
) -> None:
    import duckdb

    spark_sql = sqlglot.transpile(query, read="duckdb", write="spark")[0]
    report = validate_spark(spark_sql, catalog=spark.catalog(), plan=spark.plan)
    assert report.ok and report.sql is not None, report.violations
    got = spark.execute(report.sql, time_limit_ms=120_000, max_rows=10_000)
    con = duckdb.connect(str(tpch_duckdb), read_only=True)
    try:
        want = con.execute(query).fetchall()
    finally:
        con.close()
    assert not got.truncated and len(got.rows) == len(want) > 0
    for i, (g, w) in enumerate(zip(got.rows, want, strict=True)):
        assert len(g) == len(w)
        mismatched = [(a, b) for a, b in zip(g, w, strict=True) if not same_value(a, b)]
        assert mismatched == [], f"Q{number} row {i}: Spark {g} != DuckDB {w}"
