"""The command line: output, JSON, exit codes and error messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from assay.cli import main
from assay.errors import AssayError


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_sql_prints_rows(runner: CliRunner, shop_duckdb: Path) -> None:
    result = runner.invoke(
        main, ["sql", "--db", str(shop_duckdb), "SELECT count(*) AS n FROM orders"]
    )
    assert result.exit_code == 0, result.output
    assert "200" in result.output and "(1 of 1 rows)" in result.output


def test_sql_json(runner: CliRunner, shop_sqlite: Path) -> None:
    result = runner.invoke(
        main,
        [
            "sql",
            "--db",
            str(shop_sqlite),
            "--json",
            "SELECT id FROM customers WHERE id < 3 ORDER BY id",
        ],
    )
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["result"]["rows"] == [[1], [2]]
    assert record["guard"]["ok"] is True


def test_sql_refused_lists_every_violation(runner: CliRunner, shop_duckdb: Path) -> None:
    result = runner.invoke(
        main,
        ["sql", "--db", str(shop_duckdb), "SELECT ordr_date, read_text('/etc/passwd') FROM orders"],
    )
    assert result.exit_code == 1
    assert "guard.forbidden_function" in result.output
    assert "Did you mean 'order_date'?" in result.output


def test_sql_json_refusal(runner: CliRunner, shop_duckdb: Path) -> None:
    result = runner.invoke(main, ["sql", "--db", str(shop_duckdb), "--json", "DROP TABLE orders"])
    assert result.exit_code == 1
    record = json.loads(result.output)
    assert record["result"] is None
    assert [v["code"] for v in record["guard"]["violations"]] == ["guard.forbidden_statement"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ["--db", "/nonexistent/x.duckdb", "SELECT 1"],
            ["does not exist", "/nonexistent/x.duckdb"],
        ),
        (["--db", "mysql://u@h/db", "SELECT 1"], ["'mysql' is not supported", "postgresql://"]),
    ],
    ids=["missing-file", "unsupported-url"],
)
def test_bad_db_is_a_clear_error(runner: CliRunner, args: list[str], words: list[str]) -> None:
    result = runner.invoke(main, ["sql", *args])
    assert result.exit_code == 1
    assert result.output.startswith("Error: ")
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.output


@pytest.mark.parametrize(
    ("statement", "words"),
    [
        ("", ["guard.empty"]),
        ("   ", ["guard.empty"]),
        ("SELEC id FROM orders", ["guard.parse_error", "line 1"]),
        ("SELECT 'x' AS a" + " " * 1_000_000, ["guard.too_large", "--max-sql-bytes"]),
    ],
    ids=["empty", "blank", "does-not-parse", "one-megabyte"],
)
def test_bad_statements_named(
    runner: CliRunner, shop_duckdb: Path, statement: str, words: list[str]
) -> None:
    result = runner.invoke(main, ["sql", "--db", str(shop_duckdb), statement])
    assert result.exit_code == 1
    for word in words:
        assert word in result.output


def test_bad_setting_value(runner: CliRunner, shop_duckdb: Path) -> None:
    result = runner.invoke(main, ["sql", "--db", str(shop_duckdb), "--max-rows", "0", "SELECT 1"])
    assert result.exit_code == 1
    assert "max_rows" in result.output and "positive" in result.output


def test_env_setting_used(runner: CliRunner, shop_duckdb: Path) -> None:
    result = runner.invoke(
        main,
        ["sql", "--db", str(shop_duckdb), "SELECT id FROM orders"],
        env={"ASSAY_MAX_ROWS": "3"},
    )
    assert result.exit_code == 0
    # The engine counts the rows a truncated result has in all (200 orders).
    assert "truncated at the row cap" in result.output and "(3 of 200 rows" in result.output


def test_usage_error_exits_2(runner: CliRunner) -> None:
    assert runner.invoke(main, ["sql", "SELECT 1"]).exit_code == 2


def test_debug_shows_the_exception(runner: CliRunner) -> None:
    result = runner.invoke(main, ["--debug", "sql", "--db", "/nonexistent.duckdb", "SELECT 1"])
    assert isinstance(result.exception, AssayError)


def test_catalog_json(runner: CliRunner, shop_duckdb: Path) -> None:
    result = runner.invoke(main, ["catalog", "--db", str(shop_duckdb), "--json"])
    assert result.exit_code == 0
    record = json.loads(result.output)
    assert {t["name"] for t in record["tables"]} == {
        "customers",
        "orders",
        "order_items",
        "products",
    }
    assert {
        "table": "orders",
        "columns": ["customer_id"],
        "ref_table": "customers",
        "ref_columns": ["id"],
    } in record["foreign_keys"]


def test_catalog_text(runner: CliRunner, shop_sqlite: Path) -> None:
    result = runner.invoke(main, ["catalog", "--db", str(shop_sqlite)])
    assert result.exit_code == 0
    assert "orders(customer_id) -> customers(id)" in result.output


def test_pg_role(runner: CliRunner) -> None:
    result = runner.invoke(main, ["pg-role", "--database", "shop", "--table", "orders"])
    assert result.exit_code == 0
    assert 'GRANT SELECT ON "public"."orders" TO "assay_reader";' in result.output
    assert 'REVOKE TEMPORARY, CREATE ON DATABASE "shop" FROM PUBLIC;' in result.output


@pytest.mark.parametrize(
    ("args", "word"),
    [
        (["pg-role", "--database", "shop"], "No tables"),
        (
            ["pg-role", "--database", "shop; DROP", "--table", "t"],
            "not a plain PostgreSQL identifier",
        ),
    ],
    ids=["no-tables", "bad-identifier"],
)
def test_pg_role_bad_input(runner: CliRunner, args: list[str], word: str) -> None:
    result = runner.invoke(main, args)
    assert result.exit_code == 1
    assert word in result.output
