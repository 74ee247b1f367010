"""Follow-ups that move the conversation's period by a year, a quarter or a month.

The second outside re-check of tryout 39 found "a year earlier" after "Total sales in Q4 2002",
"the year after" after 1996, "the month before" / "the quarter after" / "a year before" after a
month or a quarter all asked back as words not understood ("I don't know what 'earlier'
means"), while "the year before" after a whole year was read; and (F7) "what about last year?"
after "Revenue in the last 90 days" was moved silently to the whole of the clock's last year.
Each now moves the one period the previous question asked (a part of a year a year on is the
same part, like for like; a rolling window a year on is the same days a year before); where the
clock's reading of "last" or "next" differs from the conversation's it is asked back, with
both offered as choices (a whole question each)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from assay.semantic import Lexicon, compose_follow_up, load_semantic, read


def _compose(wrb: Path, previous: str, fragment: str) -> tuple[dict[str, Any], Any]:
    layer = load_semantic(wrb / "shop.yaml")
    return compose_follow_up(previous, fragment, layer, Lexicon(layer)), layer


@pytest.mark.parametrize(
    ("previous", "fragment", "label", "note"),
    [
        ("gross revenue in Q1 2024", "and a year earlier?", "Q1 2023", "like for like"),
        ("gross revenue in Q1 2023", "what about the year after?", "Q1 2024", "like for like"),
        ("number of orders in March 2024", "and a year before?", "March 2023", "like for like"),
        ("gross revenue in H1 2024", "and one year earlier", "H1 2023", "like for like"),
        ("gross revenue in Q1 2023", "and the quarter after?", "Q2 2023", ""),
        ("gross revenue in Q4 2023", "what about the following quarter?", "Q1 2024", ""),
        ("number of orders in March 2024", "and the month before?", "February 2024", ""),
        ("number of orders in December 2023", "and a month later?", "January 2024", ""),
        ("number of orders in 2022", "what about the year after?", "2023", ""),
        ("number of orders in 2022", "and the following year?", "2023", ""),
        ("gross revenue by country in 2023", "and a year earlier?", "2022", ""),
        # a quarter said by the clock ("last quarter": Q3 2024) is moved as said with its year
        ("gross revenue last quarter", "what about last year?", "Q3 2023", "like for like"),
    ],
)
def test_a_period_moved_by_a_unit_is_the_conversation_s(
    wrb: Path, previous: str, fragment: str, label: str, note: str
) -> None:
    composed, layer = _compose(wrb, previous, fragment)
    assert composed["unclear"] is None, composed
    assert [p.label for p in read(composed["question"], layer).periods] == [label], composed
    assert any(label in r and note in r for r in composed["replaced"]), composed


def test_a_rolling_window_a_year_before_is_the_same_days_like_for_like(wrb: Path) -> None:
    """ "the past 90 days" to 2024-11-15 (2024-08-18 to 2024-11-15): a year before, the same
    days of 2023."""
    composed, layer = _compose(wrb, "gross revenue in the past 90 days", "and the year before?")
    assert composed["unclear"] is None, composed
    (period,) = read(composed["question"], layer).periods
    assert (str(period.start), str(period.end)) == ("2023-08-18", "2023-11-16"), composed
    assert any("like for like" in r for r in composed["replaced"]), composed


def test_last_year_after_a_rolling_window_is_asked_back_with_both_choices(wrb: Path) -> None:
    composed, layer = _compose(wrb, "gross revenue in the past 90 days", "what about last year?")
    assert composed["unclear"] is not None, composed
    assert "2023-08-18 to 2023-11-15" in composed["unclear"], composed
    labels = [c["label"] for c in composed["choices"]]
    assert len(labels) == 2 and "2023" in labels[1], composed
    spans = [
        [(str(p.start), str(p.end)) for p in read(c["question"], layer).periods]
        for c in composed["choices"]
    ]
    assert spans == [[("2023-08-18", "2023-11-16")], [("2023-01-01", "2024-01-01")]], composed


@pytest.mark.parametrize(
    ("previous", "fragment", "labels"),
    [
        ("gross revenue in 2021", "what about last year?", ["2020", "2023"]),
        ("gross revenue in Q1 2023", "what about last quarter?", ["Q4 2022", "Q3 2024"]),
        ("gross revenue in Q1 2023", "and next quarter?", ["Q2 2023", "Q1 2025"]),
    ],
)
def test_the_year_and_quarter_ask_backs_offer_their_choices(
    wrb: Path, previous: str, fragment: str, labels: list[str]
) -> None:
    """The ask-back names both readings and offers each as a whole question (recheck39b: the
    year ask-back had no choices, though a reply naming the year worked)."""
    composed, layer = _compose(wrb, previous, fragment)
    assert composed["unclear"] is not None, composed
    got = [[p.label for p in read(c["question"], layer).periods] for c in composed["choices"]]
    assert got == [[label] for label in labels], composed
    assert "pick one of the choices, or reply with the period" in composed["unclear"]
    kept = read(previous, layer).metrics
    assert all(read(c["question"], layer).metrics == kept for c in composed["choices"])


def test_a_unit_the_previous_period_is_not_of_is_asked_back(wrb: Path) -> None:
    """ "the previous quarter" after a whole year: the quarter before it, or the clock's? Not
    the clock's silently (recheck39b: after "Orders count in 1996" it was Q3 1998)."""
    composed, _ = _compose(wrb, "number of orders in 2022", "what about the previous quarter?")
    assert composed["unclear"] is not None, composed


def test_last_year_said_with_a_filter_is_still_asked_back(wrb: Path) -> None:
    composed, _ = _compose(wrb, "gross revenue in 2021", "what about last year for toys?")
    assert composed["unclear"] is not None and "(2020)" in composed["unclear"], composed


def test_last_month_after_a_whole_year_is_the_clock_s_as_before(wrb: Path) -> None:
    """No month of the conversation to move: "last month" is October 2024 (clock 2024-11-15)."""
    composed, layer = _compose(wrb, "number of orders in 2023", "what about last month?")
    assert composed["unclear"] is None, composed
    assert [p.label for p in read(composed["question"], layer).periods] == ["October 2024"]
