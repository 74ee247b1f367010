"""Coded conditions read backwards, dropped, or keyed to another row, five samples agreeing on
each (outside tryout 23, shown at 1.00): a yes/no flag ("on weekends" as ``d_weekend = 'N'``),
a marital status ("single" as ``cd_marital_status = 'M'``), a sex word with no condition on
the sex column ("female students older than 20" as ``WHERE Age > 20``), and a foreign key
compared with another row's number ("countries in Europe" as ``Continent = 1``, america). Each
wrong answer is withheld for its own fault; the right answer beside it does not draw the code.
Real data: TPC-DS at scale factor 0.01 and the Spider slice (skipped when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.checks import QUESTION_SIGNALS
from assay.checks._coded import _asked_status, asked_flag, flag_words
from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

SALES = "SELECT count(*) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE "
STATUS = (
    "SELECT count(*) FROM store_sales JOIN customer_demographics ON ss_cdemo_sk = cd_demo_sk "
    "JOIN date_dim ON ss_sold_date_sk = d_date_sk WHERE cd_marital_status = '{}' "
    "AND d_year = 2000"
)
WEEKENDS = "How many store sales happened on weekends in 2001?"
WEEKDAYS = "How many store sales happened on weekdays in 2001?"
HOLIDAYS = "How many store sales happened on holidays in 2001?"
PREFERRED = "How many customers have a preferred flag set?"
SINGLE = "How many store sales were made to single customers in 2000?"
MARRIED = "How many store sales were made to married customers in 2000?"

# (name, question, the wrong SQL all five samples agree on, the right SQL)
FLAGS = [
    ("weekends_as_n", WEEKENDS, SALES + "d_year = 2001 AND d_weekend = 'N'",
     SALES + "d_year = 2001 AND d_weekend = 'Y'"),
    ("weekdays_as_y", WEEKDAYS, SALES + "d_year = 2001 AND d_weekend = 'Y'",
     SALES + "d_year = 2001 AND d_weekend = 'N'"),
    ("holidays_as_n", HOLIDAYS, SALES + "d_year = 2001 AND d_holiday = 'N'",
     SALES + "d_year = 2001 AND d_holiday = 'Y'"),
    ("preferred_as_n", PREFERRED, "SELECT count(*) FROM customer WHERE c_preferred_cust_flag = 'N'",
     "SELECT count(*) FROM customer WHERE c_preferred_cust_flag = 'Y'"),
    ("not_preferred_as_y", "How many customers are not preferred?",
     "SELECT count(*) FROM customer WHERE c_preferred_cust_flag <> 'N'",
     "SELECT count(*) FROM customer WHERE c_preferred_cust_flag = 'N'"),
]  # fmt: skip


def test_the_codes_are_question_signals() -> None:
    assert {"signal.code_flipped", "signal.code_dropped", "signal.key_misread"} <= set(
        QUESTION_SIGNALS
    )


@pytest.mark.parametrize(("name", "question", "wrong", "right"), FLAGS, ids=[c[0] for c in FLAGS])
def test_a_flag_read_backwards_is_withheld_and_the_right_one_shown(
    tmp_path: Path, tpcds_duckdb: Path, name: str, question: str, wrong: str, right: str
) -> None:
    case = (name, tpcds_duckdb, question, wrong, right, "signal.code_flipped")
    wrong_withheld_right_clear(tmp_path, case, right_shown=True)


@pytest.mark.parametrize(
    ("question", "wrong", "right"),
    [
        (SINGLE, STATUS.format("M"), STATUS.format("S")),
        (MARRIED, STATUS.format("S"), STATUS.format("M")),
    ],
    ids=["single_as_m", "married_as_s"],
)  # fmt: skip
def test_a_marital_status_read_backwards_draws_code_flipped(
    tmp_path: Path, tpcds_duckdb: Path, question: str, wrong: str, right: str
) -> None:
    case = ("status", tpcds_duckdb, question, wrong, right, "signal.code_flipped")
    wrong_withheld_right_clear(tmp_path, case)


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        # a negation just after the flag's words, or a code named outright: read as written
        ("How many customers have the preferred flag not set?",
         "SELECT count(*) FROM customer WHERE c_preferred_cust_flag = 'Y'"),
        ("How many customers have c_preferred_cust_flag = 'N'?",
         "SELECT count(*) FROM customer WHERE c_preferred_cust_flag = 'N'"),
        # both weekends and weekdays: a breakdown, no one state to check
        ("Compare store sales on weekends and weekdays in 2001.",
         SALES + "d_year = 2001 AND d_weekend = 'N'"),
        # the day after a holiday is another flag than "holiday"
        (HOLIDAYS, SALES + "d_year = 2001 AND d_following_holiday = 'N'"),
        # "single or married": two statuses
        ("How many sales went to single or married customers in 2000?", STATUS.format("M")),
    ],
    ids=["not_set_after", "code_said", "both", "other_flag", "two_statuses"],
)  # fmt: skip
def test_silent_where_the_flag_asked_for_is_not_certain(
    tmp_path: Path, tpcds_duckdb: Path, question: str, sql: str
) -> None:
    assert "signal.code_flipped" not in codes(scored(tmp_path, tpcds_duckdb, question, sql))


@pytest.mark.parametrize(
    ("question", "phrase", "asked"),
    [
        (WEEKENDS, ("weekend",), True),
        (WEEKDAYS, ("weekend",), False),
        ("sales on business days", ("weekend",), False),
        ("sales not on weekends", ("weekend",), False),  # "on", "during" skipped
        ("sales made during weekends", ("weekend",), True),
        ("sales that did not happen on weekends", ("weekend",), None),
        ("non-holiday sales", ("holiday",), False),
        ("sales that are not holidays", ("holiday",), False),
        (PREFERRED, ("preferred",), True),
        ("customers without the preferred flag", ("preferred",), None),
        ("customers whose preferred flag is N", ("preferred",), None),
        ("orders whose active flag is 0", ("active",), None),
        ("sales on weekends and weekdays", ("weekend",), None),
        ("How many customers are there?", ("preferred",), None),
    ],
)
def test_the_flag_state_asked_for(
    question: str, phrase: tuple[str, ...], asked: bool | None
) -> None:
    assert asked_flag(question, phrase) is asked


@pytest.mark.parametrize(
    ("table", "column", "words"),
    [
        ("customer", "c_preferred_cust_flag", ("preferred",)),
        ("date_dim", "d_weekend", ("weekend",)),
        ("date_dim", "d_following_holiday", ("following", "holiday")),
        ("web_page", "wp_autogen_flag", ("autogen",)),
        ("school_bus", "If_full_time", ("full", "time")),
        ("people", "is_flag", None),
    ],
)
def test_the_words_of_a_flag(table: str, column: str, words: tuple[str, ...] | None) -> None:
    assert flag_words(table, column) == words


@pytest.mark.parametrize(
    ("question", "status"),
    [
        (SINGLE, ("single", False)),
        (MARRIED, ("married", False)),
        ("How many unmarried customers?", ("married", True)),
        ("customers who are not married", ("married", True)),
        ("How many widows bought shoes?", ("widowed", False)),
        ("single or married customers", None),
        ("How many customers?", None),
    ],
)
def test_the_marital_status_asked_for(question: str, status: tuple[str, bool] | None) -> None:
    assert _asked_status(question) == status


# (name, db, question, wrong, right): the sex word's condition dropped entirely
DROPPED = [
    ("female_older", "pets_1", "How many female students are older than 20?",
     "SELECT count(*) FROM Student WHERE Age > 20",
     "SELECT count(*) FROM Student WHERE Age > 20 AND Sex = 'F'"),
    ("male_older", "pets_1", "How many male students are older than 20?",
     "SELECT count(*) FROM Student WHERE Age > 20",
     "SELECT count(*) FROM Student WHERE Sex = 'M' AND Age > 20"),
    ("female_avg", "pets_1", "What is the average age of the female students?",
     "SELECT avg(Age) FROM Student", "SELECT avg(Age) FROM Student WHERE Sex = 'F'"),
    ("male_singers", "concert_singer", "How many male singers are there?",
     "SELECT count(*) FROM singer", "SELECT count(*) FROM singer WHERE Is_male = 'T'"),
    # the sex column one declared foreign key away from the table read
    ("pet_owners", "pets_1", "How many female students have a pet?",
     "SELECT count(DISTINCT StuID) FROM Has_Pet",
     "SELECT count(DISTINCT StuID) FROM Has_Pet WHERE StuID IN "
     "(SELECT StuID FROM Student WHERE Sex = 'F')"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "db", "question", "wrong", "right"), DROPPED, ids=[c[0] for c in DROPPED]
)
def test_a_dropped_sex_condition_is_withheld_and_the_right_one_shown(
    tmp_path: Path, name: str, db: str, question: str, wrong: str, right: str
) -> None:
    case = (name, db, question, wrong, right, "signal.code_dropped")
    wrong_withheld_right_clear(tmp_path, case, right_shown=True)


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        ("How many male and female students are there?", "SELECT count(*) FROM Student"),
        ("How many students are there by sex?", "SELECT Sex, count(*) FROM Student GROUP BY Sex"),
        ("How many female students are there?",
         "SELECT count(*) FROM Student GROUP BY Sex HAVING Sex = 'F'"),
    ],
    ids=["both", "no_sex_word", "having"],
)  # fmt: skip
def test_silent_where_no_one_sex_is_dropped(tmp_path: Path, question: str, sql: str) -> None:
    assert "signal.code_dropped" not in codes(scored(tmp_path, "pets_1", question, sql))


EUROPE = "How many countries are in Europe?"


def test_a_key_compared_with_another_row_is_withheld_and_the_right_one_shown(
    tmp_path: Path,
) -> None:
    wrong = "SELECT count(*) FROM countries WHERE Continent = 1"  # 1 is america
    right = "SELECT count(*) FROM countries WHERE Continent = 2"
    case = ("europe_as_1", "car_1", EUROPE, wrong, right, "signal.key_misread")
    wrong_withheld_right_clear(tmp_path, case, right_shown=True)
    verdict = scored(tmp_path, "car_1", EUROPE, *[wrong] * 5)
    found = next(f for f in verdict["findings"] if f["code"] == "signal.key_misread")
    assert (found["evidence"]["said"], found["evidence"]["selected"]) == ("europe", "america")


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT count(*) FROM countries AS T1 JOIN continents AS T2 "
        "ON T1.Continent = T2.ContId WHERE T2.Continent = 'europe'",
        "SELECT count(*) FROM countries WHERE Continent IN (1, 2)",
        "SELECT count(*) FROM countries WHERE NOT Continent = 1",
    ],
    ids=["joined_by_name", "named_row_among", "negated"],
)
def test_silent_where_the_key_may_be_the_one_named(tmp_path: Path, sql: str) -> None:
    assert "signal.key_misread" not in codes(scored(tmp_path, "car_1", EUROPE, sql))
