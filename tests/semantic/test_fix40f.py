"""Two wrong answers the no-model agent showed on a blind question set (fix40f).

1. "How much gross revenue did we book in Q3 2023?" was read as gross revenue for the
   category Books: the verb "book" matched the stored value 'books' through its plural. A
   value the question says only in its other number, right after a word a verb follows ("did
   we book", "we order", "to ship"), is the verb: never a filter (the question is asked back
   naming the word). "revenue for books" and "book sales" still read the value.
2. "Toys revenue from September 1 to September 15, 2023" was read as two days, 2024-09-01
   (the clock's year) and 2023-09-15, and "No rows match" was shown. A day (or month) said
   without its year at one end of a range takes the year the other end says.

Each is checked on the layer of the report (the demo warehouse; a Cortex-style daily revenue
layer) and on a schema and words of our own (a shipping line's vessels; a clinic's visits).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
import yaml

from assay.cli._ask import demo_warehouse
from assay.semantic import Lexicon, SemanticLayer, load_semantic, parse_semantic
from assay.semantic._periods import find_periods, parse_period
from assay.settings import load_settings

from ._helpers import read_and_decide


@pytest.fixture(scope="module")
def demo() -> SemanticLayer:
    _db, yaml_path = demo_warehouse(load_settings())
    return load_semantic(Path(yaml_path))


FREIGHT = """
name: freight
tables: {voyages: {}}
metrics:
- {name: freight_revenue, label: freight revenue, table: voyages,
   expression: sum(voyages.revenue), time_column: voyages.sailed_on}
dimensions:
- {name: vessel_type, column: voyages.vessel_type, values: [ships, barges, tugs]}
- {name: cargo, column: voyages.cargo, values: [orders, returns]}
- {name: service, column: voyages.service, values: [tow, ferry]}
clock: 2024-11-15
"""


@pytest.mark.parametrize(
    "question",
    [
        "How much gross revenue did we book in Q3 2023?",
        "What gross revenue will we book in Q3 2023?",
        "gross revenue we book in Q3 2023",
    ],
)
def test_a_verb_said_like_a_value_is_never_a_filter_on_the_demo(
    demo: SemanticLayer, question: str
) -> None:
    reading, decision = read_and_decide(question, demo)
    assert not reading.filters, reading.filters
    assert decision.behaviour != "answer", decision
    assert "book" in decision.message.lower(), decision.message


@pytest.mark.parametrize(
    "question", ["gross revenue for books in Q3 2023", "gross revenue of book sales in Q3 2023"]
)
def test_the_value_said_as_a_noun_is_still_read_on_the_demo(
    demo: SemanticLayer, question: str
) -> None:
    reading, _decision = read_and_decide(question, demo)
    assert [(f.dimension, f.values) for f in reading.filters] == [("category", ("books",))]


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("How much freight revenue did we ship in 2023?", "ship"),
        ("freight revenue we tug in 2023", "tug"),
        ("How much freight revenue do we order in 2023?", "order"),
        # a value as said ('tow'), right after a subject pronoun: the verb too
        ("How much freight revenue did we tow in 2023?", "tow"),
    ],
)
def test_a_verb_said_like_a_value_is_never_a_filter_on_another_schema(
    question: str, word: str
) -> None:
    layer = parse_semantic(yaml.safe_load(FREIGHT))
    reading, decision = read_and_decide(question, layer, Lexicon(layer))
    assert not reading.filters, reading.filters
    assert decision.behaviour != "answer", decision
    assert word in decision.message.lower(), decision.message


@pytest.mark.parametrize(
    ("question", "dimension", "value"),
    [
        ("freight revenue for ships in 2023", "vessel_type", "ships"),
        ("ship freight revenue in 2023", "vessel_type", "ships"),
        ("freight revenue of the order cargo in 2023", "cargo", "orders"),
        ("freight revenue for tow in 2023", "service", "tow"),
    ],
)
def test_the_value_said_as_a_noun_is_still_read_on_another_schema(
    question: str, dimension: str, value: str
) -> None:
    layer = parse_semantic(yaml.safe_load(FREIGHT))
    reading, _decision = read_and_decide(question, layer, Lexicon(layer))
    assert [(f.dimension, f.values) for f in reading.filters] == [(dimension, (value,))]


# --- 2. a range whose one end says the year ------------------------------------------------

CORTEX = """
name: cortex
tables: {daily_revenue: {}, product_dim: {}}
joins:
- {left: daily_revenue.product_id, right: product_dim.product_id, relationship: many_to_one}
metrics:
- {name: daily_revenue, label: daily revenue, synonyms: [revenue], table: daily_revenue,
   expression: sum(daily_revenue.revenue), time_column: daily_revenue.date}
dimensions:
- {name: product_line, column: product_dim.product_line, values: [Toys, Games, Books]}
clock: 2024-11-07
"""


@pytest.mark.parametrize(
    ("question", "clock", "start", "end"),
    [
        (
            "Toys revenue from September 1 to September 15, 2023",
            dt.date(2024, 11, 7),
            dt.date(2023, 9, 1),
            dt.date(2023, 9, 16),
        ),
        (
            "visit cost between March 3 and March 20 2023",
            dt.date(2024, 11, 15),
            dt.date(2023, 3, 3),
            dt.date(2023, 3, 21),
        ),
        (
            # the clock's day falls between the two: still the year said
            "visit cost from 3rd March to 20th March 2022",
            dt.date(2024, 3, 10),
            dt.date(2022, 3, 3),
            dt.date(2022, 3, 21),
        ),
        (
            "visit cost from December 20 to January 5, 2024",
            dt.date(2024, 11, 15),
            dt.date(2023, 12, 20),
            dt.date(2024, 1, 6),
        ),
        (
            # the year said at the start is carried to the end
            "visit cost from September 1, 2023 to September 15",
            dt.date(2024, 11, 15),
            dt.date(2023, 9, 1),
            dt.date(2023, 9, 16),
        ),
        (
            "visit cost from Feb to Apr 2025",
            dt.date(2024, 11, 15),
            dt.date(2025, 2, 1),
            dt.date(2025, 5, 1),
        ),
    ],
)
def test_a_yearless_end_of_a_range_takes_the_year_said(
    question: str, clock: dt.date, start: dt.date, end: dt.date
) -> None:
    (period,) = find_periods(question, clock)
    assert (period.start, period.end) == (start, end)


def test_a_range_of_days_without_any_year_is_left_as_read() -> None:
    period = parse_period("visit cost from March 1 to March 5", dt.date(2024, 11, 15))
    assert period is not None
    assert (period.start, period.end) == (dt.date(2024, 3, 1), dt.date(2024, 3, 6))


def test_the_cortex_range_is_read_as_one_span_of_the_year_said() -> None:
    layer = parse_semantic(yaml.safe_load(CORTEX))
    question = "Toys revenue from September 1 to September 15, 2023"
    reading, decision = read_and_decide(question, layer, Lexicon(layer))
    assert reading.period is not None
    assert (reading.period.start, reading.period.end) == (dt.date(2023, 9, 1), dt.date(2023, 9, 16))
    assert [(f.dimension, f.values) for f in reading.filters] == [("product_line", ("Toys",))]
    assert decision.behaviour == "answer", decision


CLINIC = """
name: clinic
tables: {visits: {}}
metrics:
- {name: visit_cost, label: visit cost, table: visits, expression: sum(visits.cost),
   time_column: visits.day}
dimensions:
- {name: ward, column: visits.ward, values: [Oncology, Cardiology]}
clock: 2024-11-15
"""


def test_the_clinic_range_is_read_as_one_span_of_the_year_said() -> None:
    layer = parse_semantic(yaml.safe_load(CLINIC))
    question = "Oncology visit cost between March 3 and March 20 2023"
    reading, decision = read_and_decide(question, layer, Lexicon(layer))
    assert reading.period is not None
    assert (reading.period.start, reading.period.end) == (dt.date(2023, 3, 3), dt.date(2023, 3, 21))
    assert decision.behaviour == "answer", decision


@pytest.mark.parametrize(
    "question",
    [
        "Toys revenue on September 1 vs September 15, 2023",
        "Toys revenue on September 1 in 2023",
        "Toys revenue between Sept 1 and 15, 2023",
    ],
)
def test_a_yearless_day_beside_a_year_said_is_never_answered(question: str) -> None:
    layer = parse_semantic(yaml.safe_load(CORTEX))
    reading, decision = read_and_decide(question, layer, Lexicon(layer))
    assert decision.behaviour != "answer", (reading.period, decision)
    assert "sep" in decision.message.lower(), decision.message


@pytest.mark.parametrize(
    ("question", "clock", "start", "end"),
    [
        (
            "Toys revenue from Sep 1 - Sep 15 2023",
            dt.date(2024, 11, 7),
            dt.date(2023, 9, 1),
            dt.date(2023, 9, 16),
        ),
        (
            "visit cost 3 March - 20 March 2022",
            dt.date(2024, 11, 15),
            dt.date(2022, 3, 3),
            dt.date(2022, 3, 21),
        ),
    ],
)
def test_a_dashed_range_of_days_takes_the_year_said(
    question: str, clock: dt.date, start: dt.date, end: dt.date
) -> None:
    (period,) = find_periods(question, clock)
    assert (period.start, period.end) == (start, end)


@pytest.mark.parametrize(
    "question",
    ["revenue between March 9 and March 3 2024", "visits from July 30 to July 2, 2021"],
)
def test_a_range_said_backwards_is_never_read_as_the_year_before(question: str) -> None:
    """Outside recheck 40b: "between March 9 and March 3 2024" was read as 2023-03-09 to
    2024-03-03 and shown at 1.00; the ends said backwards are no range."""
    periods = find_periods(question, dt.date(2024, 6, 30))
    assert not any(p.ranged for p in periods), periods
    assert all(p.end - p.start <= dt.timedelta(days=31) for p in periods), periods
