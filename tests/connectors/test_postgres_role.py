"""The role ``assay pg-role`` creates holds on a real server: SELECT on the chosen tables and
nothing else."""

from __future__ import annotations

import psycopg
import pytest

pytestmark = pytest.mark.postgres


@pytest.mark.parametrize(
    "statement",
    [
        "SELECT pg_read_file('/etc/passwd')",
        "COPY orders TO PROGRAM 'id'",
        "SELECT lo_import('/etc/passwd')",
        "SELECT pg_advisory_lock(1)",
        "CREATE TEMP TABLE t AS SELECT 1",
        "CREATE TABLE t (x int)",
        "DELETE FROM orders",
        "SET ROLE postgres",
        "SELECT * FROM pg_catalog.pg_authid",
    ],
    ids=[
        "read-file",
        "copy-program",
        "lo-import",
        "advisory-lock",
        "temp",
        "create",
        "delete",
        "set-role",
        "authid",
    ],
)
def test_reader_role_is_refused(shop_postgres_reader: str, statement: str) -> None:
    with psycopg.connect(shop_postgres_reader, autocommit=True) as con:
        with pytest.raises(psycopg.Error):
            con.execute(statement)


def test_reader_role_can_read_granted_tables(shop_postgres_reader: str) -> None:
    with psycopg.connect(shop_postgres_reader) as con:
        assert con.execute("SELECT count(*) FROM orders").fetchone() == (200,)
        read_only = con.execute("SHOW default_transaction_read_only").fetchone()
        assert read_only == ("on",)


def test_reader_role_cannot_read_other_tables(
    shop_postgres: str, shop_postgres_reader: str
) -> None:
    with psycopg.connect(shop_postgres, autocommit=True) as admin:
        admin.execute("CREATE TABLE IF NOT EXISTS secrets (v text)")
    with psycopg.connect(shop_postgres_reader, autocommit=True) as con:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            con.execute("SELECT * FROM secrets")
