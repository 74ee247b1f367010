"""A check misreading the metric's own name caps a right planned answer (outside tryout 40,
F-7): "total LTV pre-tax" was warned because 'LTV' (a word of the metric's label) is "in no
condition", and "What is the average order value?" because "the SQL has no AVG" (the layer
defines the metric as a ratio of sums: that IS the average order value). Both are shown; a
word outside the metric's name is still read (a code the SQL drops caps the answer)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import SemanticLayer
from assay.semantic._model import Dimension, Metric


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Agent]:
    """Shoppers with a lifetime spend and a number of orders (MetricFlow's customers, small),
    and members of a gym with a mean visit length per member (my own words)."""
    path: Path = tmp_path_factory.mktemp("names") / "shop.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute(
            "CREATE TABLE customers (customer_id INTEGER, first_ordered_at DATE, "
            "customer_type VARCHAR, lifetime_spend_pretax DOUBLE, count_lifetime_orders INTEGER)"
        )
        con.execute(
            "INSERT INTO customers VALUES (1, '2016-10-01', 'new', 100, 10), "
            "(2, '2017-02-01', 'returning', 60, 4), (3, '2017-03-01', 'new', 40, 6)"
        )
        con.execute(
            "CREATE TABLE members (member_id INTEGER, joined DATE, minutes DOUBLE, visits INTEGER)"
        )
        con.execute(
            "INSERT INTO members VALUES (1, '2017-01-01', 300, 10), (2, '2017-02-01', 90, 3)"
        )
    layer = SemanticLayer(
        metrics=(
            Metric(
                "lifetime_spend_pretax",
                "LTV Pre-tax",
                (),
                "customers",
                "sum(customers.lifetime_spend_pretax)",
                "customers.first_ordered_at",
            ),
            Metric(
                "average_order_value",
                "Average Order Value",
                (),
                "customers",
                "(SUM(customers.lifetime_spend_pretax)) / (SUM(customers.count_lifetime_orders))",
                "customers.first_ordered_at",
            ),
            Metric(
                "mean_visit_length",
                "mean visit length",
                (),
                "members",
                "SUM(members.minutes) / SUM(members.visits)",
                "members.joined",
            ),
        ),
        dimensions=(Dimension("customer type", "customers.customer_type", ("new", "returning")),),
        clock=dt.date(2017, 8, 30),
    )
    connector = connect(str(path))
    yield Agent(connector, layer)
    connector.close()


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("total LTV pre-tax", 200.0),
        ("What is the average order value?", 10.0),
        ("What is the mean visit length?", 30.0),
    ],
)
def test_the_metrics_own_name_does_not_cap_it(agent: Agent, question: str, value: float) -> None:
    verdict = agent.ask(question)
    assert "cap.planner_signal" not in verdict.reasons, [f.message for f in verdict.findings]
    assert verdict.action == "show", (verdict.action, verdict.reasons)
    assert verdict.candidate is not None and verdict.candidate.result is not None
    assert abs(float(verdict.candidate.result.rows[0][0]) - value) < 1e-9


def test_a_word_outside_the_metrics_name_still_caps() -> None:
    from assay.pipeline._planner_signal import planner_signals
    from assay.semantic import read
    from assay.types import Finding

    layer = SemanticLayer(
        metrics=(Metric("ltv", "LTV Pre-tax", (), "c", "sum(c.x)"),),
    )
    named = Finding(
        "signal.literal_missing",
        "signal",
        "The question names GA (in no condition), which no literal in the SQL carries.",
        {"codes": ["GA"], "names": [], "numbers": [], "quoted": []},
    )
    assert planner_signals((named,), read("LTV pre-tax in GA", layer)) != ()
    ltv = Finding(
        "signal.literal_missing",
        "signal",
        "The question names LTV (in no condition), which no literal in the SQL carries.",
        {"codes": ["LTV"], "names": [], "numbers": [], "quoted": []},
    )
    assert planner_signals((ltv,), read("total LTV pre-tax", layer)) == ()
    # 'LTV' said a second time, outside the metric's name, is read
    assert planner_signals((ltv,), read("LTV pre-tax of LTV customers", layer)) != ()


@pytest.mark.parametrize(
    "question",
    [
        "mean visit length in January 2017 compared with February 2017",
        "average order value in Feb 2017 vs Mar 2017",
    ],
    ids=["mean-visit-length", "aov-recheck-40b"],
)
def test_a_signal_reading_the_metrics_own_name_is_not_listed(agent: Agent, question: str) -> None:
    """Outside recheck 40b: "average order value ... compared with ..." was shown with "the
    question asks for an average but the SQL has no AVG" listed under it (the metric is the
    layer's ratio of sums): a false note, not shown."""
    verdict = agent.ask(question)
    assert verdict.action == "show", (verdict.action, verdict.reasons)
    assert not [f for f in verdict.findings if f.code == "signal.aggregate_mismatch"], [
        f.message for f in verdict.findings
    ]
