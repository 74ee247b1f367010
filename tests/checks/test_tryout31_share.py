"""Outside tryout 31 on TPC-H at scale factor 0.01, five samples agreeing on each answer:
w1 and a probe, "What share of the orders placed in 1995 were 1-URGENT?", divided the urgent
orders of 1995 by every order ever placed (a scalar subquery or a CTE with no year): 0.0295
where the share is 0.2005, shown at 1.00. ``signal.share_whole_dropped`` withholds it; the
right forms (one WHERE for both sides, a CTE filtered once, ``AVG(CASE ...)``, a window over the
filtered rows, a share of all orders) stay shown (the counts of tryout 31:
``test_tryout31_counted.py``). share24: the whole said as a noun phrase with no helping verb,
a denominator over another year, the whole's year in a JOIN's ON, a denominator that keeps the
part; a growth ratio over the first year's total stays shown.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.checks import QUESTION_SIGNALS
from tests.checks._helpers import codes, scored

SHARE = "What share of the orders placed in 1995 were 1-URGENT?"
YEAR = "o_orderdate >= DATE '1995-01-01' AND o_orderdate < DATE '1996-01-01'"
URGENT = "o_orderpriority = '1-URGENT'"
DROPPED = "signal.share_whole_dropped"

# The share's denominator counts every order: the year of the whole is dropped.
WRONG = [
    ("scalar_subqueries", SHARE,
     f"SELECT (SELECT count(*) FROM orders WHERE {URGENT} AND {YEAR}) * 1.0 / "
     "(SELECT count(*) FROM orders) AS share"),
    ("ctes", SHARE,
     f"WITH u AS (SELECT count(*) n FROM orders WHERE {URGENT} AND {YEAR}), "
     "a AS (SELECT count(*) n FROM orders) SELECT u.n * 1.0 / a.n FROM u, a"),
    ("derived_tables", SHARE,
     f"SELECT u.n * 1.0 / a.n FROM (SELECT count(*) n FROM orders WHERE {URGENT} AND {YEAR}) u, "
     "(SELECT count(*) n FROM orders) a"),
    ("case_over_everything", SHARE,
     f"SELECT sum(CASE WHEN {URGENT} AND {YEAR} THEN 1 ELSE 0 END) * 1.0 / count(*) FROM orders"),
    ("relative_clause", "What percentage of the orders that were placed in 1995 were 1-URGENT?",
     f"SELECT 100.0 * (SELECT count(*) FROM orders WHERE {URGENT} AND {YEAR}) / "
     "(SELECT count(*) FROM orders)"),
]  # fmt: skip

RIGHT = [
    ("cte_filtered_once", SHARE,
     f"WITH y AS (SELECT o_orderpriority FROM orders WHERE {YEAR}) SELECT sum(CASE WHEN "
     f"{URGENT} THEN 1 ELSE 0 END) * 1.0 / count(*) AS share FROM y"),
    ("one_where", SHARE,
     f"SELECT sum(CASE WHEN {URGENT} THEN 1 ELSE 0 END) * 1.0 / count(*) FROM orders "
     f"WHERE {YEAR}"),
    ("avg_case", SHARE,
     f"SELECT avg(CASE WHEN {URGENT} THEN 1.0 ELSE 0 END) FROM orders WHERE {YEAR}"),
    ("window", SHARE,
     "SELECT share FROM (SELECT o_orderpriority, count(*) * 1.0 / sum(count(*)) OVER () AS "
     f"share FROM orders WHERE {YEAR} GROUP BY o_orderpriority) t WHERE {URGENT}"),
    ("both_subqueries_filtered", SHARE,
     f"SELECT (SELECT count(*) FROM orders WHERE {URGENT} AND {YEAR}) * 1.0 / "
     f"(SELECT count(*) FROM orders WHERE {YEAR})"),
    ("share_of_all_orders", "What share of all orders ever placed were 1-URGENT?",
     f"SELECT (SELECT count(*) FROM orders WHERE {URGENT}) * 1.0 / (SELECT count(*) FROM orders)"),
    ("share_of_the_urgent", "What share of all 1-URGENT orders were placed in 1995?",
     f"SELECT (SELECT count(*) FROM orders WHERE {URGENT} AND {YEAR}) * 1.0 / "
     f"(SELECT count(*) FROM orders WHERE {URGENT})"),
]  # fmt: skip


def test_the_new_code_is_a_question_signal() -> None:
    assert DROPPED in QUESTION_SIGNALS


@pytest.mark.parametrize(("name", "question", "sql"), WRONG, ids=[c[0] for c in WRONG])
def test_a_share_over_every_row_is_withheld(
    tmp_path: Path, tpch_duckdb: Path, name: str, question: str, sql: str
) -> None:
    verdict = scored(tmp_path, tpch_duckdb, question, *[sql] * 5)
    assert DROPPED in codes(verdict), (name, codes(verdict))
    assert verdict["action"] == "withhold"
    message = next(f for f in verdict["findings"] if f["code"] == DROPPED)["message"]
    assert "o_orderdate >= " in message and "o_orderdate < " in message, message
    assert "1-URGENT" not in message.split("drops")[1], message


@pytest.mark.parametrize(("name", "question", "sql"), RIGHT, ids=[c[0] for c in RIGHT])
def test_a_share_of_the_whole_asked_is_shown(
    tmp_path: Path, tpch_duckdb: Path, name: str, question: str, sql: str
) -> None:
    verdict = scored(tmp_path, tpch_duckdb, question, *[sql] * 5)
    assert DROPPED not in codes(verdict), (name, codes(verdict))
    assert verdict["action"] == "show", (name, verdict["reasons"])


# share24: the whole said with no helping verb, a denominator over another year, the whole's
# condition in a JOIN's ON, and a denominator that keeps what the share is of.
YEAR96 = "o_orderdate >= DATE '1996-01-01' AND o_orderdate < DATE '1997-01-01'"
BUILDING = "c_mktsegment = 'BUILDING'"
CUSTOMERS = "orders JOIN customer ON o_custkey = c_custkey"
SEGMENT = "What share of 1995 orders came from the BUILDING segment?"
REVENUE = "What percentage of 1995 revenue came from 1-URGENT orders?"
IN_1996 = "Percentage of orders in 1996 that were urgent"

WRONG_MORE = [
    ("noun_phrase_came_from", SEGMENT,
     f"SELECT (SELECT count(*) FROM {CUSTOMERS} WHERE {BUILDING} AND {YEAR}) * 100.0 / "
     "(SELECT count(*) FROM orders)"),
    ("revenue_came_from", REVENUE,
     f"SELECT sum(CASE WHEN {URGENT} AND {YEAR} THEN o_totalprice ELSE 0 END) * 100.0 / "
     "sum(o_totalprice) FROM orders"),
    ("that_were_after_the_whole", IN_1996,
     f"SELECT (SELECT count(*) FROM orders WHERE {URGENT} AND {YEAR96}) * 100.0 / "
     "(SELECT count(*) FROM orders)"),
    ("another_year_below", SHARE,
     f"SELECT (SELECT count(*) FROM orders WHERE {URGENT} AND {YEAR}) * 1.0 / "
     f"(SELECT count(*) FROM orders WHERE {YEAR96})"),
    ("year_in_join_on", SEGMENT,
     f"SELECT (SELECT count(*) FROM customer JOIN orders ON o_custkey = c_custkey AND {YEAR} "
     f"WHERE {BUILDING}) * 100.0 / (SELECT count(*) FROM orders)"),
    ("below_keeps_the_part", SHARE,
     f"SELECT (SELECT count(*) FROM orders WHERE {URGENT} AND {YEAR}) * 1.0 / "
     f"(SELECT count(*) FROM orders WHERE {URGENT})"),
    ("below_keeps_part_and_whole", SHARE,
     f"SELECT (SELECT count(*) FROM orders WHERE {URGENT} AND {YEAR}) * 1.0 / "
     f"(SELECT count(*) FROM orders WHERE {URGENT} AND {YEAR})"),
]  # fmt: skip

RIGHT_MORE = [
    ("noun_phrase_came_from", SEGMENT,
     f"SELECT (SELECT count(*) FROM {CUSTOMERS} WHERE {BUILDING} AND {YEAR}) * 100.0 / "
     f"(SELECT count(*) FROM orders WHERE {YEAR})"),
    ("revenue_came_from", REVENUE,
     f"SELECT sum(CASE WHEN {URGENT} THEN o_totalprice ELSE 0 END) * 100.0 / "
     f"sum(o_totalprice) FROM orders WHERE {YEAR}"),
    ("that_were_after_the_whole", IN_1996,
     f"SELECT (SELECT count(*) FROM orders WHERE {URGENT} AND {YEAR96}) * 100.0 / "
     f"(SELECT count(*) FROM orders WHERE {YEAR96})"),
    ("same_year_said_otherwise", SHARE,
     f"SELECT (SELECT count(*) FROM orders WHERE {URGENT} AND {YEAR}) * 1.0 / "
     "(SELECT count(*) FROM orders WHERE o_orderdate BETWEEN DATE '1995-01-01' AND "
     "DATE '1995-12-31')"),
    ("year_in_both_join_ons", SEGMENT,
     f"SELECT (SELECT count(*) FROM customer JOIN orders ON o_custkey = c_custkey AND {YEAR} "
     f"WHERE {BUILDING}) * 100.0 / (SELECT count(*) FROM customer JOIN orders "
     f"ON o_custkey = c_custkey AND {YEAR})"),
    # Outside tryout 33, r4: a rate of one subject, one WHERE shared by both sides; the
    # subject said after the verb is no part kept in the denominator.
    ("rate_of_a_subject_one_where",
     "Across all its years, what rate (total price per order) did the 1-URGENT priority manage?",
     f"SELECT sum(o_totalprice) * 1.0 / count(*) FROM orders WHERE {URGENT}"),
    ("growth_over_the_first_year", "By what percentage did revenue grow from 1995 to 1996?",
     f"SELECT 100.0 * ((SELECT sum(o_totalprice) FROM orders WHERE {YEAR96}) / "
     f"(SELECT sum(o_totalprice) FROM orders WHERE {YEAR}) - 1)"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "question", "sql"), WRONG_MORE, ids=[c[0] for c in WRONG_MORE])
def test_a_share_over_another_whole_is_withheld(
    tmp_path: Path, tpch_duckdb: Path, name: str, question: str, sql: str
) -> None:
    verdict = scored(tmp_path, tpch_duckdb, question, *[sql] * 5)
    assert DROPPED in codes(verdict), (name, codes(verdict))
    assert verdict["action"] == "withhold"


@pytest.mark.parametrize(("name", "question", "sql"), RIGHT_MORE, ids=[c[0] for c in RIGHT_MORE])
def test_a_share_of_the_whole_said_as_a_noun_phrase_is_shown(
    tmp_path: Path, tpch_duckdb: Path, name: str, question: str, sql: str
) -> None:
    verdict = scored(tmp_path, tpch_duckdb, question, *[sql] * 5)
    assert DROPPED not in codes(verdict), (name, codes(verdict))
    assert verdict["action"] == "show", (name, verdict["reasons"])
