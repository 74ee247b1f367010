"""Agreed wrong answers outside tryout 23 saw shown at 1.00 (items 6, 8 and 11b's F1, F2, F6; the
Spider slice and a small store-sales warehouse built here): an average over numbers stored as
text counting 'null' as 0, a count of the entity the question names inflated by a join, "per
year" grouped by month, and "through" or "until" a year read as strict. Each right answer beside
them is shown."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

SALES = (
    "SELECT {g}, sum(ss_net_paid) FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk "
    "GROUP BY {g} ORDER BY {g}"
)
PER_YEAR = "What was the total store sales net paid per year?"

SPIDER_CASES = [
    # (name, database, question, wrong SQL, right SQL, the signal)
    (
        "avg-null-horsepower",
        "car_1",
        "What is the average horsepower of cars made in 1971?",
        "SELECT avg(Horsepower) FROM cars_data WHERE Year = 1971",
        "SELECT avg(CAST(Horsepower AS REAL)) FROM cars_data "
        "WHERE Year = 1971 AND Horsepower <> 'null'",
        "signal.numbers_as_text",
    ),
    (
        "avg-null-mpg",
        "car_1",
        "What is the average MPG of cars with 4 cylinders?",
        "SELECT avg(MPG) FROM cars_data WHERE Cylinders = 4",
        "SELECT avg(MPG) FROM cars_data WHERE Cylinders = 4 AND MPG != 'null'",
        "signal.numbers_as_text",
    ),
    (
        "avg-null-cast",
        "car_1",
        "What is the average MPG of cars with 4 cylinders?",
        "SELECT avg(CAST(MPG AS REAL)) FROM cars_data WHERE Cylinders = 4",
        "SELECT avg(CAST(MPG AS REAL)) FROM cars_data WHERE Cylinders = 4 AND MPG <> 'null'",
        "signal.numbers_as_text",
    ),
    (
        "students-with-pets",
        "pets_1",
        "How many students have pets?",
        "SELECT count(*) FROM Student AS T1 JOIN Has_Pet AS T2 ON T1.StuID = T2.StuID",
        "SELECT count(DISTINCT T1.StuID) FROM Student AS T1 JOIN Has_Pet AS T2 "
        "ON T1.StuID = T2.StuID",
        "signal.aggregate_mismatch",
    ),
    (
        "french-singers-in-concerts",
        "concert_singer",
        "How many singers from France performed in any concert?",
        "SELECT count(*) FROM singer AS T1 JOIN singer_in_concert AS T2 "
        "ON T1.Singer_ID = T2.Singer_ID WHERE T1.Country = 'France'",
        "SELECT count(DISTINCT T1.Singer_ID) FROM singer AS T1 JOIN singer_in_concert AS T2 "
        "ON T1.Singer_ID = T2.Singer_ID WHERE T1.Country = 'France'",
        "signal.aggregate_mismatch",
    ),
    (
        "through-1979",
        "car_1",
        "How many cars were made through 1979?",
        "SELECT count(*) FROM cars_data WHERE Year < 1979",
        "SELECT count(*) FROM cars_data WHERE Year <= 1979",
        "signal.bound_strictness",
    ),
    (
        "until-1979",
        "car_1",
        "How many cars were made until 1979?",
        "SELECT count(*) FROM cars_data WHERE Year < 1979",
        "SELECT count(*) FROM cars_data WHERE Year <= 1979",
        "signal.bound_strictness",
    ),
]


@pytest.mark.parametrize("case", SPIDER_CASES, ids=[c[0] for c in SPIDER_CASES])
def test_the_wrong_answer_is_withheld_and_the_right_one_shown(
    tmp_path: Path, case: tuple[str, str, str, str, str, str]
) -> None:
    wrong_withheld_right_clear(tmp_path, case, right_shown=True)


def test_the_fan_out_message_names_both_counts(tmp_path: Path) -> None:
    _, db, question, wrong, _, _ = SPIDER_CASES[4]
    verdict = scored(tmp_path, db, question, *[wrong] * 5)
    (finding,) = [f for f in verdict["findings"] if f["code"] == "signal.aggregate_mismatch"]
    assert "8 rows for 4 singer" in finding["message"]
    assert "count DISTINCT T1.Singer_ID" in finding["message"]


def test_the_many_side_counted_through_the_join_is_shown(tmp_path: Path) -> None:
    """ "How many pets do students have?" counts pets: the join's rows are the answer."""
    sql = "SELECT count(*) FROM Student AS T1 JOIN Has_Pet AS T2 ON T1.StuID = T2.StuID"
    verdict = scored(tmp_path, "pets_1", "How many pets do students have?", *[sql] * 5)
    assert verdict["action"] == "show", codes(verdict)


def test_a_one_to_one_join_counts_each_entity_once(tmp_path: Path) -> None:
    """car_names joins cars_data one to one: the count is the cars', and silent."""
    sql = (
        "SELECT count(*) FROM car_names AS T1 JOIN cars_data AS T2 ON T1.MakeId = T2.Id "
        "WHERE T2.Year = 1971"
    )
    verdict = scored(tmp_path, "car_1", "How many car names are from 1971?", *[sql] * 5)
    assert "signal.aggregate_mismatch" not in codes(verdict)


@pytest.fixture()
def sales(tmp_path: Path) -> Path:
    """Two years of daily store sales, 1.5 each."""
    path = tmp_path / "sales.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE date_dim AS SELECT d_date_sk, d_date, year(d_date) AS d_year, "
        "month(d_date) AS d_moy FROM (SELECT CAST(i AS INTEGER) AS d_date_sk, "
        "DATE '2000-01-01' + CAST(i AS INTEGER) AS d_date FROM range(0, 731) t(i))"
    )
    con.execute(
        "CREATE TABLE store_sales AS SELECT i AS ss_sold_date_sk, 1.5 AS ss_net_paid "
        "FROM range(0, 731) t(i)"
    )
    con.close()
    return path


def test_per_year_grouped_by_month_is_withheld(tmp_path: Path, sales: Path) -> None:
    case = (
        "per-year-by-month",
        sales,
        PER_YEAR,
        SALES.format(g="d_moy"),
        SALES.format(g="d_year"),
        "signal.grouping_missing",
    )
    wrong_withheld_right_clear(tmp_path, case, right_shown=True)  # type: ignore[arg-type]
