"""Outside tryout 37 on the imported MetricFlow tutorial layer (tuned on, not held out):

1. "how many cancellations were there?" was shown 3,530.61, the metric Cancellations (a sum of
   transaction_amount_usd over the cancellations), where 17 cancellations were made: a count
   asked of a metric adding up an amount is read as the layer's one count of the same rows, or
   asked back naming what the metric adds up (``behaviour.count_of_amount``), never answered
   with the amount; a count metric, or a sum of units, stays answered.
2. "number of customers" and "how many customers are there" abstained (no metric counts
   customers) while "how many distinct customers are there" answered 4: said plainly, the
   customers counted are the distinct keys of the customers' table, as with "distinct".
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
from assay.semantic import Dimension, JoinPath, Metric, SemanticLayer, distinct_entities, read
from tests.semantic._helpers import read_and_decide

_AMOUNT = "transactions.transaction_amount_usd"
_CANCELLED = "transactions.transaction_type_name = 'cancellation'"


def _layer(*extra: Metric) -> SemanticLayer:
    """The tutorial layer's shape: amounts summed over a type, and counts of rows."""
    metrics = (
        Metric(
            "cancellations",
            "Cancellations",
            (),
            "transactions",
            f"sum(CASE WHEN {_CANCELLED} THEN {_AMOUNT} ELSE 0 END)",
            "transactions.ds",
        ),
        Metric(
            "cancellations_mx",
            "Cancellations in Mexico",
            (),
            "transactions",
            "sum(CASE WHEN ((customers.country) = 'MX') THEN CASE WHEN "
            f"{_CANCELLED} THEN {_AMOUNT} ELSE 0 END END)",
            "transactions.ds",
            filter="((customers.country) = 'MX')",
        ),
        Metric("transactions", "Transactions", (), "transactions", "sum(1)", "transactions.ds"),
        Metric(
            "quick_buy_transactions",
            "Quick Buy Transactions",
            (),
            "transactions",
            "sum(CASE WHEN CASE WHEN transactions.transaction_type_name = 'quick-buy' THEN TRUE "
            "ELSE FALSE END THEN 1 ELSE 0 END)",
            "transactions.ds",
        ),
        Metric(
            "units_sold",
            "Units Sold",
            (),
            "transactions",
            "sum(transactions.quantity)",
            "transactions.ds",
        ),
        *extra,
    )
    return SemanticLayer(
        name="tutorial",
        metrics=metrics,
        dimensions=(
            Dimension("customer_country", "customers.country", ("country",), ("CA", "MX")),
        ),
        joins=(
            JoinPath("transactions.id_customer", "customers.id_customer"),
            JoinPath("customers.country", "countries.country"),
        ),
        tables=("countries", "customers", "transactions"),
        clock=dt.date(2022, 4, 4),
        coverage=(dt.date(2022, 3, 7), dt.date(2022, 4, 4)),
    )


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("how many cancellations were there?", "'how many cancellations'"),
        ("how many cancellations by country", "'how many cancellations'"),
        ("how many cancellations in Mexico", "'how many cancellations in Mexico'"),
        ("number of cancellations last week", "'number of cancellations'"),
        ("count of cancellations", "'count of cancellations'"),
        ("count cancellations by country", "'count cancellations'"),
    ],
    ids=["how-many", "by-country", "in-mexico", "number-of", "count-of", "count"],
)
def test_a_count_of_an_amount_is_asked_back(question: str, said: str) -> None:
    _, decision = read_and_decide(question, _layer())
    assert decision.behaviour == "clarify", (question, decision)
    assert decision.code == "behaviour.count_of_amount"
    assert decision.message.startswith(f"{said} asks how many there are")
    assert f"adds up {_AMOUNT} of the rows where" in decision.message
    assert "defines no count of those rows" in decision.message


def test_the_one_count_of_the_same_rows_is_read() -> None:
    count = Metric(
        "cancellation_count",
        "Cancellation Count",
        (),
        "transactions",
        f"SUM(CASE WHEN {_CANCELLED} THEN 1 ELSE 0 END)",
        "transactions.ds",
    )
    layer = _layer(count)
    for question in ("how many cancellations were there?", "number of cancellations by country"):
        reading, decision = read_and_decide(question, layer)
        assert reading.metrics == ("cancellation_count",), question
        assert decision.behaviour == "answer"
    # the amount asked plainly stays the amount
    assert read("cancellations by country", layer).metrics == ("cancellations",)
    # two counts of those rows: which one is not guessed
    again = Metric("cancels", "Cancels", (), "transactions", count.expression, "transactions.ds")
    _, decision = read_and_decide("how many cancellations", _layer(count, again))
    assert decision.code == "behaviour.count_of_amount"
    assert "counts them as Cancellation Count, Cancels" in decision.message


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        ("how many transactions were there?", "transactions"),
        ("how many quick buy transactions", "quick_buy_transactions"),
        ("how many units sold", "units_sold"),
        ("cancellations by country", "cancellations"),
    ],
    ids=["sum-of-1", "sum-of-case-1", "units", "amount-asked"],
)
def test_counts_and_amounts_asked_as_such_are_answered(question: str, metric: str) -> None:
    reading, decision = read_and_decide(question, _layer())
    assert reading.metrics == (metric,)
    assert decision.behaviour == "answer", decision


def test_plain_customers_are_counted_as_the_distinct_ones() -> None:
    layer = _layer()
    for question in ("number of customers", "how many customers are there", "how many customers"):
        counted = distinct_entities(read(question, layer), layer, read)
        assert counted is not None, question
        reading, wider = counted
        counts = wider.metric(reading.metrics[0]).expression
        assert counts == "COUNT(DISTINCT customers.id_customer)"
    # a verb naming no table joined to the customers: not guessed
    assert distinct_entities(read("how many customers bought?", layer), layer, read) is None


@pytest.fixture(scope="module")
def tutorial(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Agent, Path]]:
    """The tutorial's shape in DuckDB: 4 customers, 2 cancellations in Mexico, 1 in Canada."""
    db = tmp_path_factory.mktemp("t37") / "t.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE countries (country TEXT, region TEXT)")
    con.execute("INSERT INTO countries VALUES ('MX', 'NA'), ('CA', 'NA'), ('FR', 'EU')")
    con.execute("CREATE TABLE customers (id_customer INT, country TEXT, ds DATE)")
    con.execute(
        "INSERT INTO customers VALUES (1, 'MX', '2022-03-07'), (2, 'MX', '2022-03-08'), "
        "(3, 'CA', '2022-03-09'), (4, 'FR', '2022-03-10')"
    )
    con.execute(
        "CREATE TABLE transactions (id_customer INT, ds DATE, transaction_type_name TEXT, "
        "transaction_amount_usd DOUBLE, quantity INT)"
    )
    con.execute(
        "INSERT INTO transactions VALUES (1, '2022-03-11', 'cancellation', 100.5, 1), "
        "(2, '2022-03-12', 'cancellation', 200.25, 2), (3, '2022-03-13', 'cancellation', 7, 1), "
        "(3, '2022-03-14', 'quick-buy', 40, 3), (4, '2022-03-15', 'alteration', 12, 1)"
    )
    con.close()
    with connect(str(db)) as connector:
        yield Agent(connector, _layer()), db


def _shown(agent: Agent, question: str) -> list[tuple[Any, ...]]:
    verdict = agent.ask(question)
    assert verdict.action in {"show", "warn"}, (question, verdict.provenance.get("message"))
    assert verdict.candidate is not None and verdict.candidate.result is not None
    return sorted(verdict.candidate.result.rows)


def test_the_tryout_questions_on_the_data(tutorial: tuple[Agent, Path]) -> None:
    agent, _ = tutorial
    for question in ("how many cancellations were there?", "how many cancellations in Mexico"):
        verdict = agent.ask(question)
        assert verdict.behaviour == "clarify" and verdict.candidate is None, question
        assert verdict.reasons == ("behaviour.count_of_amount",)
    assert _shown(agent, "how many transactions were there?") == [(5,)]
    distinct = _shown(agent, "how many distinct customers are there")
    assert distinct == [(4,)]
    assert _shown(agent, "how many customers are there") == distinct
    assert _shown(agent, "number of customers") == distinct
    assert _shown(agent, "how many customers by country") == [("CA", 1), ("FR", 1), ("MX", 2)]
