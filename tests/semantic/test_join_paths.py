"""A dimension the metric's rows reach by two join paths is not chosen silently (task fix39g).

"line items by nation name" on a drafted TPC-H layer was shown at 1.00 grouped by the
supplier's nation (the planner's shortest path), though a line item reaches a nation through its
order's customer as well. New small layers: flights with an origin and a destination airport
(two joins between the same tables), and parcels sent and received by customers of a region.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import duckdb
import pytest

from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import (
    Comparison,
    SemanticLayer,
    join_paths,
    load_semantic,
    parse_semantic,
    read,
)
from assay.types import Verdict


def _flights_layer() -> SemanticLayer:
    return parse_semantic(
        {
            "name": "f",
            "metrics": [
                {
                    "name": "flight_count",
                    "table": "flight",
                    "expression": "count(*)",
                    "synonyms": ["flights"],
                },
                {
                    "name": "airport_count",
                    "table": "airport",
                    "expression": "count(*)",
                    "synonyms": ["airports"],
                },
                {
                    "name": "gate_count",
                    "table": "gate",
                    "expression": "count(*)",
                    "synonyms": ["gates"],
                },
            ],
            "dimensions": [
                {
                    "name": "airport_city",
                    "column": "airport.city",
                    "synonyms": ["city"],
                    "values": ["Oslo", "Rome"],
                },
                {"name": "flight_carrier", "column": "flight.carrier", "synonyms": ["carrier"]},
            ],
            "joins": [
                {"left": "flight.origin", "right": "airport.code"},
                {"left": "flight.dest", "right": "airport.code"},
                {"left": "gate.airport", "right": "airport.code"},
            ],
        }
    )


def _flights_db(path: Path) -> Path:
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE airport (code TEXT, city TEXT)")
    con.execute("INSERT INTO airport VALUES ('OSL', 'Oslo'), ('FCO', 'Rome')")
    con.execute("CREATE TABLE flight (origin TEXT, dest TEXT, carrier TEXT)")
    con.execute("INSERT INTO flight VALUES ('OSL', 'FCO', 'A'), ('OSL', 'FCO', 'B')")
    con.execute("CREATE TABLE gate (airport TEXT)")
    con.execute("INSERT INTO gate VALUES ('OSL'), ('OSL'), ('FCO')")
    con.close()
    return path


def _ask(db: Path, layer: SemanticLayer | Path, question: str) -> Verdict:
    if isinstance(layer, Path):
        layer = load_semantic(layer)
    with connect(str(db)) as connector:
        return Agent(connector, layer).ask(question)


@pytest.mark.parametrize("question", ["flights by city", "flights in Rome", "flights from Oslo"])
def test_a_place_reached_by_two_joins_is_not_chosen(question: str) -> None:
    layer = _flights_layer()
    (found,) = join_paths(read(question, layer), layer)
    assert (found.dimension, found.table, found.metric) == (
        "airport_city",
        "airport",
        "flight_count",
    )
    assert found.ways() == ["by origin", "by dest"]


@pytest.mark.parametrize("question", ["gates by city", "gates in Rome", "flights by carrier"])
def test_a_table_reached_one_way_is_read_as_before(question: str) -> None:
    layer = _flights_layer()
    assert join_paths(read(question, layer), layer) == []


def test_the_agent_abstains_naming_both_ways(tmp_path: Path) -> None:
    db = _flights_db(tmp_path / "f.duckdb")
    verdict = _ask(db, _flights_layer(), "flights by city")
    assert (verdict.behaviour, verdict.reasons) == ("abstain", ("behaviour.join_paths",))
    assert verdict.candidate is None
    message = verdict.provenance["message"]
    assert "by origin, or by dest" in message and "flight row reaches airport 2 ways" in message
    verdict = _ask(db, _flights_layer(), "gates by city")
    assert verdict.action in {"show", "warn"} and verdict.candidate is not None
    assert verdict.candidate.result is not None
    assert sorted(verdict.candidate.result.rows) == [("Oslo", 2), ("Rome", 1)]


def _parcels_layer() -> SemanticLayer:
    """Parcels sent by a shop and bought by a buyer, each in a region: two paths of two steps,
    one of them many-to-one as a one-to-many join read backwards."""
    return parse_semantic(
        {
            "name": "p",
            "metrics": [
                {"name": "parcel_count", "table": "parcel", "expression": "count(*)"},
                {"name": "shop_count", "table": "shop", "expression": "count(*)"},
            ],
            "dimensions": [
                {"name": "region_name", "column": "region.name", "synonyms": ["region"]},
            ],
            "joins": [
                {"left": "parcel.shop_id", "right": "shop.id"},
                {"left": "buyer.id", "right": "parcel.buyer_id", "relationship": "one_to_many"},
                {"left": "shop.region_id", "right": "region.id"},
                {"left": "buyer.region_id", "right": "region.id"},
            ],
        }
    )


def test_two_paths_through_other_tables_name_whose() -> None:
    layer = _parcels_layer()
    (found,) = join_paths(read("parcel count by region", layer), layer)
    assert found.ways() == ["through shop", "through buyer"]
    assert join_paths(read("shop count by region", layer), layer) == []


@pytest.mark.slow  # a drafted TPC-H (shared by the session)
def test_line_items_by_nation_name_on_a_drafted_tpch(tpch_duckdb: Path, tpch_draft: Path) -> None:
    for question in ("line items by nation name", "line items in GERMANY"):
        verdict = _ask(tpch_duckdb, tpch_draft, question)
        assert (verdict.behaviour, verdict.reasons) == ("abstain", ("behaviour.join_paths",))
        message = verdict.provenance["message"]
        assert "the nation of the supplier or of the customer?" in message, message
        # "by nation name" is said only of a grouping, never of "in GERMANY"
        assert message.endswith("or give the layer a dimension of its own for each way.")
        assert ("rows by nation name," in message) == ("by" in question), message
    # a region is reached through the nation of each: whose is still the supplier's or the
    # customer's, never "Ask about the nation rows" (re-check of tryout 39, N4)
    for question in ("total quantity by region in 1995", "line items by region"):
        verdict = _ask(tpch_duckdb, tpch_draft, question)
        assert (verdict.behaviour, verdict.reasons) == ("abstain", ("behaviour.join_paths",))
        message = verdict.provenance["message"]
        assert "the region of the supplier or of the customer?" in message, message
        assert "Ask about the supplier or the customer rows by region name" in message, message
    # reached one way: answered as before
    verdict = _ask(tpch_duckdb, tpch_draft, "customers by nation")
    assert verdict.action in {"show", "warn"} and verdict.candidate is not None


def test_the_metric_tables_own_join_is_taken() -> None:
    # a parcel's own region key beside its shop's and its buyer's: the parcel's own is meant
    layer = _parcels_layer()
    joins = [*layer.joins, type(layer.joins[0])("parcel.region_id", "region.id")]
    own = SemanticLayer(metrics=layer.metrics, dimensions=layer.dimensions, joins=tuple(joins))
    assert join_paths(read("parcel count by region", own), own) == []


def test_a_bound_on_a_metrics_column_is_read() -> None:
    # "flights with delay over 30" where flight.delay is only a metric's column, no dimension:
    # read through the bound's own column (it raised, and the agent said internal error)
    layer = _flights_layer()
    bound = Comparison("flight delay", ">", "30", "over 30", "flight.delay")
    reading = replace(read("flight count", layer), comparisons=(bound,))
    assert join_paths(reading, layer) == []
    far = replace(bound, column="airport.elevation")
    (found,) = join_paths(replace(reading, comparisons=(far,)), layer)
    assert found.ways() == ["by origin", "by dest"]
