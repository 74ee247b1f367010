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
