"""``assay catalog``: the default output, profile with a fact store, accept, mangle, evaluate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from assay.cli import main


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_default_and_show_print_the_schema(runner: CliRunner, shop_sqlite: Path) -> None:
    plain = runner.invoke(main, ["catalog", "--db", str(shop_sqlite)])
    shown = runner.invoke(main, ["catalog", "show", "--db", str(shop_sqlite)])
    assert plain.exit_code == 0 and shown.exit_code == 0, plain.output
    assert plain.output == shown.output and "customers" in plain.output


def test_catalog_without_db_is_a_usage_error(runner: CliRunner) -> None:
    assert runner.invoke(main, ["catalog"]).exit_code == 2


def test_profile_store_accept(runner: CliRunner, shop_duckdb: Path, tmp_path: Path) -> None:
    store = tmp_path / "facts.sqlite"
    out = tmp_path / "profile.json"
    result = runner.invoke(
        main,
        ["catalog", "profile", "--db", str(shop_duckdb), "--store", str(store), "--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    profile = json.loads(out.read_text())
    assert {t["name"] for t in profile["tables"]} >= {"customers", "orders"}
    listed = runner.invoke(main, ["catalog", "facts", "--store", str(store), "--json"])
    facts = [json.loads(line) for line in listed.output.splitlines()]
    review = next(f for f in facts if f["status"] == "review")
    accepted = runner.invoke(main, ["catalog", "accept", str(review["id"]), "--store", str(store)])
    assert accepted.exit_code == 0, accepted.output
    assert "SME_AFFIRMED" in accepted.output
    again = runner.invoke(main, ["catalog", "accept", str(review["id"]), "--store", str(store)])
    assert again.exit_code == 1 and "superseded" in again.output


def test_mangle_and_evaluate(runner: CliRunner, shop_duckdb: Path, tmp_path: Path) -> None:
    out = tmp_path / "m.duckdb"
    mangled = runner.invoke(
        main,
        [
            "catalog",
            "mangle",
            "--db",
            str(shop_duckdb),
            "--severity",
            "1",
            "--seed",
            "2",
            "--out",
            str(out),
        ],
    )
    assert mangled.exit_code == 0, mangled.output
    result = runner.invoke(
        main,
        [
            "catalog",
            "evaluate",
            "--db",
            str(out),
            "--truth-db",
            str(shop_duckdb),
            "--names",
            f"{out}.names.json",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["n_truth"] >= 1 and record["recall"] is not None


def test_evaluate_needs_one_truth(runner: CliRunner, shop_duckdb: Path) -> None:
    result = runner.invoke(main, ["catalog", "evaluate", "--db", str(shop_duckdb)])
    assert result.exit_code == 1 and "exactly one truth" in result.output
