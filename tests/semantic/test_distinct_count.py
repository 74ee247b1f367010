"""A count of a dimension's distinct values ("How many different types of pet are there?":
COUNT(DISTINCT Pets.PetType) over the dimension's table), and "how many X exist" read as "how
many X are there" ('exist' adds nothing, at the end only). Each answer is checked against
hand-written SQL on the Spider sqlite files; a near miss is asked back."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import SemanticLayer, load_semantic
from tests.semantic._helpers import drafted_spider

SLICE = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "spider-slice"
CARS = SLICE / "database" / "car_1" / "car_1.sqlite"
PETS = SLICE / "database" / "pets_1" / "pets_1.sqlite"


def _layer(db: Path, tmp: pytest.TempPathFactory) -> SemanticLayer:
    return load_semantic(drafted_spider(db.stem, tmp)[1])


@pytest.fixture(scope="module")
def pets(tmp_path_factory: pytest.TempPathFactory) -> SemanticLayer:
    return _layer(PETS, tmp_path_factory)


@pytest.fixture(scope="module")
def cars(tmp_path_factory: pytest.TempPathFactory) -> SemanticLayer:
    return _layer(CARS, tmp_path_factory)


def _lite(db: Path, sql: str) -> list[Any]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        return con.execute(sql).fetchall()


def _ask(db: Path, layer: SemanticLayer, question: str) -> Any:
    with connect(str(db)) as connector:
        return Agent(connector, layer).ask(question)


def _rows(verdict: Any) -> list[tuple[Any, ...]]:
    assert verdict.behaviour == "answer" and verdict.action != "withhold", (
        verdict.reasons,
        verdict.provenance.get("message"),
    )
    assert verdict.candidate is not None and verdict.candidate.result is not None
    return [tuple(r) for r in verdict.candidate.result.rows]


@pytest.mark.parametrize(
    "question",
    ["How many different types of pet are there?", "Find the number of distinct type of pets."],
)
def test_distinct_values_of_one_dimension_are_counted(pets: SemanticLayer, question: str) -> None:
    verdict = _ask(PETS, pets, question)
    assert _rows(verdict) == _lite(PETS, "SELECT COUNT(DISTINCT PetType) FROM Pets")
    assert "number of distinct PetType values" in verdict.provenance["reading"]


@pytest.mark.parametrize(
    "question",
    [
        "How many different types of pet are there in 2020?",  # a period: no time to apply
        "How many different types of pet are there, by sex?",  # a grouping on top
        "How many different types of pet are there for cats?",  # a value of the dimension
        "How many different flavours of pet are there?",  # a word nothing reads
    ],
)
def test_near_misses_of_distinct_values_are_not_answered(
    pets: SemanticLayer, question: str
) -> None:
    verdict = _ask(PETS, pets, question)
    assert verdict.behaviour != "answer" or verdict.action == "withhold", verdict.provenance


def test_how_many_exist_is_how_many_there_are(cars: SemanticLayer) -> None:
    verdict = _ask(CARS, cars, "How many countries exist?")
    assert _rows(verdict) == _lite(CARS, "SELECT COUNT(*) FROM countries")


@pytest.mark.parametrize(
    "question",
    [
        "How many countries exist in europe?",
        "How many countries do not exist?",
        "How many countries no longer exist?",
        "Which countries exist?",
        "countries exist",
    ],
)
def test_exist_elsewhere_is_asked_back(cars: SemanticLayer, question: str) -> None:
    verdict = _ask(CARS, cars, question)
    assert verdict.behaviour != "answer" or verdict.action == "withhold", verdict.provenance


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        (
            "How many pets have a greater weight than 10?",
            "SELECT COUNT(*) FROM Pets WHERE weight > 10",
        ),
        (
            "How many pets have a lower weight than 10?",
            "SELECT COUNT(*) FROM Pets WHERE weight < 10",
        ),
        (
            "Find the number of pets whose weight is heavier than 10.",
            "SELECT COUNT(*) FROM Pets WHERE weight > 10",
        ),
        (
            "Find the number of pets whose weight is lighter than 10.",
            "SELECT COUNT(*) FROM Pets WHERE weight < 10",
        ),
    ],
)
def test_a_comparative_said_of_a_column_bounds_it(
    pets: SemanticLayer, question: str, sql: str
) -> None:
    verdict = _ask(PETS, pets, question)
    assert _rows(verdict) == _lite(PETS, sql)


@pytest.mark.parametrize(
    "question",
    [
        "How many pets have no greater weight than 10?",  # negated
        "How many pets have a greater weight than 10 or 5?",  # which bound?
        "How many pets have a greater weight than cats?",  # no number
        "How many pets have an above weight than 10?",  # not a comparative
        "Find the number of pets whose age is heavier than 1.",  # heavier of no weight
    ],
)
def test_comparative_near_misses_are_asked_back(pets: SemanticLayer, question: str) -> None:
    verdict = _ask(PETS, pets, question)
    assert verdict.behaviour != "answer" or verdict.action == "withhold", verdict.provenance
