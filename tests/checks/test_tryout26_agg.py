"""Outside tryout 26's aggregate readings (t_w1, s_r3, t_r5, t_r6 and probes p1, p2, p3, p5), on a
small TPC-H-like store built here: customers counted once per order were shown at 1.00 (TPC-H's
glued key ``o_custkey``), and right answers were withheld: a rate asked as a ratio of sums ("the
click-through rate", "rate of clicks per impression"), a "share" or "fraction" like a rate, and
"counting customers with no orders as zero" read as an exclusion against a LEFT JOIN. And TPC-H's
column names, a table's prefix and glued words, hid "total quantity" as ``sum(l_extendedprice)``
(t_w5, p7) and "per order priority" as ``GROUP BY o_orderstatus`` (t_w8, p8)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from tests.checks._helpers import codes, scored

TABLES = """
CREATE TABLE nation (n_nationkey INTEGER PRIMARY KEY, n_name VARCHAR);
CREATE TABLE customer (c_custkey INTEGER PRIMARY KEY, c_name VARCHAR, c_nationkey INTEGER);
CREATE TABLE orders (
    o_orderkey INTEGER PRIMARY KEY, o_custkey INTEGER, o_orderdate DATE,
    o_orderstatus VARCHAR, o_orderpriority VARCHAR);
CREATE TABLE lineitem (
    l_orderkey INTEGER, l_quantity INTEGER, l_extendedprice DOUBLE, l_returnflag VARCHAR);
CREATE TABLE marketing_campaign_metrics (
    campaign_name VARCHAR, day DATE, clicks INTEGER, impressions INTEGER);
INSERT INTO nation VALUES (1, 'JAPAN'), (2, 'GERMANY');
INSERT INTO customer SELECT i, 'Customer#' || i, 1 + i % 2 FROM range(1, 41) t(i);
INSERT INTO orders SELECT i, 1 + i % 12, DATE '1995-01-01' + CAST(i AS INTEGER),
    ['F', 'O', 'P'][1 + i % 3],
    ['1-URGENT', '2-HIGH', '3-MEDIUM', '4-NOT SPECIFIED', '5-LOW'][1 + i % 5]
    FROM range(1, 121) t(i);
INSERT INTO lineitem SELECT 1 + i % 120, 1 + i % 7, 900.5 + i,
    CASE WHEN i % 4 = 0 THEN 'R' ELSE 'N' END
    FROM range(1, 401) t(i);
INSERT INTO marketing_campaign_metrics SELECT
    CASE WHEN i % 2 = 0 THEN 'Summer Fitness Campaign' ELSE 'Back to School' END,
    DATE '2024-06-01' + CAST(i AS INTEGER), 10 + i, 1000 + 17 * i FROM range(1, 31) t(i);
"""

CTR = (
    "SELECT sum(clicks) * 1.0 / sum(impressions) AS ctr FROM marketing_campaign_metrics "
    "WHERE campaign_name = 'Summer Fitness Campaign'"
)
SHARE = "SELECT avg(CASE WHEN l_returnflag = 'R' THEN 1.0 ELSE 0.0 END) FROM lineitem"
FRACTION = (
    "SELECT sum(CASE WHEN l_returnflag = 'R' THEN 1 ELSE 0 END) * 1.0 / count(*) FROM lineitem"
)
ZERO_ORDERS = (
    "SELECT c.c_name, COALESCE(x.cnt, 0) AS orders FROM customer c "
    "JOIN nation n ON n.n_nationkey = c.c_nationkey "
    "LEFT JOIN (SELECT o_custkey, count(*) AS cnt FROM orders GROUP BY o_custkey) x "
    "ON x.o_custkey = c.c_custkey WHERE n.n_name = 'JAPAN'"
)
ZERO_ORDERS_INNER = ZERO_ORDERS.replace("LEFT JOIN", "JOIN")

RIGHT = [
    # (name, question, right SQL): each was withheld
    ("s_r3", "What was the click-through rate of the Summer Fitness Campaign?", CTR),
    ("p1", "What was the click through rate of the Summer Fitness Campaign?", CTR),
    ("p2", "What was the rate of clicks per impression for the Summer Fitness Campaign?", CTR),
    ("t_r6", "What share of line items were returned (return flag R)?", SHARE),
    ("p3", "What fraction of line items were returned (return flag R)?", FRACTION),
    (
        "t_r5",
        "How many orders did each customer from JAPAN place, counting customers with no "
        "orders as zero?",
        ZERO_ORDERS,
    ),
    (
        "p5",
        "How many orders did each customer from JAPAN place, including customers without orders?",
        ZERO_ORDERS,
    ),
]


@pytest.fixture(scope="module")
def tpch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tpch26") / "tpch.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute(TABLES)
    return path


@pytest.mark.parametrize("case", RIGHT, ids=[c[0] for c in RIGHT])
def test_right_answers_are_shown(tmp_path: Path, tpch: Path, case: tuple[str, str, str]) -> None:
    name, question, sql = case
    verdict = scored(tmp_path, tpch, question, *[sql] * 5)
    assert verdict["action"] == "show", (name, codes(verdict), verdict["reasons"])


def test_a_plain_sum_beside_a_rate_is_still_judged(tmp_path: Path, tpch: Path) -> None:
    """Only the SUMs inside the ratio are the rate's: a total of clicks returned is not."""
    sql = (
        "SELECT sum(clicks) FROM marketing_campaign_metrics "
        "WHERE campaign_name = 'Summer Fitness Campaign'"
    )
    question = "What was the click-through rate of the Summer Fitness Campaign?"
    verdict = scored(tmp_path, tpch, question, *[sql] * 5)
    assert "signal.aggregate_mismatch" in codes(verdict)


def test_customers_without_orders_dropped_by_an_inner_join_stay_judged(
    tmp_path: Path, tpch: Path
) -> None:
    """An inclusive "with no orders" answered with an inner join loses those customers: the
    exception needs the outer join that keeps them."""
    question = (
        "How many orders did each customer from JAPAN place, counting customers with no "
        "orders as zero?"
    )
    verdict = scored(tmp_path, tpch, question, *[ZERO_ORDERS_INNER] * 5)
    assert "signal.negation_missing" in codes(verdict)


@pytest.mark.parametrize(
    "question",
    [
        "How many customers placed at least one order in 1995?",  # t_w1
        "How many customers placed an order in 1995?",  # the glued key alone
    ],
)
def test_customers_counted_once_per_order_are_withheld(
    tmp_path: Path, tpch: Path, question: str
) -> None:
    """``count(o_custkey)`` over orders counts orders, not customers (t_w1: shown at 1.00)."""
    wrong = "SELECT count(o_custkey) FROM orders WHERE year(o_orderdate) = 1995"
    verdict = scored(tmp_path, tpch, question, *[wrong] * 5)
    assert "signal.aggregate_mismatch" in codes(verdict)
    assert verdict["action"] == "withhold"
    right = wrong.replace("count(o_custkey)", "count(DISTINCT o_custkey)")
    fine = scored(tmp_path, tpch, question, *[right] * 5)
    assert fine["action"] == "show", (codes(fine), fine["reasons"])


WRONG = [
    # (name, question, wrong SQL, right SQL, the signal): each wrong one was shown at 1.00
    (
        "t_w5",
        "What is the total quantity of line items with return flag R?",
        "SELECT sum(l_extendedprice) FROM lineitem WHERE l_returnflag = 'R'",
        "SELECT sum(l_quantity) FROM lineitem WHERE l_returnflag = 'R'",
        "signal.column_mismatch",
    ),
    (
        "p7",
        "What is the total l_quantity of line items with return flag R?",
        "SELECT sum(l_extendedprice) FROM lineitem WHERE l_returnflag = 'R'",
        "SELECT sum(l_quantity) FROM lineitem WHERE l_returnflag = 'R'",
        "signal.column_mismatch",
    ),
    (
        "t_w8",
        "How many orders are there per order priority?",
        "SELECT o_orderstatus, count(*) FROM orders GROUP BY o_orderstatus",
        "SELECT o_orderpriority, count(*) FROM orders GROUP BY o_orderpriority",
        "signal.grouping_missing",
    ),
    (
        "p8",
        "How many orders are there for each order priority?",
        "SELECT o_orderstatus, count(*) FROM orders GROUP BY o_orderstatus",
        "SELECT o_orderpriority, count(*) FROM orders GROUP BY o_orderpriority",
        "signal.grouping_missing",
    ),
]


@pytest.mark.parametrize("case", WRONG, ids=[c[0] for c in WRONG])
def test_tpch_columns_named_by_their_words_are_read(
    tmp_path: Path, tpch: Path, case: tuple[str, str, str, str, str]
) -> None:
    name, question, wrong, right, code = case
    verdict = scored(tmp_path, tpch, question, *[wrong] * 5)
    assert code in codes(verdict), (name, codes(verdict))
    assert verdict["action"] == "withhold"
    fine = scored(tmp_path, tpch, question, *[right] * 5)
    assert fine["action"] == "show", (name, codes(fine), fine["reasons"])


def test_customers_without_orders_counted_by_an_anti_join_are_shown(
    tmp_path: Path, tpch: Path
) -> None:
    """The anti-join's ``o.o_custkey`` is all NULL: the customers are ``c.c_custkey``'s values,
    and no count repeats them (agreed16's h16_h17, withheld while only the first side of the
    join key was read)."""
    sql = (
        "SELECT COUNT(*) AS customers FROM customer c LEFT JOIN orders o "
        "ON o.o_custkey = c.c_custkey WHERE o.o_orderkey IS NULL"
    )
    verdict = scored(tmp_path, tpch, "How many customers have never placed an order?", *[sql] * 5)
    assert verdict["action"] == "show", (codes(verdict), verdict["reasons"])
