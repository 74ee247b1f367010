"""Follow-ups and rankings an outside tester found on the service (tryout 41).

F5: "a year earlier" after "line items total sales amount in 1994" (the Cube workshop's TPC-H
model, imported) was composed as "line items total 1993 amount in 1994": the moved period took
the place of a word of the metric's name, and the composition read as line items count
comparing 1993 with 1994 (asked back; a right answer withheld, and a wrong one a re-read
away). A period, or a value, now replaces only its own part.
F16: "which was the highest?" after a breakdown is the breakdown's one highest row.
F15: "top 0" was answered as the top 1, "top -3" as the top 3: asked back.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from assay.cli import main
from assay.semantic import Lexicon, SemanticLayer, compose_follow_up, decide, load_semantic, read
from tests.semantic._helpers import CUBE


@pytest.fixture(scope="module")
def cube_tpch(tpch_duckdb: Path, tmp_path_factory: pytest.TempPathFactory) -> SemanticLayer:
    """The Cube workshop's TPC-H model imported as the tester imported it: its metric names
    ("line items total sales amount") start with a word that names another metric."""
    out = tmp_path_factory.mktemp("cube") / "layer.yaml"
    args = ["semantic", "import", "--from", "cube", "--source", str(CUBE)]
    run = CliRunner().invoke(main, [*args, "--db", str(tpch_duckdb), "--out", str(out)])
    assert run.exit_code == 0, run.output
    return load_semantic(out)


@pytest.mark.parametrize(
    ("previous", "fragment", "metric", "period", "filters"),
    [
        ("line items total sales amount in 1994", "a year earlier", "sales amount", "1993", 0),
        ("line items total sales amount in 1994", "the year before", "sales amount", "1993", 0),
        ("line items total sales amount in 1994", "1993?", "sales amount", "1993", 0),
        ("line items total quantity in 1994", "and a year earlier?", "quantity", "1993", 0),
        ("line items total discount in 1994", "the year after", "discount", "1995", 0),
        # a value: a filter added, the metric's name kept whole
        ("line items total sales amount in 1994", "AUTOMOBILE?", "sales amount", "1994", 1),
    ],
)
def test_a_period_or_a_value_replaces_only_its_own_part(
    cube_tpch: SemanticLayer,
    previous: str,
    fragment: str,
    metric: str,
    period: str,
    filters: int,
) -> None:
    composed = compose_follow_up(previous, fragment, cube_tpch, Lexicon(cube_tpch))
    assert composed["unclear"] is None, composed
    again = read(composed["question"], cube_tpch)
    assert [m.removeprefix("line_items_total_").replace("_", " ") for m in again.metrics] == [
        metric
    ], composed
    assert [p.label for p in again.periods] == [period], composed
    assert len(again.filters) == filters, composed
    assert not any(r.startswith("metric") for r in composed["replaced"]), composed


def test_a_metric_word_still_replaces_a_word_of_the_metric(cube_tpch: SemanticLayer) -> None:
    """What the composer is for stays: "quantity" after "... total sales amount" is the
    total quantity (a word that reads as no period nor value)."""
    composed = compose_follow_up(
        "line items total sales amount in 1994", "quantity", cube_tpch, Lexicon(cube_tpch)
    )
    assert composed["unclear"] is None, composed
    assert read(composed["question"], cube_tpch).metrics == ("line_items_total_quantity",)


def _shop(wrb: Path) -> SemanticLayer:
    return load_semantic(wrb / "shop.yaml")


@pytest.mark.parametrize(
    ("previous", "fragment", "descending"),
    [
        ("gross revenue by month in 2023", "which was the highest?", True),
        ("gross revenue by month in 2023", "and the lowest?", False),
        ("gross revenue by country in 2023", "the highest one?", True),
        ("gross revenue by channel in 2023", "which one was the smallest?", False),
    ],
)
def test_the_highest_after_a_breakdown_is_its_one_highest_row(
    wrb: Path, previous: str, fragment: str, descending: bool
) -> None:
    layer = _shop(wrb)
    composed = compose_follow_up(previous, fragment, layer, Lexicon(layer))
    assert composed["unclear"] is None, composed
    again = read(composed["question"], layer)
    assert again.ranking is not None and again.ranking.n == 1, composed
    assert again.ranking.descending is descending, composed
    assert again.groups or again.grain, composed
    assert decide(again, layer).behaviour == "answer", composed


def test_the_lowest_after_a_top_n_keeps_its_n_and_says_so(wrb: Path) -> None:
    """After 'top 3 ...', 'and the lowest?' turns the direction and keeps the 3, said in the
    question put together ('bottom 3 ...'), as outside recheck 40 read 'and the fewest?'."""
    layer = _shop(wrb)
    composed = compose_follow_up(
        "top 3 countries by gross revenue in 2023", "and the lowest?", layer, Lexicon(layer)
    )
    assert composed["unclear"] is None, composed
    assert composed["question"].startswith("bottom 3 countries"), composed


@pytest.mark.parametrize(
    ("previous", "fragment"),
    [
        # no breakdown: no row to pick
        ("gross revenue in 2023", "which was the highest?"),
    ],
)
def test_the_highest_with_no_row_to_pick_is_still_asked_back(
    wrb: Path, previous: str, fragment: str
) -> None:
    layer = _shop(wrb)
    composed = compose_follow_up(previous, fragment, layer, Lexicon(layer))
    if composed["unclear"] is None:
        decision = decide(read(composed["question"], layer), layer)
        assert decision.behaviour == "clarify", composed


@pytest.mark.parametrize(
    "question",
    [
        "top 0 countries by gross revenue in 2023",
        "top -3 countries by gross revenue in 2023",
        "the lowest 0 channels by gross revenue in 2023",
    ],
)
def test_a_ranking_of_no_rows_or_minus_rows_is_asked_back(wrb: Path, question: str) -> None:
    layer = _shop(wrb)
    decision = decide(read(question, layer), layer)
    assert decision.behaviour == "clarify", decision
    assert "whole number of 1 or more" in decision.message, decision


@pytest.mark.parametrize(
    "question", ["top 3 countries by gross revenue in 2023", "top-3 countries by gross revenue"]
)
def test_a_positive_ranking_is_read_as_before(wrb: Path, question: str) -> None:
    layer = _shop(wrb)
    reading = read(question, layer)
    assert reading.ranking is not None and reading.ranking.n == 3
    assert decide(reading, layer).behaviour == "answer"
