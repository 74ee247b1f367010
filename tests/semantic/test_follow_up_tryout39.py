"""Outside tryout 39, F7: "what about last year?" after "Revenue by product line in Q4 2023"
was moved silently to the whole of 2023 (follow_up.replaced "period Q4 2023 -> 2023", shown),
a year the conversation had covered a quarter of. As "vs last year" after a quarter compares
the same quarter a year before (docs/api.md, like for like), "last year" said alone after a
part of a year is that part a year before, and ``replaced`` says so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from assay.semantic import Lexicon, compose_follow_up, load_semantic, read


def _composed(wrb: Path, previous: str, fragment: str) -> dict[str, Any]:
    layer = load_semantic(wrb / "shop.yaml")
    composed = compose_follow_up(previous, fragment, layer, Lexicon(layer))
    assert composed["unclear"] is None, composed
    return composed


@pytest.mark.parametrize(
    ("previous", "fragment", "old", "new", "part"),
    [
        (
            "gross revenue by country in Q4 2023",
            "what about last year?",
            "Q4 2023",
            "Q4 2022",
            "quarter",
        ),
        ("number of orders in March 2024", "and last year?", "March 2024", "March 2023", "month"),
        ("gross revenue in H1 2024", "how about the year before", "H1 2024", "H1 2023", "period"),
    ],
    ids=["quarter", "month", "half"],
)
def test_last_year_after_part_of_a_year_is_that_part_a_year_before(
    wrb: Path, previous: str, fragment: str, old: str, new: str, part: str
) -> None:
    composed = _composed(wrb, previous, fragment)
    layer = load_semantic(wrb / "shop.yaml")
    assert [p.label for p in read(composed["question"], layer).periods] == [new], composed
    assert (
        f"period {old} -> {new} (the same {part} a year before, like for like)"
        in (composed["replaced"])
    ), composed


@pytest.mark.parametrize(
    ("previous", "fragment", "labels"),
    [
        ("gross revenue in Q4 2023", "what about 2021?", ["2021"]),
        ("gross revenue in 2024", "what about last year?", ["2023"]),
    ],
    ids=["a-year-said", "last-year-is-the-year-before"],
)
def test_a_whole_year_before_or_a_year_said_is_read_as_before(
    wrb: Path, previous: str, fragment: str, labels: list[str]
) -> None:
    composed = _composed(wrb, previous, fragment)
    layer = load_semantic(wrb / "shop.yaml")
    assert [p.label for p in read(composed["question"], layer).periods] == labels, composed
    assert not any("like for like" in r for r in composed["replaced"]), composed


# The outside re-check of tryout 39 (N1): after a whole year, "the year before" was read as the
# clock's last year, and "orders count in 1994" then "and the year before?" was shown as 1997's.
@pytest.mark.parametrize(
    ("previous", "fragment", "label"),
    [
        ("gross revenue in 2021", "and the year before?", "2020"),
        ("gross revenue in 2021", "what about the previous year?", "2020"),
        ("number of orders in 2022", "and a year earlier?", "2021"),
    ],
    ids=["the-year-before", "previous-year", "a-year-earlier"],
)
def test_the_year_before_a_whole_year_is_the_year_before_it(
    wrb: Path, previous: str, fragment: str, label: str
) -> None:
    composed = _composed(wrb, previous, fragment)
    layer = load_semantic(wrb / "shop.yaml")
    assert [p.label for p in read(composed["question"], layer).periods] == [label], composed


@pytest.mark.parametrize("previous", ["gross revenue in 2021", "gross revenue in 2023"])
def test_last_year_after_a_whole_year_that_is_not_the_one_before_the_clock_is_asked_back(
    wrb: Path, previous: str
) -> None:
    """ "what about last year?" after 2021 is 2020 (the year before) or 2023 (the clock's last
    year); after 2023 it is 2022 or 2023 itself, the same answer again: asked back, naming both."""
    layer = load_semantic(wrb / "shop.yaml")
    composed = compose_follow_up(previous, "what about last year?", layer, Lexicon(layer))
    assert composed["unclear"] is not None, composed
    year = int(previous[-4:])
    assert f"the year before {year} ({year - 1})" in composed["unclear"], composed
    assert "(2023)" in composed["unclear"], composed


# The second outside re-check (W1): "the previous quarter" after Q1 2024 was the clock's last
# quarter (Q3 2024 shown), "the previous month" after March 2024 was October 2024.
@pytest.mark.parametrize(
    ("previous", "fragment", "label"),
    [
        ("gross revenue in Q1 2023", "what about the previous quarter?", "Q4 2022"),
        ("gross revenue in Q3 2023", "and the quarter before?", "Q2 2023"),
        ("number of orders in March 2023", "what about the previous month?", "February 2023"),
        ("number of orders in January 2023", "and the prior month?", "December 2022"),
    ],
    ids=["previous-quarter", "quarter-before", "previous-month", "prior-month-across-years"],
)
def test_the_part_before_a_quarter_or_month_is_the_one_before_it(
    wrb: Path, previous: str, fragment: str, label: str
) -> None:
    composed = _composed(wrb, previous, fragment)
    layer = load_semantic(wrb / "shop.yaml")
    periods = read(composed["question"], layer).periods
    assert [p.label for p in periods] == [label], composed


def test_last_quarter_after_a_quarter_that_is_not_the_clock_s_is_asked_back(wrb: Path) -> None:
    layer = load_semantic(wrb / "shop.yaml")
    composed = compose_follow_up(
        "gross revenue in Q1 2023", "what about last quarter?", layer, Lexicon(layer)
    )
    assert composed["unclear"] is not None, composed
    assert "the quarter before Q1 2023 (Q4 2022)" in composed["unclear"], composed
