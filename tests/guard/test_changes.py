"""``statement_change``: the statements ``/api/sql`` refuses as changes, in every dialect."""

from __future__ import annotations

import pytest

from assay.guard import statement_change


@pytest.mark.parametrize(
    ("sql", "dialect", "statement"),
    [
        ("TRUNCATE TABLE orders", "postgres", "TRUNCATE"),
        ("COPY orders FROM '/tmp/rows.csv'", "postgres", "COPY"),
        ("REFRESH MATERIALIZED VIEW v", "postgres", "REFRESH"),
        ("LOCK TABLE orders", "postgres", "LOCK"),
        ("PRAGMA journal_mode = WAL", "sqlite", "PRAGMA"),
        ("PRAGMA threads = 4", "duckdb", "PRAGMA"),
        ("VACUUM", "sqlite", "VACUUM"),
        ("EXPLAIN ANALYZE DELETE FROM orders", "duckdb", "DELETE"),
        ("SELECT * INTO copy FROM orders", "postgres", "SELECT ... INTO"),
        ("WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d", "postgres", "DELETE"),
        ("EXPORT DATABASE '/tmp/out' (FORMAT parquet)", "duckdb", "EXPORT"),
        ("FORCE INSTALL httpfs", "duckdb", "INSTALL"),
        ("CREATE SECRET s (TYPE s3)", "duckdb", "CREATE"),
        ("RESET threads", "duckdb", "RESET"),
        ("USE other", "duckdb", "USE"),
        # a query reading files or another database touches what lies outside it
        ("SELECT * FROM read_csv('/etc/passwd')", "duckdb", "read_csv()"),
        ("SELECT count(*) FROM read_csv_auto('rows.csv')", "duckdb", "read_csv_auto()"),
        ("SELECT pg_read_file('/etc/passwd')", "postgres", "pg_read_file()"),
        ("SELECT * FROM sqlite_scan('other.db', 't')", "duckdb", "sqlite_scan()"),
        ("SELECT * FROM 'rows.csv'", "duckdb", "FROM 'rows.csv'"),
    ],
    ids=lambda v: v if len(v) < 12 else v.split()[0].lower(),
)
def test_a_change_is_named(sql: str, dialect: str, statement: str) -> None:
    change = statement_change(sql, dialect)
    assert change is not None and change.statement == statement


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT count(*) FROM orders",
        "DESCRIBE orders",
        "SUMMARIZE orders",
        "PRAGMA table_info('orders')",
        "PRAGMA show_tables",
        "EXPLAIN SELECT 1",
        "SELEC * FROM orders",
        "BEGIN",
        "SELECT version()",
        "SELECT upper(name) FROM orders WHERE name GLOB 'A*'",
    ],
    ids=lambda v: v.split()[0].lower(),
)
def test_a_read_or_a_typo_names_no_change(sql: str) -> None:
    assert statement_change(sql, "duckdb") is None
