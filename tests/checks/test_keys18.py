"""Wrong answers five agreeing samples saw shown at 1.00 on agreed16 (key18, tuned on): returns
joined to sales on the item alone, "both" answered with UNION, the years of an EXCEPT swapped,
"more than half of the price" compared the other way, "cash we refund" as the amount returned.
Each wrong answer is withheld with its signal; the right answer beside it does not draw it and
is shown. Small DuckDB warehouses built here, shaped as TPC-DS's (a prefix on every column, a
sales line named by its ticket number and item)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from assay.catalog import Catalog, ColumnInfo, ForeignKey, TableInfo
from assay.checks import QUESTION_SIGNALS, CheckContext
from assay.checks._partial_keys import partial_key_join
from assay.checks._set_ops import both_as_union, except_swapped, share_comparison_flipped
from assay.types import Candidate, FindingCode
from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

CODES = (
    "signal.partial_key_join",
    "signal.both_as_union",
    "signal.except_swapped",
    "signal.share_comparison_flipped",
)


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """40 tickets of 3 items each (items 1-3, so each item sells on 40 lines), 12 of those
    lines returned; store buyers by year, catalog buyers; items with a cost and a price."""
    path = tmp_path_factory.mktemp("keys18") / "shop.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE sales AS SELECT t AS s_ticket_number, i AS s_item_sk, "
        "t % 7 AS s_customer_sk, CAST(10 * i + t AS DECIMAL(8, 2)) AS s_net_paid "
        "FROM range(1, 41) a(t), range(1, 4) b(i)"
    )
    con.execute(
        "CREATE TABLE returns AS SELECT s_ticket_number AS r_ticket_number, s_item_sk AS "
        "r_item_sk, s_customer_sk AS r_customer_sk, s_net_paid / 2 AS r_amt, "
        "s_net_paid / 4 AS r_refunded_cash FROM sales "
        "WHERE s_ticket_number % 10 = 0"
    )
    con.execute(
        "CREATE TABLE store_buys AS SELECT c AS b_customer_sk, 1998 + c % 4 AS b_year "
        "FROM range(1, 60) t(c)"
    )
    con.execute("CREATE TABLE catalog_buys AS SELECT c AS k_customer_sk FROM range(1, 90, 3) t(c)")
    con.execute(
        "CREATE TABLE item AS SELECT i AS i_item_sk, CAST(i % 13 + 1 AS DECIMAL(6, 2)) AS "
        "i_wholesale_cost, CAST(i % 17 + 2 AS DECIMAL(6, 2)) AS i_current_price "
        "FROM range(1, 101) t(i)"
    )
    con.close()
    return path


RETURNED = "What was the total net paid on sales lines that were later returned?"
BOTH = "How many customers have bought both in a store and through the catalog?"
NOT_NEXT = "How many customers bought in a store in 1999 but not in 2000?"
REFUNDED = "How much cash did we refund on returns?"
HALF = "How many items have a wholesale cost that is more than half of their current price?"


def _bought(year: int) -> str:
    return f"SELECT b_customer_sk FROM store_buys WHERE b_year = {year}"


# (name, question, the wrong SQL all five samples agree on, the right SQL, code)
WRONG_AND_RIGHT = [
    (
        "returns_on_item",
        RETURNED,
        "SELECT SUM(s.s_net_paid) FROM sales s JOIN returns r ON s.s_item_sk = r.r_item_sk",
        "SELECT SUM(s.s_net_paid) FROM sales s JOIN returns r ON s.s_item_sk = r.r_item_sk "
        "AND s.s_ticket_number = r.r_ticket_number",
        "signal.partial_key_join",
    ),
    (
        "refunded_cash",
        REFUNDED,
        "SELECT SUM(r_amt) FROM returns",
        "SELECT SUM(r_refunded_cash) FROM returns",
        "signal.column_mismatch",
    ),
    (
        "both_as_union",
        BOTH,
        "SELECT COUNT(*) FROM (SELECT b_customer_sk FROM store_buys UNION "
        "SELECT k_customer_sk FROM catalog_buys) t",
        "SELECT COUNT(*) FROM (SELECT b_customer_sk FROM store_buys INTERSECT "
        "SELECT k_customer_sk FROM catalog_buys) t",
        "signal.both_as_union",
    ),
    (
        "except_swapped",
        NOT_NEXT,
        f"SELECT COUNT(*) FROM ({_bought(2000)} EXCEPT {_bought(1999)}) t",
        f"SELECT COUNT(*) FROM ({_bought(1999)} EXCEPT {_bought(2000)}) t",
        "signal.except_swapped",
    ),
    (
        "half_the_price",
        HALF,
        "SELECT COUNT(*) FROM item WHERE i_current_price / 2 > i_wholesale_cost",
        "SELECT COUNT(*) FROM item WHERE i_wholesale_cost > i_current_price / 2",
        "signal.share_comparison_flipped",
    ),
]


@pytest.mark.parametrize("case", WRONG_AND_RIGHT, ids=[c[0] for c in WRONG_AND_RIGHT])
def test_wrong_withheld_right_shown(tmp_path: Path, shop: Path, case: tuple[str, ...]) -> None:
    name, question, wrong, right, code = case
    wrong_withheld_right_clear(tmp_path, (name, shop, question, wrong, right, code), True)


def test_the_codes_withhold() -> None:
    """Each code is a question signal (assay-1.0 withholds on it) and a known finding code."""
    assert set(CODES) <= set(QUESTION_SIGNALS)
    assert set(CODES) <= {c.value for c in FindingCode}


def _ctx(question: str, sql: str, catalog: Catalog | None = None) -> CheckContext:
    return CheckContext(question, Candidate(sql), "duckdb", catalog)


def test_the_partial_key_names_the_missing_part(tmp_path: Path, shop: Path) -> None:
    verdict = scored(tmp_path, shop, RETURNED, *[WRONG_AND_RIGHT[0][2]] * 5)
    found = next(f for f in verdict["findings"] if f["code"] == "signal.partial_key_join")
    assert found["evidence"]["missing"] == ["r_ticket_number = s_ticket_number"]
    assert "returns.r_ticket_number = sales.s_ticket_number" in found["message"]


@pytest.mark.parametrize(
    "question,sql",
    [
        # distinct items: a repeated row changes nothing
        (
            "Which items were sold and returned?",
            "SELECT DISTINCT s_item_sk FROM sales JOIN returns ON s_item_sk = r_item_sk",
        ),
        # a semi-join asks only whether a return exists
        (
            RETURNED,
            "SELECT SUM(s_net_paid) FROM sales WHERE EXISTS (SELECT 1 FROM returns WHERE "
            "r_item_sk = s_item_sk AND r_ticket_number = s_ticket_number)",
        ),
        # the key in WHERE, written the other way round
        (
            RETURNED,
            "SELECT SUM(s_net_paid) FROM sales, returns WHERE r_ticket_number = s_ticket_number "
            "AND s_item_sk = r_item_sk",
        ),
    ],
    ids=["distinct", "exists", "where_join"],
)
def test_partial_key_silent(tmp_path: Path, shop: Path, question: str, sql: str) -> None:
    verdict = scored(tmp_path, shop, question, *[sql] * 5)
    assert "signal.partial_key_join" not in codes(verdict)


LINES = Catalog(
    (
        TableInfo("lineitem", (ColumnInfo("l_partkey", "INT"), ColumnInfo("l_suppkey", "INT"))),
        TableInfo("partsupp", (ColumnInfo("ps_partkey", "INT"), ColumnInfo("ps_suppkey", "INT"))),
    ),
    (ForeignKey("lineitem", ("l_partkey", "l_suppkey"), "partsupp", ("ps_partkey", "ps_suppkey")),),
)


@pytest.mark.parametrize(
    "on,fires",
    [
        ("l_partkey = ps_partkey", True),
        ("l_partkey = ps_partkey AND l_suppkey = ps_suppkey", False),
    ],
    ids=["part_only", "whole_key"],
)
def test_a_declared_key_needs_no_data(on: str, fires: bool) -> None:
    sql = f"SELECT COUNT(*) FROM lineitem JOIN partsupp ON {on}"
    found = partial_key_join(_ctx("How many lines?", sql, LINES)).findings
    assert bool(found) is fires


@pytest.mark.parametrize(
    "question,sql,fires",
    [
        (
            "What are the names of students who have both cats and dogs?",
            "SELECT name FROM pets WHERE kind = 'cat' UNION SELECT name FROM pets "
            "WHERE kind = 'dog'",
            True,
        ),
        # two sets listed together: UNION is the answer
        (
            "List the names of both the students and the teachers.",
            "SELECT name FROM students UNION SELECT name FROM teachers",
            False,
        ),
        (
            "Which stadiums had concerts in both 2014 and 2015?",
            "SELECT s FROM c WHERE y = 2014 UNION SELECT s FROM c WHERE y = 2015",
            True,
        ),
        (
            "Which stadiums had concerts in both 2014 and 2015?",
            "SELECT s FROM c WHERE y = 2014 AND s IN (SELECT s FROM c WHERE y = 2015)",
            False,
        ),
        (
            "Which stadiums had concerts in 2014 or 2015?",
            "SELECT s FROM c UNION SELECT s FROM d",
            False,
        ),
    ],
    ids=["relative", "two_sets", "years", "in_subquery", "no_both"],
)
def test_both_as_union(question: str, sql: str, fires: bool) -> None:
    assert bool(both_as_union(_ctx(question, sql)).findings) is fires


@pytest.mark.parametrize(
    "sql,fires",
    [
        (
            "SELECT COUNT(*) FROM t WHERE y = 2000 AND c NOT IN (SELECT c FROM t WHERE y = 1999)",
            True,
        ),
        (
            "SELECT COUNT(*) FROM t WHERE y = 1999 AND c NOT IN (SELECT c FROM t WHERE y = 2000)",
            False,
        ),
        (
            "SELECT COUNT(*) FROM t a WHERE y = 2000 AND NOT EXISTS (SELECT 1 FROM t b "
            "WHERE b.c = a.c AND b.y = 1999)",
            True,
        ),
        ("SELECT COUNT(*) FROM t WHERE y = 1999", False),
    ],
    ids=["not_in_swapped", "not_in_right", "not_exists_swapped", "no_exclusion"],
)
def test_except_swapped_reads_not_in_and_not_exists(sql: str, fires: bool) -> None:
    assert bool(except_swapped(_ctx(NOT_NEXT, sql)).findings) is fires


@pytest.mark.parametrize(
    "question,condition,fires",
    [
        (HALF, "i_current_price / 2 < i_wholesale_cost", False),
        (HALF, "i_current_price * 0.5 >= i_wholesale_cost", True),
        (HALF, "i_wholesale_cost <= i_current_price / 2", True),
        (
            "How many items have a wholesale cost that is less than half of their current price?",
            "i_wholesale_cost < i_current_price / 2",
            False,
        ),
        (
            "How many items have a wholesale cost that is less than half of their current price?",
            "i_wholesale_cost > i_current_price / 2",
            True,
        ),
        # the question names neither column before its cue: unread
        (
            "How many items cost more than half the usual?",
            "i_current_price / 2 > i_wholesale_cost",
            False,
        ),
    ],
    ids=["right_reversed", "times_half", "at_most", "less_right", "less_wrong", "unread"],
)
def test_share_comparison(question: str, condition: str, fires: bool) -> None:
    sql = f"SELECT COUNT(*) FROM item WHERE {condition}"
    assert bool(share_comparison_flipped(_ctx(question, sql)).findings) is fires
