"""Follow-ups of outside tryout 26 on the shop warehouse.

- "compare with 2023" after "gross revenue in Q2 2024" compared a quarter with the whole of
  2023, shown without a note; it is the same quarter of 2023, as "vs last year" already was.
- ``replaced`` listed only the changes of a part the previous question had: "by category in
  2023" after "number of orders in 2024" listed the period, not the grouping added.
- "same for France" after "Gross revenue in 2023" composed "Gross revenue in 2023 France?".
"""

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
    ("previous", "fragment", "labels", "part"),
    [
        ("gross revenue in Q2 2024", "compare with 2023", ["Q2 2024", "Q2 2023"], "quarter"),
        (
            "gross revenue by country in March 2024",
            "vs 2023",
            ["March 2024", "March 2023"],
            "month",
        ),
        ("gross revenue in H1 2024", "compared with 2022", ["H1 2024", "H1 2022"], "period"),
    ],
    ids=["quarter", "month", "half"],
)
def test_a_year_compared_with_part_of_a_year_is_that_part(
    wrb: Path, previous: str, fragment: str, labels: list[str], part: str
) -> None:
    composed = _composed(wrb, previous, fragment)
    layer = load_semantic(wrb / "shop.yaml")
    assert [p.label for p in read(composed["question"], layer).periods] == labels
    year = labels[1].split()[-1]
    assert composed["replaced"] == [
        f"compared with {labels[1]} (the same {part} of {year}, like for like)"
    ], composed


@pytest.mark.parametrize(
    ("previous", "fragment", "labels"),
    [
        ("gross revenue in 2024", "compare with 2023", ["2024", "2023"]),
        ("gross revenue in 2024", "compare with Q2 2023", ["2024", "Q2 2023"]),
    ],
    ids=["years", "quarter-said"],
)
def test_a_period_said_whole_is_compared_as_said(
    wrb: Path, previous: str, fragment: str, labels: list[str]
) -> None:
    composed = _composed(wrb, previous, fragment)
    layer = load_semantic(wrb / "shop.yaml")
    assert [p.label for p in read(composed["question"], layer).periods] == labels


@pytest.mark.parametrize(
    ("previous", "fragment", "question", "replaced"),
    [
        (
            "number of orders in 2024",
            "by category in 2023",
            "number of orders by category in 2023?",
            ["period 2024 -> 2023", "grouping (none) -> category"],
        ),
        (
            "Gross revenue in 2023",
            "same for France",
            "Gross revenue in 2023 for France?",
            ["filter (none) -> country = FR"],
        ),
        (
            "gross revenue in Germany in 2023",
            "same for France",
            "gross revenue in 2023 for France?",
            ["filter country = DE -> country = FR"],
        ),
        ("gross revenue", "in 2023", "gross revenue in 2023?", ["period (none) -> 2023"]),
        (
            "gross revenue by channel in 2023",
            "top 2",
            "gross revenue by channel in 2023 top 2?",
            ["ranking (none) -> top 2"],
        ),
    ],
    ids=["grouping-added", "filter-added", "filter-swapped", "period-added", "ranking-added"],
)
def test_replaced_lists_every_change(
    wrb: Path, previous: str, fragment: str, question: str, replaced: list[str]
) -> None:
    composed = _composed(wrb, previous, fragment)
    assert composed["question"] == question
    assert composed["replaced"] == replaced
