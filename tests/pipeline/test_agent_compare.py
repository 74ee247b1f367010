"""Compared periods are written under the grain they are grouped by (found by an outside
tryout: two quarters were written "by year")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import load_semantic
from assay.types import Verdict


@pytest.fixture(scope="module")
def shop(wrb: Path) -> Iterator[Agent]:
    with connect(str(wrb / "shop.duckdb")) as connector:
        yield Agent(connector, load_semantic(wrb / "shop.yaml"))


@pytest.mark.parametrize(
    ("question", "said"),
    [
        # labelled as said (tryout 26: "compare with Q2 2023" wrote "2023-04-01")
        ("gross revenue in Q2 2023 vs Q2 2024", ["by quarter", "Q2 2023: ", "Q2 2024: "]),
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


def _rows(verdict: Verdict) -> list[tuple[object, ...]]:
    assert verdict.candidate is not None and verdict.candidate.result is not None
    return [tuple(row) for row in verdict.candidate.result.rows]


def test_compared_quarters_by_a_group_are_written_as_said_in_time_order(shop: Agent) -> None:
    """Tryout 26: "compare with Q2 2023" after a question by country wrote "2023-04-01, BR:
    566 ..."; written "Q2 2023", the earlier period first, each period's groups largest
    first."""
    verdict = shop.ask("number of orders by country in Q4 2023 compared with Q1 2024")
    text = verdict.candidate.text if verdict.candidate else ""
    assert "Q4 2023, " in (text or "") and "2023-10-01" not in (text or ""), text
    rows = _rows(verdict)
    assert [r[0] for r in rows] == sorted(r[0] for r in rows)  # Q4 2023 before Q1 2024
    for period in {r[0] for r in rows}:
        values = [r[2] for r in rows if r[0] == period]
        assert values == sorted(values, reverse=True), (period, values)


@pytest.mark.parametrize(
    "question", ["gross revenue by country in 2023", "number of orders by category in Q2 2024"]
)
def test_a_breakdown_is_listed_largest_first(shop: Agent, question: str) -> None:
    """Tryout 26: "now by country" listed the countries in no order."""
    values = [r[-1] for r in _rows(shop.ask(question))]
    assert len(values) > 2 and values == sorted(values, reverse=True), values


def test_an_order_asked_for_is_kept(shop: Agent) -> None:
    values = [r[-1] for r in _rows(shop.ask("bottom 3 countries by gross revenue in 2023"))]
    assert len(values) == 3 and values == sorted(values), values


def test_periods_of_different_kinds_are_listed_in_time_order(shop: Agent) -> None:
    """Labelled periods were ordered by their labels: "H1 2024" before "Q4 2023"."""
    rows = _rows(shop.ask("gross revenue in Q4 2023 compared with H1 2024"))
    assert [r[0] for r in rows] == ["Q4 2023", "H1 2024"]
