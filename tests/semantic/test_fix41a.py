"""fix41a: periods and "value" words (outside recheck 40b).

* F3: "total value of units sold in July 2025" was answered with SUM(units_sold): a value asked
  of a quantity that is not money is its rows' one money total, or asked back.
* F4: "... between Jan 5 and Feb 2 2024 compared with the previous period" was compared with the
  same range a year earlier: the previous period is the one of equal length just before.
* "amount of orders" was a count on one warehouse and a money total on another: asked which.
* A range of days in one month ("March 3-9 2024") was abstained on; "Q2 2023 vs Q1" too; a
  range said backwards is asked back saying so.
"""

from __future__ import annotations

import datetime as dt

import pytest

from assay.semantic import SemanticLayer
from assay.semantic._model import Metric
from tests.semantic._helpers import read_and_decide

D = dt.date


def _metric(name: str, table: str, expression: str, time: str) -> Metric:
    return Metric(name, name.replace("_", " "), (name.replace("_", " "),), table, expression, time)


# My own schema: a depot's shipments (pieces shipped, a freight charge), its returns (crates
# returned, no money), and a shop's sales with two money totals beside the items sold
DEPOT = SemanticLayer(
    metrics=(
        Metric(
            "shipments_count",
            "shipments count",
            ("number of shipments", "shipments"),
            "shipments",
            "count(*)",
            "shipments.shipped_on",
        ),
        _metric(
            "pieces_shipped", "shipments", "sum(shipments.qty_shipped)", "shipments.shipped_on"
        ),
        _metric(
            "freight_charge", "shipments", "sum(shipments.freight_amount)", "shipments.shipped_on"
        ),
        _metric("crates_returned", "returns", "sum(returns.crate_units)", "returns.returned_on"),
        _metric("items_sold", "sales", "sum(sales.item_quantity)", "sales.sold_on"),
        _metric("list_price_total", "sales", "sum(sales.list_price)", "sales.sold_on"),
        _metric("paid_amount_total", "sales", "sum(sales.paid_amount)", "sales.sold_on"),
    ),
    clock=D(2024, 11, 7),
)
# The Snowflake Intelligence guide's sales, as imported (F3's own question)
SI = SemanticLayer(
    metrics=(
        _metric("UNITS_SOLD", "SALES", "sum(SALES.UNITS_SOLD)", "SALES.DATE"),
        _metric("SALES_AMOUNT", "SALES", "sum(SALES.SALES_AMOUNT)", "SALES.DATE"),
    ),
    clock=D(2025, 8, 14),
)


@pytest.mark.parametrize(
    ("layer", "question", "metric"),
    [
        (DEPOT, "total value of pieces shipped in March 2024", "freight_charge"),
        (SI, "total value of units sold in July 2025", "SALES_AMOUNT"),
    ],
    ids=["pieces-shipped", "si-units-sold"],
)
def test_the_value_of_a_quantity_is_its_rows_one_money_total(
    layer: SemanticLayer, question: str, metric: str
) -> None:
    reading, decision = read_and_decide(question, layer)
    assert reading.metrics == (metric,), reading
    assert decision.behaviour == "answer", decision


def test_the_value_of_a_quantity_with_no_money_total_is_asked_back_saying_why() -> None:
    _, decision = read_and_decide("value of crates returned in 2023", DEPOT)
    assert decision.behaviour == "clarify", decision
    assert "value of crates returned" in decision.message, decision.message
    assert "not money" in decision.message, decision.message


def test_the_value_of_a_quantity_with_two_money_totals_is_asked_which() -> None:
    reading, decision = read_and_decide("the value of items sold in 2023", DEPOT)
    assert not reading.metrics, reading
    assert decision.code == "behaviour.ambiguous_metric", decision
    assert {t for m in reading.ambiguous for t in m.targets} == {
        "list_price_total",
        "paid_amount_total",
    }


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        ("amount of pieces shipped in 2023", "pieces_shipped"),
        ("shipment amount in 2023", "freight_charge"),
        ("number of shipments in 2023", "shipments_count"),
    ],
    ids=["amount-of-a-quantity", "amount-after", "number-of"],
)
def test_amount_said_otherwise_is_read(question: str, metric: str) -> None:
    reading, decision = read_and_decide(question, DEPOT)
    assert reading.metrics == (metric,), reading
    assert decision.behaviour == "answer", decision


def test_an_amount_of_counted_rows_with_a_money_total_is_asked_which() -> None:
    """ "amount of orders" was the count on the demo and SUM(o_totalprice) on TPC-H."""
    reading, decision = read_and_decide("amount of shipments in 2023", DEPOT)
    assert not reading.metrics, reading
    assert decision.code == "behaviour.ambiguous_metric", decision
    assert {t for m in reading.ambiguous for t in m.targets} == {
        "shipments_count",
        "freight_charge",
    }
    assert "amount of shipments" in decision.message, decision.message


@pytest.mark.parametrize(
    ("question", "before", "label"),
    [
        (
            "freight charge between Jan 5 and Feb 2 2024 compared with the previous period",
            (D(2023, 12, 7), D(2024, 1, 5)),
            "2023-12-07 to 2024-01-04",
        ),
        (
            "pieces shipped from 2024-03-10 to 2024-03-16 vs the prior period",
            (D(2024, 3, 3), D(2024, 3, 10)),
            "2024-03-03 to 2024-03-09",
        ),
        (
            "freight charge in Q2 2024 vs the preceding period",
            (D(2024, 1, 1), D(2024, 4, 1)),
            "Q1 2024",
        ),
        ("freight charge in 2023 vs the previous period", (D(2022, 1, 1), D(2023, 1, 1)), "2022"),
    ],
    ids=["custom-range", "a-week", "quarter", "year"],
)
def test_the_previous_period_is_the_one_of_equal_length_just_before(
    question: str, before: tuple[dt.date, dt.date], label: str
) -> None:
    reading, decision = read_and_decide(question, DEPOT)
    assert decision.behaviour == "answer", decision
    assert len(reading.periods) == 2, reading.periods
    earlier = min(reading.periods, key=lambda p: p.start)
    assert (earlier.start, earlier.end) == before
    assert earlier.label == label


def test_the_same_period_last_year_stays_a_year_earlier() -> None:
    reading, _ = read_and_decide(
        "freight charge between Jan 5 and Feb 2 2024 vs the same period last year", DEPOT
    )
    earlier = min(reading.periods, key=lambda p: p.start)
    assert (earlier.start, earlier.end) == (D(2023, 1, 5), D(2023, 2, 3))


@pytest.mark.parametrize(
    ("question", "span"),
    [
        ("freight charge Sep 10-16 2023", (D(2023, 9, 10), D(2023, 9, 17))),
        ("pieces shipped March 3 to 9, 2024", (D(2024, 3, 3), D(2024, 3, 10))),
    ],
    ids=["dash", "to"],
)
def test_days_of_one_month_said_with_one_year_are_read(
    question: str, span: tuple[dt.date, dt.date]
) -> None:
    reading, decision = read_and_decide(question, DEPOT)
    assert decision.behaviour == "answer", decision
    assert [(p.start, p.end) for p in reading.periods] == [span]


@pytest.mark.parametrize(
    "question",
    [
        "freight charge Sep 16-10 2023",
        "freight charge between Sep 16 and Sep 10 2023",
        "gross revenue between March 9 and March 3 2024",
    ],
    ids=["dash", "between", "recheck-f2"],
)
def test_a_range_said_backwards_is_asked_back_saying_so(question: str) -> None:
    layer = SemanticLayer(
        metrics=(
            *DEPOT.metrics,
            _metric(
                "gross_revenue",
                "shipments",
                "sum(shipments.freight_amount)",
                "shipments.shipped_on",
            ),
        ),
        clock=DEPOT.clock,
    )
    _, decision = read_and_decide(question, layer)
    assert decision.behaviour == "clarify", decision
    assert "ends before it starts" in decision.message, decision.message
    assert "earlier day first" in decision.message, decision.message


@pytest.mark.parametrize(
    ("question", "spans"),
    [
        (
            "freight charge in Q2 2023 vs Q1",
            {(D(2023, 4, 1), D(2023, 7, 1)), (D(2023, 1, 1), D(2023, 4, 1))},
        ),
        (
            "freight charge June 2023 vs May",
            {(D(2023, 6, 1), D(2023, 7, 1)), (D(2023, 5, 1), D(2023, 6, 1))},
        ),
        (
            "freight charge Q3 vs Q4 2023",
            {(D(2023, 10, 1), D(2024, 1, 1)), (D(2023, 7, 1), D(2023, 10, 1))},
        ),
    ],
    ids=["q2-vs-q1", "june-vs-may", "q3-vs-q4"],
)
def test_a_yearless_quarter_or_month_next_to_the_other_takes_its_year(
    question: str, spans: set[tuple[dt.date, dt.date]]
) -> None:
    reading, decision = read_and_decide(question, DEPOT)
    assert decision.behaviour == "answer", decision
    assert {(p.start, p.end) for p in reading.periods} == spans


@pytest.mark.parametrize(
    "question",
    [
        "freight charge Dec 2023 vs Jan",
        "freight charge Q4 2023 vs Q1",
        "freight charge Jun 2023 vs Mar",
    ],
    ids=["dec-vs-jan", "q4-vs-q1", "jun-vs-mar"],
)
def test_a_yearless_month_farther_off_is_still_asked_back(question: str) -> None:
    """ "Dec 2023 vs Jan": January 2023 (11 months before) or 2024 (1 after)?"""
    _, decision = read_and_decide(question, DEPOT)
    assert decision.behaviour != "answer", decision


def test_the_value_of_a_count_kept_per_row_is_not_the_count() -> None:
    """Outside recheck 41 (F6): smg's "total value of lifetime orders" was shown as Count
    Lifetime Orders, sum(customers.count_lifetime_orders), 61,948 orders: a count kept per row
    and added up is a number of things, not money."""
    layer = SemanticLayer(
        metrics=(
            _metric("visits_logged", "patients", "sum(patients.visit_count)", "patients.seen_on"),
        ),
        clock=D(2024, 11, 7),
    )
    _, decision = read_and_decide("total value of visits logged in 2023", layer)
    assert decision.behaviour == "clarify", decision
    assert "not money" in decision.message, decision.message
