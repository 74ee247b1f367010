"""A follow-up that changes a comparison's periods and something else at once is asked back
(docs/api.md; tryout 26: "by category and in 2023" after "number of orders in 2024 compared
with 2023" composed "number of orders compared with by category and in 2023?" and answered)."""

from __future__ import annotations

from pathlib import Path

from assay.semantic import Lexicon, compose_follow_up, load_semantic

PREVIOUS = "number of orders in 2024 compared with 2023?"


def test_a_grouping_and_a_period_after_a_comparison_are_asked_back(wrb: Path) -> None:
    layer = load_semantic(wrb / "shop.yaml")
    composed = compose_follow_up(PREVIOUS, "by category and in 2023", layer, Lexicon(layer))
    assert composed["unclear"], composed


def test_a_grouping_alone_is_still_composed(wrb: Path) -> None:
    layer = load_semantic(wrb / "shop.yaml")
    composed = compose_follow_up(PREVIOUS, "by category", layer, Lexicon(layer))
    assert not composed["unclear"], composed
    assert "compared with 2023" in composed["question"]
