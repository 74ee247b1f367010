"""``assay semantic import --from osi``: datasets, fields, relationships and model metrics."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from assay.cli import main
from assay.connectors import connect
from assay.errors import SemanticError
from assay.pipeline import Agent
from assay.semantic import load_semantic
from assay.semantic._import_osi import import_osi

MODEL = """
semantic_model:
  - name: shop
    datasets:
      - name: sales
        source: db.public.sales
        fields:
          - name: s_date_sk
            expression: {dialects: [{dialect: ANSI_SQL, expression: s_date_sk}]}
            dimension: {is_time: false}
          - name: s_amount
            expression: {dialects: [{dialect: ANSI_SQL, expression: s_amount}]}
      - name: date_dim
        source: db.public.date_dim
        fields:
          - name: d_date
            expression: {dialects: [{dialect: ANSI_SQL, expression: d_date}]}
            dimension: {is_time: true}
          - name: d_year
            expression: {dialects: [{dialect: ANSI_SQL, expression: d_year}]}
            dimension: {is_time: true}
      - name: item
        source: db.public.item
        fields:
          - name: i_brand
            expression: {dialects: [{dialect: ANSI_SQL, expression: i_brand}]}
            dimension: {is_time: false}
            ai_context: {synonyms: [brand]}
    relationships:
      - {name: s_d, from: sales, to: date_dim, from_columns: [s_date_sk], to_columns: [d_date_sk]}
      - {name: s_i, from: sales, to: item, from_columns: [s_item_sk], to_columns: [i_item_sk]}
    metrics:
      - name: total_sales
        expression: {dialects: [{dialect: ANSI_SQL, expression: SUM(sales.s_amount)}]}
      - name: sales_by_brand
        expression: {dialects: [{dialect: ANSI_SQL, expression: SUM(sales.s_amount)}]}
      - name: sales_per_item
        expression:
          dialects:
            - {dialect: ANSI_SQL, expression: SUM(sales.s_amount) / COUNT(DISTINCT item.i_item_sk)}
"""


def _db(path: Path, undated: bool) -> None:
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE date_dim AS SELECT * FROM (VALUES (1, DATE '2024-01-01'), "
        "(2, DATE '2024-01-02'), (3, DATE '2030-01-01')) t(d_date_sk, d_date)"
    )
    con.execute(
        "CREATE TABLE item AS SELECT * FROM (VALUES (1, 'acme'), (2, 'zeta')) t(i_item_sk, i_brand)"
    )
    date = "NULL" if undated else "2"
    con.execute(
        "CREATE TABLE sales AS SELECT * FROM (VALUES (1, 1, 10.0), (2, 2, 5.0), "
        f"({date}, 1, 7.0)) t(s_date_sk, s_item_sk, s_amount)"
    )
    con.close()


def _import(tmp_path: Path, db: Path) -> tuple[int, str, Path]:
    source = tmp_path / "osi.yaml"
    source.write_text(MODEL, encoding="utf-8")
    out = tmp_path / f"{db.stem}.yaml"
    result = CliRunner().invoke(
        main,
        [
            "semantic",
            "import",
            "--from",
            "osi",
            "--source",
            str(source),
            "--db",
            str(db),
            "--out",
            str(out),
        ],
    )
    return result.exit_code, result.output, out


def test_imports_and_answers_with_the_source_rows(tmp_path: Path) -> None:
    db = tmp_path / "dated.duckdb"
    _db(db, undated=False)
    code, output, out = _import(tmp_path, db)
    assert code == 0, output
    assert "metrics[1] (sales_by_brand): named as a breakdown" in output
    assert "metrics[2] (sales_per_item): it reads item, sales" in output
    # a second time field is reported, never dropped silently (outside tryout 22); this
    # database's date_dim has no d_year, and the report says so (import 38)
    assert "fields.d_year: its column date_dim.d_year is not in the database" in output
    layer = load_semantic(out)
    # Coverage is the dates the sales join to, not the whole calendar table (2030).
    assert str(layer.coverage) == "(datetime.date(2024, 1, 1), datetime.date(2024, 1, 2))"
    con = duckdb.connect(str(db), read_only=True)
    by_brand = con.execute(
        "SELECT i.i_brand, SUM(s.s_amount) FROM sales s JOIN item i ON s.s_item_sk = i.i_item_sk "
        "GROUP BY 1"
    ).fetchall()
    con.close()
    with connect(str(db)) as connector:
        agent = Agent(connector, layer)
        total = agent.ask("total sales")
        brand = agent.ask("total sales by brand")
        per_item = agent.ask("sales per item")
    assert total.candidate.result.rows == ((22.0,),)
    assert sorted(brand.candidate.result.rows) == sorted(by_brand)
    # Over sales joined many to one to item, as defined: 22 over the 2 items sold, no fan-out
    # (COUNT(DISTINCT ...)), so not capped.
    assert per_item.candidate.result.rows == ((11.0,),)
    assert "cap.fan_out_in_metric" not in [f.code for f in per_item.findings]


def test_undated_rows_are_not_silently_left_out(tmp_path: Path) -> None:
    """A metric timed through a join that leaves a row undated stays timed, the join marked
    (outside tryout 22: imported untimed, every period abstained): without a period it
    counts every row (the undated one included, the calendar never joined); a period keeps
    the dated rows in it; a year grain puts the undated row in a NULL year of its own."""
    db = tmp_path / "undated.duckdb"
    _db(db, undated=True)
    code, output, out = _import(tmp_path, db)
    assert code == 0, output
    assert (
        "metric total_sales: timed by date_dim.d_date, but 1 rows of sales have no date there"
        in output
    )
    layer = load_semantic(out)
    assert [(m.name, m.time_column) for m in layer.metrics] == [
        ("total_sales", "date_dim.d_date"),
        ("sales_per_item", "date_dim.d_date"),
    ]
    assert [j.unmatched for j in layer.joins if j.right == "date_dim.d_date_sk"] == [1]
    con = duckdb.connect(str(db), read_only=True)
    everything = con.execute("SELECT SUM(s_amount) FROM sales").fetchall()
    dated = "FROM sales s LEFT JOIN date_dim d ON s.s_date_sk = d.d_date_sk"
    in_2024 = con.execute(f"SELECT SUM(s.s_amount) {dated} WHERE year(d.d_date) = 2024").fetchall()
    by_year = con.execute(f"SELECT year(d.d_date), SUM(s.s_amount) {dated} GROUP BY 1").fetchall()
    con.close()
    assert everything != in_2024  # the undated row carries an amount
    with connect(str(db)) as connector:
        agent = Agent(connector, layer)
        total = agent.ask("total sales")
        period = agent.ask("total sales in 2024")
        yearly = agent.ask("total sales by year")
    for verdict in (total, period, yearly):
        assert verdict.candidate is not None and verdict.candidate.result is not None
    assert "date_dim" not in (total.candidate.final_sql or "")
    assert list(total.candidate.result.rows) == everything
    assert list(period.candidate.result.rows) == in_2024
    assert sorted(yearly.candidate.result.rows, key=str) == sorted(by_year, key=str)


def test_not_osi_is_a_clear_error(tmp_path: Path) -> None:
    source = tmp_path / "x.yaml"
    source.write_text("cubes: []\n", encoding="utf-8")
    with pytest.raises(SemanticError, match="not an OSI semantic model"):
        import_osi(source)


def test_a_sum_over_the_one_side_of_a_join_is_named_as_a_fan_out(tmp_path: Path) -> None:
    """SUM over a column of the table a fact joins many to one counts each of its rows once
    per fact row: imported as defined, over the fact, and noted as the source SQL's fan-out
    (its answers are warned); COUNT(DISTINCT ...) is not one. A metric over two datasets
    neither of which joins the other many to one stays unmapped."""
    fan = MODEL + (
        "      - name: amount_per_price\n"
        "        expression:\n"
        "          dialects:\n"
        "            - {dialect: ANSI_SQL, expression: SUM(sales.s_amount) / SUM(item.i_price)}\n"
    )
    fan += (
        "      - name: brand_per_day\n"
        "        expression:\n"
        "          dialects:\n"
        "            - {dialect: ANSI_SQL, expression: "
        "COUNT(item.i_brand) / COUNT(date_dim.d_date)}\n"
    )
    (tmp_path / "m.yaml").write_text(fan, encoding="utf-8")
    result = import_osi(tmp_path / "m.yaml")
    text = "\n".join(result.notes)
    assert (
        "(amount_per_price): it reads item, sales; imported over sales joined many to one to "
        "item; SUM(item.i_price) over sales rows joined to item (many to one) counts each item "
        "row once per sales row, a fan-out of the source's own SQL: answered as it defines it, "
        "always with a warning (cap.fan_out_in_metric)"
    ) in text
    per_item = next(line for line in text.splitlines() if "(sales_per_item)" in line)
    assert "fan-out" not in per_item
    mapped = {m["name"]: m for m in result.layer["metrics"]}
    assert mapped["amount_per_price"]["table"] == "sales"
    assert mapped["amount_per_price"]["expression"] == "SUM(sales.s_amount) / SUM(item.i_price)"
    assert "brand_per_day" not in mapped
    assert any(
        "(brand_per_day): it reads date_dim, item; Assay computes a metric over one table, "
        "joined only many to one from it" in u
        for u in result.unmapped
    )
