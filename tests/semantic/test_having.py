"""Numeric conditions on a measure: (a) a bound on a per-row numeric column of the counted
rows ("number of stadiums with capacity more than 5000": COUNT of stadium rows WHERE Capacity
> 5000) and (b) a bound on a metric per group ("number of customers with more than 3 orders":
the customers whose order count is above 3; "countries with more than 1000 orders": the
countries, HAVING). Each is restated in "I read this as", planned, fit-checked, and answered
with the rows of hand-written SQL on the real data; a near miss (a bound the planner cannot
place exactly, "3 or more", a unit, a ranking on top) is asked back, never shown."""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import duckdb
import pytest

from assay.checks import fit_check
from assay.cli._ask import demo_warehouse
from assay.connectors import connect
from assay.generators._planner import plan
from assay.pipeline import Agent
from assay.semantic import Dimension, JoinPath, Metric, SemanticLayer, load_semantic, read
from assay.settings import load_settings
from tests.semantic._helpers import drafted_spider

SLICE = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "spider-slice"
CONCERT = SLICE / "database" / "concert_singer" / "concert_singer.sqlite"
CARS = SLICE / "database" / "car_1" / "car_1.sqlite"
PETS = SLICE / "database" / "pets_1" / "pets_1.sqlite"


@pytest.fixture(scope="module")
def demo() -> tuple[Path, SemanticLayer]:
    db, yaml_path = demo_warehouse(load_settings())
    return db, load_semantic(yaml_path)


@pytest.fixture(scope="module")
def concert(tmp_path_factory: pytest.TempPathFactory) -> SemanticLayer:
    return load_semantic(drafted_spider("concert_singer", tmp_path_factory)[1])


@pytest.fixture(scope="module")
def cars(tmp_path_factory: pytest.TempPathFactory) -> SemanticLayer:
    return load_semantic(drafted_spider("car_1", tmp_path_factory)[1])


def _norm(rows: Any) -> Counter[tuple[Any, ...]]:
    return Counter(
        tuple(round(float(v), 4) if isinstance(v, (int, float)) else v for v in r) for r in rows
    )


def _duck(db: Path, sql: str) -> list[Any]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(sql).fetchall()


def _lite(db: Path, sql: str) -> list[Any]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        return con.execute(sql).fetchall()


def _answered(db: Path, layer: SemanticLayer, question: str) -> Any:
    with connect(str(db)) as connector:
        verdict = Agent(connector, layer).ask(question)
    assert verdict.behaviour == "answer" and verdict.action != "withhold", (
        question,
        verdict.reasons,
        verdict.provenance.get("message"),
    )
    assert verdict.candidate is not None and verdict.candidate.result is not None
    return verdict


def _not_answered(db: Path, layer: SemanticLayer, question: str) -> Any:
    with connect(str(db)) as connector:
        verdict = Agent(connector, layer).ask(question)
    shown = verdict.behaviour == "answer" and verdict.action != "withhold"
    assert not shown, (question, verdict.provenance.get("reading"))
    return verdict


# --- (b) a condition on a metric per group, on the demo warehouse --------------------------

_CUSTOMERS = (
    "SELECT count(*) FROM customers c WHERE (SELECT count(DISTINCT o.order_id) FROM orders o "
    "WHERE o.customer_id = c.customer_id AND o.status <> 'cancelled'{period}) > 3"
)
_COUNTRIES = (
    "SELECT c.country, count(DISTINCT o.order_id) FROM orders o JOIN customers c "
    "ON o.customer_id = c.customer_id WHERE o.status <> 'cancelled'{period} "
    "GROUP BY 1 HAVING count(DISTINCT o.order_id) > 1000"
)
_Y2023 = " AND o.order_date >= DATE '2023-01-01' AND o.order_date < DATE '2024-01-01'"


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        ("number of customers with more than 3 orders", _CUSTOMERS.format(period="")),
        ("how many customers have more than 3 orders", _CUSTOMERS.format(period="")),
        (
            "number of customers with more than 3 orders in 2023",
            _CUSTOMERS.format(period=_Y2023),
        ),
        ("countries with more than 1000 orders in 2023", _COUNTRIES.format(period=_Y2023)),
        ("which countries have more than 1000 orders", _COUNTRIES.format(period="")),
        (
            "number of countries with more than 1000 orders in 2023",
            f"SELECT count(*) FROM ({_COUNTRIES.format(period=_Y2023)})",
        ),
        (
            "number of customers with at least 10 orders",
            _CUSTOMERS.format(period="").replace("> 3", ">= 10"),
        ),
        (
            "how many customers placed more than 5 orders in 2024",
            _CUSTOMERS.format(
                period=_Y2023.replace("2024", "2025").replace("2023", "2024")
            ).replace("> 3", "> 5"),
        ),
        (
            "number of customers whose number of orders is over 3",
            _CUSTOMERS.format(period=""),
        ),
        (
            "number of orders with more than 3 units sold",
            "SELECT count(*) FROM (SELECT l.order_id FROM order_lines l JOIN orders o "
            "ON l.order_id = o.order_id WHERE o.status <> 'cancelled' GROUP BY l.order_id "
            "HAVING sum(l.quantity) > 3)",
        ),
        (
            "which categories have net revenue of more than 250000 in 2023",
            "SELECT p.category, sum(l.quantity * l.unit_price - l.discount) FROM order_lines l "
            "JOIN orders o ON l.order_id = o.order_id JOIN products p "
            "ON l.product_id = p.product_id WHERE o.status <> 'cancelled'"
            + _Y2023
            + " GROUP BY 1 HAVING sum(l.quantity * l.unit_price - l.discount) > 250000",
        ),
        (
            "channels with gross revenue above 100000 in 2023",
            "SELECT o.channel_code, sum(l.quantity * l.unit_price) FROM order_lines l "
            "JOIN orders o ON l.order_id = o.order_id WHERE o.status <> 'cancelled'"
            + _Y2023
            + " GROUP BY 1 HAVING sum(l.quantity * l.unit_price) > 100000",
        ),
        (
            # a year-like number after "more than", said of a metric: its bound, never the
            # year 2000 (outside tryout 16)
            "countries with more than 2000 orders",
            _COUNTRIES.format(period="").replace("> 1000", "> 2000"),
        ),
        (
            "number of channels with more than 5000 orders",
            "SELECT count(*) FROM (SELECT o.channel_code FROM orders o WHERE "
            "o.status <> 'cancelled' GROUP BY 1 HAVING count(DISTINCT o.order_id) > 5000)",
        ),
        (
            # a distinct count through order lines: the orders holding each product
            "number of products with more than 250 orders",
            "SELECT count(*) FROM (SELECT l.product_id FROM order_lines l JOIN orders o "
            "ON l.order_id = o.order_id WHERE o.status <> 'cancelled' GROUP BY 1 "
            "HAVING count(DISTINCT o.order_id) > 250)",
        ),
    ],
    ids=[
        "customers",
        "how-many-have",
        "customers-2023",
        "countries-2023",
        "which",
        "n-countries",
        "at-least",
        "placed-2024",
        "whose-metric-first",
        "orders-by-units",
        "categories-metric-first",
        "channels-metric-first",
        "countries-2000",
        "n-channels",
        "products-distinct",
    ],
)
def test_demo_condition_per_group_answers_with_the_hand_written_rows(
    demo: tuple[Path, SemanticLayer], question: str, sql: str
) -> None:
    db, layer = demo
    verdict = _answered(db, layer, question)
    expected = _duck(db, sql)
    assert expected and expected != [(0,)]  # the hand-written SQL finds something
    assert _norm(verdict.candidate.result.rows) == _norm(expected), question
    assert "veto.reading_mismatch" not in verdict.reasons


def test_demo_numbers_checked_by_hand(demo: tuple[Path, SemanticLayer]) -> None:
    """The numbers the outside testers named, from our own SQL (2,491 customers; DE, FR, GB,
    US in 2023)."""
    db, layer = demo
    verdict = _answered(db, layer, "number of customers with more than 3 orders")
    assert [float(r[0]) for r in verdict.candidate.result.rows] == [2491.0]
    verdict = _answered(db, layer, "countries with more than 1000 orders in 2023")
    assert sorted(r[0] for r in verdict.candidate.result.rows) == ["DE", "FR", "GB", "US"]


def test_condition_per_group_restated(demo: tuple[Path, SemanticLayer]) -> None:
    _, layer = demo
    said = read("number of customers with more than 3 orders in 2023", layer).restate(layer)
    assert said.startswith("the number of customers whose number of orders is above 3")
    assert "in 2023" in said
    said = read("countries with more than 1000 orders in 2023", layer).restate(layer)
    assert "by country" in said
    assert "keeping only the country values whose number of orders is above 1000" in said


def test_condition_per_group_fit_checked(demo: tuple[Path, SemanticLayer]) -> None:
    _, layer = demo
    reading = read("number of customers with more than 3 orders", layer)
    sql = plan(reading, layer).sql
    assert "HAVING" in sql
    assert fit_check(sql, reading, layer).mismatches == ()
    for old, new in [("> 3", ">= 3"), ("> 3", "> 4"), ("> 3", "< 3")]:
        assert old in sql
        report = fit_check(sql.replace(old, new), reading, layer)
        assert report.mismatches and "condition per" in report.mismatches[0], new
    # the groups listed instead of counted, or counted without the condition
    inner = sql[sql.index("(") + 1 : sql.rindex(")")]
    assert fit_check(inner, reading, layer).mismatches
    plain = read("number of orders", layer)
    assert fit_check(sql, plain, layer).mismatches
    listed = read("countries with more than 1000 orders", layer)
    listed_sql = plan(listed, layer).sql
    assert fit_check(listed_sql, listed, layer).mismatches == ()
    no_having = listed_sql[: listed_sql.index(" HAVING")]
    assert fit_check(no_having, listed, layer).mismatches


@pytest.mark.parametrize(
    "question",
    [
        "number of customers with 3 or more orders",  # "at least" or "more than": unclear
        "number of customers with more than $1000 orders",  # a unit the count has not
        "countries with more than 50% of orders",  # a share, not a count
        "top 3 countries with more than 1000 orders",  # a ranking on top: not placed
        "customers with more than 3 orders",  # the customers listed: no column names them
        "number of customers with more than 3 gizmos",  # no measure called so
        "number of customers with more than 3 orders or more than 2 units sold",
        # a customer with no order has fewer than 3: in no grouped query, so not placed
        "number of customers with fewer than 3 orders",
        "countries with at most 5000 orders",
        "number of customers with at least 0 orders",
        # products reach orders only through order lines: an average would fan out
        "number of products with more than 3 average delivery days",
    ],
)
def test_demo_near_misses_are_asked_back(demo: tuple[Path, SemanticLayer], question: str) -> None:
    db, layer = demo
    verdict = _not_answered(db, layer, question)
    assert verdict.behaviour in {"clarify", "abstain"}


def test_an_unplaced_bound_is_named(demo: tuple[Path, SemanticLayer]) -> None:
    db, layer = demo
    verdict = _not_answered(db, layer, "number of customers with fewer than 3 orders")
    assert verdict.behaviour == "clarify"
    assert "'fewer than 3'" in verdict.provenance["message"]
    assert "a group with no rows fails it" in verdict.provenance["message"]


# --- (a) a condition on a per-row column, on drafted Spider layers ---------------------------


def test_concert_stadiums_with_capacity_more_than(concert: SemanticLayer) -> None:
    layer = concert
    question = "number of stadiums with capacity more than 5000"
    reading = read(question, layer)
    assert reading.unread == ()
    assert "where stadium Capacity is above 5000" in reading.restate(layer)
    verdict = _answered(CONCERT, layer, question)
    expected = _lite(CONCERT, "SELECT count(*) FROM stadium WHERE Capacity > 5000")
    assert expected == [(3,)]
    assert _norm(verdict.candidate.result.rows) == _norm(expected)
    sql = verdict.candidate.final_sql
    assert sql is not None
    with connect(str(CONCERT)) as connector:
        catalog = Agent(connector, layer).catalog
    assert fit_check(sql, reading, layer, "sqlite", catalog).mismatches == ()
    wrong = sql.replace("> 5000", ">= 5000")
    assert fit_check(wrong, reading, layer, "sqlite", catalog).mismatches


@pytest.mark.parametrize(
    "question",
    [
        "number of stadiums with total capacity more than 5000",  # a total, not a row
        "number of singers with capacity more than 5000",  # not a column of singers
        "number of stadiums with capacity more than 5000 or less than 100",
        "number of stadiums with capacity of 5000 or more",
    ],
)
def test_concert_near_misses_are_asked_back(concert: SemanticLayer, question: str) -> None:
    _not_answered(CONCERT, concert, question)


def test_pets_with_weight_more_than(tmp_path_factory: pytest.TempPathFactory) -> None:
    layer = load_semantic(drafted_spider("pets_1", tmp_path_factory)[1])
    for question in (
        "number of pets with weight more than 10",
        "how many pets have a weight above 10",
    ):
        verdict = _answered(PETS, layer, question)
        expected = _lite(PETS, "SELECT count(*) FROM Pets WHERE weight > 10")
        assert expected == [(2,)]
        assert _norm(verdict.candidate.result.rows) == _norm(expected)
    # Student.Age is a quantity by its name (the drafter measures it) and an INTEGER column
    # (the agent reads it from the catalog): a bound on it counts the students above it
    verdict = _answered(PETS, layer, "number of students with age over 20")
    expected = _lite(PETS, "SELECT count(*) FROM Student WHERE Age > 20")
    assert expected == [(7,)]
    assert _norm(verdict.candidate.result.rows) == _norm(expected)
    # a column no table has is asked back, naming it
    verdict = _not_answered(PETS, layer, "number of students with height over 20")
    assert "'height'" in verdict.provenance["message"]


def test_car_conditions(cars: SemanticLayer) -> None:
    layer = cars
    cases = [
        (
            "continents with more than 2 countries",
            "SELECT co.Continent, count(*) FROM countries c JOIN continents co "
            "ON c.Continent = co.ContId GROUP BY 1 HAVING count(*) > 2",
        ),
        (
            "number of cars data with Weight more than 4000",
            "SELECT count(*) FROM cars_data WHERE Weight > 4000",
        ),
    ]
    for question, sql in cases:
        verdict = _answered(CARS, layer, question)
        expected = _lite(CARS, sql)
        assert expected
        assert _norm(verdict.candidate.result.rows) == _norm(expected), question
    verdict = _answered(CARS, layer, "number of countries with more than 2 car makers")
    expected = _lite(
        CARS,
        "SELECT count(*) FROM (SELECT c.CountryId FROM car_makers m JOIN countries c "
        "ON m.Country = c.CountryId GROUP BY 1 HAVING count(*) > 2)",
    )
    assert expected == [(4,)]
    assert _norm(verdict.candidate.result.rows) == _norm(expected)
    # model_list -> car_makers is forbidden (a model with no maker): never grouped through
    _not_answered(CARS, layer, "car makers with more than 3 model list")


# --- the reading and the fit check on a small layer ----------------------------------------

SMALL = SemanticLayer(
    name="s",
    metrics=(
        Metric("orders", "number of orders", ("number of orders",), "o", "COUNT(*)"),
        Metric("amount", "amount", (), "o", "SUM(o.amount)"),
    ),
    dimensions=(Dimension("region", "c.region", ("region", "regions")),),
    joins=(JoinPath("o.customer_id", "customers.id"), JoinPath("o.store_id", "c.id")),
    tables=("o", "customers", "c", "shops"),
)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("number of customers with more than 3 orders", ("customers", "customers.id", ">", "3")),
        ("number of customers who placed over 3 orders", ("customers", "customers.id", ">", "3")),
        ("regions with more than 10 orders", ("region", "c.region", ">", "10")),
        ("number of regions with at least 2 orders", ("region", "c.region", ">=", "2")),
        ("regions whose amount is above 5.5", ("region", "c.region", ">", "5.5")),
    ],
)
def test_condition_read(question: str, expected: tuple[str, str, str, str]) -> None:
    reading = read(question, SMALL)
    held = reading.condition
    assert held is not None and reading.unread == ()
    assert (held.group, held.key, held.op, held.value) == expected


@pytest.mark.parametrize(
    "question",
    [
        "number of shops with more than 3 orders",  # no join reaches shops
        "number of customers with more than 3 orders and more than 2 amount",  # two conditions
        "number of customers with more than 3 orders by region",  # a grouping on top
        "number of customers with more than 3 widgets",
        "number of customers with more than three-ish orders",
    ],
)
def test_condition_not_placed_is_asked_back(question: str) -> None:
    reading = read(question, SMALL)
    assert reading.condition is None
    assert reading.unread or reading.dangling or not reading.metrics


def test_fit_check_of_a_count_over_an_outer_join_or_another_column() -> None:
    reading = read("number of regions with more than 10 orders", SMALL)
    sql = plan(reading, SMALL).sql
    assert fit_check(sql, reading, SMALL).mismatches == ()
    assert " LEFT JOIN" not in sql
    outer = sql.replace(" JOIN c ", " LEFT JOIN c ")
    assert any("outer join" in m for m in fit_check(outer, reading, SMALL).mismatches)
    other = sql.replace("COUNT(per_group.region)", "COUNT(per_group.value)")
    assert other != sql
    assert any("another column" in m for m in fit_check(other, reading, SMALL).mismatches)
    swapped = sql.replace("HAVING COUNT(*) > 10", "HAVING 10 < COUNT(*)")
    assert swapped != sql and fit_check(swapped, reading, SMALL).mismatches == ()
    # the condition on another metric is no match
    amount = sql.replace("HAVING COUNT(*) > 10", "HAVING SUM(o.amount) > 10")
    assert fit_check(amount, reading, SMALL).mismatches


_FUNCTION = frozenset({"of", "with", "in", "than", "is", "the", "a", "have", "whose"})


@pytest.mark.parametrize(
    "question",
    [
        "number of customers with more than 3 orders",
        "countries with more than 1000 orders in 2023",
        "how many customers placed more than 5 orders in 2024",
        "channels with gross revenue above 100000 in 2023",
        "number of orders with more than 3 units sold",
    ],
)
def test_an_unknown_word_in_place_of_any_content_word_is_never_shown(
    demo: tuple[Path, SemanticLayer], question: str
) -> None:
    """Issue 9's property, on the new shapes: each content word replaced by a word the layer
    does not know is asked back or abstained on, naming it."""
    db, layer = demo
    words = question.split()
    with connect(str(db)) as connector:
        agent = Agent(connector, layer)
        for k, word in enumerate(words):
            if word in _FUNCTION:
                continue
            changed = " ".join([*words[:k], "zorblax", *words[k + 1 :]])
            verdict = agent.ask(changed)
            assert not (verdict.behaviour == "answer" and verdict.action != "withhold"), changed
            assert "zorblax" in (verdict.provenance.get("message") or ""), changed
