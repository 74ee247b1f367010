"""Numeric row conditions and their negations found never answered, or read wrongly, by the
outside tryouts 15 and 16 (so every question here is tuned on, not held out):

1. a year-like number after a bound's word, said of a numeric column or a metric, is the
   bound, never a year: "cars with weight over 2000" (car_1 has no time: it was asked for the
   period '2000'), "orders count with total price over 2000 in 1996" (Cube TPC-H: read as
   comparing the years 2000 and 1996), "orders with more than 2000 units sold in 2023"; a year
   with no bound's word ("in 1996", "from 1980") stays a period or the year column's value;
2. a negation is applied or asked back, never dropped: "not older than 30" (age at most 30),
   "non large transactions" / "transactions that are not large" (a true/false dimension
   false), "transactions that are not quick buy" (a two-valued dimension kept from one value),
   "cars not made in 1972";
3. "made in 1972 or 1973" (both years' rows) and "made after 1975" / "before 1975" on the one
   year column of a layer with no time.

Every expected value was checked with SQL written here on the real data.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import duckdb
import pytest
from click.testing import CliRunner

from assay.cli import main
from assay.cli._ask import demo_warehouse
from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import (
    Reading,
    SemanticLayer,
    load_semantic,
    with_derived_names,
    with_numeric_columns,
)
from assay.settings import load_settings

from ._helpers import CUBE, MF_TUTORIAL, SEMANTIC_MODELS, drafted_spider, read_and_decide


def _spider(name: str, factory: pytest.TempPathFactory) -> tuple[Path, SemanticLayer]:
    """A drafted Spider layer with the catalog's numeric columns, as the agent reads it."""
    db, path = drafted_spider(name, factory)
    with connect(str(db)) as connector:
        layer = with_numeric_columns(load_semantic(path), connector.catalog())
    return db, with_derived_names(layer)


def _bounds(reading: Reading) -> list[tuple[str, str]]:
    return [(c.op, c.value) for c in reading.comparisons]


def _rows(db: Path, layer: SemanticLayer, question: str) -> list[tuple[Any, ...]]:
    """The rows the agent shows for ``question`` (it must answer, never withhold)."""
    with connect(str(db)) as connector:
        verdict = Agent(connector, layer).ask(question)
    assert verdict.behaviour == "answer", (question, verdict.provenance.get("message"))
    assert verdict.action != "withhold", (question, verdict.provenance.get("message"))
    assert verdict.candidate is not None and verdict.candidate.result is not None
    return sorted(tuple(r) for r in verdict.candidate.result.rows)


def _not_shown(db: Path, layer: SemanticLayer, question: str) -> str:
    with connect(str(db)) as connector:
        verdict = Agent(connector, layer).ask(question)
    shown = verdict.behaviour == "answer" and verdict.action != "withhold"
    assert not shown, (question, verdict.provenance.get("reading"))
    return str(verdict.provenance.get("message", ""))


def _lite(db: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        return sorted(tuple(r) for r in con.execute(sql).fetchall())


def _duck(db: Path, sql: str) -> list[tuple[Any, ...]]:
    with duckdb.connect(str(db), read_only=True) as con:
        return sorted(tuple(r) for r in con.execute(sql).fetchall())


# --- readings on car_1 and pets_1 (no time) ----------------------------------------------------


@pytest.mark.parametrize(
    ("question", "bounds", "column"),
    [
        ("how many cars with weight over 2000", [(">", "2000")], "Weight"),
        ("number of cars with weight under 1999", [("<", "1999")], "Weight"),
        ("how many cars have weight at least 2000", [(">=", "2000")], "Weight"),
        ("how many cars were made after 1975", [(">", "1975")], "Year"),
        ("how many cars were made since 1975", [(">=", "1975")], "Year"),
        ("how many cars were made before 1975", [("<", "1975")], "Year"),
    ],
)
def test_a_year_like_bound_is_a_bound_on_its_column(
    question: str,
    bounds: list[tuple[str, str]],
    column: str,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    _, layer = _spider("car_1", tmp_path_factory)
    reading, decision = read_and_decide(question, layer)
    assert decision.behaviour == "answer", decision.message
    assert reading.periods == ()
    assert _bounds(reading) == bounds
    assert [c.column or layer.dimension(c.dimension).column for c in reading.comparisons] == [
        f"cars_data.{column}"
    ] * len(bounds)


def test_a_bound_and_a_year_are_both_kept(tmp_path_factory: pytest.TempPathFactory) -> None:
    """ "weight under 2000 made in 1971": 2000 the weight's bound, 1971 the year's value."""
    _, layer = _spider("car_1", tmp_path_factory)
    reading, decision = read_and_decide("cars with weight under 2000 made in 1971", layer)
    assert decision.behaviour == "answer", decision.message
    assert sorted(_bounds(reading)) == [("<", "2000"), ("<=", "1971"), (">=", "1971")]
    restated = reading.restate(layer)
    assert "below 2000" in restated and "Year is 1971 (= 1971)" in restated


def test_two_years_are_either_year(tmp_path_factory: pytest.TempPathFactory) -> None:
    _, layer = _spider("car_1", tmp_path_factory)
    reading, decision = read_and_decide("how many cars made in 1972 or 1973", layer)
    assert decision.behaviour == "answer", decision.message
    assert reading.periods == () and reading.comparisons == ()
    assert [(f.values, f.negated) for f in reading.filters] == [(("1972", "1973"), False)]
    assert "1972" in reading.restate(layer) and "1973" in reading.restate(layer)


def test_a_year_negated_is_kept_from(tmp_path_factory: pytest.TempPathFactory) -> None:
    _, layer = _spider("car_1", tmp_path_factory)
    reading, decision = read_and_decide("count of cars not made in 1972", layer)
    assert decision.behaviour == "answer", decision.message
    assert reading.periods == () and reading.comparisons == () and reading.dangling == ()
    assert [(f.values, f.negated) for f in reading.filters] == [(("1972",), True)]


def test_not_older_than_is_at_most(tmp_path_factory: pytest.TempPathFactory) -> None:
    _, layer = _spider("pets_1", tmp_path_factory)
    reading, decision = read_and_decide("how many students not older than 30", layer)
    assert decision.behaviour == "answer", decision.message
    assert _bounds(reading) == [("<=", "30")] and reading.dangling == ()
    reading, decision = read_and_decide("how many students not younger than 20", layer)
    assert decision.behaviour == "answer", decision.message
    assert _bounds(reading) == [(">=", "20")]


@pytest.mark.parametrize(
    "question",
    [
        "how many cars over 2000",  # no column named: the number is not placed
        "how many cars not made in March 1972",  # a month of a layer with no time
        "how many cars made in 1972 or March 1973",
        "how many cars with weight not over 2000 or 3000",
        # a negated bound with no column: never "Year is not 2000" (406 cars, the year dropped)
        "how many cars not over 2000",
        "how many cars not after 1975",  # 'not' placed nowhere: asked back
        "how many cars made in 1972 and 1973",  # each year, or both? not guessed
        "how many cars made before 1972 or after 1980",  # either end: never both applied
    ],
)
def test_what_cannot_be_placed_is_not_answered(
    question: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    _, layer = _spider("car_1", tmp_path_factory)
    reading, decision = read_and_decide(question, layer)
    assert decision.behaviour != "answer", question
    assert not [f for f in reading.filters if "2000" in f.values], question


@pytest.mark.parametrize(
    "question",
    [
        "How many cars last year?",
        "What is the car_names count last year?",
        "How many cars since last year?",
        "What is the total weight of the cars last year?",
    ],
)
def test_a_year_counted_back_from_no_clock_is_no_year(
    question: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """ "last year" on a layer with no clock names no year: the parser's stand-in clock made
    it 1999, answered as cars_data.Year = 1999 (a count of 0, shown)."""
    _, layer = _spider("car_1", tmp_path_factory)
    reading, decision = read_and_decide(question, layer)
    assert (decision.behaviour, decision.code) == ("abstain", "behaviour.no_time"), question
    assert not reading.comparisons and not reading.filters, question


def test_a_bound_no_column_takes_is_asked_back_by_its_words(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Outside tryout 16 was told "The question asks for '2000' ... no period can be applied"
    of a bound's number: the bound's words are named instead."""
    _, layer = _spider("car_1", tmp_path_factory)
    for question, words in (
        ("how many cars not over 2000", "'not over 2000'"),
        ("how many cars over 2000", "'over 2000'"),
    ):
        reading, decision = read_and_decide(question, layer)
        assert decision.behaviour == "clarify", question
        assert words in decision.message and "period" not in decision.message, question
        assert reading.periods == () and reading.filters == () and reading.comparisons == ()


# --- end to end on the drafted Spider databases ------------------------------------------------


@pytest.mark.parametrize(
    ("name", "question", "sql"),
    [
        ("car_1", "how many cars with weight over 2000", "Weight > 2000"),
        ("car_1", "number of cars with weight under 1999", "Weight < 1999"),
        ("car_1", "cars with weight under 2000 made in 1971", "Weight < 2000 AND Year = 1971"),
        ("car_1", "how many cars made in 1972 or 1973", "Year IN (1972, 1973)"),
        ("car_1", "count of cars not made in 1972", "Year <> 1972"),
        ("car_1", "how many cars were made after 1975", "Year > 1975"),
        ("car_1", "how many cars were made before 1975", "Year < 1975"),
        ("pets_1", "how many students not older than 30", "Age <= 30"),
        ("car_1", "how many cars not made in 1972 or 1973", "Year NOT IN (1972, 1973)"),
        ("car_1", "number of cars made in 1970, 1971 or 1972", "Year IN (1970, 1971, 1972)"),
        (
            "car_1",
            "how many cars that are not from 1980 with more than 4 cylinders",
            "Year <> 1980 AND Cylinders > 4",
        ),
        ("car_1", "cars with weight not over 2000", "Weight <= 2000"),
        ("car_1", "how many cars with weight not below 3000", "Weight >= 3000"),
        # "year" said before the years names them; no breakdown (a total, not per year)
        ("car_1", "how many cars were made in year 1972 or 1973", "Year IN (1972, 1973)"),
        ("car_1", "how many cars were made in the year 1974", "Year = 1974"),
    ],
)
def test_the_agent_answers_match_sql(
    name: str, question: str, sql: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    db, path = drafted_spider(name, tmp_path_factory)
    table = "cars_data" if name == "car_1" else "Student"
    expected = _lite(db, f"SELECT count(*) FROM {table} WHERE {sql}")
    assert _rows(db, load_semantic(path), question) == expected


# --- a dated layer: the demo warehouse, the Cube TPC-H import ---------------------------------


def test_a_second_metric_phrase_is_never_dropped() -> None:
    """Outside tryout 18: "how many items have current price over 2000" (TPC-DS) showed the
    items of the year 2000, the price's condition gone; on the demo "number of orders with
    revenue over 2022" showed the 5,532 orders of 2022. A phrase of several metrics beside the
    one read is named and asked back."""
    db, path = demo_warehouse(load_settings())
    layer = load_semantic(path)
    for question in (
        "number of orders with revenue over 2022",
        "how many orders had revenue above 2021",
    ):
        with connect(str(db)) as connector:
            verdict = Agent(connector, layer).ask(question)
        assert verdict.behaviour != "answer", question
        message = str(verdict.provenance.get("message", ""))
        assert "revenue" in message or "above 2021" in message, (question, message)


def test_demo_bound_on_a_metric_per_order_and_its_year() -> None:
    db, path = demo_warehouse(load_settings())
    layer = load_semantic(path)
    question = "number of orders with more than 2000 units sold in 2023"
    reading, decision = read_and_decide(question, layer)
    assert decision.behaviour == "answer", decision.message
    assert reading.condition is not None and reading.condition.value == "2000"
    assert [p.label for p in reading.periods] == ["2023"]
    expected = _duck(
        db,
        "SELECT count(*) FROM (SELECT o.order_id FROM order_lines l JOIN orders o "
        "ON l.order_id = o.order_id WHERE o.status <> 'cancelled' AND o.order_date >= "
        "DATE '2023-01-01' AND o.order_date < DATE '2024-01-01' GROUP BY 1 "
        "HAVING sum(l.quantity) > 2000)",
    )
    assert _rows(db, layer, question) == expected
    # a year after "over" with nothing numeric before it stays the period it reads as
    for question in ("orders over 2023", "number of customers with orders over 2023"):
        reading, _ = read_and_decide(question, layer)
        assert [p.label for p in reading.periods] == ["2023"], question
        assert reading.condition is None and reading.comparisons == (), question


@pytest.fixture(scope="module")
def cube(tpch_duckdb: Path, tmp_path_factory: pytest.TempPathFactory) -> SemanticLayer:
    out = tmp_path_factory.mktemp("cube") / "cube.yaml"
    args = ["semantic", "import", "--from", "cube", "--source", str(CUBE), "--db"]
    run = CliRunner().invoke(main, [*args, str(tpch_duckdb), "--out", str(out)])
    assert run.exit_code == 0, run.output
    return load_semantic(out)


@pytest.mark.slow
@pytest.mark.skipif(not SEMANTIC_MODELS.exists(), reason="the shared semantic models are absent")
def test_cube_year_like_bounds_beside_a_year(tpch_duckdb: Path, cube: SemanticLayer) -> None:
    orders = _duck(
        tpch_duckdb,
        "SELECT count(*) FROM orders WHERE o_totalprice > 2000 AND o_orderdate >= "
        "DATE '1996-01-01' AND o_orderdate < DATE '1997-01-01'",
    )
    assert orders == [(2289,)]
    assert _rows(tpch_duckdb, cube, "orders count with total price over 2000 in 1996") == orders
    items = _duck(
        tpch_duckdb,
        "SELECT count(*) FROM lineitem WHERE l_quantity > 1995 AND l_shipdate >= "
        "DATE '1996-01-01' AND l_shipdate < DATE '1997-01-01'",
    )
    question = "line items count with quantity above 1995 in 1996"
    with connect(str(tpch_duckdb)) as connector:
        layer = with_derived_names(with_numeric_columns(cube, connector.catalog()))
    reading, _ = read_and_decide(question, layer)
    assert _bounds(reading) == [(">", "1995")] and [p.label for p in reading.periods] == ["1996"]
    assert _rows(tpch_duckdb, cube, question) == items


# --- the MetricFlow tutorial: negated flags ---------------------------------------------------


@pytest.fixture(scope="module")
def tutorial(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, SemanticLayer]:
    folder = tmp_path_factory.mktemp("mf")
    db = folder / "mf.duckdb"
    with duckdb.connect(str(db)) as con:
        for name in ("transactions", "customers", "countries"):
            seed = MF_TUTORIAL / "seeds" / f"{name}_seed.csv"
            con.execute(f"CREATE TABLE {name} AS SELECT * FROM read_csv_auto('{seed}')")
    out = folder / "layer.yaml"
    args = ["semantic", "import", "--from", "metricflow", "--source"]
    run = CliRunner().invoke(
        main, [*args, str(MF_TUTORIAL / "sample_models"), "--db", str(db), "--out", str(out)]
    )
    assert run.exit_code == 0, run.output
    return db, load_semantic(out)


@pytest.mark.skipif(not MF_TUTORIAL.exists(), reason="the shared semantic models are absent")
@pytest.mark.parametrize(
    ("question", "where"),
    [
        ("non large transactions", "transaction_amount_usd < 30"),
        ("non-large transactions", "transaction_amount_usd < 30"),
        ("transactions that are not large", "transaction_amount_usd < 30"),
        ("large transactions", "transaction_amount_usd >= 30"),
        ("transactions that are not quick buy", "transaction_type_name <> 'quick-buy'"),
        ("number of transactions that are not quick buy", "transaction_type_name <> 'quick-buy'"),
    ],
)
def test_tutorial_negated_flags_match_sql(
    question: str, where: str, tutorial: tuple[Path, SemanticLayer]
) -> None:
    db, layer = tutorial
    expected = _duck(db, f"SELECT count(*) FROM transactions WHERE {where}")
    assert expected in ([(1,)], [(49,)], [(40,)])
    got = _rows(db, layer, question)
    assert [tuple(float(v) for v in r) for r in got] == [tuple(float(v) for v in expected[0])]


@pytest.mark.skipif(not MF_TUTORIAL.exists(), reason="the shared semantic models are absent")
@pytest.mark.parametrize(
    "question",
    [
        "transactions that are not huge",  # nothing defines 'huge'
        # 'quick' is filler in "a quick count", but here a word of the layer's own 'quick buy'
        # left over: 50 transactions were shown for it (bounds13's report)
        "transactions that are quick",
        "number of transactions that are quick",
        "transactions that are not large or quick buy",  # which one 'not' applies to: unsure
    ],
)
def test_tutorial_negation_never_dropped(
    question: str, tutorial: tuple[Path, SemanticLayer]
) -> None:
    db, layer = tutorial
    _not_shown(db, layer, question)
