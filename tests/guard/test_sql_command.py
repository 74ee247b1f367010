"""``assay sql`` reads a statement that begins with a comment (after ``--``), from a file
(``-f``) or from standard input, and refuses the first wall's attacks with their code."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from assay.cli import main


def _run(args: list[str], stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["sql", *args], input=stdin)
    return result.exit_code, result.output


def test_statement_beginning_with_a_comment_after_double_dash(shop_duckdb: Path) -> None:
    code, out = _run(
        ["--db", str(shop_duckdb), "--", "-- how many\nSELECT count(*) AS n FROM orders"]
    )
    assert code == 0 and "200" in out


def test_statement_from_a_file(shop_duckdb: Path, tmp_path: Path) -> None:
    path = tmp_path / "q.sql"
    path.write_text("-- orders\nSELECT count(*) AS n FROM orders; -- trailing\n")
    code, out = _run(["--db", str(shop_duckdb), "-f", str(path)])
    assert code == 0 and "200" in out


def test_statement_from_standard_input(shop_duckdb: Path) -> None:
    code, out = _run(["--db", str(shop_duckdb), "--json"], stdin="SELECT 7 AS x;\n")
    assert code == 0
    assert json.loads(out)["result"]["rows"] == [[7]]
    code, out = _run(["--db", str(shop_duckdb), "-"], stdin="SELECT 8 AS x")
    assert code == 0 and "8" in out


def test_argument_and_file_together_is_a_usage_error(shop_duckdb: Path, tmp_path: Path) -> None:
    path = tmp_path / "q.sql"
    path.write_text("SELECT 1")
    code, _ = _run(["--db", str(shop_duckdb), "-f", str(path), "SELECT 2"])
    assert code == 2


def test_catalogue_read_through_a_cte_shadow_is_refused(shop_duckdb: Path) -> None:
    sql = (
        "SELECT 1 FROM (WITH pg_settings AS (SELECT 1 AS a) SELECT a FROM pg_settings) s, "
        "pg_settings"
    )
    code, out = _run(["--db", str(shop_duckdb), "--json", sql])
    assert code == 1
    assert "guard.catalogue_view" in [v["code"] for v in json.loads(out)["guard"]["violations"]]


def test_a_function_of_another_dialect_is_named_as_written_with_the_right_one(
    shop_duckdb: Path, shop_sqlite: Path
) -> None:
    code, out = _run(["--db", str(shop_duckdb), "SELECT sqlite_version()"])
    assert code == 1
    assert "sqlite_version()" in out and "current_version" not in out
    assert "SQLite" in out and "DuckDB" in out and "version()" in out
    # sqlglot reads SQLite's sqlite_version() and DuckDB's version() as one node: the message
    # still names what was written, never sqlglot's name for it.
    code, out = _run(["--db", str(shop_sqlite), "SELECT sqlite_version()"])
    assert code == 1 and "sqlite_version()" in out and "current_version" not in out
    code, out = _run(["--db", str(shop_duckdb), "SELECT version()"])
    assert code == 1 and "version()" in out and "current_version" not in out
    code, out = _run(["--db", str(shop_duckdb), "SELECT getdate()"])
    assert code == 1 and "SQL Server" in out and "current_date" in out


def test_parse_errors_and_fences_are_named_in_plain_words(shop_duckdb: Path) -> None:
    # Outside tryout 14: "Required keyword: 'expression' missing for <class '...Mul'>" and a
    # fenced statement refused as "this statement is COLUMN".
    code, out = _run(["--db", str(shop_duckdb), "SELEC * FROM orders"])
    assert code != 0
    assert "near 'FROM' (line 1, column 12)" in out and "<class" not in out
    code, out = _run(["--db", str(shop_duckdb), "```sql\nSELECT 1\n```"])
    assert code != 0 and "Markdown code fence" in out and "COLUMN" not in out


def test_statement_beginning_with_a_comment_needs_no_double_dash(
    shop_duckdb: Path, tmp_path: Path
) -> None:
    # It was Click's "No such option '-- how many...'" (outside tryout 22).
    code, out = _run(["--db", str(shop_duckdb), "-- how many\nSELECT count(*) AS n FROM orders"])
    assert code == 0 and "200" in out, out
    # An option written with '=' and a value holding a space is still an option.
    spaced = tmp_path / "a folder" / "shop.duckdb"
    spaced.parent.mkdir()
    spaced.write_bytes(shop_duckdb.read_bytes())
    code, out = _run([f"--db={spaced}", "SELECT count(*) AS n FROM orders"])
    assert code == 0 and "200" in out, out


def test_a_cte_whose_body_is_refused_is_not_an_unknown_table(shop_duckdb: Path) -> None:
    # "Unknown table 'x'. Did you mean 'x'?" beside the DELETE's own refusal (outside tryout 22).
    code, out = _run(
        ["--db", str(shop_duckdb), "WITH x AS (DELETE FROM orders RETURNING *) SELECT * FROM x"]
    )
    assert code != 0 and "DELETE" in out
    assert "Unknown table" not in out, out


def test_the_table_select_into_would_create_is_not_an_unknown_table(shop_duckdb: Path) -> None:
    # Left from outside tryout 36: SELECT * INTO x was refused, and x called an unknown table.
    code, out = _run(["--db", str(shop_duckdb), "SELECT * INTO x FROM orders"])
    assert code != 0 and "SELECT ... INTO (creates a table)" in out, out
    assert "Unknown table" not in out, out


def test_a_change_is_refused_saying_what_it_would_do(shop_duckdb: Path, tmp_path: Path) -> None:
    # Outside tryout 36: "this statement is TRUNCATETABLE", and EXPORT DATABASE was called a
    # syntax error ("Fix the syntax"); neither ran.
    code, out = _run(["--db", str(shop_duckdb), "TRUNCATE orders"])
    assert code == 1 and "TRUNCATE, which deletes every row of a table" in out
    target = tmp_path / "dump"
    code, out = _run(["--db", str(shop_duckdb), f"EXPORT DATABASE '{target}'"])
    assert code == 1 and "EXPORT, which writes the database to files" in out
    assert "Fix the syntax" not in out and not target.exists()
    code, out = _run(["--db", str(shop_duckdb), "SELECT count(*) AS n FROM orders"])
    assert code == 0 and "200" in out
