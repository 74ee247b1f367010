"""Two reading faults an outside tester found on drafted layers (tryout 36).

1. A follow-up whose word names two dimensions alone ("status": the order's or the line's) was
   asked back though the composed question read it as the previous question's thing: "now by
   status" after "total orders totalprice in 1995" composed "... in 1995 by status", read by
   the order's status, and was then said "not the previous question with your change made".
   The follow-up's words are now read as they read after the previous question.
2. A did-you-mean offered a value its metric can never reach: "total revenue in Eurpoe in
   2023" offered "Europe", a region no join reaches from the revenue's rows, and answering it
   abstained with ``plan.no_join_path``. A suggestion now offers only what the question's
   metric reaches.

The warehouse of (1) is a small TPC-H-like one built here and drafted by ``assay semantic init``
as the tester drafted theirs; the layer of (2) has the drafted Cortex layer's shape, written in
code.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import (
    Dimension,
    JoinPath,
    Lexicon,
    Metric,
    SemanticLayer,
    compose_follow_up,
    decide,
    load_semantic,
    read,
)
from assay.settings import load_settings
from tests.semantic._helpers import draft


def build_orders(path: Path) -> Path:
    """Orders with a status and a priority, their lines with a status of their own (TPC-H's
    o_orderstatus and l_linestatus), and a numeric o_shippriority the draft leaves out."""
    con = duckdb.connect(str(path))
    con.execute(
        """
        CREATE TABLE orders AS SELECT i AS o_orderkey,
          ['F', 'O', 'P'][1 + i % 3] AS o_orderstatus,
          ['1-URGENT', '2-HIGH', '3-MEDIUM'][1 + i % 3] AS o_orderpriority,
          CAST(i % 2 AS INTEGER) AS o_shippriority,
          CAST(100 + (i * 37) % 900 AS DECIMAL(12, 2)) AS o_totalprice,
          DATE '1994-01-01' + INTERVAL (i * 5) DAY AS o_orderdate
        FROM range(1, 201) t(i);
        CREATE TABLE lineitem AS SELECT o_orderkey AS l_orderkey, n AS l_linenumber,
          CASE WHEN o_orderstatus = 'F' THEN 'F' ELSE 'O' END AS l_linestatus,
          CAST(1 + (o_orderkey * n) % 40 AS DECIMAL(12, 2)) AS l_quantity,
          o_orderdate + INTERVAL (n) DAY AS l_shipdate
        FROM orders, range(1, 4) t(n);
        """
    )
    con.close()
    return path


@pytest.fixture(scope="module")
def orders(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Agent]:
    folder = tmp_path_factory.mktemp("orders")
    db = build_orders(folder / "w.duckdb")
    layer = load_semantic(draft(db, folder / "w.yaml"))
    settings = load_settings()
    connector = connect(str(db), settings)
    try:
        yield Agent(connector, layer, settings)
    finally:
        connector.close()


def _compose(agent: Agent, previous: str, fragment: str) -> dict[str, Any]:
    return compose_follow_up(previous, fragment, agent.layer, agent.lexicon)


def test_the_drafted_layer_names_two_statuses_by_one_word(orders: Agent) -> None:
    """The premise: "status" alone names both, so "by status" read alone groups by nothing."""
    alone = read("by status", orders.layer, orders.lexicon)
    assert alone.groups == ()
    assert [set(c) for _, c in alone.ambiguous_names] == [
        {"dimension:orders_o_orderstatus", "dimension:lineitem_l_linestatus"}
    ]


def test_a_shared_word_is_read_as_the_previous_questions_thing(orders: Agent) -> None:
    composed = _compose(orders, "total orders totalprice in 1995", "now by status")
    assert composed["unclear"] is None
    assert composed["question"] == "total orders totalprice in 1995 by status?"
    assert composed["replaced"] == ["grouping (none) -> orders_o_orderstatus"]
    assert composed["inherited"] == ["metric total orders totalprice", "period 1995"]
    again = read(composed["question"], orders.layer, orders.lexicon)
    assert again.groups == ("orders_o_orderstatus",)


def test_a_grouping_said_by_a_shared_word_is_replaced_by_the_next(orders: Agent) -> None:
    """ "by status" found in the previous question as its grouping, so it is taken out."""
    composed = _compose(
        orders, "total orders totalprice in 1995 by status", "now by order priority"
    )
    assert composed["unclear"] is None
    assert composed["question"] == "total orders totalprice in 1995 by order priority?"
    assert composed["replaced"] == ["grouping orders_o_orderstatus -> orders_o_orderpriority"]


def test_a_shared_word_the_previous_question_does_not_settle_stays_asked_back(
    orders: Agent,
) -> None:
    """Line items have both statuses (their own and their order's), and "total quantity" names
    neither: which one is still asked back."""
    composed = _compose(orders, "total quantity in 1995", "now by status")
    assert composed["unclear"] is None
    again = read(composed["question"], orders.layer, orders.lexicon)
    assert again.groups == ()
    assert again.ambiguous_names
    assert decide(again, orders.layer).behaviour == "clarify"


# -- 2. a did-you-mean offers only what the metric reaches ---------------------------------

_REGIONS = ("Africa", "Asia", "Europe", "North America", "South America")


def _cortex(*, joined: bool = False) -> SemanticLayer:
    """The drafted Cortex layer's shape: revenue over daily_revenue, joined to product; the
    region table has no join (its Region_id is no key), unless ``joined``."""
    joins = (JoinPath("daily_revenue.Product_id", "product.Product_id"),)
    if joined:
        joins += (JoinPath("daily_revenue.Region_id", "region.Region_id"),)
    return SemanticLayer(
        name="cortex",
        metrics=(
            Metric(
                "daily_revenue_REVENUE_total",
                "total REVENUE",
                ("revenue",),
                "daily_revenue",
                "sum(daily_revenue.REVENUE)",
                "daily_revenue.DATE",
            ),
            Metric("region_count", "region count", ("number of region",), "region", "count(*)"),
        ),
        dimensions=(
            Dimension(
                "product_Product_line",
                "product.Product_line",
                ("product line",),
                ("Books", "Clothing", "Electronics", "Home Appliances", "Toys"),
            ),
            Dimension("region_Region", "region.Region", ("region",), _REGIONS),
        ),
        joins=joins,
        clock=dt.date(2024, 11, 7),
        tables=("daily_revenue", "product", "region"),
    )


def test_a_value_the_metric_cannot_reach_is_not_offered() -> None:
    layer = _cortex()
    reading = read("total revenue in Eurpoe in 2023", layer, Lexicon(layer))
    assert reading.suggestions == ()
    decision = decide(reading, layer)
    assert (decision.behaviour, decision.code) == ("abstain", "behaviour.value_not_in_domain")
    assert "Europe (region_Region) is close to it, but no join" in decision.message
    assert "the known values closest to it" not in decision.message


@pytest.mark.parametrize(
    ("question", "suggested"),
    [
        ("number of region in Eurpoe", ("Eurpoe", "europe")),  # the region's own rows
        ("total revenue for Electronis in 2023", ("Electronis", "electronics")),  # joined
    ],
    ids=["own-table", "joined-table"],
)
def test_a_value_the_metric_reaches_is_still_offered(question: str, suggested: object) -> None:
    layer = _cortex()
    reading = read(question, layer, Lexicon(layer))
    assert reading.suggestions == (suggested,)
    assert decide(reading, layer).code == "behaviour.did_you_mean"


def test_a_value_reached_by_a_join_is_offered() -> None:
    layer = _cortex(joined=True)
    reading = read("total revenue in Eurpoe in 2023", layer, Lexicon(layer))
    assert reading.suggestions == (("Eurpoe", "europe"),)
