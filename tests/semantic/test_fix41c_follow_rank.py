"""A direction said alone after a ranked question keeps its count (outside recheck 40, N4: "and
the fewest?" after "top 3 customer nations by orders count in 1995" was asked back, though the
reading it quoted, "keeping the 3 lowest", is the one meant). "the fewest", "the lowest", "the
least" after a top N is the bottom N; "the most", "the highest" after a bottom N the top N.
"best" and "worst" say no direction of the number and stay as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.semantic import Lexicon, compose_follow_up, load_semantic, read


@pytest.mark.parametrize(
    ("previous", "fragment", "n", "down"),
    [
        ("top 5 countries by gross revenue in 2023", "and the fewest?", 5, False),
        ("top 5 countries by gross revenue in 2023", "what about the lowest", 5, False),
        ("bottom 2 categories by number of orders", "and the highest?", 2, True),
    ],
)
def test_a_direction_alone_turns_the_ranking_and_keeps_its_count(
    wrb: Path, previous: str, fragment: str, n: int, down: bool
) -> None:
    layer = load_semantic(wrb / "shop.yaml")
    composed = compose_follow_up(previous, fragment, layer, Lexicon(layer))
    assert composed["unclear"] is None, composed
    again = read(composed["question"], layer)
    before = read(previous, layer)
    assert again.ranking is not None and (again.ranking.n, again.ranking.descending) == (n, down)
    assert again.metrics == before.metrics and again.groups == before.groups
    assert [p.label for p in again.periods] == [p.label for p in before.periods]
    assert any(r.startswith("ranking ") for r in composed["replaced"]), composed


def test_best_or_worst_alone_is_not_read_as_a_direction(wrb: Path) -> None:
    layer = load_semantic(wrb / "shop.yaml")
    composed = compose_follow_up(
        "top 5 countries by gross revenue in 2023", "and the worst?", layer, Lexicon(layer)
    )
    reading = read(composed["question"], layer) if composed["unclear"] is None else None
    assert reading is None or reading.ranking is None or reading.ranking.descending
