"""agreed19 (a development set, tuned on): four wrong answers five agreeing samples saw shown at
1.00 (transactions joined to customers on the day, customers counted once per transaction, by
COUNT(id_customer) or over a join, March ended on the 30th). Each draws its signal and is
withheld; the right answer beside it does not draw it and is shown (the shop: ``_shop19``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.checks import QUESTION_SIGNALS
from assay.types import FindingCode
from tests.checks._helpers import codes, scored, wrong_withheld_right_clear
from tests.checks._shop19 import build_shop


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_shop(tmp_path_factory.mktemp("dev19") / "shop.duckdb")


def test_customers_counted_over_their_own_table_are_not_repeated(
    tmp_path: Path, shop: Path
) -> None:
    """``COUNT(*)`` over the customers' own table counts each once: its id is the key."""
    verdict = scored(
        tmp_path,
        shop,
        "How many customers are there?",
        *["SELECT COUNT(*) FROM customers_seed"] * 5,
    )
    assert "signal.aggregate_mismatch" not in codes(verdict)
    assert verdict["action"] == "show", verdict["reasons"]


EUROPE = "What is the total transaction amount from customers in Europe?"
BUYERS = "How many customers made at least one buy transaction?"
MARCH = "What was the total transaction amount in March 2022?"
NORTH_AMERICA = "How many customers are from North America?"
_EU = " JOIN countries_seed k ON c.country = k.country WHERE k.region = 'EU'"
_NA = " JOIN countries_seed k ON c.country = k.country WHERE k.region = 'NA'"

# (name, question, the wrong SQL all five samples agree on, the right SQL, code)
WRONG_AND_RIGHT = [
    (
        "join_on_dates",
        EUROPE,
        "SELECT SUM(t.transaction_amount_usd) FROM transactions_seed t "
        "JOIN customers_seed c ON t.ds = c.ds" + _EU,
        "SELECT SUM(t.transaction_amount_usd) FROM transactions_seed t "
        "JOIN customers_seed c ON t.id_customer = c.id_customer" + _EU,
        "signal.date_join",
    ),
    (
        # outside tryout 33, w3: COUNT(*) over the one table, no join (shown at 1.00)
        "customers_counted_as_rows_of_one_table",
        BUYERS,
        "SELECT COUNT(*) FROM transactions_seed WHERE transaction_type_name = 'buy'",
        "SELECT COUNT(DISTINCT id_customer) FROM transactions_seed "
        "WHERE transaction_type_name = 'buy'",
        "signal.aggregate_mismatch",
    ),
    (
        "customers_counted_per_transaction",
        BUYERS,
        "SELECT COUNT(id_customer) FROM transactions_seed WHERE transaction_type_name = 'buy'",
        "SELECT COUNT(DISTINCT id_customer) FROM transactions_seed "
        "WHERE transaction_type_name = 'buy'",
        "signal.aggregate_mismatch",
    ),
    (
        "month_ended_a_day_early",
        MARCH,
        "SELECT SUM(transaction_amount_usd) FROM transactions_seed "
        "WHERE ds >= '2022-03-01' AND ds < '2022-03-31'",
        "SELECT SUM(transaction_amount_usd) FROM transactions_seed "
        "WHERE ds >= '2022-03-01' AND ds < '2022-04-01'",
        "signal.period_bound",
    ),
    (
        "customers_counted_over_their_transactions",
        NORTH_AMERICA,
        "SELECT COUNT(*) FROM transactions_seed t "
        "JOIN customers_seed c ON t.id_customer = c.id_customer" + _NA,
        "SELECT COUNT(*) FROM customers_seed c" + _NA,
        "signal.aggregate_mismatch",
    ),
]


@pytest.mark.parametrize("case", WRONG_AND_RIGHT, ids=[c[0] for c in WRONG_AND_RIGHT])
def test_wrong_withheld_right_shown(tmp_path: Path, shop: Path, case: tuple[str, ...]) -> None:
    name, question, wrong, right, code = case
    wrong_withheld_right_clear(tmp_path, (name, shop, question, wrong, right, code), True)


def test_the_date_join_is_a_known_question_signal() -> None:
    assert "signal.date_join" in QUESTION_SIGNALS
    assert "signal.date_join" in {c.value for c in FindingCode}


def test_the_repeated_count_says_how_many_were_counted(tmp_path: Path, shop: Path) -> None:
    wrong = next(c[2] for c in WRONG_AND_RIGHT if c[0] == "customers_counted_per_transaction")
    verdict = scored(tmp_path, shop, BUYERS, *[wrong] * 5)
    found = next(f for f in verdict["findings"] if f["code"] == "signal.aggregate_mismatch")
    assert "counts 26 rows that repeat them: 4 distinct id_customer" in found["message"]


def test_a_date_join_with_the_key_too_is_silent(tmp_path: Path, shop: Path) -> None:
    sql = (
        "SELECT SUM(t.transaction_amount_usd) FROM transactions_seed t JOIN customers_seed c "
        "ON t.id_customer = c.id_customer AND t.ds = c.ds"
    )
    verdict = scored(tmp_path, shop, "What did customers spend on the day they signed up?", sql)
    assert "signal.date_join" not in codes(verdict)


def test_a_sum_asked_by_a_verb_that_adds_up_is_shown(tmp_path: Path, shop: Path) -> None:
    """Outside tryout 33, r1: "Tally up every dollar ..." with its right SUM was withheld as
    asking no total."""
    question = "Tally up every dollar that moved through plain 'buy' transactions."
    sql = (
        "SELECT sum(transaction_amount_usd) FROM transactions_seed "
        "WHERE transaction_type_name = 'buy'"
    )
    verdict = scored(tmp_path, shop, question, *[sql] * 5)
    assert "signal.aggregate_mismatch" not in codes(verdict), verdict["reasons"]
    assert verdict["action"] == "show", verdict["reasons"]
