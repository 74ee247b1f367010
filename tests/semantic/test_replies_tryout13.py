"""Questions outside tryouts 11 to 13 found wrongly not answered on the imported layers (so every
question here is tuned on, not held out):

1. a reply to an ask-back naming several dimensions resolves to the one choice it names
   (Cube "number of orders by region in 1995" -> "customer regions"; OSI "total sales by
   location" -> "s_city"); a reply naming none, or a bare "yes", is asked back again;
2. a multi-word dimension phrase is read whole: "market segment" is ``c_mktsegment``, never
   'market' left as a value;
3. an adjective naming a true/false dimension is a filter on it being true (MetricFlow's
   ``is_large``), said in the reading; "total" said over a metric phrase is that metric;
4. a request for advice ("Suggest the best post-operative care ...") acts on nothing: abstained
   on as out of scope, never refused as a write.

Every expected number is compared with SQL written here on the real data.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
from click.testing import CliRunner

from assay.cli import main
from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import (
    Lexicon,
    SemanticLayer,
    ask_back_choices,
    compose_follow_up,
    decide,
    load_semantic,
    read,
    with_derived_names,
)

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "semantic-models"
OSI = SHARED / "osi" / "examples" / "tpcds_semantic_model.yaml"
CUBE = SHARED / "cube-workshop-tpch" / "static" / "cube-models" / "1-starter" / "model" / "cubes"
MF = SHARED / "metricflow-tutorial" / "dbt-metricflow" / "dbt_metricflow" / "cli"

pytestmark = [
    pytest.mark.skipif(not SHARED.exists(), reason="the shared semantic models are absent"),
    pytest.mark.slow,  # three imports and two TPC warehouses
]


def _import(kind: str, source: Path, db: Path, out: Path) -> Path:
    args = ["semantic", "import", "--from", kind, "--source", str(source), "--db", str(db)]
    run = CliRunner().invoke(main, [*args, "--out", str(out)])
    assert run.exit_code == 0, run.output
    return out


@pytest.fixture(scope="module")
def cube(tpch_duckdb: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Agent]:
    out = _import("cube", CUBE, tpch_duckdb, tmp_path_factory.mktemp("cube") / "cube.yaml")
    with connect(str(tpch_duckdb)) as connector:
        yield Agent(connector, load_semantic(out))  # its layer has the name columns proved


@pytest.fixture(scope="module")
def osi(tpcds_duckdb: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Agent]:
    out = _import("osi", OSI, tpcds_duckdb, tmp_path_factory.mktemp("osi") / "osi.yaml")
    with connect(str(tpcds_duckdb)) as connector:
        yield Agent(connector, load_semantic(out))


@pytest.fixture(scope="module")
def metricflow(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Agent, Path]]:
    """The tutorial's seeds loaded as its README says (tests/semantic/test_import_examples)."""
    folder = tmp_path_factory.mktemp("mf")
    db = folder / "mf.duckdb"
    con = duckdb.connect(str(db))
    for name in ("transactions", "customers", "countries"):
        seed = MF / "sample_dbt_models" / "seeds" / f"{name}_seed.csv"
        con.execute(f"CREATE TABLE {name}_seed AS SELECT * FROM read_csv_auto('{seed}')")
        con.execute(f"CREATE VIEW {name} AS SELECT * FROM {name}_seed")
    con.close()
    out = _import("metricflow", MF / "sample_dbt_models" / "sample_models", db, folder / "l.yaml")
    with connect(str(db)) as connector:
        yield Agent(connector, load_semantic(out)), db


def _rows(verdict: Any) -> dict[str, float]:
    assert verdict.behaviour == "answer" and verdict.action == "show", (
        verdict.behaviour,
        verdict.action,
        verdict.reasons,
        [f.message for f in verdict.findings],
    )
    return {str(r[0]): round(float(r[-1]), 2) for r in verdict.candidate.result.rows}


def _sql(db: Path, sql: str) -> dict[str, float]:
    with duckdb.connect(str(db), read_only=True) as con:
        return {str(k): round(float(v), 2) for k, v in con.execute(sql).fetchall()}


# --- 1. replies to an ask-back naming several dimensions ------------------------------------


# Line items have a customer and a supplier: "region" is the customer's (defined) or the
# supplier's (a role the layer leaves undefined), asked back. (An order has no supplier:
# "number of orders by region" is read as the customer's region, ``test_one_choice_is_read``.)
_ASKED = "number of line items by region in 1995"


@pytest.mark.parametrize("reply", ["customer regions", "the customer regions one", "r_name"])
def test_a_reply_naming_an_offered_dimension_re_asks_with_it(
    cube: Agent, tpch_duckdb: Path, reply: str
) -> None:
    """tryout 11 F38: the reply was appended and the same ask-back came again."""
    assert cube.ask(_ASKED).behaviour == "clarify"
    composed = compose_follow_up(_ASKED, reply, cube.layer, cube.lexicon)
    assert composed["unclear"] is None
    assert composed["question"] == "number of line items by customer regions in 1995?"
    assert composed["replaced"] == ["region (asked back) -> customer regions"]
    expected = _sql(
        tpch_duckdb,
        "SELECT r.r_name, count(*) FROM lineitem l JOIN orders o ON l.l_orderkey = o.o_orderkey "
        "JOIN customer c ON o.o_custkey = c.c_custkey "
        "JOIN nation n ON c.c_nationkey = n.n_nationkey "
        "JOIN region r ON n.n_regionkey = r.r_regionkey "
        "WHERE l.l_shipdate >= DATE '1995-01-01' AND l.l_shipdate < DATE '1996-01-01' "
        "GROUP BY 1",
    )
    assert _rows(cube.ask(composed["question"])) == expected


def test_one_choice_is_read(cube: Agent, tpch_duckdb: Path) -> None:
    """An outside tryout saw "customers count by region" asked back offering one choice (the
    supplier's region, which a customer does not have, and the base cube's): read as the
    customer's region, the only one the counted rows reach."""
    expected = _sql(
        tpch_duckdb,
        "SELECT r.r_name, count(*) FROM orders o JOIN customer c ON o.o_custkey = c.c_custkey "
        "JOIN nation n ON c.c_nationkey = n.n_nationkey "
        "JOIN region r ON n.n_regionkey = r.r_regionkey "
        "WHERE o.o_orderdate >= DATE '1995-01-01' AND o.o_orderdate < DATE '1996-01-01' "
        "GROUP BY 1",
    )
    assert _rows(cube.ask("number of orders by region in 1995")) == expected
    customers = _sql(
        tpch_duckdb,
        "SELECT r.r_name, count(*) FROM customer c JOIN nation n ON c.c_nationkey = n.n_nationkey "
        "JOIN region r ON n.n_regionkey = r.r_regionkey GROUP BY 1",
    )
    assert _rows(cube.ask("Customers count by region")) == customers


def test_a_dimension_chosen_with_a_new_period(cube: Agent) -> None:
    """The period said with the choice replaces the question's, never dropped."""
    composed = compose_follow_up(_ASKED, "customer regions in 1996", cube.layer, cube.lexicon)
    assert composed["question"] == "number of line items by customer regions in 1996?"
    assert composed["replaced"] == [
        "region (asked back) -> customer regions",
        "period 1995 -> 1996",
    ]


@pytest.mark.parametrize("reply", ["yes", "supplier regions", "nations"])
def test_a_reply_naming_no_offered_dimension_is_asked_back(cube: Agent, reply: str) -> None:
    """A yes says nothing of which; a meaning the layer leaves undefined is no choice."""
    composed = compose_follow_up(_ASKED, reply, cube.layer, cube.lexicon)
    assert composed["unclear"] is not None
    assert "it names none of the choices offered ('customer regions')" in composed["unclear"]


@pytest.mark.parametrize(
    ("reply", "chosen"),
    [("s_city", "s_city"), ("ss_store_sk", "ss_store_sk"), ("s city", "s_city")],
)
def test_an_osi_location_reply_picks_one_of_the_two(osi: Agent, reply: str, chosen: str) -> None:
    """tryout 11 F39: "total sales by location" -> "s_city" was asked back again."""
    choices = ask_back_choices("total sales by location", osi.layer, osi.lexicon)
    assert [(c.label, c.question) for c in choices] == [
        ("s_city", "total sales by s_city"),
        ("ss_store_sk", "total sales by ss_store_sk"),
    ]
    composed = compose_follow_up("total sales by location", reply, osi.layer, osi.lexicon)
    assert composed["question"] == f"total sales by {chosen}?"
    assert read(composed["question"], osi.layer, osi.lexicon).groups == (chosen,)
    # (answered as that whole question would be: by s_city it is withheld, 1,242 sales rows
    # having no store to join, never shown without them)


# --- 2. a multi-word dimension phrase is read whole -----------------------------------------


def test_market_segment_is_read_whole(cube: Agent, tpch_duckdb: Path) -> None:
    """tryout 13 #68: "'market' is not a value" although the reading had customers_segment."""
    question = "sales amount in 1996 excluding the AUTOMOBILE market segment"
    reading = read(question, cube.layer, cube.lexicon)
    assert not reading.unread and not reading.value_like
    assert [(f.dimension, f.values, f.negated) for f in reading.filters] == [
        ("customers_segment", ("AUTOMOBILE",), True)
    ]
    verdict = cube.ask(question)
    expected = _sql(
        tpch_duckdb,
        "SELECT 'all', sum(l.l_extendedprice * (1 - l.l_discount)) FROM lineitem l "
        "JOIN orders o ON l.l_orderkey = o.o_orderkey JOIN customer c ON o.o_custkey = c.c_custkey "
        "WHERE l.l_shipdate >= DATE '1996-01-01' AND l.l_shipdate < DATE '1997-01-01' "
        "AND c.c_mktsegment <> 'AUTOMOBILE'",
    )
    assert set(_rows(verdict).values()) == set(expected.values())


def test_the_tryout_follow_up_by_market_segment(cube: Agent, tpch_duckdb: Path) -> None:
    """tryout 13 #68's follow-up: the filter kept, grouped by the segment."""
    composed = compose_follow_up(
        "sales amount in 1996 excluding the AUTOMOBILE market segment",
        "by market segment",
        cube.layer,
        cube.lexicon,
    )
    assert composed["unclear"] is None
    expected = _sql(
        tpch_duckdb,
        "SELECT c.c_mktsegment, sum(l.l_extendedprice * (1 - l.l_discount)) FROM lineitem l "
        "JOIN orders o ON l.l_orderkey = o.o_orderkey JOIN customer c ON o.o_custkey = c.c_custkey "
        "WHERE l.l_shipdate >= DATE '1996-01-01' AND l.l_shipdate < DATE '1997-01-01' "
        "AND c.c_mktsegment <> 'AUTOMOBILE' GROUP BY 1",
    )
    assert len(expected) == 4
    assert _rows(cube.ask(composed["question"])) == expected


def test_by_market_segment_as_a_follow_up(cube: Agent, tpch_duckdb: Path) -> None:
    """tryout 12 C10: "by market segment" after "orders from Germany in 1996"."""
    composed = compose_follow_up(
        "orders from Germany in 1996", "by market segment", cube.layer, cube.lexicon
    )
    assert composed["unclear"] is None
    expected = _sql(
        tpch_duckdb,
        "SELECT c.c_mktsegment, count(*) FROM orders o JOIN customer c ON o.o_custkey = "
        "c.c_custkey JOIN nation n ON c.c_nationkey = n.n_nationkey WHERE n.n_name = 'GERMANY' "
        "AND o.o_orderdate >= DATE '1996-01-01' AND o.o_orderdate < DATE '1997-01-01' GROUP BY 1",
    )
    assert expected == {
        "AUTOMOBILE": 23,
        "BUILDING": 31,
        "FURNITURE": 8,
        "HOUSEHOLD": 22,
        "MACHINERY": 6,
    }
    assert _rows(cube.ask(composed["question"])) == expected


# --- 3. MetricFlow: an adjective naming a true/false dimension; "total" + a metric ---------------


def test_large_is_a_filter_on_is_large(metricflow: tuple[Agent, Path]) -> None:
    """tryout 13 #60: "does not define 'large'" though the layer has is_large."""
    agent, db = metricflow
    question = "how many large transactions between Mar 10 and Mar 20"
    reading = read(question, agent.layer, agent.lexicon)
    assert [(f.dimension, f.values, f.negated) for f in reading.filters] == [
        ("is_large", ("true",), False)
    ]
    assert "where is large is true" in reading.restate(agent.layer)
    verdict = agent.ask(question)
    # is_large is CASE WHEN transaction_amount_usd >= 30 THEN TRUE ELSE FALSE END
    expected = _sql(
        db,
        "SELECT 'n', count(*) FROM transactions WHERE transaction_amount_usd >= 30 "
        "AND ds >= DATE '2022-03-10' AND ds <= DATE '2022-03-20'",
    )
    assert set(_rows(verdict).values()) == set(expected.values()) == {13.0}


def test_an_adjective_naming_nothing_is_still_abstained_on(metricflow: tuple[Agent, Path]) -> None:
    agent, _ = metricflow
    reading = read(
        "how many small transactions between Mar 10 and Mar 20", agent.layer, agent.lexicon
    )
    decision = decide(reading, agent.layer)
    assert decision.code == "behaviour.modifier_undefined"
    assert "'small'" in decision.message


def test_total_said_over_a_metric_is_the_metric(metricflow: tuple[Agent, Path]) -> None:
    """tryout 13 #57: "'total transactions' is not defined" (an undefined MetricFlow metric
    overlapped "transaction amount")."""
    agent, db = metricflow
    question = "total transaction amount by customer country from Mar 7 to Mar 31 2022"
    reading = read(question, agent.layer, agent.lexicon)
    assert reading.metrics == ("transaction_amount",) and not reading.undefined
    expected = _sql(
        db,
        "SELECT c.country, sum(t.transaction_amount_usd) FROM transactions t "
        "LEFT JOIN customers c ON t.id_customer = c.id_customer "
        "WHERE t.ds >= DATE '2022-03-07' AND t.ds <= DATE '2022-03-31' GROUP BY 1",
    )
    assert _rows(agent.ask(question)) == expected
    # the undefined concept itself is still asked back, never answered
    alone = read("total transactions by customer country", agent.layer, agent.lexicon)
    assert alone.undefined == ("total transactions",)


# --- 4. a request for advice ------------------------------------------------------------------


def test_a_request_for_advice_is_abstained_on_not_refused(wrb: Path) -> None:
    """tryout 13 #33: refused as "a request to act on the data ... never changes it"."""
    layer: SemanticLayer = with_derived_names(load_semantic(wrb / "shop.yaml"))
    question = (
        "Suggest the best post-operative care for patients who had a packed cell transfusion."
    )
    decision = decide(read(question, layer, Lexicon(layer)), layer)
    assert (decision.behaviour, decision.code) == ("abstain", "behaviour.advice_out_of_scope")
    assert "never changes" not in decision.message
    acted = decide(read("Lapse every travel policy for 2023.", layer, Lexicon(layer)), layer)
    assert acted.behaviour == "refuse"  # an unknown verb acting on rows is still refused


@pytest.mark.parametrize(
    "question",
    [
        "how many transactions that are not large between Mar 10 and Mar 20",
        "how many non large transactions between Mar 10 and Mar 20",
    ],
)
def test_a_negated_flag_is_never_read_as_true(
    metricflow: tuple[Agent, Path], question: str
) -> None:
    agent, _ = metricflow
    reading = read(question, agent.layer, agent.lexicon)
    assert ("is_large", ("true",), False) not in [
        (f.dimension, f.values, f.negated) for f in reading.filters
    ]
    verdict = agent.ask(question)
    if verdict.behaviour == "answer" and verdict.action in ("show", "warn"):
        # answered: only as the large transactions left out
        assert any(f.dimension == "is_large" and f.negated for f in reading.filters)
