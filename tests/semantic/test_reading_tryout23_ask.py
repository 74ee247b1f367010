"""Outside tryout 23's questions on `assay ask` that were misread (the tester's layers were the
Cube TPC-H import, the Snowflake marketing import and a drafted TPC-DS layer; each case here is
cut down to the layer's parts the question touches):

- "net paid on weekends": a yes/no flag said in words was a breakdown by it (N, then the Y
  asked for, unlabelled); it is a filter on the yes value, or asked back.
"""

from __future__ import annotations

import datetime as dt

import pytest

from assay.semantic import SemanticLayer
from assay.semantic._model import Dimension, JoinPath, Metric
from tests.semantic._helpers import read_and_decide

SALES = SemanticLayer(
    metrics=(
        Metric(
            "net_paid",
            "total store sales net paid",
            (),
            "store_sales",
            "SUM(store_sales.ss_net_paid)",
            "store_sales.sold_on",
        ),
        Metric(
            "store_sales_count",
            "store_sales count",
            ("store sales",),
            "store_sales",
            "count(*)",
            "store_sales.sold_on",
        ),
        Metric(
            "ext_sales_price",
            "total store sales ext sales price",
            (),
            "store_sales",
            "SUM(store_sales.ss_ext_sales_price)",
            "store_sales.sold_on",
        ),
    ),
    dimensions=(
        Dimension("date_dim_d_weekend", "store_sales.d_weekend", ("weekend",), ("N", "Y")),
        Dimension("item_i_category", "store_sales.category", ("category",), ("Books", "Music")),
    ),
    clock=dt.date(2003, 1, 2),
)


@pytest.mark.parametrize(
    "question",
    [
        "What was the total store sales net paid on weekends in 2001?",
        "What was the total store sales net paid on weekend days in 2001?",
        "total store sales net paid during the weekend in 2001",
    ],
    ids=["on-weekends", "on-weekend-days", "during-the-weekend"],
)
def test_a_flag_said_after_on_is_a_filter_on_its_yes_value(question: str) -> None:
    reading, decision = read_and_decide(question, SALES)
    assert [(f.dimension, f.values, f.negated) for f in reading.filters] == [
        ("date_dim_d_weekend", ("Y",), False)
    ]
    assert reading.groups == ()
    assert decision.behaviour == "answer"


def test_a_flag_said_without_a_preposition_is_asked_back_never_a_breakdown() -> None:
    reading, decision = read_and_decide(
        "What was the weekend total store sales net paid in 2001?", SALES
    )
    assert reading.groups == () and reading.filters == ()
    assert decision.behaviour == "clarify"


def test_a_flag_said_with_by_stays_a_breakdown() -> None:
    reading, _ = read_and_decide("total store sales net paid by weekend in 2001", SALES)
    assert reading.groups == ("date_dim_d_weekend",) and reading.filters == ()


def test_a_dimension_of_other_values_said_without_by_is_still_a_breakdown() -> None:
    reading, _ = read_and_decide("total store sales net paid for each category in 2001", SALES)
    assert reading.groups == ("item_i_category",)


def test_total_sales_said_of_a_row_count_is_asked_back_between_the_count_and_the_sums() -> None:
    reading, decision = read_and_decide("What were total store sales in 2002?", SALES)
    assert reading.metrics == ()
    assert decision.behaviour == "clarify"
    assert decision.code == "behaviour.ambiguous_metric"
    assert "store_sales count" in decision.message and "net paid" in decision.message


@pytest.mark.parametrize(
    "question",
    [
        "How many store sales were there in 2002?",
        "What was the total number of store sales in 2002?",
    ],
    ids=["how-many", "total-number-of"],
)
def test_store_sales_counted_in_words_stays_the_row_count(question: str) -> None:
    reading, decision = read_and_decide(question, SALES)
    assert reading.metrics == ("store_sales_count",)
    assert decision.behaviour == "answer"


def test_before_a_year_the_data_starts_after_is_said_up_to_its_last_day() -> None:
    layer = SemanticLayer(
        metrics=(Metric("units", "units sold", (), "sales", "SUM(sales.units)", "sales.day"),),
        clock=dt.date(2025, 8, 14),
        coverage=(dt.date(2025, 5, 16), dt.date(2025, 8, 14)),
    )
    reading, decision = read_and_decide("How many units were sold before 2023?", layer)
    said = reading.restate(layer)
    assert "before 2023 (up to 2022-12-31)" in said, said
    assert "2022-12-31 to 2022-12-31" not in said
    assert decision.code == "behaviour.period_outside_coverage"


ORDERS = SemanticLayer(
    metrics=(
        Metric(
            "orders_count",
            "orders count",
            ("number of orders",),
            "orders",
            "count(*)",
            "orders.o_orderdate",
        ),
        Metric(
            "sales_amount",
            "line items total sales amount",
            (),
            "lineitem",
            "SUM(lineitem.l_extendedprice)",
            "lineitem.l_shipdate",
        ),
    ),
    clock=dt.date(1998, 8, 2),
)


@pytest.mark.parametrize(
    "question",
    [
        "How many orders were placed in 1995 or 1996?",
        "How many orders were received in 1995 or 1996?",
        "How many orders were placed in the first quarter of 1996?",
    ],
    ids=["placed", "received", "placed-quarter"],
)
def test_orders_placed_or_received_are_the_orders_counted_by_their_date(question: str) -> None:
    reading, decision = read_and_decide(question, ORDERS)
    assert reading.metrics == ("orders_count",) and reading.unread == ()
    assert reading.periods and reading.periods[0].start.year in {1995, 1996}
    assert decision.behaviour == "answer"


def test_placed_said_of_an_amount_timed_by_another_date_is_still_asked_back() -> None:
    _, decision = read_and_decide(
        "What was the line items total sales amount for orders placed in 1995?", ORDERS
    )
    assert decision.behaviour == "clarify"
    assert "placed" in decision.message


STATUSES = SemanticLayer(
    metrics=(
        Metric(
            "orders_count",
            "orders count",
            ("number of orders",),
            "orders",
            "count(*)",
            "orders.o_orderdate",
        ),
    ),
    dimensions=(
        Dimension("orders_status", "orders.o_orderstatus", ("status",), ("F", "O", "P")),
        Dimension("line_items_line_status", "lineitem.l_linestatus", ("line status",), ("F", "O")),
    ),
    joins=(JoinPath("lineitem.l_orderkey", "orders.o_orderkey"),),
    clock=dt.date(1998, 8, 2),
)


@pytest.mark.parametrize(
    "question",
    [
        "How many orders had status F before 1994?",
        "What was the orders count with status F before 1994?",
    ],
    ids=["had-status", "with-status"],
)
def test_a_value_of_two_dimensions_with_one_named_is_that_ones(question: str) -> None:
    reading, decision = read_and_decide(question, STATUSES)
    assert [(f.dimension, f.values) for f in reading.filters] == [("orders_status", ("F",))]
    assert reading.groups == () and reading.dangling == ()
    assert decision.behaviour == "answer"


def test_a_value_of_two_dimensions_with_neither_named_is_still_asked_back() -> None:
    _, decision = read_and_decide("How many orders were F before 1994?", STATUSES)
    assert decision.behaviour == "clarify"


def test_the_most_customers_is_ranked_by_the_customers_count() -> None:
    layer = SemanticLayer(
        metrics=(
            Metric(
                "customers_count",
                "customers count",
                ("number of customers",),
                "customer",
                "count(*)",
            ),
        ),
        dimensions=(
            Dimension(
                "customers_segment",
                "customer.c_mktsegment",
                ("segment",),
                ("BUILDING", "MACHINERY"),
            ),
        ),
        tables=("customer",),
    )
    reading, decision = read_and_decide("Which segment has the most customers?", layer)
    assert reading.metrics == ("customers_count",)
    assert reading.groups == ("customers_segment",)
    assert reading.ranking is not None and reading.ranking.n == 1 and reading.ranking.descending
    assert decision.behaviour == "answer"
