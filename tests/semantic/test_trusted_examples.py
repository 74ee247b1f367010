"""Trusted examples: loaded from the layer, matched exactly or by reading, guarded, fail closed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
import yaml
from click.testing import CliRunner

from assay.cli import main
from assay.connectors import connect
from assay.errors import SemanticError
from assay.pipeline import Agent
from assay.pipeline._trusted import normalise
from assay.semantic import load_semantic, parse_semantic

YEAR_SQL = "SELECT sum(amount) AS revenue FROM sales WHERE year(day) = 2023"


def _layer(examples: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "name": "shop",
        "clock": "2023-12-31",
        "coverage": {"start": "2023-01-01", "end": "2023-12-31"},
        "metrics": [
            {
                "name": "revenue",
                "table": "sales",
                "expression": "sum(sales.amount)",
                "time_column": "sales.day",
            }
        ],
        "dimensions": [{"name": "region", "column": "sales.region"}],
        "retired_columns": [{"table": "sales", "column": "old_amount", "reason": "wrong"}],
        "trusted_examples": examples,
    }


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("trusted") / "shop.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE sales AS SELECT * FROM (VALUES (DATE '2023-01-05', 10.0, 'EU', 1.0), "
        "(DATE '2023-06-01', 32.5, 'US', 2.0), (DATE '2023-11-30', 7.5, 'EU', 3.0)) "
        "t(day, amount, region, old_amount)"
    )
    con.close()
    return path


@pytest.fixture
def agent(db: Path) -> Iterator[Any]:
    def make(examples: list[dict[str, Any]]) -> Agent:
        return Agent(connector, parse_semantic(_layer(examples)))

    with connect(str(db)) as connector:
        yield make


def test_the_field_loads_and_is_strict() -> None:
    layer = parse_semantic(_layer([{"name": "y", "question": "revenue in 2023", "sql": "x"}]))
    assert [(t.name, t.question, t.sql) for t in layer.trusted_examples] == [
        ("y", "revenue in 2023", "x")
    ]
    with pytest.raises(SemanticError, match=r"trusted_examples\[0\]\.sql: Field required"):
        parse_semantic(_layer([{"question": "revenue in 2023"}]))


def test_normalisation() -> None:
    assert normalise("Revenue  in 2023?") == normalise("revenue in 2023")
    assert normalise("revenue in 2023") != normalise("revenue in 2022")


def test_exact_and_reading_matches_answer_from_the_sql(agent: Any) -> None:
    # The example's SQL deliberately differs from the planner's (a column alias), so the
    # verdict shows which one ran.
    a = agent([{"name": "year", "question": "Total revenue for 2023", "sql": YEAR_SQL}])
    exact = a.ask("total revenue for 2023?")
    assert exact.action != "withhold" and exact.candidate.result.rows == ((50.0,),)
    assert exact.provenance["verified_query"]["match"] == "exact"
    assert exact.candidate.result.columns == ("revenue",)
    assert "note.verified_query" in [f.code for f in exact.findings]
    reading = a.ask("What was the revenue in 2023?")
    assert reading.provenance["verified_query"]["match"] == "reading"
    assert reading.candidate.result.rows == ((50.0,),)
    # A different period, or a word the reader cannot read, matches nothing.
    other = a.ask("revenue in 2023 by region")
    assert "verified_query" not in other.provenance
    unread = a.ask("revenue for 2023 from the bananas")
    assert "verified_query" not in unread.provenance
    assert unread.action == "withhold"


def test_two_sql_for_one_question_trust_neither(agent: Any) -> None:
    other = "SELECT sum(amount) * 2 AS revenue FROM sales WHERE year(day) = 2023"
    a = agent(
        [
            {"question": "Total revenue for 2023", "sql": YEAR_SQL},
            {"question": "total revenue for 2023!", "sql": other},
        ]
    )
    verdict = a.ask("total revenue for 2023")
    assert "verified_query" not in verdict.provenance


def test_an_example_the_guard_refuses_is_not_shown(agent: Any) -> None:
    a = agent(
        [
            {"question": "old revenue for 2023", "sql": "SELECT sum(old_amount) FROM sales"},
            {"question": "wipe the sales", "sql": "DELETE FROM sales"},
        ]
    )
    retired = a.ask("old revenue for 2023")
    assert retired.action == "withhold" and retired.provenance["verified_query"]
    assert any(r.startswith("guard.") for r in retired.reasons), retired.reasons
    wipe = a.ask("wipe the sales")  # refused as a request before any example is matched
    assert wipe.action == "withhold" and "verified_query" not in wipe.provenance


CORTEX = """
name: shop
tables:
  - name: sales_view
    base_table: {database: d, schema: s, table: sales}
    time_dimensions:
      - {name: day, expr: day, data_type: date}
    dimensions:
      - {name: region, expr: region}
    measures:
      - {name: revenue, expr: amount, default_aggregation: sum}
verified_queries:
  - name: good
    question: revenue per region
    sql: SELECT region, SUM(revenue) AS revenue FROM sales_view GROUP BY region
  - name: missing column
    question: revenue per colour
    sql: SELECT colour, SUM(revenue) FROM sales_view GROUP BY colour
  - name: physical
    question: old amounts
    sql: SELECT SUM(old_amount) FROM sales
  - name: write
    question: remove it
    sql: DELETE FROM sales_view
"""


def test_import_keeps_only_examples_that_pass_the_guard(db: Path, tmp_path: Path) -> None:
    source = tmp_path / "cortex.yaml"
    source.write_text(CORTEX, encoding="utf-8")
    out = tmp_path / "layer.yaml"
    result = CliRunner().invoke(
        main,
        [
            "semantic",
            "import",
            "--from",
            "cortex",
            "--source",
            str(source),
            "--db",
            str(db),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    refused = [ln for ln in result.output.splitlines() if "(missing column)" in ln]
    assert len(refused) == 1 and ("guard refuses" in refused[0] or "fails" in refused[0])
    assert "verified_queries[3] (write): the SQL is not one query" in result.output
    layer = load_semantic(out)
    assert [t.name for t in layer.trusted_examples] == ["good", "physical"]
    written = yaml.safe_load(out.read_text(encoding="utf-8"))
    assert "_logical_sales_view" in written["trusted_examples"][0]["sql"]
    with connect(str(db)) as connector:
        verdict = Agent(connector, layer).ask("Revenue per region")
    assert verdict.provenance["verified_query"]["name"] == "good"
    assert sorted(verdict.candidate.result.rows) == [("EU", 17.5), ("US", 32.5)]
