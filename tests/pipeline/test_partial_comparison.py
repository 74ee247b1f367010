"""Compared periods the data covers unequally are shown with a warning at most (tryout 26:
"number of orders in 2024", then "vs last year", set 2024 to 15 November beside the whole of
2023: 6,223 against 6,651, a fall, while 2023 to 15 November was 5,364)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import load_semantic


@pytest.fixture(scope="module")
def shop(wrb: Path) -> Iterator[Agent]:
    connector = connect(str(wrb / "shop.duckdb"))
    yield Agent(connector, load_semantic(wrb / "shop.yaml"))
    connector.close()


@pytest.mark.parametrize(
    "question", ["Compare gross revenue 2023 vs 2024", "number of orders in 2024 vs 2023"]
)
def test_a_partial_period_beside_a_whole_one_is_warned(shop: Agent, question: str) -> None:
    verdict = shop.ask(question)
    codes = [f.code for f in verdict.findings]
    assert "cap.partial_comparison" in codes, (question, codes)
    assert verdict.action != "show", (question, verdict.action)
    finding = next(f for f in verdict.findings if f.code == "cap.partial_comparison")
    assert "2024 only 2024-01-01 to 2024-11-15" in finding.message
    assert "2023 whole" in finding.message


@pytest.mark.parametrize(
    "question",
    ["Compare gross revenue 2022 vs 2023", "number of orders in 2024", "gross revenue by month"],
)
def test_periods_covered_alike_are_not_warned(shop: Agent, question: str) -> None:
    verdict = shop.ask(question)
    assert "cap.partial_comparison" not in [f.code for f in verdict.findings], question


def test_the_written_answer_says_the_periods_are_not_like_for_like(shop: Agent) -> None:
    """The warning alone was not enough: the sentence said only "2024 is not over", and the
    whole of 2023 beside it read as a fall (tryout 26)."""
    verdict = shop.ask("number of orders in 2024 vs 2023")
    text = verdict.candidate.text if verdict.candidate else ""
    assert "2024 is not over but 2023 is whole: not like for like" in (text or ""), text


def test_periods_covered_alike_are_not_said_unlike(shop: Agent) -> None:
    verdict = shop.ask("number of orders in 2022 vs 2023")
    text = verdict.candidate.text if verdict.candidate else ""
    assert "like for like" not in (text or ""), text
