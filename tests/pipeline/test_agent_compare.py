"""Compared periods are written under the grain they are grouped by (found by an outside
tryout: two quarters were written "by year")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import load_semantic


@pytest.fixture(scope="module")
def shop(wrb: Path) -> Iterator[Agent]:
    with connect(str(wrb / "shop.duckdb")) as connector:
        yield Agent(connector, load_semantic(wrb / "shop.yaml"))


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("gross revenue in Q2 2023 vs Q2 2024", ["by quarter", "2023-Q2: ", "2024-Q2: "]),
        ("gross revenue in 2023 vs 2022", ["by year", "2022: ", "2023: "]),
    ],
)
def test_compared_periods_are_written_by_their_grain(
    shop: Agent, question: str, said: list[str]
) -> None:
    verdict = shop.ask(question)
    assert verdict.behaviour == "answer" and verdict.candidate is not None
    text = verdict.candidate.text or ""
    for part in said:
        assert part in text, text
