"""A relative period in a comparison is counted from the period the question names.

Outside re-check of tryout 40 (N1): "LTV pre-tax in Q1 2017 compared with the previous quarter"
compared Q1 2017 with the clock's previous quarter (Q2 2017), not Q4 2016, and "March 2017 vs
the previous month" with July 2017, shown at 1.00; the same through a follow-up ("compare with
the previous quarter" after "bookings in Q2 2020" compared Q2 with Q4 2020). (N2) "compare with
the quarter after", "compare with a year earlier", "how does that compare to the year after?"
after a question of one period were answered as the moved period alone, the comparison dropped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from assay.semantic import Lexicon, SemanticLayer, compose_follow_up, load_semantic, read

# an imported MetricFlow-like layer of the recheck's kind: one table, a dated sum, a clock
_IMPORTED = """
name: customers.yml
tables:
  customers: {}
joins: []
metrics:
- name: lifetime_spend_pretax
  label: LTV Pre-tax
  table: customers
  expression: sum(customers.lifetime_spend_pretax)
  time_column: customers.first_ordered_at
- name: count_lifetime_orders
  label: Count Lifetime Orders
  table: customers
  expression: sum(customers.count_lifetime_orders)
  time_column: customers.first_ordered_at
dimensions:
- name: customer_name
  column: customers.customer_name
clock: 2017-08-30
"""


@pytest.fixture
def imported(tmp_path: Path) -> SemanticLayer:
    path = tmp_path / "customers.yaml"
    path.write_text(_IMPORTED)
    return load_semantic(path)


def _labels(question: str, layer: SemanticLayer) -> tuple[list[str], Any]:
    reading = read(question, layer)
    return [p.label for p in reading.periods], reading


@pytest.mark.parametrize(
    ("question", "labels"),
    [
        ("LTV pre-tax in Q1 2017 compared with the previous quarter", ["Q1 2017", "Q4 2016"]),
        ("LTV pre-tax in Q1 2017 vs the prior quarter", ["Q1 2017", "Q4 2016"]),
        (
            "count lifetime orders in March 2017 compared with the previous month",
            ["March 2017", "February 2017"],
        ),
        (
            "count lifetime orders in January 2017 vs previous month",
            ["January 2017", "December 2016"],
        ),
    ],
)
def test_the_previous_quarter_or_month_is_before_the_one_named(
    imported: SemanticLayer, question: str, labels: list[str]
) -> None:
    got, reading = _labels(question, imported)
    assert sorted(got) == sorted(labels), reading
    assert not reading.dangling and not reading.unread, reading


@pytest.mark.parametrize(
    "question",
    [
        # a unit the named period is not made of: before which? asked back, never the clock's
        "LTV pre-tax in 2016 compared with the previous quarter",
        "LTV pre-tax in Q1 2017 compared with the previous month",
        "LTV pre-tax in Q1 2017 and Q2 2017 vs the previous quarter",
    ],
)
def test_a_relative_period_not_counted_for_certain_is_asked_back(
    imported: SemanticLayer, question: str
) -> None:
    got, reading = _labels(question, imported)
    assert reading.unread and reading.explained, (got, reading)
    assert "previous" in reading.explained[-1][1], reading


def test_the_previous_quarter_alone_is_still_the_clock_s(imported: SemanticLayer) -> None:
    got, reading = _labels("LTV pre-tax in the previous quarter", imported)
    assert got == ["Q2 2017"], reading
    assert not reading.dangling and not reading.unread


def test_own_words_shop_layer(wrb: Path) -> None:
    """The shop layer (clock 2024-11-15, so the clock's previous quarter is Q3 2024)."""
    layer = load_semantic(wrb / "shop.yaml")
    got, reading = _labels("gross revenue in Q1 2024 compared with the previous quarter", layer)
    assert sorted(got) == ["Q1 2024", "Q4 2023"], reading
    got, reading = _labels("number of orders in June 2024 versus the prior month", layer)
    assert sorted(got) == ["June 2024", "May 2024"], reading


@pytest.mark.parametrize(
    ("previous", "fragment", "compared"),
    [
        ("gross revenue in Q2 2024", "compare with the previous quarter", "Q1 2024"),
        ("gross revenue in Q2 2024", "compare with the quarter after", "Q3 2024"),
        ("gross revenue in Q2 2024", "compare with a year earlier", "Q2 2023"),
        ("gross revenue in Q2 2024", "compare with the quarter before", "Q1 2024"),
        ("number of orders in 2022", "how does that compare to the year after?", "2023"),
        ("number of orders in June 2024", "vs the previous month", "May 2024"),
    ],
)
def test_a_comparing_follow_up_with_a_relative_period_compares(
    wrb: Path, previous: str, fragment: str, compared: str
) -> None:
    layer = load_semantic(wrb / "shop.yaml")
    composed = compose_follow_up(previous, fragment, layer, Lexicon(layer))
    assert composed["unclear"] is None, composed
    labels = [p.label for p in read(composed["question"], layer).periods]
    old = read(previous, layer).periods[0].label
    assert sorted(labels) == sorted([old, compared]), composed
    assert (
        "compare" not in composed["question"].split(" in ")[-1]
        or "compared with" in (composed["question"])
    ), composed


@pytest.mark.parametrize(
    ("previous", "fragment", "compared"),
    [
        ("LTV pre-tax in Q1 2017", "compare with the previous quarter", "Q4 2016"),
        ("count lifetime orders in March 2017", "vs the previous month", "February 2017"),
        ("LTV pre-tax in Q1 2017", "compare with a year earlier", "Q1 2016"),
    ],
)
def test_comparing_follow_ups_on_an_imported_layer(
    imported: SemanticLayer, previous: str, fragment: str, compared: str
) -> None:
    composed = compose_follow_up(previous, fragment, imported, Lexicon(imported))
    assert composed["unclear"] is None, composed
    labels = [p.label for p in read(composed["question"], imported).periods]
    old = read(previous, imported).periods[0].label
    assert sorted(labels) == sorted([old, compared]), composed
