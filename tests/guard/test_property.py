"""Property tests: random SQL-like text and mutations of the corpora never crash the guard,
are never accepted when the engine's own parser sees a write or more than one statement."""

from __future__ import annotations

import sqlite3

import duckdb
import pglast
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay.guard import validate
from tests.fixtures import shop
from tests.fixtures.corpus import load

TOKENS = [
    "SELECT",
    "select",
    "FROM",
    "WHERE",
    "DELETE",
    "DROP",
    "TABLE",
    "INSERT",
    "INTO",
    "UPDATE",
    "SET",
    "WITH",
    "AS",
    "(",
    ")",
    ";",
    ",",
    "*",
    "'",
    '"',
    "`",
    "--",
    "/*",
    "*/",
    "\n",
    "\r",
    "\u00a0",
    "\u2028",
    "\t",
    " ",
    "orders",
    "customers",
    "id",
    "amount",
    "1",
    "0",
    "=",
    "<",
    "COPY",
    "ATTACH",
    "PRAGMA",
    "LOAD",
    "INSTALL",
    "EXPLAIN",
    "ANALYZE",
    "UNION",
    "ALL",
    "$$",
    "read_text",
    "repeat",
    "'x'",
    "2000000000",
    "CREATE",
    "TEMP",
    "VIEW",
    "BEGIN",
    "COMMIT",
    "RETURNING",
    "E'",
    "\\",
    "[",
    "]",
    "{",
    "}",
    "::",
    "||",
    "VALUES",
    "CALL",
    "DO",
]
INSERTS = [
    "/* x */",
    "/* /* nested */ */",
    "-- c\n",
    "\r",
    "\n",
    "\u00a0",
    "\u2028",
    "\r\n",
    "'",
    '"',
    "`",
    ";",
    " ; ",
    "\t",
    "$$",
    "/*",
    "*/",
    "--",
]
SEEDS = [c.sql for c in load("adversarial.sql")] + [c.sql for c in load("benign.sql")]
READS = {
    sqlite3.SQLITE_SELECT,
    sqlite3.SQLITE_READ,
    sqlite3.SQLITE_FUNCTION,
    sqlite3.SQLITE_RECURSIVE,
}


def _sqlite_scratch() -> sqlite3.Connection:
    con = sqlite3.connect(":memory:")
    for statement in shop.SCHEMA:
        con.execute(statement)
    return con


SCRATCH = _sqlite_scratch()


def _duckdb_kinds(sql: str) -> list[str] | None:
    try:
        return [str(s.type).rsplit(".", 1)[-1] for s in duckdb.extract_statements(sql)]
    except duckdb.Error:
        return None


def _postgres_kinds(sql: str) -> list[str] | None:
    try:
        return [type(s.stmt).__name__ for s in pglast.parse_sql(sql)]
    except Exception:  # pglast raises its own ParseError and others on odd bytes
        return None


def _sqlite_actions(sql: str) -> set[int] | None:
    """Actions SQLite's own compiler asks to perform for ``sql`` (nothing is run)."""
    actions: set[int] = set()

    def record(action: int, *_: object) -> int:
        actions.add(action)
        return sqlite3.SQLITE_DENY

    SCRATCH.set_authorizer(record)
    try:
        SCRATCH.execute(sql)
    except (sqlite3.Error, sqlite3.Warning, ValueError):
        pass
    finally:
        SCRATCH.set_authorizer(None)
    return actions


def _check(sql: str, dialect: str) -> None:
    report = validate(sql, catalog=None, dialect=dialect)  # never raises
    if not report.ok:
        return
    assert report.sql is not None
    if dialect == "duckdb":
        for text in (sql, report.sql):
            kinds = _duckdb_kinds(text)
            assert kinds is None or kinds in (["SELECT"], ["EXPLAIN"]), (sql, kinds)
    elif dialect == "postgres":
        for text in (sql, report.sql):
            kinds = _postgres_kinds(text)
            assert kinds is None or kinds in (["SelectStmt"], ["ExplainStmt"]), (sql, kinds)
    else:
        actions = _sqlite_actions(report.sql)
        assert actions is not None and actions <= READS, (sql, actions)


text = st.lists(st.sampled_from(TOKENS), min_size=1, max_size=25).map(" ".join)


@pytest.mark.parametrize("dialect", ["duckdb", "sqlite", "postgres"])
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sql=text)
def test_random_text_never_accepted_unsafely(dialect: str, sql: str) -> None:
    _check(sql, dialect)


@st.composite
def mutated(draw: st.DrawFn) -> str:
    sql = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        position = draw(st.integers(0, len(sql)))
        sql = sql[:position] + draw(st.sampled_from(INSERTS)) + sql[position:]
    if draw(st.booleans()):
        sql = sql.swapcase()
    return sql


@pytest.mark.parametrize("dialect", ["duckdb", "sqlite", "postgres"])
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sql=mutated())
def test_mutated_corpora_never_accepted_unsafely(dialect: str, sql: str) -> None:
    _check(sql, dialect)


def test_the_oracle_sees_writes() -> None:
    assert _duckdb_kinds("SELECT 1; DELETE FROM t") == ["SELECT", "DELETE"]
    assert _postgres_kinds("SELECT 1; DROP TABLE t") == ["SelectStmt", "DropStmt"]
    actions = _sqlite_actions("DELETE FROM orders")
    assert actions is not None and sqlite3.SQLITE_DELETE in actions
