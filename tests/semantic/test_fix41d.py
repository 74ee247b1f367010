"""fix41d: a range said backwards with dates that each say their year (outside recheck 41, F1).

"number of orders between 2024-03-09 and 2024-03-03" (and "from ... to ...") on the demo
warehouse was read as two single days and shown ("2024-03-03: 15; 2024-03-09: 14"), where the
range 03-03..03-09 holds 128 orders. Its ends said backwards are now asked back saying so, as
"between March 9 and March 3 2024" already was; a forward range is still one range, and two
periods compared ("Q1 2024 to Q1 2023") are still two.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from assay.cli._ask import demo_warehouse
from assay.semantic import SemanticLayer, load_semantic
from assay.semantic._model import Metric
from assay.semantic._periods import find_periods
from assay.settings import load_settings

from ._helpers import read_and_decide

D = dt.date

# My own schema: a clinic's visits and the fees billed for them
CLINIC = SemanticLayer(
    metrics=(
        Metric("visit_count", "visit count", ("visits",), "visits", "count(*)", "visits.seen_on"),
        Metric(
            "fees_billed",
            "fees billed",
            ("fees billed",),
            "visits",
            "sum(visits.fee_amount)",
            "visits.seen_on",
        ),
    ),
    clock=D(2024, 11, 7),
)


@pytest.fixture(scope="module")
def demo() -> SemanticLayer:
    _db, yaml_path = demo_warehouse(load_settings())
    return load_semantic(Path(yaml_path))


BACKWARDS = [
    ("visits between 2024-03-09 and 2024-03-03", "earlier day first"),
    ("fees billed from 2024-03-09 to 2024-03-03", "earlier day first"),
    ("fees billed 2024-03-09 through 2024-03-03", "earlier day first"),
    ("visits from March 9, 2024 to March 3, 2024", "earlier day first"),
    ("fees billed from Q2 2024 to Q1 2024", "earlier period first"),
    ("visits Q3 2024 - Q1 2024", "earlier period first"),
]


@pytest.mark.parametrize(("question", "fix"), BACKWARDS)
def test_a_dated_range_said_backwards_is_asked_back_saying_so(question: str, fix: str) -> None:
    reading, decision = read_and_decide(question, CLINIC)
    assert decision.behaviour == "clarify", decision
    assert "ends before it starts" in decision.message, decision.message
    assert fix in decision.message, decision.message
    assert len(reading.periods) <= 1, reading.periods  # never two separate periods


@pytest.mark.parametrize(
    "question",
    [
        "number of orders between 2024-03-09 and 2024-03-03",
        "number of orders from 2024-03-09 to 2024-03-03",
    ],
)
def test_the_finding_is_asked_back_on_the_demo(demo: SemanticLayer, question: str) -> None:
    _, decision = read_and_decide(question, demo)
    assert decision.behaviour == "clarify", decision
    assert "ends before it starts" in decision.message, decision.message
    assert "between 2024-03-03 and 2024-03-09" in decision.message, decision.message


@pytest.mark.parametrize(
    "question",
    [
        "number of orders between 2024-03-03 and 2024-03-09",
        "number of orders from 2024-03-03 to 2024-03-09",
        "number of orders 2024-03-03 through 2024-03-09",
    ],
)
def test_a_forward_iso_range_is_still_one_range(demo: SemanticLayer, question: str) -> None:
    reading, decision = read_and_decide(question, demo)
    assert decision.behaviour == "answer", decision
    assert [(p.start, p.end) for p in reading.periods] == [(D(2024, 3, 3), D(2024, 3, 10))]


@pytest.mark.parametrize(
    "question",
    [
        "visits in Q1 2024 compared to Q1 2023",
        "visits on 2024-03-09 and 2024-03-03",
        "fees billed 2024-03-09 vs 2024-03-03",
    ],
)
def test_two_periods_compared_are_still_two(question: str) -> None:
    periods = find_periods(question, CLINIC.clock or D(2024, 11, 7))
    assert len(periods) == 2, periods
    assert not any(p.ranged for p in periods), periods
