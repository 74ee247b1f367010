"""agreed20 (a development set, tuned on): right answers withheld on a misreading of how they
were written. Each pair: a wrong answer the check must still catch, and the right answer
phrased as agreed20's was, now clear of the check and shown (the shop: ``_shop20``).

- a top N kept by ``ROW_NUMBER() ... WHERE rn <= N`` read as "the LIMIT is None" and, ordered by
  ``rn``, as sorted ascending (ranking_mismatch);
- a value per region computed by a correlated subquery per row of ``region``, read as "each"
  without GROUP BY (grouping_missing);
- an average written ``sum(x) / count(*)`` read as "no AVG" and "a SUM nobody asked"; the
  average "per catalog order" as ``sum / count(DISTINCT cs_order_number)``, read also as an
  unasked DISTINCT and a missing group (aggregate_mismatch, grouping_missing);
- "new versus returning customers" answered in two rows, read as one number asked
  (shape_mismatch);
- "sold more than 1500 units" as ``HAVING sum(ss_quantity) > 1500``, read as a SUM nobody asked
  (aggregate_mismatch);
- "how many store tickets" counted over ``store_sales``, read as counting stores
  (table_mismatch);
- "the percentage of lifetime spend that went to tax" as tax over ``sum(pretax + tax)`` in a
  CTE, read as reading the parts instead of the with-tax column (column_mismatch) and as sums
  nobody asked;
- an indicator summed over sales lines joined to their dates, read as date_dim's column added
  once per line (sum_fanned_out);
- ``dayname(d_date)``, refused by the guard as an unknown function.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.checks import CheckContext
from assay.checks._consistency import ranking_fit
from assay.checks._cues import read_cues
from assay.types import Candidate
from tests.checks._helpers import codes, scored, wrong_withheld_right_clear
from tests.checks._shop20 import build_shop


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return build_shop(tmp_path_factory.mktemp("dev20"))


_RANKED = (
    "SELECT category, revenue FROM (SELECT i.i_category AS category, "
    "sum(ss.ss_ext_sales_price) AS revenue, row_number() OVER (ORDER BY "
    "sum(ss.ss_ext_sales_price) {way}) AS rn FROM store_sales ss JOIN item i "
    "ON ss.ss_item_sk = i.i_item_sk GROUP BY i.i_category) t WHERE rn <= {n} ORDER BY rn"
)
_BALANCE = (
    "SELECT r.r_name, (SELECT avg(c.c_acctbal) FROM customer c JOIN nation n "
    "ON c.c_nationkey = n.n_nationkey{where}) AS avg_balance FROM region r"
)
_PROFIT = (
    "SELECT {agg} AS profit FROM catalog_sales WHERE cs_sold_date_sk IN "
    "(SELECT d_date_sk FROM date_dim WHERE d_year = 2000)"
)
_UNITS = (
    "SELECT i.i_category FROM store_sales ss JOIN item i ON ss.ss_item_sk = i.i_item_sk "
    "JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2000 AND "
    "d.d_weekend = 'Y' GROUP BY i.i_category HAVING sum({measure}) > 300"
)
_TICKETS = (
    "SELECT count(DISTINCT {ticket}) AS tickets FROM {table} WHERE {sold} IN "
    "(SELECT d_date_sk FROM date_dim WHERE d_weekend = 'Y' AND d_year = 2000)"
)
_HOLIDAY = (
    "SELECT sum(CASE WHEN d.d_holiday = 'Y' THEN 1 ELSE 0 END) AS n FROM store_sales ss "
    "JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_year = 2000"
)
_VERSUS = (
    "SELECT 'new' AS customer_type, avg(CASE WHEN CUSTOMER_TYPE = 'new' THEN "
    "COUNT_LIFETIME_ORDERS END) AS avg_orders FROM SMG_DEMO UNION ALL SELECT 'returning', "
    "avg(CASE WHEN CUSTOMER_TYPE = 'returning' THEN COUNT_LIFETIME_ORDERS END) FROM SMG_DEMO"
)

# (name, database (0: TPC, 1: the summary), question, wrong, right, code): the wrong SQL draws
# the code, the right one is shown
PAIRS = [
    (
        "row_number_keeps_other_n",
        0,
        "What were the top 3 item categories by store sales revenue, highest first?",
        _RANKED.format(way="DESC", n=5),
        _RANKED.format(way="DESC", n=3),
        "signal.ranking_mismatch",
    ),
    (
        "row_number_numbers_lowest_first",
        0,
        "What were the top 3 item categories by store sales revenue, highest first?",
        _RANKED.format(way="ASC", n=3),
        _RANKED.format(way="DESC", n=3),
        "signal.ranking_mismatch",
    ),
    (
        "correlated_subquery_per_region",
        0,
        "What is the average customer account balance in each region?",
        _BALANCE.format(where=""),
        _BALANCE.format(where=" WHERE n.n_regionkey = r.r_regionkey"),
        "signal.grouping_missing",
    ),
    (
        "average_written_as_sum_over_count",
        1,
        "What's the average tax paid by customers with at least 50 orders?",
        "SELECT sum(LIFETIME_TAX_PAID) AS tax FROM SMG_DEMO WHERE COUNT_LIFETIME_ORDERS >= 50",
        "SELECT sum(LIFETIME_TAX_PAID) / count(*) AS avg_tax FROM SMG_DEMO "
        "WHERE COUNT_LIFETIME_ORDERS >= 50",
        "signal.aggregate_mismatch",
    ),
    (
        "average_per_order_over_lines",
        0,
        "What was the average net profit per catalog order in 2000?",
        _PROFIT.format(agg="avg(cs_net_profit)"),
        _PROFIT.format(agg="sum(cs_net_profit) / count(DISTINCT cs_order_number)"),
        "signal.grouping_missing",
    ),
    (
        "units_sold_summed",
        0,
        "Which item categories sold more than 300 units in our store on weekends in 2000?",
        _UNITS.format(measure="ss.ss_ext_sales_price"),
        _UNITS.format(measure="ss.ss_quantity"),
        "signal.aggregate_mismatch",
    ),
    (
        "store_tickets_counted",
        0,
        "How many store tickets were rung up on weekend days in 2000?",
        _TICKETS.format(table="catalog_sales", ticket="cs_order_number", sold="cs_sold_date_sk"),
        _TICKETS.format(table="store_sales", ticket="ss_ticket_number", sold="ss_sold_date_sk"),
        "signal.table_mismatch",
    ),
    (
        "with_tax_spend_as_pretax_plus_tax",
        1,
        "What percentage of all lifetime spend went to tax?",
        "SELECT round(100.0 * sum(LIFETIME_TAX_PAID) / sum(LIFETIME_SPEND_PRETAX), 4) "
        "FROM SMG_DEMO",
        "WITH t AS (SELECT sum(LIFETIME_TAX_PAID) AS tax, sum(LIFETIME_SPEND_PRETAX + "
        "LIFETIME_TAX_PAID) AS total FROM SMG_DEMO) SELECT round(100.0 * tax / total, 4) FROM t",
        "signal.column_mismatch",
    ),
]


@pytest.mark.parametrize("case", PAIRS, ids=[c[0] for c in PAIRS])
def test_wrong_withheld_right_shown(
    tmp_path: Path, shop: tuple[Path, Path], case: tuple[str, int, str, str, str, str]
) -> None:
    name, db, question, wrong, right, code = case
    wrong_withheld_right_clear(tmp_path, (name, shop[db], question, wrong, right, code), True)


def test_versus_asks_two_numbers(tmp_path: Path, shop: tuple[Path, Path]) -> None:
    """ "new versus returning" asks one number per side; asked of all customers, the same two
    rows still draw the signal, and so does a ratio of the two sides."""
    question = "What is the average number of lifetime orders for new versus returning customers?"
    verdict = scored(tmp_path, shop[1], question, *[_VERSUS] * 5)
    assert "signal.shape_mismatch" not in codes(verdict)
    assert verdict["action"] == "show", verdict["reasons"]
    question = "What is the average number of lifetime orders of our customers?"
    verdict = scored(tmp_path, shop[1], question, *[_VERSUS] * 5)
    assert "signal.shape_mismatch" in codes(verdict)
    assert read_cues("What is the average gap in orders, new versus returning?").single_number


def test_indicator_counts_the_lines_asked(tmp_path: Path, shop: tuple[Path, Path]) -> None:
    """An indicator summed over sales lines joined to their dates counts the lines asked for,
    each once; asked to count holidays, the same sum counts each holiday once per line."""
    question = "How many store sales lines in 2000 were sold on a holiday?"
    verdict = scored(tmp_path, shop[0], question, *[_HOLIDAY] * 5)
    assert "signal.sum_fanned_out" not in codes(verdict)
    assert verdict["action"] == "show", verdict["reasons"]
    question = "How many holidays were there in 2000?"
    verdict = scored(tmp_path, shop[0], question, *[_HOLIDAY] * 5)
    assert "signal.sum_fanned_out" in codes(verdict)


STILL_COUNTED = [
    ("stores", "How many stores are there?", "SELECT count(*) FROM store_sales"),
    (
        "store_tickets_as_lines",  # agreed16, h16_d11: lines counted, not tickets
        "How many store tickets had more than 5 line items?",
        "SELECT count(*) AS tickets FROM store_sales WHERE ss_quantity > 5",
    ),
]


@pytest.mark.parametrize("case", STILL_COUNTED, ids=[c[0] for c in STILL_COUNTED])
def test_store_lines_still_judged(
    tmp_path: Path, shop: tuple[Path, Path], case: tuple[str, str, str]
) -> None:
    """Stores, or store tickets, counted as store_sales' lines still draw the signal."""
    name, question, sql = case
    verdict = scored(tmp_path, shop[0], question, *[sql] * 5)
    assert "signal.table_mismatch" in codes(verdict), (name, codes(verdict))


def test_dayname_answer_shown(tmp_path: Path, shop: tuple[Path, Path]) -> None:
    """``dayname(d_date)`` runs (it was refused by the guard as unknown: no result)."""
    sql = (
        "SELECT dayname(d.d_date) AS weekday, count(*) AS lines FROM store_sales ss "
        "JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk WHERE d.d_date BETWEEN "
        "DATE '2000-12-01' AND DATE '2000-12-31' GROUP BY dayname(d.d_date)"
    )
    question = "For each day of the week, how many store sales lines were there in December 2000?"
    verdict = scored(tmp_path, shop[0], question, *[sql] * 5)
    assert verdict["action"] == "show", verdict["reasons"]


_DENSE = (
    "SELECT T3.spec FROM (SELECT T2.spec, DENSE_RANK() OVER (ORDER BY COUNT(*) DESC) AS C1 "
    "FROM micro AS T2 GROUP BY T2.spec) AS T3 WHERE T3.C1 <= {n}"
)


@pytest.mark.parametrize(("n", "fired"), [(4, False), (5, True)], ids=["four", "five"])
def test_dense_rank_cut_is_top_n(n: int, fired: bool) -> None:
    """EHRSQL's gold keeps "the top four most frequent" as a DENSE_RANK cut on a qualified
    column (591 of its gold answers drew "the LIMIT is None"); a cut on another n still fires."""
    question = "What are the top four most frequent specimens tested?"
    ctx = CheckContext(question, Candidate(_DENSE.format(n=n)), "sqlite")
    found = [f.code for f in ranking_fit(ctx).findings]
    assert ("signal.ranking_mismatch" in found) is fired, found
