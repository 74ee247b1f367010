"""Numeric comparisons on a dimension ("capacity above 3", "capacity >= 2", "between 2 and 5"):
read, restated, planned and checked by the fit check; a comparison on a column that is not a
number, or one that cannot be read exactly, is never shown."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb
import pytest

from assay.catalog import Catalog
from assay.catalog._schema import ColumnInfo, TableInfo
from assay.checks import fit_check
from assay.connectors import connect
from assay.generators._planner import plan
from assay.pipeline import Agent
from assay.semantic import Dimension, Metric, SemanticLayer, parse_semantic, read
from assay.semantic._import_metricflow import import_metricflow

LAYER = SemanticLayer(
    name="t",
    metrics=(Metric("bookings", "bookings", (), "b", "SUM(1)", "b.ds"),),
    dimensions=(
        Dimension("capacity", "l.capacity", ()),
        Dimension("country", "l.country", (), ("DE", "FR")),
    ),
    clock=dt.date(2024, 1, 1),
    tables=("b", "l"),
)


def _bounds(question: str) -> list[tuple[str, str, str]]:
    return [(c.dimension, c.op, c.value) for c in read(question, LAYER).comparisons]


@pytest.mark.parametrize(
    ("question", "bounds"),
    [
        ("bookings where capacity is above 3", [("capacity", ">", "3")]),
        ("bookings with capacity > 3", [("capacity", ">", "3")]),
        ("bookings where capacity more than 3", [("capacity", ">", "3")]),
        ("bookings where capacity is at least 2", [("capacity", ">=", "2")]),
        ("bookings where capacity >= 2", [("capacity", ">=", "2")]),
        ("bookings where capacity is under 4", [("capacity", "<", "4")]),
        ("bookings where capacity is at most 4.5", [("capacity", "<=", "4.5")]),
        ("bookings where capacity no more than 1,000", [("capacity", "<=", "1000")]),
        ("bookings where capacity below -2", [("capacity", "<", "-2")]),
        # negated, as "no more than" is (outside tryout 16: "weight not over 2000")
        ("bookings where capacity is not above 3", [("capacity", "<=", "3")]),
        ("bookings where capacity not under 2", [("capacity", ">=", "2")]),
        (
            "bookings where capacity is between 2 and 5",
            [("capacity", ">=", "2"), ("capacity", "<=", "5")],
        ),
    ],
)
def test_comparison_words_read_as_operator_and_bound(
    question: str, bounds: list[tuple[str, str, str]]
) -> None:
    reading = read(question, LAYER)
    assert _bounds(question) == bounds
    assert reading.unread == () and reading.groups == () and reading.filters == ()
    assert reading.metrics == ("bookings",)


def test_comparison_restated() -> None:
    assert read("bookings where capacity is above 3 by country", LAYER).restate(LAYER) == (
        "bookings, where capacity is above 3 (> 3), over all dates, by country"
    )
    assert "where capacity is between 2 and 5 (both included)" in read(
        "bookings where capacity between 2 and 5", LAYER
    ).restate(LAYER)
    assert "where capacity is at least 2" in read("bookings, capacity >= 2", LAYER).restate(LAYER)


@pytest.mark.parametrize(
    "question",
    [
        "bookings where capacity is not near 3",  # negated, no bound read: asked back
        "bookings where capacity above 3 or below 1",  # "or": which rows is not said
        "bookings where capacity above 3,5",  # a decimal comma: not a number read here
        "bookings where capacity above three-ish",
    ],
)
def test_unread_comparisons_are_not_guessed(question: str) -> None:
    reading = read(question, LAYER)
    assert reading.comparisons == ()
    assert reading.unread or reading.dangling


def test_a_period_after_a_dimension_is_no_bound() -> None:
    reading = read("bookings by country over 2023", LAYER)
    assert reading.comparisons == () and reading.periods[0].label == "2023"


def _layer_with_join() -> SemanticLayer:
    return parse_semantic(
        {
            "name": "t",
            "metrics": [{"name": "bookings", "table": "b", "expression": "sum(1)"}],
            "dimensions": [
                {"name": "capacity", "column": "l.capacity"},
                {"name": "code", "column": "l.code"},
            ],
            "joins": [{"left": "b.listing_id", "right": "l.listing_id"}],
        }
    )


def _catalog(capacity_type: str) -> Catalog:
    return Catalog(
        (
            TableInfo("b", (ColumnInfo("listing_id", "INTEGER"),)),
            TableInfo(
                "l",
                (
                    ColumnInfo("listing_id", "INTEGER"),
                    ColumnInfo("capacity", capacity_type),
                    ColumnInfo("code", "VARCHAR"),
                ),
            ),
        )
    )


def test_planned_and_fit_checked() -> None:
    layer = _layer_with_join()
    reading = read("bookings where capacity is above 3", layer)
    sql = plan(reading, layer).sql
    assert "l.capacity > 3" in sql and "JOIN l" in sql
    catalog = _catalog("BIGINT")
    assert fit_check(sql, reading, layer, catalog=catalog).mismatches == ()
    # polarity and bound are each checked
    for wrong in ("l.capacity >= 3", "l.capacity < 3", "l.capacity > 4", "3 > l.capacity"):
        report = fit_check(sql.replace("l.capacity > 3", wrong), reading, layer, catalog=catalog)
        assert report.mismatches and "comparison on capacity" in report.mismatches[0]
    # written the other way round, the same bound
    flipped = sql.replace("l.capacity > 3", "3 < l.capacity")
    assert fit_check(flipped, reading, layer, catalog=catalog).mismatches == ()
    # a bound the reading lacks is a mismatch too
    plain = read("bookings", layer)
    assert fit_check(sql, plain, layer, catalog=catalog).mismatches
    between = read("bookings where capacity is between 2 and 5", layer)
    both = plan(between, layer).sql
    assert fit_check(both, between, layer, catalog=catalog).mismatches == ()
    as_between = "SELECT SUM(1) AS value FROM b JOIN l ON b.listing_id = l.listing_id "
    as_between += "WHERE l.capacity BETWEEN 2 AND 5"
    assert fit_check(as_between, between, layer, catalog=catalog).mismatches == ()


def test_a_bound_on_a_column_not_typed_as_a_number_is_a_mismatch() -> None:
    layer = _layer_with_join()
    reading = read("bookings where code is above 3", layer)
    sql = plan(reading, layer).sql
    report = fit_check(sql, reading, layer, catalog=_catalog("BIGINT"))
    assert "is not known to be a number" in report.mismatches[0]
    reading = read("bookings where capacity is above 3", layer)
    sql = plan(reading, layer).sql
    assert fit_check(sql, reading, layer, catalog=_catalog("VARCHAR")).mismatches
    assert fit_check(sql, reading, layer).mismatches  # no catalogue: cannot be checked


def test_agent_shows_the_same_rows_and_withholds_on_text(tmp_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE l AS SELECT * FROM (VALUES (1, 2, '10'), (2, 4, '9'), (3, 6, '3'))")
    con.execute("ALTER TABLE l RENAME COLUMN col0 TO listing_id")
    con.execute("ALTER TABLE l RENAME COLUMN col1 TO capacity")
    con.execute("ALTER TABLE l RENAME COLUMN col2 TO code")
    con.execute(
        "CREATE TABLE b AS SELECT * FROM (VALUES (1), (2), (2), (3), (3), (3)) t(listing_id)"
    )
    expected = con.execute(
        "SELECT count(*) FROM b JOIN l USING (listing_id) WHERE l.capacity > 3"
    ).fetchall()
    con.close()
    with connect(str(db)) as connector:
        agent = Agent(connector, _layer_with_join())
        shown = agent.ask("bookings where capacity is above 3")
        assert shown.action != "withhold"
        assert shown.candidate is not None and shown.candidate.result is not None
        assert [float(r[0]) for r in shown.candidate.result.rows] == [float(expected[0][0])]
        assert "where capacity is above 3" in shown.provenance["reading"]
        # '10' > '9' is false as text: never shown (DuckDB fails the cast; an engine that
        # compares as text is stopped by the fit check, tested above)
        text = agent.ask("bookings where code is above 3")
        assert text.action == "withhold"
        assert (
            text.candidate is None
            or text.candidate.result is None
            or ("veto.reading_mismatch" in text.reasons)
        )


def test_metricflow_entity_in_several_models_and_qualified_names(tmp_path: Path) -> None:
    """An entity primary in two models joins the foreign model to each (MetricFlow reaches a
    dimension of either through it); a dimension is also read by its MetricFlow name
    ``entity__name`` ("listing capacity latest")."""
    (tmp_path / "m.yml").write_text(
        """
semantic_models:
  - name: bookings
    model: ref('bookings')
    primary_entity: booking
    entities: [{name: listing, type: foreign, expr: listing_id}]
    measures: [{name: bookings, agg: sum, expr: "1"}]
  - name: listings
    model: ref('listings')
    entities: [{name: listing, type: primary, expr: listing_id}]
    dimensions: [{name: capacity_latest, type: categorical, expr: capacity}]
  - name: lux
    model: ref('lux')
    entities: [{name: listing, type: primary, expr: listing_id}]
metrics:
  - {name: bookings, type: simple, type_params: {measure: bookings}}
""",
        encoding="utf-8",
    )
    result = import_metricflow(tmp_path / "m.yml")
    assert result.layer["joins"] == [
        {"left": "bookings.listing_id", "right": "listings.listing_id"},
        {"left": "bookings.listing_id", "right": "lux.listing_id"},
    ]
    assert result.layer["dimensions"] == [
        {
            "name": "capacity_latest",
            "column": "listings.capacity",
            "synonyms": ["listing capacity latest"],
        }
    ]


# --- "across all <rows>" and a parenthetical grouping (_across) --------------------------

ACROSS = SemanticLayer(
    name="t",
    metrics=(Metric("sales", "total sales", (), "store_sales", "SUM(store_sales.x)"),),
    dimensions=(
        Dimension("i_brand", "item.i_brand", ("brand",)),
        Dimension("s_state", "store.s_state", ("state",)),
    ),
    tables=("store_sales", "item", "store"),
)


@pytest.mark.parametrize(
    "question",
    [
        "Total sales across all transactions",
        "total sales across all records",
        "total sales over all rows",
        "total sales across all brands",
    ],
)
def test_across_all_rows_is_one_total(question: str) -> None:
    reading = read(question, ACROSS)
    assert reading.metrics == ("sales",)
    assert reading.groups == () and reading.unread == () and reading.unknown_groups == ()
    assert reading.dangling == ()


def test_across_all_of_something_unknown_stays_unread() -> None:
    reading = read("total sales across all galaxies", ACROSS)
    assert reading.unread or reading.unknown_groups or reading.dangling


def test_a_parenthetical_grouping_by_a_dimension_column_is_that_grouping() -> None:
    reading = read("Total sales by brand (requires grouping by item.i_brand)", ACROSS)
    assert reading.groups == ("i_brand",) and reading.unread == ()
    reading = read("Total sales (grouped by store.s_state)", ACROSS)
    assert reading.groups == ("s_state",) and reading.unread == ()
    # not a dimension's column: its words stay unread, asked back
    reading = read("Total sales (requires grouping by item.i_size)", ACROSS)
    assert reading.unread
    # any other parenthetical stays unread too
    assert read("Total sales (excluding returns)", ACROSS).unread


def test_metricflow_filter_through_joins_mapped_only_along_the_one_path(tmp_path: Path) -> None:
    """A metric filter on another model's dimension (``customer__country``, and a second hop
    by ``entity_path``) is mapped over the joined column when each hop is the only join into
    its table; with a second way into the table it is reported, never guessed."""
    models = """
semantic_models:
  - name: transactions
    model: ref('transactions')
    primary_entity: transaction
    entities: [{name: customer, type: foreign, expr: id_customer}]
    measures: [{name: amount, agg: sum}]
  - name: customers
    model: ref('customers')
    entities:
      - {name: customer, type: primary, expr: id_customer}
      - {name: country, type: foreign}
    dimensions: [{name: customer_country, type: categorical, expr: country}]
  - name: countries
    model: ref('countries')
    entities: [{name: country, type: primary}]
    dimensions: [{name: region, type: categorical}]
"""
    metrics = """
metrics:
  - name: amount_mx
    type: simple
    type_params: {measure: amount}
    filter: "{{ Dimension('customer__customer_country') }} = 'MX'"
  - name: amount_na
    type: simple
    type_params: {measure: amount}
    filter: "{{ Dimension('country__region', entity_path=['customer']) }} = 'NA'"
"""
    (tmp_path / "m.yml").write_text(models + metrics, encoding="utf-8")
    result = import_metricflow(tmp_path / "m.yml")
    by_name = {m["name"]: m["expression"] for m in result.layer["metrics"]}
    assert by_name == {
        "amount_mx": "sum(CASE WHEN ((customers.country) = 'MX') THEN transactions.amount END)",
        "amount_na": "sum(CASE WHEN ((countries.region) = 'NA') THEN transactions.amount END)",
    }
    # a second model holding country as foreign: two ways into countries
    extra = """
  - name: stores
    model: ref('stores')
    entities: [{name: store, type: primary}, {name: country, type: foreign}]
"""
    (tmp_path / "m.yml").write_text(models + extra + metrics, encoding="utf-8")
    result = import_metricflow(tmp_path / "m.yml")
    assert [m["name"] for m in result.layer["metrics"]] == ["amount_mx"]
    assert any("(amount_na): a metric filter not mapped" in u for u in result.unmapped)


# --- expression dimensions ---------------------------------------------------------------


def _expression_layer(expression: str) -> dict[str, object]:
    return {
        "name": "t",
        "metrics": [{"name": "orders", "table": "o", "expression": "sum(1)"}],
        "dimensions": [{"name": "is_large", "column": "o.is_large", "expression": expression}],
    }


def test_an_expression_dimension_loads_only_over_its_own_table() -> None:
    from assay.errors import SemanticError

    layer = parse_semantic(_expression_layer("CASE WHEN o.amount >= 30 THEN TRUE ELSE FALSE END"))
    assert layer.dimensions[0].expression.startswith("CASE WHEN o.amount")
    with pytest.raises(SemanticError, match="must read columns of its own table 'o' only"):
        parse_semantic(_expression_layer("CASE WHEN p.amount >= 30 THEN 1 END"))
    with pytest.raises(SemanticError, match="must read columns of its own table"):
        parse_semantic(_expression_layer("TRUE"))


def test_an_expression_dimension_is_checked_by_its_columns_and_grouped_as_written(
    tmp_path: Path,
) -> None:
    from assay.semantic import check_against

    layer = parse_semantic(_expression_layer("o.amount >= 30"))
    catalog = Catalog((TableInfo("o", (ColumnInfo("amount", "INTEGER"),)),))
    assert check_against(layer, catalog) == []  # o.is_large itself is not a column
    missing = Catalog((TableInfo("o", (ColumnInfo("other", "INTEGER"),)),))
    assert check_against(layer, missing) == [
        "dimensions[0].expression: column 'o.amount' does not exist"
    ]
    reading = read("orders by is large", layer)
    sql = plan(reading, layer).sql
    assert "o.amount >= 30 AS is_large" in sql
    assert fit_check(sql, reading, layer, catalog=catalog).mismatches == ()
    # grouped by something else: a mismatch
    other = sql.replace("GROUP BY o.amount >= 30", "GROUP BY o.amount >= 40")
    assert fit_check(other, reading, layer, catalog=catalog).mismatches
    db = tmp_path / "e.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE o AS SELECT * FROM (VALUES (10), (30), (50)) t(amount)")
    con.close()
    with connect(str(db)) as connector:
        verdict = Agent(connector, layer).ask("orders by is large")
    assert verdict.action != "withhold" and verdict.candidate is not None
    assert verdict.candidate.result is not None
    assert sorted(verdict.candidate.result.rows) == [(False, 1), (True, 2)]


def test_metricflow_expression_dimensions(tmp_path: Path) -> None:
    """A categorical dimension over an expression of its own model's columns is mapped; one
    with an aggregate or another table's column is reported."""
    (tmp_path / "m.yml").write_text(
        """
semantic_models:
  - name: transactions
    model: ref('transactions')
    entities: [{name: transaction, type: primary, expr: id}]
    measures: [{name: n, agg: sum, expr: "1"}]
    dimensions:
      - {name: is_large, type: categorical, expr: "CASE WHEN amount >= 30 THEN TRUE ELSE FALSE END"}
      - {name: biggest, type: categorical, expr: "max(amount)"}
      - {name: other, type: categorical, expr: "customers.country = 'MX'"}
metrics:
  - {name: n, type: simple, type_params: {measure: n}}
""",
        encoding="utf-8",
    )
    result = import_metricflow(tmp_path / "m.yml")
    assert [d for d in result.layer["dimensions"] if d.get("expression")] == [
        {
            "name": "is_large",
            "column": "transactions.is_large",
            "expression": "CASE WHEN transactions.amount >= 30 THEN TRUE ELSE FALSE END",
            "synonyms": ["transaction is large"],
        }
    ]
    text = "\n".join(result.unmapped)
    assert "dimensions.biggest: an expression, not a column" in text
    assert "dimensions.other: an expression, not a column" in text
