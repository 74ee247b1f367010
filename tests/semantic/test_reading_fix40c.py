"""Outside tryout 39 and its re-check: readings and messages of the no-model agent on drafted
and imported layers that were asked back or abstained on for reasons about another question.
"""

from __future__ import annotations

import datetime as dt

import pytest

from assay.semantic import SemanticLayer
from assay.semantic._model import Dimension, Metric
from tests.semantic._helpers import read_and_decide
from tests.semantic.test_reading_tryout39_event import TPCH


def test_a_ranking_by_year_of_the_event_the_time_column_names_is_read() -> None:
    """N5: "Which year had the fewest line items shipped?" was asked back on 'shipped' (no
    period said, only a ranking by year), while "line items shipped in 1997" is answered: the
    verb says the ship date the metric is dated by, so it is read by year of that date."""
    reading, decision = read_and_decide("Which year had the fewest line items shipped?", TPCH)
    assert reading.metrics == ("lineitem_count",) and reading.grain == "year", reading
    assert not reading.unread and not reading.explained, reading
    assert decision.behaviour == "answer", decision


def test_a_ranking_by_year_of_another_event_stays_asked_back() -> None:
    _, decision = read_and_decide("Which year had the most line items received?", TPCH)
    assert decision.behaviour == "clarify", decision


CORTEX = SemanticLayer(
    metrics=(
        Metric("daily_revenue", "daily revenue", ("revenue",), "d", "sum(d.revenue)", "d.date"),
    ),
    dimensions=(
        Dimension(
            "product_line",
            "d.product_line",
            ("product line",),
            ("Clothing", "Electronics", "Toys"),
        ),
        Dimension("pet_type", "d.pet_type", ("pet type",), ("bird", "dog")),
    ),
    clock=dt.date(2024, 11, 7),
)


@pytest.mark.parametrize(
    ("question", "shown"),
    [
        ("Revenue for Electronic in 2023", "Electronics (read for 'Electronic')"),
        ("Revenue for Toy in 2023", "Toys (read for 'Toy')"),
    ],
    ids=["electronic", "toy"],
)
def test_a_value_read_for_a_word_said_without_its_ending_is_said_so(
    question: str, shown: str
) -> None:
    """F10: "Revenue for Electronic in 2023" was answered for 'Electronics' with the reading
    "product line is Electronics (Electronic)", read by the outside tester as a silent
    correction. The reading now says the listed value was read for the word said."""
    reading, decision = read_and_decide(question, CORTEX)
    assert f"product line is {shown}" in reading.restate(CORTEX), reading.restate(CORTEX)
    assert decision.behaviour == "answer", decision


def test_a_plural_said_of_a_listed_value_reads_as_it_plainly() -> None:
    """ "revenue for birds": the plural of the listed 'bird' is the value, said plainly."""
    reading, _ = read_and_decide("Revenue for birds in 2023", CORTEX)
    assert "pet type is bird," in reading.restate(CORTEX), reading.restate(CORTEX)
