"""``cap.unmatched_rows``: an answer joined through a layer join with rows that have no partner
says how many it leaves out (draft20: the drafted TPC-DS layer forbade customer_demographics, so
"female customers" abstained; kept usable, it must never drop the 1,263 sales without
demographics silently)."""

from __future__ import annotations

import pytest

from assay.checks import CheckContext
from assay.checks._unmatched_rows import unmatched_rows
from assay.semantic import JoinPath, Metric, SemanticLayer
from assay.types import Candidate

SALES = Metric("sales_count", "Sales count", (), "sales", "count(*)", "dates.d_date")
LAYER = SemanticLayer(
    name="shop",
    metrics=(SALES,),
    tables=("sales", "demographics", "dates"),
    joins=(
        JoinPath("sales.s_demo_sk", "demographics.d_demo_sk", unmatched=1263),
        JoinPath("sales.s_date_sk", "dates.d_date_sk", unmatched=1208),
    ),
)


def _codes(sql: str, layer: SemanticLayer | None = LAYER) -> list[str]:
    ctx = CheckContext("q", Candidate(sql), "duckdb", layer=layer, metric=SALES)
    return [f.message for f in unmatched_rows(ctx).findings]


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT COUNT(*) FROM sales JOIN demographics ON sales.s_demo_sk = demographics.d_demo_sk "
        "WHERE demographics.gender = 'F'",
        "SELECT COUNT(*) FROM sales AS s INNER JOIN demographics AS d ON d.d_demo_sk = s.s_demo_sk "
        "WHERE d.gender = 'F'",
        "SELECT COUNT(*) FROM sales s LEFT JOIN demographics d ON s.s_demo_sk = d.d_demo_sk "
        "WHERE d.gender = 'F'",
    ],
    ids=["inner", "aliased-inner", "left-then-filtered"],
)
def test_a_join_dropping_the_unmatched_rows_is_warned_with_their_count(sql: str) -> None:
    (message,) = _codes(sql)
    assert message.startswith("1263 rows of sales have no match in demographics")
    assert "counts only the sales rows whose demographics is known" in message


@pytest.mark.parametrize(
    "sql",
    [
        # a breakdown keeps them as a group of their own
        "SELECT CASE WHEN d.d_demo_sk IS NULL THEN '(no demographics)' ELSE d.gender END, "
        "COUNT(*) FROM sales s LEFT JOIN demographics d ON s.s_demo_sk = d.d_demo_sk "
        "GROUP BY d.gender, (d.d_demo_sk IS NULL)",
        # the rows without a partner themselves
        "SELECT COUNT(*) FROM sales s LEFT JOIN demographics d ON s.s_demo_sk = d.d_demo_sk "
        "WHERE d.d_demo_sk IS NULL",
        # a period on the metric's own time join: a row with no date is in no period
        "SELECT COUNT(*) FROM sales JOIN dates ON sales.s_date_sk = dates.d_date_sk "
        "WHERE dates.d_date >= DATE '2001-01-01' AND dates.d_date < DATE '2002-01-01'",
        "SELECT COUNT(*) FROM sales",
    ],
    ids=["breakdown", "only-unmatched", "period", "total"],
)
def test_silent_where_no_unmatched_row_is_lost(sql: str) -> None:
    assert _codes(sql) == []


def test_silent_without_a_layer_or_a_count() -> None:
    sql = "SELECT COUNT(*) FROM sales JOIN demographics ON sales.s_demo_sk = demographics.d_demo_sk"
    assert _codes(sql, None) == []
    complete = SemanticLayer(
        name="shop",
        metrics=(SALES,),
        tables=LAYER.tables,
        joins=(JoinPath("sales.s_demo_sk", "demographics.d_demo_sk"),),
    )
    assert _codes(sql, complete) == []
