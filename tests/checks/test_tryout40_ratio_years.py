"""Right answers withheld by a check reading the SQL too narrowly (outside tryout 40, F-10):

- /api/sql "Average number of orders per customer" as ``count(*) * 1.0 / (SELECT count(*) FROM
  customer)`` was withheld as "no AVG" and "no GROUP BY": the orders per customer is an average,
  its denominator a whole table counted (``_written_average``).
- score w9 "How many concerts were held in 2014 and 2015 combined, per year?" as ``SELECT Year,
  count(*) FROM concert GROUP BY Year`` was withheld as ``signal.literal_missing``: the column
  stores only 2014 and 2015, so the grouping returns exactly the years named
  (``_grouped_named``).

Each right answer no longer draws the code; the wrong one beside it still does."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.checks._helpers import codes, scored


def _db(tmp_path: Path, years: tuple[int, ...] = (2020, 2021)) -> Path:
    """Members and their visits; films by year."""
    db = tmp_path / f"d{len(years)}.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE member (member_id INTEGER, name TEXT)")
    con.executemany("INSERT INTO member VALUES (?, ?)", [(i, f"m{i}") for i in range(4)])
    con.execute("CREATE TABLE visit (visit_id INTEGER, member_id INTEGER)")
    con.executemany("INSERT INTO visit VALUES (?, ?)", [(i, i % 3) for i in range(12)])
    con.execute("CREATE TABLE film (film_id INTEGER, title TEXT, year INTEGER)")
    con.executemany(
        "INSERT INTO film VALUES (?, ?, ?)", [(i, f"f{i}", years[i % len(years)]) for i in range(9)]
    )
    con.commit()
    con.close()
    return db


def test_a_table_counted_below_a_division_is_an_average(tmp_path: Path, tpch_duckdb: Path) -> None:
    question = "Average number of orders per customer"
    right = "SELECT count(*) * 1.0 / (SELECT count(*) FROM customer) FROM orders"
    found = codes(scored(tmp_path, tpch_duckdb, question, right))
    assert "signal.aggregate_mismatch" not in found and "signal.grouping_missing" not in found
    db = _db(tmp_path)
    mine = "SELECT count(*) * 1.0 / (SELECT count(*) FROM member) FROM visit"
    found = codes(scored(tmp_path, db, "Average number of visits per member?", mine))
    assert "signal.aggregate_mismatch" not in found and "signal.grouping_missing" not in found
    # a plain count is still no average
    plain = "SELECT count(*) FROM visit"
    found = codes(scored(tmp_path, db, "Average number of visits per member?", plain))
    assert "signal.aggregate_mismatch" in found


def test_a_grouping_returning_exactly_the_named_years_carries_them(tmp_path: Path) -> None:
    question = "How many concerts were held in 2014 and 2015 combined, per year?"
    sql = "SELECT Year, count(*) FROM concert GROUP BY Year"
    assert "signal.literal_missing" not in codes(scored(tmp_path, "concert_singer", question, sql))
    mine = "SELECT year, count(*) FROM film GROUP BY year"
    said = "How many films came out in 2020 and in 2021, for each year?"
    assert "signal.literal_missing" not in codes(scored(tmp_path, _db(tmp_path), said, mine))
    # a third year stored: the grouping returns a year not named, the filter is missing
    third = _db(tmp_path, (2020, 2021, 2022))
    assert "signal.literal_missing" in codes(scored(tmp_path, third, said, mine))
