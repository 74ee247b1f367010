"""Every exception the Spark Connect client and the Databricks SQL connector export maps to an
``ExecutionError`` code, through a table entry (not the fallback); Databricks URLs parse."""

from __future__ import annotations

import pytest

from assay.connectors._databricks import parse_databricks_url
from assay.connectors._drivers import exception_classes
from assay.connectors._spark_errors import classify_spark, databricks_errors, spark_errors
from assay.errors import ConnectionFailed

CODES = {
    "execution.error",
    "execution.timeout",
    "execution.connection_failed",
    "execution.resource_limit",
}


def _resolves(table: dict[type[BaseException], str], cls: type[BaseException]) -> bool:
    return any(c in table for c in cls.__mro__)


def test_every_pyspark_exception_is_mapped() -> None:
    pytest.importorskip("pyspark")
    import pyspark.errors
    from pyspark.errors.exceptions import connect

    table = spark_errors()
    classes = exception_classes(pyspark.errors) + exception_classes(connect)
    assert len(classes) > 30
    unmapped = [c.__qualname__ for c in classes if not _resolves(table, c)]
    assert unmapped == []
    assert set(table.values()) <= CODES


def test_every_databricks_exception_is_mapped() -> None:
    pytest.importorskip("databricks.sql")
    from databricks.sql import exc

    table = databricks_errors()
    classes = exception_classes(exc)
    assert len(classes) > 10
    unmapped = [c.__qualname__ for c in classes if not _resolves(table, c)]
    assert unmapped == []
    assert classify_spark(exc.RequestError("boom"), [table]) == "execution.connection_failed"
    assert classify_spark(exc.ServerOperationError("bad"), [table]) == "execution.error"


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("[OPERATION_CANCELED] Operation has been canceled.", "execution.timeout"),
        ("java.lang.OutOfMemoryError: Java heap space", "execution.resource_limit"),
        ("StatusCode.UNAVAILABLE failed to connect", "execution.connection_failed"),
        ("[TABLE_OR_VIEW_NOT_FOUND] x", "execution.error"),
    ],
)
def test_spark_error_classes_in_messages(message: str, code: str) -> None:
    assert classify_spark(RuntimeError(message), []) == code


def test_databricks_url_parses() -> None:
    target = parse_databricks_url(
        "databricks://token:dapi%2Fx@dbc-1.cloud.databricks.com/sql/1.0/warehouses/abc"
        "?catalog=main&schema=sales"
    )
    assert target.host == "dbc-1.cloud.databricks.com"
    assert target.http_path == "/sql/1.0/warehouses/abc"
    assert target.token == "dapi/x"
    assert (target.catalog, target.schema) == ("main", "sales")


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("databricks://token:t@/sql/1.0/warehouses/a", "no host"),
        ("databricks://dbc-1.cloud.databricks.com/sql/1.0/warehouses/a", "no access token"),
        ("databricks://token:t@dbc-1.cloud.databricks.com", "no HTTP path"),
        ("databricks://token:t@h/p?warehouse=x", "Unknown Databricks URL parameter"),
    ],
)
def test_bad_databricks_urls_are_named(url: str, problem: str) -> None:
    with pytest.raises(ConnectionFailed, match=problem):
        parse_databricks_url(url)
