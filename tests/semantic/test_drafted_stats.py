"""A drafted layer's averages, maxima and minima: each column the drafter sums also gets
``average``, ``maximum`` and ``minimum`` metrics over its own table, so "average age of singers
from France" is answered with the numbers of hand-written SQL on the Spider slice, "total age"
is still the sum, and the bare column word ("age"), now naming four metrics, is asked back
with them named, never answered with one; "average, minimum, and maximum age" is the three."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
import yaml

from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import load_semantic
from tests.semantic._helpers import drafted_spider

SLICE = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "spider-slice"
CONCERT = SLICE / "database" / "concert_singer" / "concert_singer.sqlite"
CARS = SLICE / "database" / "car_1" / "car_1.sqlite"

pytestmark = pytest.mark.skipif(not CONCERT.exists(), reason="the Spider slice is absent")


@pytest.fixture(scope="module")
def layers(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, Path]:
    return {db: drafted_spider(db.stem, tmp_path_factory)[1] for db in (CONCERT, CARS)}


def _lite(db: Path, sql: str) -> list[Any]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        return con.execute(sql).fetchall()


def _ask(db: Path, layer: Path, question: str) -> Any:
    with connect(str(db)) as connector:
        return Agent(connector, load_semantic(layer)).ask(question)


def test_each_summed_column_gets_its_average_maximum_and_minimum(
    layers: dict[Path, Path],
) -> None:
    metrics = {
        m["name"]: m for m in yaml.safe_load(layers[CONCERT].read_text(encoding="utf-8"))["metrics"]
    }
    for word, fn in (("average", "avg"), ("maximum", "max"), ("minimum", "min")):
        metric = metrics[f"singer_Age_{word}"]
        assert metric["expression"] == f"{fn}(singer.Age)"
        assert metric["table"] == "singer"
    assert metrics["singer_Age_total"]["expression"] == "sum(singer.Age)"
    assert {"mean age", "avg age"} <= set(metrics["singer_Age_average"]["synonyms"])
    assert {"highest age", "largest age", "max age"} <= set(
        metrics["singer_Age_maximum"]["synonyms"]
    )
    assert {"lowest age", "smallest age", "min age"} <= set(
        metrics["singer_Age_minimum"]["synonyms"]
    )
    # no statistic of a key: nothing is drafted over singer.Singer_ID
    assert not any("Singer_ID" in name for name in metrics)


@pytest.mark.parametrize(
    ("db", "question", "sql"),
    [
        (
            CONCERT,
            "average age of singers from France",
            "SELECT avg(Age) FROM singer WHERE Country = 'France'",
        ),
        (CONCERT, "mean age of singers", "SELECT avg(Age) FROM singer"),
        (CONCERT, "maximum age of singers", "SELECT max(Age) FROM singer"),
        (
            CONCERT,
            "lowest age of singers from France",
            "SELECT min(Age) FROM singer WHERE Country = 'France'",
        ),
        (CONCERT, "total age of singers", "SELECT sum(Age) FROM singer"),
        (CONCERT, "maximum capacity of stadiums", "SELECT max(Capacity) FROM stadium"),
        (
            CONCERT,
            "What is the average, minimum, and maximum age of all singers from France?",
            "SELECT avg(Age), min(Age), max(Age) FROM singer WHERE Country = 'France'",
        ),
        (
            CONCERT,
            "total and average capacity of stadiums",
            "SELECT sum(Capacity), avg(Capacity) FROM stadium",
        ),
        (CARS, "minimum weight of cars", "SELECT min(Weight) FROM cars_data"),
        (CARS, "average weight of cars", "SELECT avg(Weight) FROM cars_data"),
        (CARS, "max weight", "SELECT max(Weight) FROM cars_data"),
    ],
)
def test_statistics_answered_with_the_numbers_of_hand_sql(
    layers: dict[Path, Path], db: Path, question: str, sql: str
) -> None:
    verdict = _ask(db, layers[db], question)
    assert verdict.behaviour == "answer" and verdict.action != "withhold", (
        question,
        verdict.reasons,
        verdict.provenance.get("message"),
    )
    assert verdict.candidate is not None and verdict.candidate.result is not None
    got = [tuple(round(float(v), 4) for v in r) for r in verdict.candidate.result.rows]
    want = [tuple(round(float(v), 4) for v in r) for r in _lite(db, sql)]
    assert got == want, question


@pytest.mark.parametrize(
    ("db", "question", "named"),
    [
        (CONCERT, "age of singers", ("average Age", "maximum Age", "minimum Age", "total Age")),
        (CONCERT, "what is the age of singers from France", ("average Age", "total Age")),
        (CARS, "what is the weight", ("average Weight", "maximum Weight", "minimum Weight")),
    ],
)
def test_a_bare_column_word_is_asked_back_naming_the_metrics(
    layers: dict[Path, Path], db: Path, question: str, named: tuple[str, ...]
) -> None:
    verdict = _ask(db, layers[db], question)
    assert verdict.behaviour == "clarify", (question, verdict.behaviour, verdict.reasons)
    assert verdict.candidate is None or verdict.action == "withhold"
    message = str(verdict.provenance.get("message"))
    for label in named:
        assert label in message, (question, message)


@pytest.mark.parametrize(
    "question",
    [
        "average or maximum age of singers",  # which one: never both, never one
        "average, maximum age of singers",  # no "and" ends the list
    ],
)
def test_an_unended_list_of_aggregates_is_not_shown(
    layers: dict[Path, Path], question: str
) -> None:
    verdict = _ask(CONCERT, layers[CONCERT], question)
    assert not (verdict.behaviour == "answer" and verdict.action != "withhold"), question
