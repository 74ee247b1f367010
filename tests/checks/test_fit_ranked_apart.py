"""The reading-fit check reads a ranking of compared periods from the SQL's tree: the bounds in
the WHERE of the inner select that feeds the window, and the window's PARTITION BY, which must be
the period alone. The planner's SQL (ranked within each period) fits; a hand-written candidate
that pools the periods, partitions by something else, or drops a bound is still vetoed."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.checks import CheckContext, fit_check, run_checks
from assay.generators import plan
from assay.semantic import SemanticLayer, load_semantic, read
from assay.types import Candidate

QUESTIONS = [
    "top 2 countries by net revenue, 2023 vs 2022",
    "top 1 category by gross revenue in the past 30 days vs the previous 30 days",
]


@pytest.fixture(scope="module")
def layer(wrb: Path) -> SemanticLayer:
    return load_semantic(wrb / "shop.yaml")


@pytest.mark.parametrize("question", QUESTIONS, ids=["years", "rolling-30-days"])
def test_the_planned_ranking_within_each_period_fits(layer: SemanticLayer, question: str) -> None:
    reading = read(question, layer)
    sql = plan(reading, layer).sql
    assert "PARTITION BY" in sql
    fit = fit_check(sql, reading, layer)
    assert fit.mismatches == () and "ranked within" in fit.checked


def _wrong(sql: str, how: str) -> str:
    """The planned SQL made wrong by hand, one way per case."""
    window_start = sql.index("RANK() OVER (PARTITION BY ")
    order_at = sql.index(" ORDER BY", window_start)
    partition = sql[window_start + len("RANK() OVER (PARTITION BY ") : order_at]
    if how == "pooled":  # RANK() OVER (ORDER BY ...): the top rows of both periods together
        return sql.replace(f"PARTITION BY {partition} ORDER BY", "ORDER BY", 1)
    if how == "by-country":
        return sql.replace(f"PARTITION BY {partition} ", "PARTITION BY customers.country ", 1)
    if how == "period-and-country":
        return sql.replace(
            f"PARTITION BY {partition} ", f"PARTITION BY {partition}, customers.country ", 1
        )
    assert how == "bound-missing"
    dropped = " OR (orders.order_date >= CAST('2022-01-01' AS DATE) AND orders.order_date < "
    dropped += "CAST('2023-01-01' AS DATE))"
    assert dropped in sql
    return sql.replace(dropped, "", 1)


@pytest.mark.parametrize(
    ("how", "says"),
    [
        ("pooled", "pools the compared periods"),
        ("by-country", "pools the compared periods"),
        ("period-and-country", "pools the compared periods"),
        ("bound-missing", "period bounds"),
    ],
    ids=["pooled", "by-country", "period-and-country", "bound-missing"],
)
def test_a_wrong_ranking_of_compared_periods_is_vetoed(
    layer: SemanticLayer, how: str, says: str
) -> None:
    question = QUESTIONS[0]
    reading = read(question, layer)
    sql = _wrong(plan(reading, layer).sql, how)
    ctx = CheckContext(
        question,
        Candidate(sql, (sql,), None, None),
        "duckdb",
        reading=reading,
        layer=layer,
        metric=layer.metric(reading.metrics[0]),
    )
    found = [f for f in run_checks(ctx).findings if f.code == "veto.reading_mismatch"]
    assert len(found) == 1 and found[0].kind == "veto", sql
    assert says in found[0].message
    assert ctx.candidate.final_sql == sql


def test_a_single_period_ranking_partitioned_is_vetoed(layer: SemanticLayer) -> None:
    reading = read("top 2 countries by net revenue in 2023", layer)
    sql = plan(reading, layer).sql
    assert "PARTITION BY" not in sql and fit_check(sql, reading, layer).mismatches == ()
    apart = sql.replace("RANK() OVER (", "RANK() OVER (PARTITION BY customers.country ", 1)
    (mismatch,) = fit_check(apart, reading, layer).mismatches
    assert "ranked apart" in mismatch
