"""A drafted layer reads a name column without the prefix its table's columns share.

TPC-H names every column with a one-letter alias of its table (``n_name``, ``r_name``,
``s_name``). The draft took "n" for a word of one letter (the rule that keeps ``LName``, a last
name, from being a label), left every name column out, and no question could name a nation or
a region: on a drafted TPC-H layer "how many customers in GERMANY" abstained
(behaviour.value_not_in_domain) and "customers by nation name" had nothing to group by.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
import yaml
from click.testing import CliRunner

from assay.cli import main
from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import load_semantic


def _dimensions(layer: Path) -> dict[str, str]:
    drafted = yaml.safe_load(layer.read_text("utf-8"))
    return {str(d["column"]): str(d["name"]) for d in drafted["dimensions"]}


def test_name_columns_behind_an_alias_are_labels(tpch_draft: Path) -> None:
    columns = _dimensions(tpch_draft)
    for column in ("nation.n_name", "region.r_name", "supplier.s_name", "part.p_name"):
        assert column in columns, column
    # the comments stay out of it: free text is still left out
    assert "nation.n_comment" not in columns and "orders.o_comment" not in columns


def test_a_nation_said_by_name_filters_and_groups(tpch_duckdb: Path, tpch_draft: Path) -> None:
    with duckdb.connect(str(tpch_duckdb), read_only=True) as con:
        row = con.execute(
            "SELECT count(*) FROM customer JOIN nation ON c_nationkey = n_nationkey "
            "WHERE n_name = 'GERMANY'"
        ).fetchone()
        nations = con.execute("SELECT count(DISTINCT c_nationkey) FROM customer").fetchone()
    assert row is not None and nations is not None
    with connect(str(tpch_duckdb)) as connector:
        agent = Agent(connector, load_semantic(tpch_draft))
        verdict = agent.ask("how many customers in Germany")
        assert verdict.behaviour == "answer", verdict.reasons
        assert verdict.candidate is not None and verdict.candidate.result is not None
        assert [tuple(r) for r in verdict.candidate.result.rows] == [(row[0],)]
        grouped = agent.ask("number of customers by nation name")
        assert grouped.behaviour == "answer", grouped.reasons
        assert grouped.candidate is not None and grouped.candidate.result is not None
        assert len(grouped.candidate.result.rows) == nations[0]


def test_a_one_letter_word_of_the_name_itself_is_still_no_label(tmp_path: Path) -> None:
    # "LName" has no prefix its table's columns share: its "L" says nothing a question uses
    db = tmp_path / "school.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute(
            "CREATE TABLE Student AS SELECT i AS StuID, 'Smith' || i AS LName, "
            "'Ann' || i AS Fname, 18 + i % 5 AS Age FROM range(1, 41) t(i)"
        )
    out = tmp_path / "school.yaml"
    result = CliRunner().invoke(main, ["semantic", "init", "--db", str(db), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Student.LName" not in _dimensions(out)


@pytest.mark.parametrize("column", ["s_store_name", "i_product_name"])
def test_a_longer_name_behind_an_alias_is_a_label(tmp_path: Path, column: str) -> None:
    db = tmp_path / "w.duckdb"
    table, alias = ("store", "s_") if column.startswith("s_") else ("item", "i_")
    with duckdb.connect(str(db)) as con:
        con.execute(
            f"CREATE TABLE {table} AS SELECT i AS {alias}sk, 'thing ' || i AS {column}, "
            f"i * 2.5 AS {alias}size FROM range(1, 31) t(i)"
        )
    out = tmp_path / "w.yaml"
    result = CliRunner().invoke(main, ["semantic", "init", "--db", str(db), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert f"{table}.{column}" in _dimensions(out)
