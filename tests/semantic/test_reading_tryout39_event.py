"""Outside tryout 39, F0: a period said of an event the metric is not dated by.

"Line items received in 1997" on a drafted TPC-H layer whose line item metrics are dated by
``l_shipdate`` was answered with the count *shipped* in 1997 (9,172; received: 9,212), shown at
1.00: 'received' was read as nothing (an order arriving), 'ordered' as a sort word, so the
period went to the ship date with no word left unread. A verb whose event the metric's time
column does not say is asked back, naming both dates.
"""

from __future__ import annotations

import datetime as dt

import pytest

from assay.semantic import SemanticLayer
from assay.semantic._event_dated import column_event
from assay.semantic._model import Dimension, Metric
from tests.semantic._helpers import read_and_decide

TPCH = SemanticLayer(
    metrics=(
        Metric(
            "lineitem_count",
            "lineitem count",
            ("number of lineitem", "count of lineitem", "lineitems"),
            "lineitem",
            "count(*)",
            "lineitem.l_shipdate",
        ),
        Metric(
            "lineitem_l_quantity_total",
            "total lineitem quantity",
            ("total quantity", "quantity", "lineitem quantity"),
            "lineitem",
            "sum(lineitem.l_quantity)",
            "lineitem.l_shipdate",
        ),
        Metric(
            "orders_count",
            "orders count",
            ("number of orders", "count of orders", "orders"),
            "orders",
            "count(*)",
            "orders.o_orderdate",
        ),
    ),
    dimensions=(
        Dimension(
            "lineitem_l_shipmode", "lineitem.l_shipmode", ("ship mode",), ("AIR", "MAIL", "SHIP")
        ),
    ),
    clock=dt.date(1998, 12, 25),
)

# A new example of the kind: parcels counted by the day they left, asked by the day they arrived
PARCELS = SemanticLayer(
    metrics=(
        Metric(
            "parcel_count",
            "parcel count",
            ("parcels", "number of parcels"),
            "parcels",
            "count(*)",
            "parcels.shipped_at",
        ),
        Metric(
            "refund_total",
            "total refunds",
            ("refunds",),
            "refunds",
            "sum(refunds.amount)",
            "refunds.created_on",
        ),
    ),
    clock=dt.date(2024, 11, 7),
)


@pytest.mark.parametrize(
    ("question", "verb"),
    [
        ("Line items received in 1997", "received"),
        ("How many line items were received in 1997?", "received"),
        ("Line items received last year", "received"),
        ("How many line items were ordered in 1996?", "ordered"),
        ("Total quantity ordered in 1995", "ordered"),
        ("Number of line items placed in 1996", "placed"),
        ("Number of line items ordered by ship mode in 1996", "ordered"),
    ],
    ids=[
        "received",
        "how-many-received",
        "received-last-year",
        "ordered",
        "quantity",
        "placed",
        "by-ship-mode",
    ],
)
def test_a_period_said_of_another_event_than_the_time_columns_is_asked_back(
    question: str, verb: str
) -> None:
    _, decision = read_and_decide(question, TPCH)
    assert decision.behaviour == "clarify", decision
    assert f"'{verb}'" in decision.message
    assert "lineitem.l_shipdate" in decision.message and "ship date" in decision.message


@pytest.mark.parametrize(
    "question",
    ["Parcels received in 2024", "How many parcels were received last month?"],
)
def test_parcels_counted_when_they_left_are_not_counted_when_they_arrived(question: str) -> None:
    _, decision = read_and_decide(question, PARCELS)
    assert decision.behaviour == "clarify", decision
    assert "parcels.shipped_at" in decision.message
    assert "receipt (delivery) date" in decision.message


@pytest.mark.parametrize(
    "question",
    [
        "Orders placed in 1995",
        "How many orders were received in 1996?",
        "Line items in 1997 ordered by ship mode",
        "Parcels in 2024",
    ],
    ids=["placed-orders", "received-orders", "sort-word", "no-verb"],
)
def test_a_verb_the_time_column_says_or_a_sort_word_is_not_asked_back(question: str) -> None:
    layer = PARCELS if "Parcels" in question else TPCH
    reading, _ = read_and_decide(question, layer)
    assert not reading.explained, reading.explained


def test_a_time_column_that_names_no_event_is_not_judged() -> None:
    reading, _ = read_and_decide("Refunds received in 2024", PARCELS)
    assert all("created_on" not in why for _, why in reading.explained)


def test_the_event_a_date_column_names() -> None:
    assert [
        column_event(c)
        for c in (
            "lineitem.l_receiptdate",
            "parcels.shipped_at",
            "web_sales.ws_sold_date_sk",
            "t.ShipDate",
            "refunds.created_on",
            "t.ship_mode",
        )
    ] == ["delivery", "ship", "order", "ship", "", ""]


@pytest.mark.parametrize(
    ("question", "layer", "metric"),
    [
        ("Line items shipped in 1997", TPCH, "lineitem_count"),
        ("Total quantity shipped in 1995", TPCH, "lineitem_l_quantity_total"),
        ("How many parcels were shipped last month?", PARCELS, "parcel_count"),
    ],
    ids=["line-items", "quantity", "parcels"],
)
def test_the_verb_the_time_column_names_is_read(
    question: str, layer: SemanticLayer, metric: str
) -> None:
    """What the ask-back above suggests is answered: the period is on the date the verb names
    (before, 'shipped in 1997' was itself asked back as unread)."""
    reading, decision = read_and_decide(question, layer)
    assert reading.metrics == (metric,) and reading.periods and not reading.unread, reading
    assert decision.behaviour == "answer", decision


@pytest.mark.parametrize(
    "question", ["Orders shipped in 1996", "Refunds returned in 2024", "Line items shipped"]
)
def test_a_verb_no_time_column_names_stays_unread(question: str) -> None:
    layer = PARCELS if "Refunds" in question else TPCH
    reading, decision = read_and_decide(question, layer)
    assert decision.behaviour != "answer" or not reading.periods, (reading, decision)
