"""``assay semantic import --from cortex``: the Cortex Analyst quickstart imports and answers."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from assay.cli import main
from assay.semantic import load_semantic

SOURCE = (
    Path(__file__).resolve().parents[2]
    / ".."
    / "shared"
    / "data"
    / "semantic-models"
    / "sfguide-cortex-analyst"
)


def _load(db: Path) -> None:
    """The CSVs loaded by position, as the source's create_snowflake_objects.sql defines them."""
    data = SOURCE / "data"
    con = duckdb.connect(str(db))
    con.execute(
        "CREATE TABLE daily_revenue AS SELECT CAST(column0 AS DATE) AS date, column1 AS revenue, "
        "column2 AS cogs, column3 AS forecasted_revenue, column4 AS product_id, "
        f"column5 AS region_id FROM read_csv('{data / 'daily_revenue.csv'}', header=true, "
        "columns={'column0': 'TIMESTAMP', 'column1': 'DOUBLE', 'column2': 'DOUBLE', "
        "'column3': 'DOUBLE', 'column4': 'INT', 'column5': 'INT'})"
    )
    con.execute(
        "CREATE TABLE product_dim AS SELECT column0 AS product_id, column1 AS product_line "
        f"FROM read_csv('{data / 'product.csv'}', header=true, "
        "columns={'column0': 'INT', 'column1': 'VARCHAR'})"
    )
    con.execute(
        "CREATE TABLE region_dim AS SELECT column0 AS region_id, column1 AS sales_region, "
        f"column2 AS state FROM read_csv('{data / 'region.csv'}', header=true, "
        "columns={'column0': 'INT', 'column1': 'VARCHAR', 'column2': 'VARCHAR'})"
    )
    con.close()


@pytest.mark.skipif(not SOURCE.exists(), reason="the shared semantic models are absent")
def test_quickstart_imports_refuses_the_fan_out_and_answers(tmp_path: Path) -> None:
    db = tmp_path / "cx.duckdb"
    _load(db)
    out = tmp_path / "layer.yaml"
    runner = CliRunner()
    result = runner.invoke(
        main,
        [
            "semantic",
            "import",
            "--from",
            "cortex",
            "--source",
            str(SOURCE / "revenue_timeseries.yaml"),
            "--db",
            str(db),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "2 trusted examples" in result.output and "fans out" in result.output
    layer = load_semantic(out)
    assert [t.name for t in layer.trusted_examples] == [
        "daily cumulative expenses in 2023 dec",
        "lowest revenue each month",
    ]
    assert [(f.left, f.right) for f in layer.forbidden_joins] == [("daily_revenue", "region_dim")]
    con = duckdb.connect(str(db), read_only=True)
    cogs = con.execute(
        "SELECT sum(cogs) FROM daily_revenue WHERE date BETWEEN '2023-12-01' AND '2023-12-31'"
    ).fetchone()
    con.close()
    assert cogs is not None
    ask = runner.invoke(
        main,
        ["ask", "--db", str(db), "--semantic", str(out), "--json", "daily cogs in December 2023"],
    )
    assert ask.exit_code == 0, ask.output
    assert f"{cogs[0]:.2f}"[:6] in ask.output.replace(",", "")
    fan = runner.invoke(
        main, ["ask", "--db", str(db), "--semantic", str(out), "sales by sales_region in 2023"]
    )
    assert "SHOW" not in fan.output
    # The layer is named 'Revenue'; "revenue" beside another metric is never the warehouse's
    # own name read as context (an outside tryout saw "revenue and cost in 2023" shown as
    # daily cogs alone, at 1.00). It is the daily revenue (the one metric left named
    # 'revenue' once the prefix 'daily' every metric shares is taken off; outside tryout 10):
    # both are shown, or it is asked back; never cogs alone.
    assert layer.name == "Revenue"
    con = duckdb.connect(str(db), read_only=True)
    revenue, cost = con.execute(
        "SELECT sum(revenue), sum(cogs) FROM daily_revenue WHERE year(date) = 2023"
    ).fetchone() or (0, 0)
    con.close()
    for question in ("revenue and cost in 2023", "cost and revenue in 2023"):
        both = runner.invoke(main, ["ask", "--db", str(db), "--semantic", str(out), question])
        assert both.exit_code == 0, both.output
        said = both.output.replace(",", "")
        assert f"{revenue:.2f}" in said and f"{cost:.2f}" in said, (question, both.output)
    apart = "cost in 2023 by product line and revenue"
    both = runner.invoke(main, ["ask", "--db", str(db), "--semantic", str(out), apart])
    assert "SHOW" not in both.output and "WARN" not in both.output, both.output
    assert "revenue" in both.output.split("\n", 1)[1], both.output


def test_not_cortex_is_a_clear_error(tmp_path: Path) -> None:
    source = tmp_path / "x.yaml"
    source.write_text("cubes: []\n", encoding="utf-8")
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
            str(tmp_path / "x.duckdb"),
            "--out",
            str(tmp_path / "o.yaml"),
        ],
    )
    assert result.exit_code == 1 and "not a Cortex Analyst semantic model" in result.output


def test_a_measure_of_a_table_without_time_is_imported_untimed(tmp_path: Path) -> None:
    """No time dimension: the measure is a metric without time_column (reported as a note);
    without a period it is answered over every row, with a period abstained on."""
    from assay.connectors import connect
    from assay.pipeline import Agent

    db = tmp_path / "p.duckdb"
    con = duckdb.connect(str(db))
    con.execute(
        "CREATE TABLE parts AS SELECT * FROM (VALUES (1, 2.5, -1.5), (2, 4.0, 2.0)) "
        "t(id, weight, delta)"
    )
    con.close()
    source = tmp_path / "m.yaml"
    source.write_text(
        """
name: parts_model
tables:
  - name: parts
    base_table: {database: D, schema: S, table: parts}
    measures:
      - {name: total_weight, expr: weight, data_type: NUMBER, default_aggregation: sum}
      - {name: heaviness, expr: weight, data_type: NUMBER}
      - {name: change, expr: delta, data_type: NUMBER}
""",
        encoding="utf-8",
    )
    out = tmp_path / "layer.yaml"
    result = CliRunner().invoke(
        main,
        [
            *("semantic", "import", "--from", "cortex", "--source", str(source)),
            *("--db", str(db), "--out", str(out)),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "note: tables[0] (parts).measures.total_weight: untimed" in result.output
    # Without an aggregation: summed only when the values allow it, and marked unconfirmed.
    assert "measures.heaviness: no aggregation given; summed" in result.output
    assert "measures.change: no aggregation given, and none is guessed: it holds negative" in (
        " ".join(result.output.split())
    )
    layer = load_semantic(out)
    assert [(m.name, m.time_column, m.tier) for m in layer.metrics] == [
        ("total_weight", "", ""),
        ("heaviness", "", "PATTERN_CONFIRMED"),
    ]
    assert "change" in layer.undefined_concepts
    assert layer.clock is None
    with connect(str(db)) as connector:
        agent = Agent(connector, layer)
        total = agent.ask("total weight")
        period = agent.ask("total weight in 2024")
    assert total.candidate is not None and total.candidate.result is not None
    assert total.candidate.result.rows == ((6.5,),)
    assert period.behaviour == "abstain" and period.reasons == ("behaviour.no_time",)
