"""Outside tryout 39, F8: "Revenue in the past year" was abstained on as a value 'past' the
layer does not list, and "the year before last" read as the year before the clock's with 'last'
left unread (asked back). "The past year" is a rolling year, the twelve months up to the clock
(as "the past 12 months"), and "the year before last" the calendar year two back, whole."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from assay.semantic import Lexicon, find_periods, load_semantic

from ._helpers import read_and_decide

CLOCK = dt.date(2024, 11, 15)


@pytest.mark.parametrize(
    ("text", "start", "end", "label"),
    [
        ("revenue in the past year", "2023-11-16", "2024-11-16", "the past 12 months"),
        ("orders over the trailing year", "2023-11-16", "2024-11-16", "the past 12 months"),
        ("the year before last", "2022-01-01", "2023-01-01", "2022"),
        ("sales in the quarter before last", "2024-04-01", "2024-07-01", "Q2 2024"),
        ("the month before last", "2024-09-01", "2024-10-01", "September 2024"),
    ],
)
def test_past_year_and_before_last_spellings(text: str, start: str, end: str, label: str) -> None:
    found = find_periods(text, CLOCK)
    assert [(str(p.start), str(p.end), p.label) for p in found] == [(start, end, label)]
    assert not found[0].relative_previous


@pytest.mark.parametrize(
    ("question", "label"),
    [
        ("What was gross revenue in the past year?", "the past 12 months"),
        ("number of orders in the year before last", "2022"),
    ],
)
def test_past_year_and_year_before_last_are_answered(wrb: Path, question: str, label: str) -> None:
    layer = load_semantic(wrb / "shop.yaml")
    reading, decision = read_and_decide(question, layer, Lexicon(layer))
    assert decision.behaviour == "answer", decision.message
    assert [p.label for p in reading.periods] == [label]
    assert not reading.unread and not reading.value_like
