"""Readings found wrong or confusing by the outside tryout 10 (so every question here is tuned on,
not held out):

1. a bound said right after a grouping ("for each ship mode between 10 and 20") is the metric's
   per group, never the grouped dimension's (a text column): the grouping is kept and the bound
   asked back, naming what it would bound; a bound on a dimension whose values are words is
   never read;
2. an aggregate word right after another word is part of a name ("ship mode"), never the
   statistical mode;
3. "customers with more than 3 orders" (the customers listed, which no column names) is asked
   back offering the count, never "I don't know what 'more' means";
4. "the highest country by net revenue" ranks the countries; "the second highest" is asked back
   offering the top 2; "youngest"/"oldest" is the minimum/maximum of the one age column;
5. a word left when an imported layer's shared name prefix and a total/amount are taken off a
   metric's label names it ("revenue" for Cortex's daily revenue, "sales" for Cube's line items
   total sales amount); "clients" are customers.

Answers are compared with SQL written here on the real data.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from assay.cli import main
from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import SemanticLayer, closest_metrics, load_semantic, with_derived_names

from ._helpers import drafted_spider, read_and_decide

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "semantic-models"
OSI = SHARED / "osi" / "examples" / "tpcds_semantic_model.yaml"
CUBE = SHARED / "cube-workshop-tpch" / "static" / "cube-models" / "1-starter" / "model" / "cubes"
CORTEX = SHARED / "sfguide-cortex-analyst"


def _import(kind: str, source: Path, db: Path, out: Path) -> SemanticLayer:
    args = ["semantic", "import", "--from", kind, "--source", str(source), "--db", str(db)]
    run = CliRunner().invoke(main, [*args, "--out", str(out)])
    assert run.exit_code == 0, run.output
    return with_derived_names(load_semantic(out))


@pytest.fixture(scope="module")
def cube(tpch_duckdb: Path, tmp_path_factory: pytest.TempPathFactory) -> SemanticLayer:
    return _import("cube", CUBE, tpch_duckdb, tmp_path_factory.mktemp("cube") / "cube.yaml")


@pytest.fixture(scope="module")
def osi(tpcds_duckdb: Path, tmp_path_factory: pytest.TempPathFactory) -> SemanticLayer:
    return _import("osi", OSI, tpcds_duckdb, tmp_path_factory.mktemp("osi") / "osi.yaml")


@pytest.fixture(scope="module")
def cortex(tmp_path_factory: pytest.TempPathFactory) -> SemanticLayer:
    from tests.semantic.test_import_examples import _cortex_quickstart

    folder = tmp_path_factory.mktemp("cortex")
    _cortex_quickstart(folder / "cx.duckdb")
    source = CORTEX / "revenue_timeseries.yaml"
    return _import("cortex", source, folder / "cx.duckdb", folder / "cortex.yaml")


@pytest.fixture(scope="module")
def shop(wrb: Path) -> SemanticLayer:
    return with_derived_names(load_semantic(wrb / "shop.yaml"))


# --- 1. a bound after a grouping ------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "line items total quantity for each ship mode between 10 and 20",
        "line items total quantity per ship mode between 10 and 20",
        "line items total quantity by ship mode above 10",
    ],
    ids=["for-each", "per", "by-above"],
)
@pytest.mark.slow
@pytest.mark.skipif(not SHARED.exists(), reason="the shared semantic models are absent")
def test_a_bound_after_a_grouping_is_asked_back_keeping_the_grouping(
    question: str, cube: SemanticLayer
) -> None:
    reading, decision = read_and_decide(question, cube)
    assert reading.groups == ("line_items_ship_mode",)  # the grouping is never dropped
    assert reading.comparisons == ()  # never a bound on the text column
    assert decision.behaviour == "clarify"
    assert "line items total quantity per line_items_ship_mode" in decision.message
    bound = question.split("ship mode ")[1]
    assert f"'{bound}'" in decision.message
    assert "don't know what '10'" not in decision.message


@pytest.mark.slow
@pytest.mark.skipif(not SHARED.exists(), reason="the shared semantic models are absent")
def test_a_bound_on_a_dimension_whose_values_are_words_is_not_read(cube: SemanticLayer) -> None:
    reading, decision = read_and_decide(
        "line items total quantity where ship mode is between 10 and 20", cube
    )
    assert reading.comparisons == ()
    assert decision.behaviour == "clarify"


@pytest.mark.slow
@pytest.mark.skipif(not SHARED.exists(), reason="the shared semantic models are absent")
def test_the_tryout_question_is_never_run_against_the_text_column(
    tpch_duckdb: Path, cube: SemanticLayer
) -> None:
    """The whole path: asked back with the reason, never the engine's error alone."""
    with connect(str(tpch_duckdb)) as connector:
        verdict = Agent(connector, cube).ask(
            "line items total quantity for each ship mode between 10 and 20"
        )
    assert verdict.behaviour == "clarify"
    assert "Binder" not in str(verdict.provenance.get("message"))


# --- 2. an aggregate word after another word is part of a name -----------------------------


@pytest.mark.slow
@pytest.mark.skipif(not SHARED.exists(), reason="the shared semantic models are absent")
def test_ship_mode_on_osi_is_a_missing_dimension_not_the_statistical_mode(
    osi: SemanticLayer,
) -> None:
    reading, decision = read_and_decide("total sales by ship mode", osi)
    assert reading.aggregates == ()
    assert decision.code == "behaviour.dimension_missing"
    assert "'ship mode'" in decision.message


def test_an_aggregate_word_after_a_word_is_part_of_its_name(shop: SemanticLayer) -> None:
    reading, decision = read_and_decide("net revenue by price mode in 2023", shop)
    assert reading.aggregates == ()
    assert decision.code == "behaviour.dimension_missing"
    assert "'price mode'" in decision.message
    # the statistical words themselves are still read as aggregates the layer lacks
    reading, decision = read_and_decide("median net revenue in 2023", shop)
    assert decision.code == "behaviour.aggregate_undefined"
    reading, decision = read_and_decide("the mode of net revenue by country", shop)
    assert decision.code == "behaviour.aggregate_undefined"


# --- 3. the entities listed by a condition ---------------------------------------------------


def test_customers_with_more_than_3_orders_offers_the_count(shop: SemanticLayer) -> None:
    _, decision = read_and_decide("customers with more than 3 orders in 2023", shop)
    assert decision.behaviour == "clarify"
    assert "number of customers with more than 3 orders in 2023" in decision.message
    assert "'more'" not in decision.message
    counted, decision = read_and_decide("number of customers with more than 3 orders in 2023", shop)
    assert decision.behaviour == "answer"
    assert counted.condition is not None and counted.condition.counted


# --- 4. ranked groupings, ordinals, youngest and oldest -------------------------------------


def test_the_highest_country_by_a_metric_ranks_the_countries(shop: SemanticLayer) -> None:
    reading, decision = read_and_decide("the highest country by net revenue in 2023", shop)
    assert decision.behaviour == "answer"
    assert reading.groups == ("country",)
    assert reading.ranking is not None and reading.ranking.n == 1 and reading.ranking.descending


def test_the_second_highest_is_asked_back_offering_the_top_two(shop: SemanticLayer) -> None:
    reading, decision = read_and_decide("the second highest country by net revenue in 2023", shop)
    assert decision.behaviour == "clarify"
    assert reading.groups == ("country",)  # 'country' is read, never called unknown
    assert "'country'" not in decision.message
    assert "'second highest'" in decision.message
    assert "top 2" in decision.message
    _, decision = read_and_decide("third lowest channel by number of orders", shop)
    assert decision.behaviour == "clarify"
    assert "bottom 3" in decision.message


def _concert(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, SemanticLayer]:
    db, path = drafted_spider("concert_singer", tmp_path_factory)
    return db, load_semantic(path)


def test_youngest_and_oldest_are_the_minimum_and_maximum_age(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    db, layer = _concert(tmp_path_factory)
    with sqlite3.connect(db) as con:
        youngest = sorted(
            con.execute("SELECT Country, min(Age) FROM singer GROUP BY Country").fetchall()
        )
        oldest = con.execute(
            "SELECT Country, max(Age) FROM singer GROUP BY Country ORDER BY 2 DESC LIMIT 2"
        ).fetchall()
    assert oldest[0][1] > oldest[1][1]  # no tie for the oldest
    with connect(str(db)) as connector:
        agent = Agent(connector, layer)
        verdict = agent.ask("the youngest singer's age for each country")
        assert verdict.candidate is not None and verdict.candidate.result is not None
        assert verdict.action != "withhold", verdict.provenance.get("message")
        assert sorted(tuple(r) for r in verdict.candidate.result.rows) == youngest
        verdict = agent.ask("which country has the oldest singer")
        assert verdict.candidate is not None and verdict.candidate.result is not None
        assert verdict.action != "withhold", verdict.provenance.get("message")
        assert [tuple(r) for r in verdict.candidate.result.rows] == [oldest[0]]


def test_youngest_is_asked_back_where_two_age_columns_could_be_meant(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """pets_1 has the students' Age and the pets' pet_age: "the youngest" of nothing named
    is asked back or abstained on, never answered from one of them."""
    _, path = drafted_spider("pets_1", tmp_path_factory)
    layer = with_derived_names(load_semantic(path))
    _, decision = read_and_decide("the youngest age", layer)
    assert decision.behaviour != "answer"


def test_an_extreme_of_age_never_becomes_another_measure_s(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """ "The weight and type of the youngest pet" asks for a row's attributes; it was read as
    the minimum weight per type (held-out Spider dev-67's kind, found at the session's end)
    and shown confirm-first. The word is left unread: asked back, never answered so."""
    _, path = drafted_spider("pets_1", tmp_path_factory)
    layer = with_derived_names(load_semantic(path))
    for question in (
        "Show the weight and type of the youngest pet.",
        "list the weight of the oldest pet and its type",
    ):
        reading, decision = read_and_decide(question, layer)
        assert decision.behaviour != "answer", (question, reading)
    # the age's own extreme is still read ("which pet type has the youngest pet")
    reading, decision = read_and_decide("which pet type has the youngest pet", layer)
    assert decision.behaviour == "answer" and reading.metrics == ("Pets_pet_age_minimum",), reading


# --- 5. synonyms on imported layers -----------------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(not SHARED.exists(), reason="the shared semantic models are absent")
def test_cortex_revenue_and_cogs_name_the_daily_metrics(cortex: SemanticLayer) -> None:
    reading, decision = read_and_decide("revenue for Toys and Books each month in 2024", cortex)
    assert decision.behaviour == "answer" and reading.metrics == ("daily_revenue",)
    reading, decision = read_and_decide("which product line had the lowest cogs in Q4 2023", cortex)
    assert decision.behaviour == "answer" and reading.metrics == ("daily_cogs",)
    assert reading.groups == ("product_line",)


@pytest.mark.slow
@pytest.mark.skipif(not SHARED.exists(), reason="the shared semantic models are absent")
def test_cube_sales_and_clients(cube: SemanticLayer) -> None:
    reading, decision = read_and_decide("sales by ship mode in 1998", cube)
    assert decision.behaviour == "answer"
    assert reading.metrics == ("line_items_total_sales_amount",)
    assert reading.groups == ("line_items_ship_mode",)
    reading, decision = read_and_decide("number of clients by customer segment", cube)
    assert decision.behaviour == "answer"
    assert reading.metrics == ("customers_count",)
    assert reading.groups == ("customers_segment",)
    # 'quantity' and 'discount' name columns too: never read as the metric alone
    reading, _ = read_and_decide("quantity by ship mode", cube)
    assert reading.metrics != ("line_items_total_quantity",)
    # the closest metrics offered include the obvious one
    assert "line items total sales amount" in closest_metrics("revenue", cube)
    assert "customers count" in closest_metrics("number of clients", cube)


def test_an_engine_error_on_a_bound_names_the_bound(tmp_path: Path) -> None:
    """A bound read on a column the layer lists no values for, that the engine types as text:
    withheld, and the message says which bound failed, not the engine's words alone."""
    import duckdb

    from assay.semantic import Dimension, Metric

    db = tmp_path / "t.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute("CREATE TABLE t AS SELECT i::VARCHAR AS code FROM range(5) r(i)")
    layer = SemanticLayer(
        name="t",
        metrics=(Metric("rows", "row count", ("number of rows",), "t", "count(*)"),),
        dimensions=(Dimension("code", "t.code", ()),),
        tables=("t",),
    )
    with connect(str(db)) as connector:
        verdict = Agent(connector, layer).ask("row count where code is above 3")
    assert verdict.action == "withhold"
    message = str(verdict.provenance.get("message"))
    assert "could not apply the bound" in message and "code is above 3" in message, message
