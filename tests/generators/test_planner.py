"""The planner: deterministic SQL from the semantic layer, joins without fan-out."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from assay.checks import fit_check
from assay.errors import GenerationError, NoJoinPath
from assay.generators import plan
from assay.semantic import (
    Filter,
    JoinPath,
    Metric,
    Reading,
    SemanticLayer,
    load_semantic,
    read,
    resolve,
)


def test_same_question_same_sql(wrb: Path) -> None:
    layer = load_semantic(wrb / "shop.yaml")
    question = "Top 2 category by gross revenue in Q2 2023"
    first = plan(resolve(question, layer), layer)
    second = plan(resolve(question, load_semantic(wrb / "shop.yaml")), layer)
    assert first.sql == second.sql
    assert "WHERE value_rank <= 2" in first.sql and "JOIN products" in first.sql
    assert "orders.status <> 'cancelled'" in first.sql
    assert first.join_count == 2


def test_fan_out_is_refused(wrb: Path) -> None:
    layer = load_semantic(wrb / "shop.yaml")
    # A sum on orders broken down by a product column would repeat each order per line.
    metrics = tuple(
        m
        if m.name != "order_count"
        else m.__class__(
            m.name,
            m.label,
            m.synonyms,
            m.table,
            "SUM(orders.order_id)",
            m.time_column,
            m.required_filters,
        )
        for m in layer.metrics
    )
    broken = SemanticLayer(**{**layer.__dict__, "metrics": metrics})
    with pytest.raises(GenerationError, match="multiply rows"):
        plan(resolve("What was the number of orders by category in 2023?", broken), broken)


def test_no_join_path(wrb: Path) -> None:
    layer = load_semantic(wrb / "shop.yaml")
    cut = SemanticLayer(
        **{**layer.__dict__, "joins": (JoinPath("orders.customer_id", "customers.customer_id"),)}
    )
    with pytest.raises(NoJoinPath, match=r"no join path from order_lines .* to orders"):
        plan(resolve("What was the gross revenue by category in 2023?", cut), cut)


@pytest.mark.parametrize(
    ("question", "fragments"),
    [
        ("gross revenue in 2023 excluding Germany", ["customers.country <> 'DE'"]),
        (
            "gross revenue in 2023 excluding Germany and France",
            ["NOT customers.country IN ('DE', 'FR')"],
        ),
        ("gross revenue in 2023 where country is DE or FR", ["customers.country IN ('DE', 'FR')"]),
        (
            "Which product category had the most net revenue in Q4 2023?",
            ["GROUP BY products.category", "ORDER BY value DESC", "value_rank <= 1"],
        ),
        (
            "the fewest units sold by category in 2023",
            [
                "ORDER BY value ASC",
                "RANK() OVER (ORDER BY SUM(order_lines.quantity) ASC)",
                "value_rank <= 1",
            ],
        ),
        (
            "gross revenue in 2023 compared with the previous year",
            ["YEAR(orders.order_date) AS year", "'2022-01-01'", "'2024-01-01'"],
        ),
        (
            "gross revenue Q1 2024 vs Q1 2023",
            ["DATE_TRUNC('QUARTER', orders.order_date) AS quarter"],
        ),
        ("gross revenue H1 2024 vs H1 2023", ["THEN 'H1 2024'", "THEN 'H1 2023'"]),
    ],
    ids=[
        "not-equal",
        "not-in",
        "in",
        "which-most",
        "fewest",
        "previous-year",
        "quarters",
        "halves",
    ],
)
def test_plan_follows_the_reading(wrb: Path, question: str, fragments: list[str]) -> None:
    layer = load_semantic(wrb / "shop.yaml")
    reading = read(question, layer)
    planned = plan(reading, layer)
    for fragment in fragments:
        assert fragment in planned.sql, planned.sql
    fit = fit_check(planned.sql, reading, layer)
    assert fit.mismatches == () and fit.complete == 1.0


@pytest.mark.parametrize(
    ("planned_for", "asked", "says"),
    [
        ("gross revenue in 2023 for Germany", "gross revenue in 2023 excluding Germany", "not DE"),
        ("gross revenue in 2023", "gross revenue in 2023 excluding Germany", "absent"),
        ("gross revenue in 2022", "gross revenue in 2023", "period bounds"),
        (
            "top 2 country by gross revenue in 2023",
            "top 3 country by gross revenue in 2023",
            "keeps 2",
        ),
        (
            "bottom 2 country by gross revenue in 2023",
            "top 2 country by gross revenue in 2023",
            "ascending",
        ),
        ("gross revenue by category in 2023", "gross revenue by country in 2023", "grouped by"),
        ("gross revenue in 2023", "gross revenue in 2023 vs 2022", "period bounds"),
    ],
    ids=["polarity", "filter-dropped", "period", "limit", "direction", "group", "comparison"],
)
def test_fit_check_vetoes_a_plan_that_answers_another_question(
    wrb: Path, planned_for: str, asked: str, says: str
) -> None:
    layer = load_semantic(wrb / "shop.yaml")
    sql = plan(read(planned_for, layer), layer).sql
    fit = fit_check(sql, read(asked, layer), layer)
    assert fit.complete < 1.0
    (finding,) = fit.findings
    assert finding.code == "veto.reading_mismatch" and finding.kind == "veto"
    assert says in finding.message


def test_fit_check_reads_aliased_sql(wrb: Path) -> None:
    layer = load_semantic(wrb / "shop.yaml")
    sql = (
        "SELECT SUM(ol.quantity * ol.unit_price) AS value FROM order_lines ol JOIN orders o "
        "ON ol.order_id = o.order_id JOIN customers c ON o.customer_id = c.customer_id "
        "WHERE o.order_date >= DATE '2023-01-01' AND o.order_date < DATE '2024-01-01' "
        "AND o.status <> 'cancelled' AND NOT c.country IN ('DE', 'FR')"
    )
    assert fit_check(sql, read("gross revenue 2023 except DE or FR", layer), layer).complete == 1.0
    assert fit_check("SELEC nothing", read("gross revenue 2023", layer), layer).complete < 1.0


def test_ranking_by_change(wrb: Path) -> None:
    layer = load_semantic(wrb / "clinic.yaml")
    reading = read("Which city's visit count fell the most from 2023 to 2024?", layer)
    assert reading.change == "down" and reading.ranking is not None
    assert not reading.ranking.descending  # the most negative change first
    planned = plan(reading, layer)
    assert "a.value - b.value AS change" in planned.sql and "change_rank <= 1" in planned.sql
    assert fit_check(planned.sql, reading, layer).complete == 1.0
    grew = read("Which city's visit count grew the most from 2023 to 2024?", layer)
    assert fit_check(planned.sql, grew, layer).complete < 1.0
    both = read("By how much did visits drop from Q4 2023 to Q1 2024?", layer)
    assert [p.label for p in both.periods] == ["Q4 2023", "Q1 2024"] and both.compare


SALES_LAYER = """
name: small_shop
tables:
  sales: {}
  stores: {}
  customers: {}
joins:
- left: sales.store_id
  right: stores.store_id
- left: sales.customer_id
  right: customers.customer_id
metrics:
- name: total_sales
  table: sales
  expression: SUM(sales.amount)
dimensions:
- name: store_id
  column: sales.store_id
  synonyms: [store]
- name: customer_id
  column: sales.customer_id
  synonyms: [customer]
- name: s_state
  column: stores.state
  synonyms: [state]
- name: c_email
  column: customers.email
  synonyms: [email]
"""


@pytest.fixture
def small_shop(tmp_path: Path) -> tuple[SemanticLayer, duckdb.DuckDBPyConnection]:
    """Five sales, one with no store and one whose customer is not in customers."""
    (tmp_path / "shop.yaml").write_text(SALES_LAYER)
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE sales AS SELECT * FROM (VALUES (1, 1, 10.0), (1, 2, 20.0), "
        "(2, 1, 5.0), (NULL, 2, 100.0), (2, 9, 1.0)) t(store_id, customer_id, amount)"
    )
    con.execute(
        "CREATE TABLE stores AS SELECT * FROM (VALUES (1, 'TN'), (2, 'TN')) t(store_id, state)"
    )
    con.execute(
        "CREATE TABLE customers AS SELECT * FROM (VALUES (1, 'a@x.org'), (2, 'b@x.org')) "
        "t(customer_id, email)"
    )
    return load_semantic(tmp_path / "shop.yaml"), con


@pytest.mark.parametrize(
    ("question", "group", "rows"),
    [
        ("total sales by store state", "s_state", {"TN": 36.0, "(no stores)": 100.0}),
        (
            "total sales by customer email",
            "c_email",
            {"a@x.org": 15.0, "b@x.org": 120.0, "(no customers)": 1.0},
        ),
    ],
)
def test_a_breakdown_by_a_joined_table_keeps_every_fact_row(
    small_shop: tuple[SemanticLayer, duckdb.DuckDBPyConnection],
    question: str,
    group: str,
    rows: dict[str, float],
) -> None:
    """The unmatched fact rows are their own plainly labelled group (the groups add up to the
    total 136), and the key that names whose state is no grouping of its own."""
    layer, con = small_shop
    reading = resolve(question, layer)
    assert reading.groups == (group,)
    planned = plan(reading, layer)
    assert "LEFT JOIN" in planned.sql
    got = con.execute(planned.sql).fetchall()
    assert {r[0]: float(r[1]) for r in got} == rows
    assert fit_check(planned.sql, reading, layer).mismatches == ()


def test_a_filter_on_a_joined_table_keeps_the_inner_join(
    small_shop: tuple[SemanticLayer, duckdb.DuckDBPyConnection],
) -> None:
    layer, _ = small_shop
    reading = Reading(
        "total sales by state for a@x.org",
        metrics=("total_sales",),
        groups=("s_state",),
        filters=(Filter("c_email", ("a@x.org",)),),
    )
    planned = plan(reading, layer)
    assert "LEFT JOIN stores" in planned.sql and "LEFT JOIN customers" not in planned.sql


def test_a_time_column_on_another_table_is_joined_only_when_a_period_needs_it() -> None:
    """Sales dated through a date table: a question with no period or grain joins no date
    table, so a sale with no date row is not lost from an all-time total."""
    sales = Metric("total_sales", "Total sales", (), "sales", "SUM(sales.amount)", "dates.day")
    layer = SemanticLayer(
        name="dated",
        metrics=(sales,),
        joins=(JoinPath("sales.date_id", "dates.date_id"),),
        tables=("sales", "dates"),
    )
    assert "JOIN" not in plan(Reading("total sales", metrics=("total_sales",)), layer).sql
    monthly = Reading("total sales by month", metrics=("total_sales",), grain="month")
    assert "JOIN dates" in plan(monthly, layer).sql


def test_no_join_path_names_the_metrics_own_forbidden_join_first() -> None:
    """Outside tryout 23: a store sales filter on customer_demographics was refused naming the
    forbidden catalog_returns join, which the question never touched."""
    from assay.generators._planner import _path
    from assay.semantic import SemanticLayer
    from assay.semantic._model import ForbiddenJoin, JoinPath

    layer = SemanticLayer(
        joins=(
            JoinPath("catalog_returns.cr_item_sk", "item.i_item_sk"),
            JoinPath("store_sales.ss_item_sk", "item.i_item_sk"),
        ),
        forbidden_joins=(
            ForbiddenJoin("catalog_returns", "customer_demographics", "28 rows of catalog_returns"),
            ForbiddenJoin("store_sales", "customer_demographics", "1263 rows of store_sales"),
        ),
    )
    with pytest.raises(
        NoJoinPath, match=r"forbids joining store_sales to customer_demographics \(1263"
    ):
        _path(layer, "store_sales", "customer_demographics")
