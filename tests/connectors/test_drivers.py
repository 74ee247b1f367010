"""Every exception class each driver exports maps to an ``ExecutionError`` code."""

from __future__ import annotations

import sqlite3

import duckdb
import psycopg
import psycopg.errors
import pytest
import sqlalchemy.exc

from assay.connectors._drivers import (
    DUCKDB_ERRORS,
    SQLITE_ERRORS,
    classify,
    exception_classes,
    postgres_errors,
    sqlalchemy_errors,
)
from assay.errors import ExecutionError, error_for_code

CODES = {
    "execution.timeout",
    "execution.error",
    "execution.connection_failed",
    "execution.resource_limit",
}


def _mapped(table: dict[type[BaseException], str], cls: type[BaseException]) -> str | None:
    for parent in cls.__mro__:
        if parent in table:
            return table[parent]
    return None


@pytest.mark.parametrize(
    ("module", "table"),
    [
        (duckdb, DUCKDB_ERRORS),
        (sqlite3, SQLITE_ERRORS),
        (psycopg, postgres_errors()),
        (psycopg.errors, postgres_errors()),
        (sqlalchemy.exc, sqlalchemy_errors()),
    ],
    ids=["duckdb", "sqlite3", "psycopg", "psycopg.errors", "sqlalchemy.exc"],
)
def test_every_driver_exception_is_mapped(module: object, table: dict) -> None:  # type: ignore[type-arg]
    classes = exception_classes(module)
    assert len(classes) >= 5
    for cls in classes:
        code = _mapped(table, cls)
        assert code in CODES, f"{cls.__module__}.{cls.__qualname__} is not mapped"
        assert issubclass(error_for_code(code), ExecutionError)


@pytest.mark.parametrize(
    ("exc", "tables", "code"),
    [
        (duckdb.InterruptException("x"), [DUCKDB_ERRORS], "execution.timeout"),
        (duckdb.OutOfMemoryException("x"), [DUCKDB_ERRORS], "execution.resource_limit"),
        (duckdb.IOException("x"), [DUCKDB_ERRORS], "execution.connection_failed"),
        (duckdb.BinderException("x"), [DUCKDB_ERRORS], "execution.error"),
        (sqlite3.OperationalError("interrupted"), [SQLITE_ERRORS], "execution.timeout"),
        (sqlite3.DataError("string or blob too big"), [SQLITE_ERRORS], "execution.resource_limit"),
        (
            sqlite3.OperationalError("unable to open database file"),
            [SQLITE_ERRORS],
            "execution.connection_failed",
        ),
        (psycopg.errors.QueryCanceled("x"), [postgres_errors()], "execution.timeout"),
        (psycopg.errors.ProgramLimitExceeded("x"), [postgres_errors()], "execution.resource_limit"),
        (psycopg.OperationalError("x"), [postgres_errors()], "execution.connection_failed"),
        (MemoryError(), [], "execution.resource_limit"),
    ],
    ids=lambda v: type(v).__name__ if isinstance(v, BaseException) else None,
)
def test_specific_mappings(exc: BaseException, tables: list, code: str) -> None:  # type: ignore[type-arg]
    assert classify(exc, tables) == code
