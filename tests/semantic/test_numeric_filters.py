"""Everyday numeric comparisons on a numeric column read as a row filter (WHERE), found
wrongly not answered by the outside tryouts 11-13 (so every question here is tuned on, not
held out):

1. "singers with age more than 40", "singers older than 30", "dogs weigh more than 10",
   "cars have weight over 3000": a bound on the one numeric column the words (or "older",
   "younger", "weigh") name, the rows counted those of that column's table;
2. a numeric column the layer does not name, read from the catalog ("cylinders", Cube's
   "total price" of orders): a bound on it is a row filter too;
3. "parts count for each size between 10 and 20": a bound right after a grouping by a
   numeric dimension is that dimension's range, never a bound on the count;
4. "by year" / "in 1970" on a layer with no time: grouping by, and equality on, the one
   numeric column named year;
5. fail closed: a bound after a metric stays a condition on the metric per group, a number
   with no numeric column to attach to is asked back, a bound on a word column is never read.

Every expected value was checked with SQL written here on the real data.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from assay.cli import main
from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import (
    Reading,
    SemanticLayer,
    load_semantic,
    with_derived_names,
    with_numeric_columns,
)

from ._helpers import drafted_spider, read_and_decide

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "semantic-models"
CUBE = SHARED / "cube-workshop-tpch" / "static" / "cube-models" / "1-starter" / "model" / "cubes"


def _spider(name: str, factory: pytest.TempPathFactory) -> tuple[Path, SemanticLayer]:
    """A drafted Spider layer with the catalog's numeric columns, as the agent reads it."""
    db, path = drafted_spider(name, factory)
    with connect(str(db)) as connector:
        layer = with_numeric_columns(load_semantic(path), connector.catalog())
    return db, with_derived_names(layer)


@pytest.fixture(scope="module")
def cube(tpch_duckdb: Path, tmp_path_factory: pytest.TempPathFactory) -> SemanticLayer:
    out = tmp_path_factory.mktemp("cube") / "cube.yaml"
    args = ["semantic", "import", "--from", "cube", "--source", str(CUBE), "--db"]
    run = CliRunner().invoke(main, [*args, str(tpch_duckdb), "--out", str(out)])
    assert run.exit_code == 0, run.output
    with connect(str(tpch_duckdb)) as connector:
        layer = with_numeric_columns(load_semantic(out), connector.catalog())
    return with_derived_names(layer)


def _sql(db: Path, query: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as con:
        return [tuple(r) for r in con.execute(query).fetchall()]


def _bounds(reading: Reading) -> list[tuple[str, str]]:
    return [(c.op, c.value) for c in reading.comparisons]


# --- 1. everyday comparisons on the drafted Spider layers -------------------------------------


@pytest.mark.parametrize(
    ("question", "bounds", "said"),
    [
        ("singers with age more than 40", [(">", "40")], "where singer Age is above 40 (> 40)"),
        ("how many singers are older than 30", [(">", "30")], "is above 30 (> 30)"),
        ("how many singers are younger than 35", [("<", "35")], "is below 35 (< 35)"),
        ("number of singers with age at least 41", [(">=", "41")], "at least 41 (>= 41)"),
        (
            "how many singers have age between 30 and 45",
            [(">=", "30"), ("<=", "45")],
            "between 30 and 45 (both included)",
        ),
    ],
)
def test_a_bound_on_age_is_a_row_filter_on_the_singers(
    question: str,
    bounds: list[tuple[str, str]],
    said: str,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    _, layer = _spider("concert_singer", tmp_path_factory)
    reading, decision = read_and_decide(question, layer)
    assert decision.behaviour == "answer", decision.message
    assert reading.metrics == ("singer_count",)
    assert _bounds(reading) == bounds
    assert {c.column for c in reading.comparisons} == {"singer.Age"}
    assert said in reading.restate(layer)


def test_a_bound_after_a_metric_stays_a_condition_on_the_metric(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """ "countries with more than 1 singer": the count per country bounded, never a row filter."""
    _, layer = _spider("concert_singer", tmp_path_factory)
    reading, _ = read_and_decide("countries with more than 1 singer", layer)
    assert reading.comparisons == ()


def test_a_number_with_no_numeric_column_is_asked_back(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    _, layer = _spider("concert_singer", tmp_path_factory)
    for question in (
        "how many singers are more than 40",  # nothing named to bound
        "how many singers are taller than 150",  # no height column
        "how many singers with country more than 3",  # a word column
    ):
        reading, decision = read_and_decide(question, layer)
        assert decision.behaviour in {"clarify", "abstain"}, question
        assert reading.comparisons == (), question


def test_dogs_that_weigh_more_than_10(tmp_path_factory: pytest.TempPathFactory) -> None:
    _, layer = _spider("pets_1", tmp_path_factory)
    reading, decision = read_and_decide("how many dogs weigh more than 10", layer)
    assert decision.behaviour == "answer", decision.message
    assert _bounds(reading) == [(">", "10")]
    assert [c.column for c in reading.comparisons] == ["Pets.weight"]
    assert [f.values for f in reading.filters] == [("dog",)]


def test_older_than_names_the_age_of_the_rows_said(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """pets_1 has two ages (Student.Age, Pets.pet_age, measured by the draft, bounded on their
    columns): the rows said pick one; with neither said, "older than" is asked back."""
    _, layer = _spider("pets_1", tmp_path_factory)
    reading, decision = read_and_decide("how many pets are older than 1", layer)
    assert decision.behaviour == "answer", decision.message
    assert [(c.dimension, c.op, c.value) for c in reading.comparisons] == [
        ("Pets pet_age", ">", "1")
    ]
    reading, decision = read_and_decide("number of students younger than 20 by sex", layer)
    assert decision.behaviour == "answer", decision.message
    assert [(c.dimension, c.op) for c in reading.comparisons] == [("Student Age", "<")]
    reading, decision = read_and_decide("how many are older than 20", layer)
    assert decision.behaviour != "answer" and reading.comparisons == ()
    assert "older" in decision.message


def test_cars_with_weight_over_3000_and_more_than_6_cylinders(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    _, layer = _spider("car_1", tmp_path_factory)
    reading, decision = read_and_decide("how many cars have weight over 3000", layer)
    assert decision.behaviour == "answer", decision.message
    assert reading.metrics == ("cars_data_count",)
    assert _bounds(reading) == [(">", "3000")]
    reading, decision = read_and_decide("how many cars have more than 6 cylinders", layer)
    assert decision.behaviour == "answer", decision.message
    assert [(c.dimension, c.op, c.value) for c in reading.comparisons] == [
        ("cars_data_Cylinders", ">", "6")  # a catalog column the draft left out
    ]


# --- 4. "by year" / "in 1970" on a layer with no time ---------------------------------------


def test_year_on_a_layer_with_no_time_is_the_year_column(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    _, layer = _spider("car_1", tmp_path_factory)
    reading, decision = read_and_decide("how many cars were made in 1970", layer)
    assert decision.behaviour == "answer", decision.message
    assert reading.periods == () and _bounds(reading) == [(">=", "1970"), ("<=", "1970")]
    assert "Year is 1970 (= 1970)" in reading.restate(layer)
    reading, decision = read_and_decide(
        "average weight by year for cars with more than 6 cylinders", layer
    )
    assert decision.behaviour == "answer", decision.message
    assert reading.grain is None and len(reading.groups) == 1
    assert reading.groups[0].endswith("Year")
    # mpg is text ('null' strings): no metric; the abstention names it, never the time
    _, decision = read_and_decide("average mpg by year for cars with more than 6 cylinders", layer)
    assert decision.behaviour != "answer"
    assert "time_column" not in decision.message
    # a period that is not one year is still not applied
    _, decision = read_and_decide("how many cars were made in March 1970", layer)
    assert decision.behaviour != "answer"


# --- 2. and 3. the Cube TPC-H import ----------------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(not SHARED.exists(), reason="the shared semantic models are absent")
def test_cube_bounds_on_numeric_columns(cube: SemanticLayer) -> None:
    reading, decision = read_and_decide("orders count where total price is more than 300000", cube)
    assert decision.behaviour == "answer", decision.message
    assert [(c.dimension, c.op, c.value) for c in reading.comparisons] == [
        ("orders_o_totalprice", ">", "300000")
    ]
    reading, decision = read_and_decide("parts count for each size between 10 and 20", cube)
    assert decision.behaviour == "answer", decision.message
    assert reading.groups == ("parts_size",)
    assert _bounds(reading) == [(">=", "10"), ("<=", "20")]
    # a text column with no values listed (parts_type): asked back, never run as a bound
    reading, decision = read_and_decide("parts count for each type between 10 and 20", cube)
    assert reading.comparisons == () and decision.behaviour == "clarify"
    assert "parts_size" in cube.numeric
    assert "parts_type" not in cube.numeric
    # a word column grouped keeps today's ask-back (tryout 10)
    reading, decision = read_and_decide(
        "line items total quantity for each ship mode between 10 and 20", cube
    )
    assert reading.comparisons == () and decision.behaviour == "clarify"


@pytest.mark.slow
@pytest.mark.skipif(not SHARED.exists(), reason="the shared semantic models are absent")
def test_cube_answers_match_sql(tpch_duckdb: Path, cube: SemanticLayer) -> None:
    with duckdb.connect(str(tpch_duckdb), read_only=True) as con:
        orders = con.sql("SELECT count(*) FROM orders WHERE o_totalprice > 300000").fetchall()
        sizes = con.sql(
            "SELECT p_size, count(*) FROM part WHERE p_size BETWEEN 10 AND 20 GROUP BY 1"
        ).fetchall()
    assert len(sizes) == 11
    with connect(str(tpch_duckdb)) as connector:
        agent = Agent(connector, cube)
        verdict = agent.ask("orders count where total price is more than 300000")
        assert verdict.action != "withhold", verdict.provenance.get("message")
        assert verdict.candidate is not None and verdict.candidate.result is not None
        assert [tuple(r) for r in verdict.candidate.result.rows] == orders
        # o_totalprice is a column the layer does not define: its meaning rests on its name
        # alone, so the answer is confirmed first, naming it (never shown plainly).
        assert verdict.route == "confirm_first" and verdict.action == "warn"
        assert any(
            f.code == "cap.unconfirmed_fact" and "o_totalprice" in f.message
            for f in verdict.findings
        )
        verdict = agent.ask("parts count for each size between 10 and 20")
        assert verdict.action != "withhold", verdict.provenance.get("message")
        assert verdict.candidate is not None and verdict.candidate.result is not None
        assert sorted(tuple(r) for r in verdict.candidate.result.rows) == sorted(sizes)


# --- end to end on the drafted Spider databases --------------------------------------------


@pytest.mark.parametrize(
    ("name", "question", "sql"),
    [
        (
            "concert_singer",
            "singers with age more than 40",
            "SELECT count(*) FROM singer WHERE Age > 40",
        ),
        (
            "concert_singer",
            "how many singers are older than 30",
            "SELECT count(*) FROM singer WHERE Age > 30",
        ),
        (
            "pets_1",
            "how many dogs weigh more than 10",
            "SELECT count(*) FROM Pets WHERE PetType = 'dog' AND weight > 10",
        ),
        (
            "pets_1",
            "number of students younger than 20 by sex",
            "SELECT Sex, count(*) FROM Student WHERE Age < 20 GROUP BY Sex",
        ),
        (
            "car_1",
            "how many cars have weight over 3000",
            "SELECT count(*) FROM cars_data WHERE Weight > 3000",
        ),
        (
            "car_1",
            "how many cars were made in 1970",
            "SELECT count(*) FROM cars_data WHERE Year = 1970",
        ),
        (  # outside tryout 16: the year was dropped beside the bound (195 shown, not 3)
            "car_1",
            "how many cars from 1980 with more than 4 cylinders",
            "SELECT count(*) FROM cars_data WHERE Year = 1980 AND Cylinders > 4",
        ),
        (
            "car_1",
            "average weight by year for cars with more than 6 cylinders",
            "SELECT Year, avg(Weight) FROM cars_data WHERE Cylinders > 6 GROUP BY Year",
        ),
    ],
)
def test_the_agent_answers_match_sql(
    name: str, question: str, sql: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    db, path = drafted_spider(name, tmp_path_factory)
    expected = sorted(_sql(db, sql))
    with connect(str(db)) as connector:
        verdict = Agent(connector, load_semantic(path)).ask(question)
    assert verdict.behaviour == "answer", verdict.provenance.get("message")
    assert verdict.action != "withhold", verdict.provenance.get("message")
    assert verdict.candidate is not None and verdict.candidate.result is not None
    got = sorted(tuple(r) for r in verdict.candidate.result.rows)
    assert len(got) == len(expected)
    for row, want in zip(got, expected, strict=True):
        assert row == pytest.approx(want), question


@pytest.mark.parametrize(
    "question",
    ["how many cars with weight over 2000", "cars with weight under 2000 made in 1971"],
)
def test_a_bound_that_looks_like_a_year_is_never_a_year(
    question: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Outside tryout 15: "weight over 2000" on car_1 was read "Year is 2000" (0 cars, shown
    confirm-first) with 'weight over' dropped. A year-like number after a bound's word is not
    the year; unread, the question is not answered (the right count is 'weight > 2000')."""
    db, path = drafted_spider("car_1", tmp_path_factory)
    with connect(str(db)) as connector:
        verdict = Agent(connector, load_semantic(path)).ask(question)
    assert "Year is 2000" not in str(verdict.provenance.get("reading", ""))
    if verdict.behaviour == "answer" and verdict.action != "withhold":
        assert verdict.candidate is not None and verdict.candidate.final_sql is not None
        assert "Weight" in verdict.candidate.final_sql
        assert "Year = 2000" not in verdict.candidate.final_sql


def test_older_than_a_year_is_no_bound_on_age(tmp_path_factory: pytest.TempPathFactory) -> None:
    """ "songs not older than 2010" is a release year from 2010 on: it was read as the singers'
    age at most 2010 (count16); unread now, it is asked back."""
    _, layer = _spider("concert_singer", tmp_path_factory)
    reading, decision = read_and_decide("how many singers have songs not older than 2010", layer)
    assert "singer.Age" not in {c.column for c in reading.comparisons}
    assert decision.behaviour == "clarify"  # 'older than 2010' unread: asked back, not guessed
