"""agreed22's shares and changes (a development set; five samples agreeing on each answer):
wrong answers shown at 1.00 are withheld for their own fault, a share of all customers divided
by ``COUNT(flag)``, the customers with no flag left out (h22_d02: ``_share_of_non_null``), and
growth from 1999 to 2000 divided by the 2000 total (h22_d16: ``_growth_base``). Each check is
tested first on a small schema of its own (``_club22``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from assay.checks import QUESTION_SIGNALS
from assay.checks._growth_base import growth_over_later
from assay.checks._share_of_non_null import share_of_non_null
from assay.connectors import PooledConnector
from tests.checks._club22 import club_at, club_ctx
from tests.checks._helpers import wrong_withheld_right_clear


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PooledConnector]:
    with club_at(tmp_path_factory.mktemp("shares22") / "club.duckdb") as connector:
        yield connector


def test_the_new_codes_are_question_signals() -> None:
    assert {"signal.share_of_non_null", "signal.growth_over_later"} <= set(QUESTION_SIGNALS)


SHARE = "What percentage of members are on the gold plan?"
GOLD = "100.0 * sum(CASE WHEN plan = 'gold' THEN 1 ELSE 0 END)"

SHARE_FIRES = [
    ("count_of_column", SHARE, f"SELECT {GOLD} / count(plan) FROM members"),
    ("cast_denominator", "What share of members are on the gold plan?",
     "SELECT count(*) FILTER (WHERE plan = 'gold') / CAST(count(plan) AS DOUBLE) FROM members"),
]  # fmt: skip
SHARE_SILENT = [
    ("count_star", SHARE, f"SELECT {GOLD} / count(*) FROM members"),
    ("count_of_key", SHARE, f"SELECT {GOLD} / count(id) FROM members"),
    ("base_said_known", "What percentage of members whose plan is known are on the gold plan?",
     f"SELECT {GOLD} / count(plan) FROM members"),
    ("nulls_filtered", SHARE, f"SELECT {GOLD} / count(plan) FROM members WHERE plan <> 'x'"),
    ("numerator_reads_other", "What percentage of members have an id above 50?",
     "SELECT 100.0 * sum(CASE WHEN id > 50 THEN 1 ELSE 0 END) / count(plan) FROM members"),
    ("no_share_asked", "How many gold members are there per member with a plan?",
     f"SELECT {GOLD} / count(plan) FROM members"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "question", "sql"), SHARE_FIRES, ids=[c[0] for c in SHARE_FIRES])
def test_a_share_over_the_rows_with_a_value_fires(
    club: PooledConnector, name: str, question: str, sql: str
) -> None:
    findings = share_of_non_null(club_ctx(club, question, sql)).findings
    assert [f.code for f in findings] == ["signal.share_of_non_null"], name
    assert findings[0].evidence["n_null"] == 10
    assert "COUNT(*)" in findings[0].message


@pytest.mark.parametrize(
    ("name", "question", "sql"), SHARE_SILENT, ids=[c[0] for c in SHARE_SILENT]
)
def test_a_share_over_every_row_is_silent(
    club: PooledConnector, name: str, question: str, sql: str
) -> None:
    assert share_of_non_null(club_ctx(club, question, sql)).findings == (), name


GROW = "By what percentage did sales grow from 2020 to 2021?"
DROP = "By what percentage did sales decline from 2020 to 2021?"
Y = "sum(CASE WHEN yr = {} THEN amount ELSE 0 END)"
Y20, Y21 = Y.format(2020), Y.format(2021)
PER_YEAR = "WITH t AS (SELECT yr, sum(amount) AS s FROM sales GROUP BY yr) "
SUBQ = "(SELECT s FROM t WHERE yr = {})"
BY_YEAR = "SELECT yr, sum(amount) AS s FROM sales GROUP BY yr"

GROWTH_FIRES = [
    ("case_per_year", GROW, f"SELECT 100.0 * ({Y21} - {Y20}) / {Y21} FROM sales"),
    ("filter_per_year", GROW,
     "SELECT (sum(amount) FILTER (WHERE yr = 2021) - sum(amount) FILTER (WHERE yr = 2020)) "
     "/ sum(amount) FILTER (WHERE yr = 2021) FROM sales"),
    ("scalar_subqueries", GROW,
     f"{PER_YEAR}SELECT ({SUBQ.format(2021)} - {SUBQ.format(2020)}) / {SUBQ.format(2021)}"),
    ("columns_of_a_cte", GROW,
     f"WITH t AS (SELECT {Y21} AS now_s, {Y20} AS then_s FROM sales) "
     "SELECT 100.0 * (now_s - then_s) / now_s FROM t"),
    ("lag_over_years", "How much did sales change each year, in percent?",
     f"SELECT yr, 100.0 * (s - lag(s) OVER (ORDER BY yr)) / s FROM ({BY_YEAR}) AS y"),
    ("decline_over_later", DROP, f"SELECT 100.0 * ({Y20} - {Y21}) / NULLIF({Y21}, 0) FROM sales"),
]  # fmt: skip
GROWTH_SILENT = [
    ("over_the_base", GROW, f"SELECT 100.0 * ({Y21} - {Y20}) / {Y20} FROM sales"),
    ("decline_over_the_base", DROP, f"SELECT 100.0 * ({Y20} - {Y21}) / {Y20} FROM sales"),
    ("lag_as_base", "How much did sales change each year, in percent?",
     f"SELECT yr, 100.0 * (s - lag(s) OVER (ORDER BY yr)) / lag(s) OVER (ORDER BY yr) "
     f"FROM ({BY_YEAR}) AS y"),
    ("margin_not_two_periods", "How did the margin change?",
     "SELECT (sum(amount) - sum(cost)) / sum(amount) FROM sales"),
    ("base_named", "By how much did sales grow from 2020 to 2021, as a percentage of 2021's?",
     f"SELECT 100.0 * ({Y21} - {Y20}) / {Y21} FROM sales"),
    ("no_change_asked", "What share of two years' sales came in 2021, less 2020's?",
     f"SELECT ({Y21} - {Y20}) / {Y21} FROM sales"),
    ("months_and_years_mixed", GROW,
     "SELECT (sum(CASE WHEN yr = 2021 AND mo = 1 THEN amount END) - sum(CASE WHEN yr = 2020 "
     "AND mo = 12 THEN amount END)) / sum(CASE WHEN yr = 2021 AND mo = 1 THEN amount END) "
     "FROM sales"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "question", "sql"), GROWTH_FIRES, ids=[c[0] for c in GROWTH_FIRES]
)
def test_a_change_over_the_later_period_fires(
    club: PooledConnector, name: str, question: str, sql: str
) -> None:
    findings = growth_over_later(club_ctx(club, question, sql)).findings
    assert [f.code for f in findings] == ["signal.growth_over_later"], name
    assert "earlier period" in findings[0].message


@pytest.mark.parametrize(
    ("name", "question", "sql"), GROWTH_SILENT, ids=[c[0] for c in GROWTH_SILENT]
)
def test_a_change_over_its_base_is_silent(
    club: PooledConnector, name: str, question: str, sql: str
) -> None:
    assert growth_over_later(club_ctx(club, question, sql)).findings == (), name


# The records themselves, on TPC-DS and TPC-H at scale factor 0.01 (agreed22).
CS = "catalog_sales JOIN date_dim ON cs_sold_date_sk = d_date_sk WHERE d_year IN (1999, 2000)"
CS_YEAR = "sum(CASE WHEN d_year = {} THEN cs_net_paid ELSE 0 END)"
WRONG_SHOWN = [
    ("h22_d02", "What percentage of our customers have the preferred customer flag set?",
     "SELECT 100.0 * sum(CASE WHEN c_preferred_cust_flag = 'Y' THEN 1 ELSE 0 END) / "
     "count(c_preferred_cust_flag) AS pct_preferred FROM customer",
     "SELECT 100.0 * count(*) FILTER (WHERE c_preferred_cust_flag = 'Y') / count(*) "
     "FROM customer",
     "signal.share_of_non_null"),
    ("h22_d16", "By what percentage did catalog sales net paid grow from 1999 to 2000?",
     f"SELECT 100.0 * ({CS_YEAR.format(2000)} - {CS_YEAR.format(1999)}) / "
     f"{CS_YEAR.format(2000)} AS growth_pct FROM {CS}",
     f"SELECT 100.0 * ({CS_YEAR.format(2000)} - {CS_YEAR.format(1999)}) / "
     f"{CS_YEAR.format(1999)} AS growth_pct FROM {CS}",
     "signal.growth_over_later"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "question", "wrong", "right", "code"), WRONG_SHOWN, ids=[c[0] for c in WRONG_SHOWN]
)
def test_a_wrong_answer_shown_is_withheld_and_the_right_one_shown(
    tmp_path: Path, tpcds_duckdb: Path, name: str, question: str, wrong: str, right: str, code: str
) -> None:
    case = (name, tpcds_duckdb, question, wrong, right, code)
    wrong_withheld_right_clear(tmp_path, case, right_shown=True)
