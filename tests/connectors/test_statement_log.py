"""The Spark Connect and Databricks connectors keep a bounded statement log, as PooledConnector
does: a server that runs for weeks holds the latest statements, counts all of them, and never
returns a silently short list. Both are driven here through fakes of their client libraries
(no JVM, no warehouse); the real servers are exercised in tests/spark."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from assay.connectors import StatementLog
from assay.connectors._databricks import DatabricksConnector, parse_databricks_url
from assay.connectors._spark import SparkConnector, connect_spark
from assay.errors import AssayError


class _Cursor:
    def __init__(self) -> None:
        self.description: list[tuple[str]] = []

    def execute(self, sql: str) -> None:
        self.description = [("n",)]

    def fetchmany(self, n: int) -> list[tuple[int]]:
        return [(1,)]

    def cancel(self) -> None:
        pass

    def close(self) -> None:
        pass


class _Connection:
    def cursor(self) -> _Cursor:
        return _Cursor()

    def close(self) -> None:
        pass


class _Frame:
    columns = ("n",)

    def limit(self, n: int) -> _Frame:
        return self

    def collect(self) -> list[tuple[int]]:
        return [(1,)]


class _Session:
    def __init__(self) -> None:
        self.client = SimpleNamespace(
            release_session=lambda: None, _channel=SimpleNamespace(close=lambda: None)
        )

    def addTag(self, tag: str) -> None:
        pass

    def sql(self, text: str) -> _Frame:
        return _Frame()


def _check_bounded(connector: Any) -> None:
    start = connector.statement_count
    for n in range(30):
        connector.execute(f"SELECT {n} AS n", time_limit_ms=5_000, max_rows=1)
    log = connector.statement_log
    assert len(log) == 8
    assert [s.sql for s in log] == [f"SELECT {n} AS n" for n in range(22, 30)]
    assert connector.statement_count == start + 30
    assert [s.sql for s in connector.statements_since(start + 28)] == [
        "SELECT 28 AS n",
        "SELECT 29 AS n",
    ]
    with pytest.raises(AssayError, match="dropped"):
        connector.statements_since(start)


def test_databricks_statement_log_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("databricks.sql")
    monkeypatch.setattr(DatabricksConnector, "_connect", lambda self: _Connection())
    target = parse_databricks_url("databricks://token:t@example.invalid/sql/1.0/warehouses/w")
    _check_bounded(DatabricksConnector(target, log_limit=8))


def test_spark_statement_log_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pyspark.sql.connect.session")
    monkeypatch.setattr(SparkConnector, "_session", lambda self: _Session())
    connector = connect_spark("sc://127.0.0.1:1", log_limit=8)
    try:
        _check_bounded(connector)
    finally:
        connector.close()


def test_a_log_limit_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1, not 0"):
        StatementLog(0)
