"""The Spark Connect connector's contract, against the server started by the test setup."""

from __future__ import annotations

import time

import pytest

from assay.connectors import Connector
from assay.connectors._spark import SPARK_GRACE_S, SparkConnector, connect_spark
from assay.errors import ConnectionFailed, ExecutionFailed, ExecutionTimeout

LIMIT_MS = 1_500


def test_is_a_connector(spark: SparkConnector) -> None:
    assert isinstance(spark, Connector)
    assert spark.dialect == "spark"


def test_row_cap_computes_at_most_one_more_row(spark: SparkConnector) -> None:
    result = spark.execute(
        "SELECT l_orderkey FROM lineitem ORDER BY l_orderkey DESC, l_linenumber",
        time_limit_ms=30_000,
        max_rows=5,
    )
    assert len(result.rows) == 5 and result.truncated and result.row_count is None
    assert [r[0] for r in result.rows] == sorted((r[0] for r in result.rows), reverse=True)
    whole = spark.execute("SELECT count(*) FROM nation", time_limit_ms=30_000, max_rows=5)
    assert whole.rows == ((25,),) and not whole.truncated and whole.row_count == 1


def test_the_cap_is_in_the_plan(spark: SparkConnector) -> None:
    """A query producing a trillion rows comes back at once: only max_rows + 1 are computed."""
    started = time.monotonic()
    result = spark.execute("SELECT id FROM range(1000000000000)", time_limit_ms=20_000, max_rows=3)
    assert result.rows == ((0,), (1,), (2,)) and result.truncated
    assert time.monotonic() - started < 10


def test_time_limit_cancels_in_the_engine_and_recovers(spark: SparkConnector) -> None:
    started = time.monotonic()
    with pytest.raises(ExecutionTimeout, match="time limit of 1500 ms"):
        spark.execute(
            # Over a table: Spark kills a task only where it checks (a file scan does; a bare
            # range(n) loop does not, and keeps its core: the guard bounds range and sequence).
            "SELECT count(*) FROM lineitem a JOIN lineitem b ON a.l_partkey % 3 = b.l_partkey % 3",
            time_limit_ms=LIMIT_MS,
            max_rows=1,
        )
    assert time.monotonic() - started < LIMIT_MS / 1000 + SPARK_GRACE_S + 1
    assert any(s.sql.startswith("-- interrupt") for s in spark.statement_log)
    assert spark.execute("SELECT 41 + 1", time_limit_ms=30_000, max_rows=1).rows == ((42,),)


def test_statement_log_names_every_statement(spark: SparkConnector) -> None:
    spark.execute("SELECT 7 AS seven", time_limit_ms=30_000, max_rows=1)
    log = spark.statement_log
    assert log[0].purpose == "setup"
    assert ("SELECT 7 AS seven", "query") in [(s.sql, s.purpose) for s in log]


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO nation SELECT * FROM nation",
        "SET spark.sql.ansi.enabled = false",
        "CACHE TABLE nation",
        "CREATE TEMPORARY VIEW v AS SELECT 1",
        "ADD JAR /tmp/assay.jar",
        "DROP TABLE nation",
        "SELECT 1) AS x; DROP TABLE nation; SELECT * FROM (SELECT 1",
    ],
)
def test_a_command_does_not_parse_inside_the_wrapper(spark: SparkConnector, statement: str) -> None:
    with pytest.raises(ExecutionFailed):
        spark.execute(statement, time_limit_ms=30_000, max_rows=1)
    assert spark.execute("SELECT count(*) FROM nation", time_limit_ms=30_000, max_rows=1).rows == (
        (25,),
    )


def test_a_value_assay_cannot_read_is_a_named_error(spark: SparkConnector) -> None:
    with pytest.raises(ExecutionFailed, match="type 'VariantVal'"):
        spark.execute("SELECT parse_json('{\"a\": 1}') AS v", time_limit_ms=30_000, max_rows=1)


def test_catalog_lists_tables_and_types(spark: SparkConnector) -> None:
    catalog = spark.catalog()
    assert {"lineitem", "orders", "nation"} <= {t.name for t in catalog.tables}
    lineitem = catalog.table("lineitem")
    assert lineitem is not None
    assert lineitem.column("l_quantity") is not None
    assert lineitem.column("l_quantity").type == "decimal(15,2)"  # type: ignore[union-attr]
    assert catalog.dialect == "spark" and catalog.foreign_keys == ()
    assert any(s.purpose == "catalog" and s.sql == "SHOW TABLES" for s in spark.statement_log)


def test_nothing_listening_is_a_connection_error() -> None:
    started = time.monotonic()
    with pytest.raises(ConnectionFailed, match="cannot be reached"):
        connect_spark("sc://127.0.0.1:9")
    assert time.monotonic() - started < 30


def test_a_malformed_url_is_a_connection_error() -> None:
    with pytest.raises(ConnectionFailed, match="not a Spark Connect URL"):
        connect_spark("sc://")
