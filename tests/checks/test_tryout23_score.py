"""``assay score`` on answers every sample agreed on (outside tryout 23, items 4, 11b, 12-14), on
TPC-DS at scale factor 0.01 and the Spider slice's car_1. Each case pairs a wrong SQL and a right
one for the same question, five agreeing samples each.

Wrong answers shown at 1.00 before, withheld now:
- "How many car makers are there?" counted from ``car_names`` (406 for 22 makers): the table
  shares only its first word with ``car_makers``;
- "store sales net paid ... at stores in Tennessee" filtered on the customer's address
  (``ca_state``), not the store's state (``s_state``);
- "the top 3 customers by total store sales net paid" as the three largest single sales.

Right answers withheld before, shown now:
- "Which item category had the highest store sales net profit" as categories ranked by their
  SUM, and "the store sales net paid in 2001" as a SUM (aggregate_mismatch: "no total");
- "store sales net paid to male customers" through ``ss_cdemo_sk`` to
  ``customer_demographics`` (table_mismatch: "reads customer_demographics instead of customer"),
  while "customers whose current address is" still asks the customer's own key (U7);
- "average web sales net profit per order line" as one AVG (grouping_missing).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.checks._helpers import codes, scored

SALES_2001 = (
    "SELECT sum(ss_net_paid) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk "
    "{join}WHERE d_year = 2001{where}"
)
TOP_CUSTOMERS = (
    "SELECT c_customer_id FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk "
    "JOIN customer ON ss_customer_sk = c_customer_sk WHERE d_year = 2001 {rest}"
)
CATEGORY_2002 = (
    "SELECT i_category FROM store_sales JOIN item ON ss_item_sk = i_item_sk JOIN date_dim ON "
    "ss_sold_date_sk = d_date_sk WHERE d_year = 2002 GROUP BY i_category "
    "ORDER BY {measure}(ss_net_profit) DESC LIMIT 1"
)
MALE_1999 = (
    "SELECT sum(ss_net_paid) FROM store_sales JOIN customer_demographics ON ss_cdemo_sk = "
    "cd_demo_sk JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE cd_gender = '{code}' AND "
    "d_year = 1999"
)
PER_LINE = (
    "SELECT avg(ws_net_profit) FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk "
    "WHERE d_year = 2000"
)

# (name, database: "tpcds" or a Spider slice name, question, wrong SQL, right SQL, the signal)
WRONG_SHOWN = [
    (
        "car makers counted from car_names",
        "car_1",
        "How many car makers are there?",
        "SELECT count(*) FROM car_names",
        "SELECT count(*) FROM car_makers",
        "signal.table_mismatch",
    ),
    (
        "stores in Tennessee read as the customer's state",
        "tpcds",
        "What was the total store sales net paid in 2001 at stores in Tennessee?",
        SALES_2001.format(
            join="JOIN customer_address ON ss_addr_sk = ca_address_sk ",
            where=" AND ca_state = 'TN'",
        ),
        SALES_2001.format(
            join="JOIN store ON ss_store_sk = s_store_sk ", where=" AND s_state = 'TN'"
        ),
        "signal.table_mismatch",
    ),
    (
        "top customers by total as the largest single sales",
        "tpcds",
        "Who are the top 3 customers by total store sales net paid in 2001? Give their ids.",
        TOP_CUSTOMERS.format(rest="ORDER BY ss_net_paid DESC LIMIT 3"),
        TOP_CUSTOMERS.format(rest="GROUP BY c_customer_id ORDER BY sum(ss_net_paid) DESC LIMIT 3"),
        "signal.grouping_missing",
    ),
]


def _db(name: str, tpcds: Path) -> str | Path:
    return tpcds if name == "tpcds" else name


@pytest.mark.parametrize("case", WRONG_SHOWN, ids=[c[0] for c in WRONG_SHOWN])
def test_wrong_answer_is_withheld_and_right_one_shown(
    tmp_path: Path, tpcds_duckdb: Path, case: tuple[str, str, str, str, str, str]
) -> None:
    name, db, question, wrong, right, code = case
    verdict = scored(tmp_path, _db(db, tpcds_duckdb), question, *[wrong] * 5)
    assert code in codes(verdict), (name, codes(verdict))
    assert verdict["action"] == "withhold"
    fine = scored(tmp_path, _db(db, tpcds_duckdb), question, *[right] * 5)
    assert fine["action"] == "show", (name, fine["reasons"])


# (name, question, right SQL, the signal it drew, a wrong SQL still caught, what catches it)
RIGHT_WITHHELD = [
    (
        "categories ranked by their highest total",
        "Which item category had the highest store sales net profit in 2002?",
        CATEGORY_2002.format(measure="sum"),
        "signal.aggregate_mismatch",
        CATEGORY_2002.format(measure="sum").replace("DESC", "ASC"),
        "signal.ranking_mismatch",
    ),
    (
        "a named measure over a year is its total",
        "What was the store sales net paid in 2001?",
        SALES_2001.format(join="", where=""),
        "signal.aggregate_mismatch",
        SALES_2001.format(join="", where="").replace("sum(", "avg("),
        "signal.aggregate_mismatch",
    ),
    (
        "male customers through the sale's demographics",
        "What was the total store sales net paid to male customers in 1999?",
        MALE_1999.format(code="M"),
        "signal.table_mismatch",
        MALE_1999.format(code="F"),
        "signal.code_flipped",
    ),
    (
        "per order line is per row",
        "What was the average web sales net profit per order line in 2000?",
        PER_LINE,
        "signal.grouping_missing",
        PER_LINE.replace("avg(", "sum("),
        "signal.aggregate_mismatch",
    ),
]


@pytest.mark.parametrize("case", RIGHT_WITHHELD, ids=[c[0] for c in RIGHT_WITHHELD])
def test_right_answer_is_shown_and_wrong_one_withheld(
    tmp_path: Path, tpcds_duckdb: Path, case: tuple[str, str, str, str, str, str]
) -> None:
    name, question, right, drawn, wrong, catches = case
    fine = scored(tmp_path, tpcds_duckdb, question, *[right] * 5)
    assert drawn not in codes(fine), (name, codes(fine))
    assert fine["action"] == "show", (name, fine["reasons"])
    verdict = scored(tmp_path, tpcds_duckdb, question, *[wrong] * 5)
    assert catches in codes(verdict), (name, codes(verdict))
    assert verdict["action"] == "withhold"


def test_per_order_still_asks_a_group(tmp_path: Path, tpcds_duckdb: Path) -> None:
    """ "Per order" groups an order's lines: one AVG over the lines stays withheld."""
    question = "What was the average web sales net profit per order in 2000?"
    verdict = scored(tmp_path, tpcds_duckdb, question, *[PER_LINE] * 5)
    assert "signal.grouping_missing" in codes(verdict)
    assert verdict["action"] == "withhold"


def test_a_current_address_is_still_the_customers_own(tmp_path: Path, tpcds_duckdb: Path) -> None:
    """ "Customers whose current address is in Texas" names ``c_current_addr_sk``: the sale's
    own ``ss_addr_sk`` stays withheld (tryout 23, U7), the customer's current address shown."""
    question = "How many store sales were made to customers whose current address is in Texas?"
    wrong = (
        "SELECT count(*) FROM store_sales JOIN customer_address ON ss_addr_sk = ca_address_sk "
        "WHERE ca_state = 'TX'"
    )
    right = (
        "SELECT count(*) FROM store_sales JOIN customer ON ss_customer_sk = c_customer_sk JOIN "
        "customer_address ON c_current_addr_sk = ca_address_sk WHERE ca_state = 'TX'"
    )
    verdict = scored(tmp_path, tpcds_duckdb, question, *[wrong] * 5)
    assert "signal.table_mismatch" in codes(verdict)
    assert verdict["action"] == "withhold"
    fine = scored(tmp_path, tpcds_duckdb, question, *[right] * 5)
    assert fine["action"] == "show", fine["reasons"]


def test_stores_said_only_as_the_channel_stay_clear(tmp_path: Path, tpcds_duckdb: Path) -> None:
    """ "Store sales to customers in Tennessee" names ``store`` only inside "store sales": the
    customer's state is the one asked."""
    question = "What was the total store sales net paid in 2001 to customers in Tennessee?"
    sql = SALES_2001.format(
        join="JOIN customer_address ON ss_addr_sk = ca_address_sk ", where=" AND ca_state = 'TN'"
    )
    verdict = scored(tmp_path, tpcds_duckdb, question, *[sql] * 5)
    assert "signal.table_mismatch" not in codes(verdict), codes(verdict)
    assert verdict["action"] == "show", verdict["reasons"]
