"""Contract tests over every connector: read-only, row caps, catalogue, time limits, recovery,
statement log, deduplication, and clear errors for bad targets."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from assay.connectors import PooledConnector, QueryCache, connect, detect
from assay.errors import (
    AssayError,
    ConnectionFailed,
    ExecutionError,
    ExecutionTimeout,
    ResourceLimit,
)

ENGINES = [
    pytest.param("duck", id="duckdb"),
    pytest.param("lite", id="sqlite"),
    pytest.param("pg", id="postgres", marks=pytest.mark.postgres),
]
# A query that would run for minutes, and one function call that allocates without bound.
SLOW = {
    "duck": "SELECT count(*) FROM order_items a, order_items b, order_items c, order_items d",
    "lite": "SELECT count(*) FROM order_items a, order_items b, order_items c, order_items d",
    "pg": "SELECT count(*) FROM order_items a, order_items b, order_items c, order_items d",
}
BOMB = {
    "duck": "SELECT length(repeat('x', 2000000000)) AS n",
    "lite": "SELECT length(printf('%.*c', 2000000000, 'x')) AS n",
    "pg": "SELECT length(lpad('x', 2000000000, 'y')) AS n",
}
LIMIT_MS = 1_500


@pytest.fixture
def connector(request: pytest.FixtureRequest) -> PooledConnector:
    found = request.getfixturevalue(request.param)
    assert isinstance(found, PooledConnector)
    return found


@pytest.mark.parametrize("connector", ENGINES, indirect=True)
def test_row_cap_and_truncation(connector: PooledConnector) -> None:
    capped = connector.execute("SELECT id FROM orders ORDER BY id", time_limit_ms=5_000, max_rows=7)
    assert [r[0] for r in capped.rows] == [1, 2, 3, 4, 5, 6, 7]
    assert capped.truncated is True
    assert capped.row_count is None
    whole = connector.execute("SELECT id FROM orders", time_limit_ms=5_000, max_rows=500)
    assert whole.truncated is False
    assert whole.row_count == 200 == len(whole.rows)


@pytest.mark.parametrize("connector", ENGINES, indirect=True)
def test_writes_refused_by_the_engine(connector: PooledConnector) -> None:
    for statement in (
        "DELETE FROM orders",
        "UPDATE orders SET amount = 0",
        "CREATE TABLE x AS SELECT 1 AS a",
    ):
        with pytest.raises(ExecutionError):
            connector.execute(statement, time_limit_ms=5_000, max_rows=1)
    n = connector.execute("SELECT count(*) FROM orders", time_limit_ms=5_000, max_rows=1)
    assert n.rows == ((200,),)


@pytest.mark.parametrize("connector", ENGINES, indirect=True)
def test_catalog(connector: PooledConnector) -> None:
    catalog = connector.catalog()
    assert set(catalog.table_names) >= {"customers", "orders", "order_items", "products"}
    orders = catalog.table("ORDERS")
    assert orders is not None
    assert [c.name for c in orders.columns] == [
        "id",
        "customer_id",
        "order_date",
        "status",
        "amount",
        "delete_flag",
    ]
    refs = {(fk.table, fk.ref_table) for fk in catalog.foreign_keys}
    assert ("orders", "customers") in refs
    assert ("order_items", "products") in refs


@pytest.mark.slow
@pytest.mark.parametrize("connector", ENGINES, indirect=True)
def test_slow_query_stopped_and_pool_recovers(connector: PooledConnector) -> None:
    connector.execute("SELECT 1", time_limit_ms=LIMIT_MS, max_rows=1)
    started = time.monotonic()
    with pytest.raises(ExecutionTimeout) as info:
        connector.execute(SLOW[connector_key(connector)], time_limit_ms=LIMIT_MS, max_rows=1)
    elapsed = time.monotonic() - started
    assert elapsed <= LIMIT_MS / 1000 + 1.0
    assert "1500 ms" in info.value.message and "--time-limit-ms" in info.value.hint
    after = connector.execute("SELECT count(*) FROM customers", time_limit_ms=5_000, max_rows=1)
    assert after.rows == ((50,),)


@pytest.mark.slow
@pytest.mark.parametrize("connector", ENGINES, indirect=True)
def test_allocation_bomb_stopped_and_pool_recovers(connector: PooledConnector) -> None:
    connector.execute("SELECT 1", time_limit_ms=LIMIT_MS, max_rows=1)
    started = time.monotonic()
    with pytest.raises((ExecutionTimeout, ResourceLimit)):
        connector.execute(BOMB[connector_key(connector)], time_limit_ms=LIMIT_MS, max_rows=1)
    assert time.monotonic() - started <= LIMIT_MS / 1000 + 1.0
    after = connector.execute("SELECT count(*) FROM products", time_limit_ms=5_000, max_rows=1)
    assert after.rows == ((20,),)


def connector_key(connector: PooledConnector) -> str:
    return {"duckdb": "duck", "sqlite": "lite", "postgres": "pg"}[connector.dialect]


@pytest.mark.parametrize("connector", ENGINES, indirect=True)
def test_statement_log_and_dedupe(connector: PooledConnector) -> None:
    cache = QueryCache(connector)
    before = len(connector.statement_log)
    first = cache.execute("SELECT count(*) AS n FROM orders", time_limit_ms=5_000, max_rows=5)
    second = cache.execute("SELECT count(*) AS n FROM orders", time_limit_ms=5_000, max_rows=5)
    assert first is second
    sent = [s.sql for s in connector.statement_log[before:] if s.purpose == "query"]
    assert sent == ["SELECT count(*) AS n FROM orders"]
    with pytest.raises(ExecutionError):
        cache.execute("SELECT nope FROM orders", time_limit_ms=5_000, max_rows=5)
    with pytest.raises(ExecutionError):
        cache.execute("SELECT nope FROM orders", time_limit_ms=5_000, max_rows=5)
    sent = [s.sql for s in connector.statement_log[before:] if s.purpose == "query"]
    assert sent.count("SELECT nope FROM orders") == 1


def test_statement_log_is_bounded(shop_sqlite: Path) -> None:
    """A long-running server keeps only the latest statements; the count keeps every one, and
    reading past what was dropped raises rather than returning a short list."""
    with connect(str(shop_sqlite), statement_log_limit=20) as connector:
        start = connector.statement_count
        mark = None
        for n in range(40):
            if n == 37:
                mark = connector.statement_count
            connector.execute(f"SELECT {n} AS n", time_limit_ms=5_000, max_rows=1)
        queries = [s.sql for s in connector.statement_log if s.purpose == "query"]
        assert len(connector.statement_log) == 20
        assert queries == [f"SELECT {n} AS n" for n in range(40)][-len(queries) :]
        assert queries[-1] == "SELECT 39 AS n"
        assert connector.statement_count - start >= 40
        assert mark is not None
        since = [s.sql for s in connector.statements_since(mark) if s.purpose == "query"]
        assert since == ["SELECT 37 AS n", "SELECT 38 AS n", "SELECT 39 AS n"]
        assert connector.statements_since(connector.statement_count) == ()
        with pytest.raises(AssayError, match="dropped"):
            connector.statements_since(start)


def test_sqlite_invalid_utf8_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / "latin.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE player (name TEXT)")
    con.execute("INSERT INTO player VALUES (CAST(X'4DFC6C6C6572' AS TEXT))")  # 'Müller' in Latin-1
    con.commit()
    con.close()
    with connect(str(path)) as lite:
        result = lite.execute("SELECT name FROM player", time_limit_ms=5_000, max_rows=5)
    assert result.rows == (("M\ufffdller",),)


@pytest.mark.parametrize(
    ("target", "words"),
    [
        ("/nonexistent/shop.duckdb", ["does not exist", "--db"]),
        ("mysql://u@localhost/db", ["not supported", "postgresql://"]),
        ("oracle+cx_oracle://u@h/db", ["not supported"]),
        ("postgresql+asyncpg://u@localhost/db", ["is not installed", "pip install"]),
    ],
    ids=["missing-file", "unsupported-scheme", "unsupported-driver", "driver-not-installed"],
)
def test_bad_targets_named(target: str, words: list[str]) -> None:
    with pytest.raises(ConnectionFailed) as info:
        detect(target)
    text = str(info.value)
    assert target.split("://")[0] in text or "/nonexistent" in text or "asyncpg" in text
    for word in words:
        assert word in text


def test_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("hello")
    with pytest.raises(ConnectionFailed, match="neither a DuckDB nor a SQLite"):
        connect(str(path))


def test_unreadable_duckdb_file_fails_to_open(tmp_path: Path) -> None:
    path = tmp_path / "broken.duckdb"
    path.write_bytes(b"\x00" * 8 + b"DUCK" + b"\x00" * 4096)
    with pytest.raises(ConnectionFailed, match="Cannot open duckdb database"):
        connect(str(path))


def test_sqlite_url_form(shop_sqlite: Path) -> None:
    assert detect(f"sqlite:///{shop_sqlite}") == ("sqlite", str(shop_sqlite))


def test_duckdb_tables_of_another_schema_read_by_bare_name(tmp_path: Path) -> None:
    """A table only another schema holds (a Cortex model's base_table schema) is in the
    catalogue, marked with its schema, and read by its bare name; a name main also holds is
    main's; a name two other schemas hold is not listed (a bare name must not pick one)."""
    import duckdb

    db = tmp_path / "s.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE SCHEMA rt; CREATE SCHEMA other")
    con.execute("CREATE TABLE rt.revenue AS SELECT 7 AS amount")
    con.execute("CREATE TABLE rt.shared AS SELECT 'rt' AS source")
    con.execute("CREATE TABLE main.shared AS SELECT 'main' AS source")
    con.execute("CREATE TABLE rt.twice AS SELECT 1 AS x")
    con.execute("CREATE TABLE other.twice AS SELECT 2 AS x")
    con.close()
    with connect(str(db)) as connector:
        catalog = connector.catalog()
        assert {(t.name, t.schema) for t in catalog.tables} == {("revenue", "rt"), ("shared", "")}
        assert catalog.schemas == ("main", "rt")
        assert list(connector.execute("SELECT amount FROM revenue").rows) == [(7,)]
        assert list(connector.execute("SELECT source FROM shared").rows) == [("main",)]
    # The guard holds a qualified name to the schema the catalogue read the table from.
    from assay.guard import validate

    def codes(sql: str) -> list[str]:
        return [v.code for v in validate(sql, catalog=catalog, dialect="duckdb").violations]

    assert codes("SELECT amount FROM rt.revenue") == []
    assert codes("SELECT source FROM main.shared") == []
    assert codes("SELECT source FROM rt.shared") == ["guard.qualified_name"]
    assert codes("SELECT amount FROM main.revenue") == ["guard.qualified_name"]
    assert codes("SELECT x FROM twice") == ["guard.unknown_table"]
