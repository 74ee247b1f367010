"""``assay bench tpc``: a TPC warehouse built offline, never over a file that is there."""

from __future__ import annotations

from pathlib import Path

import duckdb
from click.testing import CliRunner

from assay.cli import main


def test_builds_tpch_and_names_the_next_step(tmp_path: Path) -> None:
    out = tmp_path / "tpch.duckdb"
    result = CliRunner().invoke(main, ["bench", "tpc", "tpch", "--sf", "0.001", "--out", str(out)])
    assert result.exit_code == 0, result.output
    con = duckdb.connect(str(out), read_only=True)
    try:
        tables = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        orders = con.execute("SELECT count(*) FROM orders").fetchone()
    finally:
        con.close()
    assert tables == {
        "customer",
        "lineitem",
        "nation",
        "orders",
        "part",
        "partsupp",
        "region",
        "supplier",
    }
    assert orders is not None and orders[0] > 0
    assert "8 tables" in result.output
    assert f"assay semantic init --db {out}" in result.output


def test_an_existing_file_is_left_as_it_is(tmp_path: Path) -> None:
    out = tmp_path / "mine.duckdb"
    out.write_bytes(b"not a warehouse")
    result = CliRunner().invoke(main, ["bench", "tpc", "tpcds", "--out", str(out)])
    assert result.exit_code != 0
    assert "already exists" in result.output and "--out" in result.output
    assert out.read_bytes() == b"not a warehouse"


def test_a_scale_factor_that_is_not_positive_is_named(tmp_path: Path) -> None:
    out = tmp_path / "tpch.duckdb"
    result = CliRunner().invoke(main, ["bench", "tpc", "tpch", "--sf", "-1", "--out", str(out)])
    assert result.exit_code != 0
    assert "--sf must be positive, got -1.0" in result.output
    assert not out.exists()
