"""The guard in Spark's dialect: the Spark corpora, the shared adversarial corpus, the lists as
data, and the engine's own cross-check."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.catalog import Catalog, ColumnInfo, TableInfo
from assay.connectors._spark import SparkConnector
from assay.guard._spark import (
    SPARK_ALLOWED_ANONYMOUS,
    SPARK_REFUSED_FUNCTIONS,
    SPARK_REFUSED_STATEMENTS,
    validate_spark,
)
from tests.fixtures.corpus import Case, load
from tests.spark._corpus import SparkCase, load_spark

ADVERSARIAL = load_spark("adversarial.sql")
BENIGN = load_spark("benign.sql")


@pytest.fixture(scope="module")
def tpch_catalog(tpch_duckdb: Path) -> Catalog:
    """TPC-H's tables as Spark's catalogue names them (built from DuckDB: no server needed)."""
    import duckdb

    con = duckdb.connect(str(tpch_duckdb), read_only=True)
    try:
        rows = con.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "ORDER BY table_name, ordinal_position"
        ).fetchall()
    finally:
        con.close()
    tables: dict[str, list[ColumnInfo]] = {}
    for table, column, type_ in rows:
        tables.setdefault(table, []).append(ColumnInfo(column, type_))
    infos = tuple(TableInfo(t, tuple(c)) for t, c in sorted(tables.items()))
    return Catalog(infos, (), "spark", ("default",), "default")


def test_corpora_are_substantial() -> None:
    assert len(ADVERSARIAL) >= 45 and len(BENIGN) >= 12
    assert {c.expect for c in ADVERSARIAL} == {"reject"}
    assert {c.expect for c in BENIGN} == {"accept"}


@pytest.mark.parametrize("case", ADVERSARIAL, ids=[c.title for c in ADVERSARIAL])
def test_spark_adversarial_is_refused_with_its_code(case: SparkCase, tpch_catalog: Catalog) -> None:
    report = validate_spark(case.sql, catalog=tpch_catalog)
    assert not report.ok and report.sql is None
    assert case.code in report.codes, report.violations


@pytest.mark.parametrize(
    "case", load("adversarial.sql"), ids=[c.title for c in load("adversarial.sql")]
)
def test_shared_adversarial_corpus_is_refused_in_spark(case: Case, tpch_catalog: Catalog) -> None:
    assert not validate_spark(case.sql, catalog=tpch_catalog).ok


@pytest.mark.parametrize("case", BENIGN, ids=[c.title for c in BENIGN])
def test_spark_benign_is_accepted(case: SparkCase, tpch_catalog: Catalog) -> None:
    report = validate_spark(case.sql, catalog=tpch_catalog)
    assert report.ok, report.violations
    assert report.sql is not None and "--" not in report.sql


def test_lists_are_data_and_disjoint() -> None:
    assert not set(SPARK_REFUSED_FUNCTIONS) & SPARK_ALLOWED_ANONYMOUS
    for name in ("reflect", "java_method", "input_file_name", "read_files"):
        assert name in SPARK_REFUSED_FUNCTIONS
    for words in ("add jar", "set", "reset", "cache", "uncache", "optimize", "vacuum", "merge"):
        assert words in SPARK_REFUSED_STATEMENTS


def test_none_of_the_adversarial_corpus_reaches_the_engine(
    spark: SparkConnector, tpch_catalog: Catalog
) -> None:
    before = len(spark.statement_log)
    for case in ADVERSARIAL:
        report = validate_spark(case.sql, catalog=spark.catalog(), plan=spark.plan)
        assert not report.ok
        if report.sql is not None:  # never: a refused report carries no SQL to run
            spark.execute(report.sql, time_limit_ms=5_000, max_rows=1)
    sent = [s.sql for s in spark.statement_log[before:] if s.purpose in {"query", "plan"}]
    assert sent == []


@pytest.mark.parametrize("case", BENIGN, ids=[c.title for c in BENIGN])
def test_spark_benign_runs_after_the_engine_check(case: SparkCase, spark: SparkConnector) -> None:
    report = validate_spark(case.sql, catalog=spark.catalog(), plan=spark.plan)
    assert report.ok and report.sql is not None, report.violations
    result = spark.execute(report.sql, time_limit_ms=30_000, max_rows=100)
    assert result.columns


def test_the_engine_check_catches_what_sqlglot_misses(spark: SparkConnector) -> None:
    # Without a catalogue the guard cannot know the column; Spark's analyser does.
    report = validate_spark("SELECT no_such_column FROM nation", catalog=None, plan=spark.plan)
    assert report.codes == ("guard.engine_disagrees",)
    assert "no_such_column" in report.violations[0].message


def test_the_engine_check_runs_nothing(spark: SparkConnector) -> None:
    import time

    started = time.monotonic()
    heavy = "SELECT count(*) FROM lineitem a JOIN lineitem b ON a.l_partkey % 3 = b.l_partkey % 3"
    assert spark.plan(heavy) == "struct<count(1):bigint>"
    assert time.monotonic() - started < 5
