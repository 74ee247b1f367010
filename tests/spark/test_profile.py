"""The catalog's profiles and key overlaps, pushed into Spark as one aggregate query each, equal
DuckDB's over the same TPC-H data; nothing but the aggregate row comes back."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.catalog import Profiles
from assay.catalog._profile import key_overlap, profile_column
from assay.connectors import connect
from assay.connectors._spark import SparkConnector

COLUMNS = [
    ("lineitem", "l_quantity"),
    ("lineitem", "l_shipdate"),
    ("orders", "o_orderdate"),
    ("orders", "o_custkey"),
    ("customer", "c_name"),
    ("part", "p_size"),
]


@pytest.mark.parametrize(("table", "column"), COLUMNS)
def test_profile_equals_duckdb(
    table: str, column: str, spark: SparkConnector, tpch_duckdb: Path
) -> None:
    spark_type = spark.catalog().table(table).column(column).type  # type: ignore[union-attr]
    before = len(spark.statement_log)
    got = profile_column(spark, table, column, spark_type)
    sent = spark.statement_log[before:]
    assert [s.purpose for s in sent] == ["query"]  # one pass over the table
    with connect(str(tpch_duckdb)) as duck:
        duck_type = duck.catalog().table(table).column(column).type  # type: ignore[union-attr]
        want = profile_column(duck, table, column, duck_type)
    assert (got.n_rows, got.n_null, got.n_distinct) == (want.n_rows, want.n_null, want.n_distinct)
    assert got.stand_in_values == want.stand_in_values
    assert got.n_rows > 0


def test_key_overlap_equals_duckdb(spark: SparkConnector, tpch_duckdb: Path) -> None:
    pairs = [(("orders", "o_custkey"), ("customer", "c_custkey"))]
    pairs.append((("lineitem", "l_partkey"), ("part", "p_partkey")))
    with connect(str(tpch_duckdb)) as duck:
        for left, right in pairs:
            got = key_overlap(spark, left, right)
            want = key_overlap(duck, left, right)
            assert (got.n_left, got.n_right, got.n_both) == (want.n_left, want.n_right, want.n_both)
    assert 0 < got.rho <= 1


def test_profiles_cache_over_spark(spark: SparkConnector) -> None:
    profiles = Profiles(spark, spark.catalog())
    first = profiles.profile("nation", "n_regionkey")
    before = len(spark.statement_log)
    assert profiles.profile("NATION", "N_REGIONKEY") == first
    assert len(spark.statement_log) == before
    assert first is not None and first.n_distinct == 5
