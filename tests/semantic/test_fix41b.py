"""Needless withholds on drafted layers, met by the outside recheck 40 (N3, N4; tuned on, not
held out):

1. "average weight of cars with 8 cylinders" was asked back with a garbled message quoting
   internal column names: a whole number between "with"/"has"/"have" and a numeric column's
   words is that column's value (= 8), never a breakdown by it. Tested first on a schema of
   its own (homes and their bedrooms), then on car_1;
2. a country said by its people's adjective ("french singers") is never taken for the
   country: the ask-back names the value ("did you mean France?"); nor is "female" taken for
   ``Is_male = F``: "not male" is offered back;
3. smg "which customer type had the most lifetime orders?" was abstained on naming Count
   Lifetime Orders as the closest metric: a metric labelled "count <two words or more>" is
   read by those words too;
4. "heaviest car weight", "how old is the oldest dog?" were abstained on: a superlative said of
   the one column it measures (a weight, an age) is that column's maximum or minimum, on the
   table of the rows said, or of the one table holding the value said ("dog").

Every expected value was computed with SQL written here on the same data.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import Dimension, Metric, SemanticLayer, load_semantic
from assay.types import Verdict

from ._helpers import draft, drafted_spider, read_and_decide


def _ask(db: Path, layer: Path, question: str) -> Verdict:
    with connect(str(db)) as connector:
        return Agent(connector, load_semantic(layer)).ask(question)


def _value(verdict: Verdict) -> float:
    assert verdict.behaviour == "answer", verdict.provenance.get("message")
    assert verdict.action != "withhold", verdict.reasons
    assert verdict.candidate is not None and verdict.candidate.result is not None
    rows = verdict.candidate.result.rows
    assert len(rows) == 1, rows
    return round(float(rows[0][-1]), 2)


def _sql(db: Path, query: str) -> float:
    with sqlite3.connect(db) as con:
        return round(float(con.execute(query).fetchone()[0]), 2)


@pytest.fixture(scope="module")
def homes(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("homes")
    db = folder / "homes.sqlite"
    with sqlite3.connect(db) as con:
        con.execute(
            "CREATE TABLE homes (home_id INTEGER PRIMARY KEY, city TEXT, bedrooms INTEGER, "
            "floors INTEGER, price REAL)"
        )
        cities = ["Leeds", "York", "Hull", "Bath"]
        con.executemany(
            "INSERT INTO homes VALUES (?, ?, ?, ?, ?)",
            [
                (i, cities[i % 4], 1 + i % 5, 1 + i % 3, 100000.0 + 7919.0 * ((i * 37) % 101))
                for i in range(1, 121)
            ],
        )
    return db, draft(db, folder / "layer.yaml")


@pytest.mark.parametrize(
    ("question", "where"),
    [
        ("average price of homes with 3 bedrooms", "bedrooms = 3"),
        ("how many homes have 2 floors?", "floors = 2"),
        ("number of homes with 4 bedrooms in York", "bedrooms = 4 AND city = 'York'"),
    ],
    ids=["with", "have", "with-and-value"],
)
def test_a_number_with_a_numeric_column_is_its_value(
    homes: tuple[Path, Path], question: str, where: str
) -> None:
    db, layer = homes
    verdict = _ask(db, layer, question)
    measure = "avg(price)" if "average" in question else "count(*)"
    assert _value(verdict) == _sql(db, f"SELECT {measure} FROM homes WHERE {where}")
    reading = str(verdict.provenance.get("reading", ""))
    assert "by " not in reading.split("average")[-1], reading  # a filter, never a breakdown


def test_cars_with_8_cylinders_is_a_filter_on_cylinders(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    db, layer = drafted_spider("car_1", tmp_path_factory)
    verdict = _ask(db, layer, "average weight of cars with 8 cylinders")
    assert _value(verdict) == _sql(db, "SELECT avg(Weight) FROM cars_data WHERE Cylinders = 8")
    verdict = _ask(db, layer, "number of cars with 4 cylinders made in 1980")
    expected = _sql(db, "SELECT count(*) FROM cars_data WHERE Cylinders = 4 AND Year = 1980")
    assert _value(verdict) == expected


def test_a_number_with_no_numeric_column_is_still_not_read(
    homes: tuple[Path, Path],
) -> None:
    db, layer = homes
    # "with 3 cities": city is text; no value of it is 3, so nothing is read as one
    verdict = _ask(db, layer, "average price of homes with 3 cities")
    assert verdict.behaviour != "answer"


@pytest.fixture(scope="module")
def players(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("players")
    db = folder / "players.sqlite"
    with sqlite3.connect(db) as con:
        con.execute(
            "CREATE TABLE players (player_id INTEGER PRIMARY KEY, player_name TEXT, "
            "country TEXT, salary REAL, is_female TEXT)"
        )
        countries = ["Germany", "Spain", "Brazil"]
        con.executemany(
            "INSERT INTO players VALUES (?, ?, ?, ?, ?)",
            [
                (i, f"player {i}", countries[i % 3], 1000.0 + 37.5 * ((i * 7) % 53), "TF"[i % 2])
                for i in range(1, 61)
            ],
        )
    return db, draft(db, folder / "layer.yaml")


def test_a_peoples_adjective_is_asked_back_naming_the_country(
    players: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory
) -> None:
    db, layer = players
    verdict = _ask(db, layer, "total salary of german players")
    assert verdict.behaviour == "clarify", verdict.provenance.get("message")
    message = str(verdict.provenance.get("message", ""))
    assert "'german': did you mean 'Germany'" in message, message
    # said as the country, it is answered
    verdict = _ask(db, layer, "total salary of players from Germany")
    assert _value(verdict) == _sql(db, "SELECT sum(salary) FROM players WHERE country = 'Germany'")
    db, layer = drafted_spider("concert_singer", tmp_path_factory)
    verdict = _ask(db, layer, "average age of french singers")
    assert verdict.behaviour == "clarify", verdict.provenance.get("message")
    assert "'france'" in str(verdict.provenance.get("message", "")).lower()


def test_a_count_metric_is_read_without_its_count_word() -> None:
    layer = SemanticLayer(
        metrics=(
            Metric("count_open_tickets", "Count Open Tickets", (), "t", "SUM(t.open_tickets)"),
            Metric("tickets", "tickets", (), "t", "COUNT(*)"),
        ),
        dimensions=(Dimension("priority", "t.priority", (), ("high", "low")),),
    )
    reading, decision = read_and_decide("which priority had the most open tickets?", layer)
    assert decision.behaviour == "answer", decision.message
    assert reading.metrics == ("count_open_tickets",) and reading.groups == ("priority",)
    assert reading.ranking is not None and reading.ranking.descending
    # one word alone stays the rows' own name: "tickets" is the ticket count, as before
    reading, _ = read_and_decide("how many tickets by priority", layer)
    assert reading.metrics == ("tickets",)


@pytest.fixture(scope="module")
def parcels(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("parcels")
    db = folder / "parcels.sqlite"
    with sqlite3.connect(db) as con:
        con.execute(
            "CREATE TABLE parcels (parcel_id INTEGER PRIMARY KEY, service TEXT, weight REAL)"
        )
        services = ["express", "standard", "economy"]
        con.executemany(
            "INSERT INTO parcels VALUES (?, ?, ?)",
            [(i, services[i % 3], round(0.5 + ((i * 53) % 97) / 4, 2)) for i in range(1, 91)],
        )
    return db, draft(db, folder / "layer.yaml")


@pytest.mark.parametrize(
    ("question", "query"),
    [
        ("heaviest parcel weight", "SELECT max(weight) FROM parcels"),
        ("weight of the lightest parcel", "SELECT min(weight) FROM parcels"),
        (
            "heaviest express parcel weight",
            "SELECT max(weight) FROM parcels WHERE service = 'express'",
        ),
    ],
    ids=["heaviest-weight", "lightest", "heaviest-with-value"],
)
def test_a_superlative_of_a_weight_is_its_extreme(
    parcels: tuple[Path, Path], question: str, query: str
) -> None:
    db, layer = parcels
    assert _value(_ask(db, layer, question)) == _sql(db, query)


def test_heaviest_car_and_oldest_dog(tmp_path_factory: pytest.TempPathFactory) -> None:
    db, layer = drafted_spider("car_1", tmp_path_factory)
    verdict = _ask(db, layer, "heaviest car weight")
    assert _value(verdict) == _sql(db, "SELECT max(Weight) FROM cars_data")
    db, layer = drafted_spider("pets_1", tmp_path_factory)
    verdict = _ask(db, layer, "how old is the oldest dog?")
    assert _value(verdict) == _sql(db, "SELECT max(pet_age) FROM Pets WHERE PetType = 'dog'")
    verdict = _ask(db, layer, "how old is the youngest student?")
    assert _value(verdict) == _sql(db, "SELECT min(Age) FROM Student")
    # two tables with an age and no rows said: which one is never guessed
    assert _ask(db, layer, "how old is the oldest one?").behaviour != "answer"


def test_the_other_sex_of_a_flag_is_asked_back(
    players: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory
) -> None:
    db, layer = players
    verdict = _ask(db, layer, "total salary of male players")
    assert verdict.behaviour == "clarify", verdict.provenance.get("message")
    assert "did you mean 'not female'" in str(verdict.provenance.get("message", ""))
    verdict = _ask(db, layer, "total salary of players who are not female")
    assert _value(verdict) == _sql(db, "SELECT sum(salary) FROM players WHERE is_female = 'F'")
    db, layer = drafted_spider("concert_singer", tmp_path_factory)
    for question in ("average age of female singers", "how many singers are women?"):
        verdict = _ask(db, layer, question)
        assert verdict.behaviour == "clarify", verdict.provenance.get("message")
        assert "'not male'" in str(verdict.provenance.get("message", "")), question


def test_a_number_with_a_key_column_is_no_value() -> None:
    # "with 5 stores" over a numeric store key counts stores; it never keeps store 5
    layer = SemanticLayer(
        metrics=(Metric("revenue", "revenue", (), "sales", "SUM(sales.amount)"),),
        dimensions=(
            Dimension("store", "sales.store_id", ()),
            Dimension("bedrooms", "sales.bedrooms", ()),
        ),
        numeric=("store", "bedrooms"),
    )
    reading, _ = read_and_decide("revenue of regions with 5 stores", layer)
    assert reading.comparisons == ()
    reading, _ = read_and_decide("revenue of homes with 5 bedrooms", layer)
    assert [(c.op, c.value) for c in reading.comparisons] == [(">=", "5"), ("<=", "5")]


def test_a_number_not_read_is_asked_back_in_plain_words() -> None:
    layer = SemanticLayer(
        metrics=(Metric("revenue", "revenue", (), "sales", "SUM(sales.amount)"),),
        dimensions=(Dimension("sales_store_id", "sales.store_id", ("stores", "store")),),
        numeric=("sales_store_id",),
    )
    reading, decision = read_and_decide("revenue with 5 stores", layer)
    assert decision.behaviour == "clarify" and reading.comparisons == ()
    assert "sales_store_id" not in decision.message, decision.message
    assert "with 5 sales store id" in decision.message, decision.message


def test_a_bound_is_restated_in_the_columns_words(tmp_path_factory: pytest.TempPathFactory) -> None:
    db, layer = drafted_spider("car_1", tmp_path_factory)
    verdict = _ask(db, layer, "how many cars have more than 6 cylinders?")
    reading = str(verdict.provenance.get("reading", ""))
    assert "cars data Cylinders is above 6 (> 6)" in reading, reading
    assert "cars_data_Cylinders" not in reading, reading
