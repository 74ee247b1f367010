"""Delexicalised prefixes: the schema's names and literal values masked by role, structure kept;
the view frozen into the monitor and chosen by the pre-registered rule."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from assay.catalog import Catalog, ColumnInfo, TableInfo
from assay.cli import main
from assay.errors import InputError
from assay.monitor import (
    Run,
    Step,
    load_monitor,
    render_prefix,
    save_monitor,
    select_view_and_c,
    split_pools,
    train_monitor,
    watch,
    write_jsonl,
)
from assay.monitor._delex import Lexicon, delexicalise_run, lexicon
from assay.monitor._monitor import choose_view, read_as
from tests.monitor._runs import CATALOG, synthetic_runs

LEX = lexicon(CATALOG, "concert_singer")
PETS = Catalog(
    (
        TableInfo("pets", (ColumnInfo("petid", "int"), ColumnInfo("weight", "real"))),
        TableInfo("owner", (ColumnInfo("ownerid", "int"), ColumnInfo("pet", "int"))),
    ),
    dialect="sqlite",
)


def _one(sql: str, *, error: str | None = None, question: str = "q", thought: str = "") -> Run:
    step = Step("sql", thought=thought, sql=sql, error=error, row_count=None if error else 1)
    return Run("r", question, "concert_singer", (step,), "answer", sql, True, True)


def test_sql_identifiers_become_their_roles_and_literals_their_types() -> None:
    sql = (
        "SELECT T1.name, COUNT(*) AS n FROM singer AS T1 JOIN concert ON T1.id = concert.singer_id"
        " WHERE T1.name = 'Ann' AND concert.id > 30 GROUP BY T1.name"
    )
    out = delexicalise_run(_one(sql), LEX).steps[0].sql
    assert out == (
        "SELECT ALIAS.COLUMN, COUNT(*) AS ALIAS FROM TABLE AS ALIAS JOIN TABLE ON ALIAS.COLUMN = "
        "TABLE.COLUMN WHERE ALIAS.COLUMN = 'STR' AND TABLE.COLUMN > NUM GROUP BY ALIAS.COLUMN"
    )


def test_a_table_the_schema_lacks_is_still_a_table_in_sql_and_a_name_in_the_error() -> None:
    run = _one("SELECT x FROM singers_table", error="Table 'concert_singer.singers_table' missing")
    step = delexicalise_run(run, LEX).steps[0]
    assert step.sql == "SELECT COLUMN FROM TABLE"
    assert step.error == "Table 'DB.NAME' missing"


def test_error_wording_and_codes_are_kept() -> None:
    run = _one("SELECT 1", error="(1054, \"Unknown column 'T1.name' in 'field list'\")")
    assert delexicalise_run(run, LEX).steps[0].error == (
        "(1054, \"Unknown column 'NAME.COLUMN' in 'field list'\")"
    )


def test_sql_that_does_not_parse_is_masked_token_by_token() -> None:
    out = delexicalise_run(_one("SELECT name FROM singer WHERE name = 'Ann' AND (("), LEX)
    assert out.steps[0].sql == "SELECT COLUMN FROM TABLE WHERE COLUMN = 'STR' AND ( ("


def test_free_text_masks_names_quotes_and_numbers_but_not_apostrophes() -> None:
    run = _one(
        "SELECT 1",
        question="How many singers are older than 30?",
        thought="I'll look at the 'singer' table; it doesn't have 'Ann' in name",
    )
    out = delexicalise_run(run, LEX)
    assert out.question == "How many TABLE are older than NUM?"
    assert out.steps[0].thought == (
        "I'll look at the 'TABLE' table; it doesn't have 'STR' in COLUMN"
    )


def test_the_same_behaviour_on_two_schemas_reads_the_same() -> None:
    a = _one("SELECT name FROM singer WHERE id = 3", question="Name of singer 3?")
    b = replace(
        _one("SELECT weight FROM pets WHERE petid = 7", question="Weight of pets 7?"),
        database="pets_1",
    )
    ra = render_prefix(delexicalise_run(a, LEX), 1)
    rb = render_prefix(delexicalise_run(b, lexicon(PETS, "pets_1")), 1)
    assert ra == rb
    assert render_prefix(a, 1) != render_prefix(b, 1)


def test_a_word_is_masked_only_as_a_whole_word() -> None:
    lex = Lexicon("db", frozenset({"car"}), frozenset({"id", "make"}))
    run = _one("SELECT 1", question="Which cars, cartoons, makes or ids? idle car, Id")
    # A plural s only on names of four letters or more ('ids' is not read as 'id' + s).
    out = delexicalise_run(run, lex).question
    assert out == "Which TABLE, cartoons, COLUMN or ids? idle TABLE, COLUMN"


def test_the_view_needs_the_run_schema_and_names_the_database() -> None:
    run = replace(_one("SELECT 1"), database="unknown_db")
    with pytest.raises(InputError, match="unknown_db"):
        read_as(run, "delex", {"concert_singer": CATALOG})
    assert read_as(run, "raw", {}) is run


def test_the_view_rule_prefers_raw_within_the_margin() -> None:
    assert choose_view({"raw": 0.80, "delex": 0.805}) == "raw"
    assert choose_view({"raw": 0.80, "delex": 0.806}) == "delex"
    assert choose_view({"raw": 0.80}) == "raw"
    assert choose_view({"delex": 0.7}) == "delex"


def test_selection_without_schemas_never_offers_delex() -> None:
    runs = synthetic_runs(90)
    view, _c, info = select_view_and_c(runs, {}, candidates=(1.0,))
    assert view == "raw"
    assert info["views"] == ["raw"]
    assert "db0" in info["delex_not_a_candidate"]


def test_selection_compares_both_views_on_training_databases_only() -> None:
    runs = synthetic_runs(90)
    catalogs = {f"db{i}": CATALOG for i in range(3)}
    view, c, info = select_view_and_c(runs, catalogs, candidates=(1.0,))
    assert info["groups"] == ["db0", "db1", "db2"]
    assert set(info["mean_auroc"]) == {"raw:1", "delex:1"}
    assert view == choose_view({v: b["mean_auroc"] for v, b in info["best_by_view"].items()})
    assert c == 1.0


def test_a_delex_monitor_saves_its_view_and_reads_live_prefixes_in_it(tmp_path: Path) -> None:
    catalogs = {f"db{i}": CATALOG for i in range(3)}
    monitor = train_monitor(synthetic_runs(120, seed=3), catalogs, seed=42, view="delex")
    path = tmp_path / "m.json"
    save_monitor(monitor, path)
    assert json.loads(path.read_text())["body"]["view"] == "delex"
    loaded = load_monitor(path, catalogs)
    assert loaded.view == "delex"
    run = synthetic_runs(3, seed=9)[0]
    assert loaded.prefix_texts(run, [1]) == [render_prefix(read_as(run, "delex", catalogs), 1)]
    assert loaded.prefix_texts(run, [1]) != [render_prefix(run, 1)]
    partial = replace(run, steps=run.steps[:1], final="none", final_sql=None)
    assert watch(loaded, partial, lam=1.0).code.startswith("monitor.")
    with pytest.raises(InputError, match="db0"):
        load_monitor(path, {}).trace(run)


def test_the_cli_refuses_a_delex_view_without_the_schemas(tmp_path: Path) -> None:
    runs = tmp_path / "runs.jsonl"
    write_jsonl(runs, (r.to_dict() for r in synthetic_runs(20, seed=3)))
    result = CliRunner().invoke(
        main,
        ["monitor", "train", "--runs", str(runs), "--view", "delex", "--out", str(tmp_path / "m")],
    )
    assert result.exit_code != 0 and "--view delex" in result.output and "db0" in result.output
    assert not (tmp_path / "m").exists()


def test_answers_to_unanswerable_questions_join_the_delivery_pool_as_wrong() -> None:
    runs = synthetic_runs(80, seed=4)
    # Unanswerable questions answered anyway, with no correctness label: still delivered wrong.
    extra = [
        replace(r, run_id=f"u{i}", answerable=False, correct=None) for i, r in enumerate(runs[:40])
    ]
    catalogs = {f"db{i}": CATALOG for i in range(3)}
    monitor = train_monitor([*runs, *extra], catalogs, seed=42, head_c=1.0)
    _, cal = split_pools([*runs, *extra], fraction=0.3, seed=42)
    assert any(r.answerable is False for r in cal)
    pool = monitor.info["calibration_pool"]
    assert pool["runs"] == len(cal)
    assert pool["delivered_answers"] == len(cal)  # every calibration run delivered an answer
