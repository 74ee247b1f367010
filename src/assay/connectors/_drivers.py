"""Driver exceptions mapped to Assay's ``ExecutionError`` codes.

Each table maps a driver exception class to an error code; a raised exception is resolved by
walking its MRO, so the most specific listed class wins. A test enumerates every exception
class each driver exports and proves each resolves through a table entry.
"""

from __future__ import annotations

import sqlite3
from typing import Any

__all__ = ["DUCKDB_ERRORS", "SQLITE_ERRORS", "classify", "postgres_errors", "sqlalchemy_errors"]

TIMEOUT = "execution.timeout"
FAILED = "execution.error"
CONNECTION = "execution.connection_failed"
RESOURCE = "execution.resource_limit"


def _duckdb_table() -> dict[type[BaseException], str]:
    import duckdb

    return {
        duckdb.InterruptException: TIMEOUT,
        duckdb.OutOfMemoryException: RESOURCE,
        duckdb.IOException: CONNECTION,
        duckdb.HTTPException: CONNECTION,
        duckdb.ConnectionException: CONNECTION,
        duckdb.FatalException: CONNECTION,
        duckdb.PermissionException: FAILED,
        duckdb.Error: FAILED,
        duckdb.Warning: FAILED,
    }


DUCKDB_ERRORS = _duckdb_table()

SQLITE_ERRORS: dict[type[BaseException], str] = {
    sqlite3.DataError: RESOURCE,  # "string or blob too big" under setlimit
    sqlite3.OperationalError: FAILED,  # refined by message in ``classify``
    sqlite3.Error: FAILED,
    sqlite3.Warning: FAILED,
}


def postgres_errors() -> dict[type[BaseException], str]:
    import psycopg
    from psycopg import errors

    return {
        errors.QueryCanceled: TIMEOUT,
        errors.ProgramLimitExceeded: RESOURCE,
        errors.InsufficientResources: RESOURCE,
        psycopg.OperationalError: CONNECTION,
        psycopg.InterfaceError: CONNECTION,
        psycopg.Error: FAILED,
        psycopg.Warning: FAILED,
        psycopg.Rollback: FAILED,  # raised only to leave a transaction block early
    }


def sqlalchemy_errors() -> dict[type[BaseException], str]:
    from sqlalchemy import exc

    return {
        exc.NoSuchModuleError: CONNECTION,
        exc.ArgumentError: CONNECTION,
        exc.OperationalError: CONNECTION,
        exc.InterfaceError: CONNECTION,
        exc.TimeoutError: TIMEOUT,
        exc.SQLAlchemyError: FAILED,
        exc.EmulatedDBAPIException: FAILED,
        exc.SAWarning: FAILED,
        exc.SADeprecationWarning: FAILED,
        exc.SAPendingDeprecationWarning: FAILED,
        exc.SATestSuiteWarning: FAILED,
    }


def _lookup(table: dict[type[BaseException], str], exc: BaseException) -> str | None:
    for cls in type(exc).__mro__:
        if cls in table:
            return table[cls]
    return None


def classify(exc: BaseException, tables: list[dict[type[BaseException], str]]) -> str:
    """The error code for a driver exception; memory errors are resource limits.

    Example:
        >>> classify(sqlite3.OperationalError("interrupted"), [SQLITE_ERRORS])
        'execution.timeout'
    """
    if isinstance(exc, MemoryError):
        return RESOURCE
    message = str(exc).lower()
    if isinstance(exc, sqlite3.Error):
        if "interrupted" in message:
            return TIMEOUT
        if "unable to open" in message or "file is not a database" in message:
            return CONNECTION
        if "too big" in message or "out of memory" in message:
            return RESOURCE
    for table in tables:
        code = _lookup(table, exc)
        if code is not None:
            return code
    return FAILED


def exception_classes(module: Any) -> list[type[BaseException]]:
    """Every exception class a driver module exports (for the mapping test)."""
    return sorted(
        {
            obj
            for obj in vars(module).values()
            if isinstance(obj, type)
            and issubclass(obj, BaseException)
            and obj.__module__.split(".")[0].lstrip("_") == module.__name__.split(".")[0]
        },
        key=lambda c: c.__qualname__,
    )
