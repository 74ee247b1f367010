"""Leftovers of the drafted and imported layers (task fix39d, tuned on the cases it names).

1. A question naming a metric the import left out ("trailing 2 months revenue", a MetricFlow
   cumulative metric) was read as its words: "trailing 2 months" as a period and "revenue" as
   the simple metric, and shown. The left-out name, said whole, is now the concept it names.
2. The "I read this as" line said dimensions by their layer names ("by customer_country").
3. "customers by nation" on a drafted TPC-H layer was asked back: "nation" is the word of the
   nation count, and the nation's name is the dimension that says which nation.
4. "how many customers are there" on the OSI model abstained: "customers" is also a dimension
   there (store_sales.ss_customer_sk, synonym "customer").
5. Quarters written "1Q24", "1Q 2024", "Q1 24", "Q1/2024" were not read as the quarter.
"""

from __future__ import annotations

import datetime as dt

import pytest

from assay.semantic import SemanticLayer, parse_semantic
from assay.semantic._periods import find_periods

from ._helpers import read_and_decide

_CLOCK = dt.date(2024, 11, 15)


@pytest.mark.parametrize(
    ("question", "label", "text"),
    [
        ("net revenue in 1Q24", "Q1 2024", "1q24"),
        ("net revenue in 1Q 2024", "Q1 2024", "1q 2024"),
        ("net revenue in 3Q-23 by channel", "Q3 2023", "3q-23"),
        ("net revenue in Q1 24", "Q1 2024", "q1 24"),
        ("net revenue in Q1 24 by channel", "Q1 2024", "q1 24"),
        ("net revenue in Q1/2024", "Q1 2024", "q1/2024"),
        ("net revenue in Q2’23", "Q2 2023", "q2’23"),
        # already read before the change: kept
        ("net revenue in Q1-2024", "Q1 2024", "q1-2024"),
        ("net revenue in 2024Q1", "Q1 2024", "2024q1"),
        ("net revenue in the first quarter of 2024", "Q1 2024", "first quarter of 2024"),
    ],
    ids=lambda v: v if isinstance(v, str) and v.startswith("net") else "",
)
def test_quarter_spellings_are_the_quarter(question: str, label: str, text: str) -> None:
    (period,) = find_periods(question, _CLOCK)
    assert (period.label, period.text) == (label, text)


def test_two_digits_after_a_quarter_counting_something_are_no_year() -> None:
    # "Q1 24 stores": 24 stores in Q1 (this year's), never Q1 2024 by the digits
    (period,) = find_periods("top stores in Q1 24 stores", dt.date(2023, 11, 15))
    assert (period.label, period.text) == ("Q1 2023", "q1")


# --- 1. a left-out metric whose words read as a period and a metric ------------------------


def _running_layer() -> SemanticLayer:
    """A small layer whose import left a running metric out, as MetricFlow's simple manifest
    leaves trailing_2_months_revenue (a new example: other words, another window)."""
    return parse_semantic(
        {
            "name": "t",
            "clock": "2024-06-30",
            "metrics": [
                {
                    "name": "sales",
                    "table": "orders",
                    "expression": "sum(orders.amount)",
                    "time_column": "orders.placed_on",
                },
                {"name": "orders", "table": "orders", "expression": "count(*)"},
            ],
            "dimensions": [{"name": "shop", "column": "orders.shop", "values": ["North"]}],
            "undefined_concepts": ["rolling 3 weeks sales", "sales ytd"],
        }
    )


@pytest.mark.parametrize(
    "question",
    ["rolling 3 weeks sales", "rolling 3 weeks sales by shop", "sales ytd"],
)
def test_a_left_out_metric_said_whole_is_asked_back_naming_it(question: str) -> None:
    reading, decision = read_and_decide(question, _running_layer())
    assert reading.metrics == () and not reading.periods
    assert (decision.behaviour, decision.code) == ("clarify", "behaviour.undefined_concept")
    concept = "sales ytd" if "ytd" in question else "rolling 3 weeks sales"
    assert f"'{concept}' is not defined" in decision.message
    # what can be asked instead: the metric its own words name, not every metric
    assert "Do you mean 'sales'?" in decision.message and "'orders'" not in decision.message


@pytest.mark.parametrize(
    ("question", "label"),
    [("sales in the past 3 weeks", "the past 3 weeks"), ("sales year to date", "2024 to date")],
)
def test_the_period_said_otherwise_is_still_read(question: str, label: str) -> None:
    reading, decision = read_and_decide(question, _running_layer())
    assert reading.metrics == ("sales",) and decision.behaviour == "answer"
    assert [p.label for p in reading.periods] == [label]


def test_a_left_out_metric_beside_a_metric_is_abstained_on() -> None:
    _, decision = read_and_decide("orders and rolling 3 weeks sales", _running_layer())
    assert decision.behaviour == "abstain"
    assert "'rolling 3 weeks sales' is not defined" in decision.message
