"""A share of students who own a pet, counted right and wrong (outside tryout 38, item 1).

"What share of students own a pet?" as ``count(DISTINCT has_pet.stuid) * 1.0 / (SELECT count(*)
FROM student)`` is 2/34 and right. Over a copy of pets_1 with no declared keys (a DuckDB file
loaded from the tables, as the tester had it) it was withheld as ``aggregate_mismatch`` ("counts
distinct values but the question does not say distinct"): the DISTINCT was read as unasked, for
nothing said ``StuID`` of ``Has_Pet`` counts students. Its wrong twins were shown at 1.00: the
pets' rows over the students (``count(*) FROM has_pet``: 3/34, a student once per pet), and the
owners over every pet (another whole than "students"). Data: Spider pets_1 (skipped when the
shared slice is absent), and the same tables with no keys declared."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import duckdb
import pytest

from tests.checks._helpers import codes, scored
from tests.semantic._helpers import spider_db

SHARE = "What share of students own a pet?"
OWNERS = "count(DISTINCT has_pet.stuid)"
STUDENTS = "(SELECT count(*) FROM student)"
RIGHT = f"SELECT {OWNERS} * 1.0 / {STUDENTS} FROM has_pet"
PET_ROWS = f"SELECT count(*) * 1.0 / {STUDENTS} FROM has_pet"
JOINED_ROWS = (
    f"SELECT count(*) * 1.0 / {STUDENTS} FROM student AS s JOIN has_pet AS h ON s.stuid = h.stuid"
)
OVER_PETS = f"SELECT {OWNERS} * 1.0 / (SELECT count(*) FROM pets) FROM has_pet"
OVER_PET_ROWS = f"SELECT {OWNERS} * 1.0 / (SELECT count(*) FROM has_pet) FROM has_pet"


def _type(declared: str) -> str:
    declared = declared.upper()
    return "INTEGER" if "INT" in declared else "DOUBLE" if "REAL" in declared else "VARCHAR"


def _without_keys(tmp_path: Path) -> Path:
    """pets_1's tables and rows in DuckDB, with no key declared."""
    source = sqlite3.connect(spider_db("pets_1"))
    path = tmp_path / "pets_nokeys.duckdb"
    con = duckdb.connect(str(path))
    for (table,) in source.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        columns = source.execute(f"PRAGMA table_info({table})").fetchall()
        typed = [f"{c[1]} {_type(c[2])}" for c in columns]
        con.execute(f"CREATE TABLE {table} ({', '.join(typed)})")
        rows = source.execute(f"SELECT * FROM {table}").fetchall()
        marks = ", ".join("?" * len(columns))
        con.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
    con.close()
    source.close()
    return path


@pytest.mark.parametrize("keys", [True, False], ids=["declared-keys", "no-keys"])
def test_the_owners_over_every_student_are_shown(tmp_path: Path, keys: bool) -> None:
    db = spider_db("pets_1") if keys else _without_keys(tmp_path)
    for question in (SHARE, "What percentage of students have pets?"):
        verdict = scored(tmp_path, db, question, *[RIGHT] * 5)
        assert verdict["action"] == "show", (question, verdict["reasons"])


@pytest.mark.parametrize("keys", [True, False], ids=["declared-keys", "no-keys"])
@pytest.mark.parametrize("sql", [PET_ROWS, JOINED_ROWS], ids=["link-rows", "joined-rows"])
def test_the_pets_rows_over_the_students_are_withheld_as_counted_twice(
    tmp_path: Path, keys: bool, sql: str
) -> None:
    """The numerator counts a student once per pet: the count is wrong, not the whole."""
    db = spider_db("pets_1") if keys else _without_keys(tmp_path)
    verdict = scored(tmp_path, db, SHARE, *[sql] * 5)
    assert verdict["action"] == "withhold"
    assert "signal.aggregate_mismatch" in verdict["reasons"], verdict["reasons"]
    assert "signal.share_whole_dropped" not in codes(verdict)
    message = next(f["message"] for f in verdict["findings"] if f["code"].endswith("mismatch"))
    assert "3 rows" in message and "2 distinct" in message, message


@pytest.mark.parametrize("sql", [OVER_PETS, OVER_PET_ROWS], ids=["pets", "link-rows"])
def test_the_owners_over_another_table_are_withheld_for_their_whole(
    tmp_path: Path, sql: str
) -> None:
    verdict = scored(tmp_path, "pets_1", SHARE, *[sql] * 5)
    assert verdict["action"] == "withhold"
    assert "signal.share_whole_dropped" in verdict["reasons"], verdict["reasons"]
    assert "signal.aggregate_mismatch" not in codes(verdict), verdict["reasons"]


def test_a_share_of_one_table_is_neither_repeated_nor_another_whole(tmp_path: Path) -> None:
    """ "What share of pets are dogs?": the whole names pets, and the dogs' rows over every pet
    count one table: no other whole, no repeats."""
    question = "What share of pets are dogs?"
    dogs = "(SELECT count(*) FROM pets WHERE pettype = 'dog')"
    sql = f"SELECT {dogs} * 1.0 / (SELECT count(*) FROM pets)"
    verdict = scored(tmp_path, "pets_1", question, *[sql] * 5)
    assert verdict["action"] == "show", verdict["reasons"]


def test_a_share_of_orders_named_with_their_customers_counts_the_orders(tmp_path: Path) -> None:
    """ "What share of customer orders were returned?" counts orders, which repeat customers:
    the orders are what the share is of, so their rows are not counted twice."""
    path = tmp_path / "shop.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE customers AS SELECT i AS customer_id FROM range(1, 5) t(i)")
    con.execute(
        "CREATE TABLE orders AS SELECT i AS order_id, 1 + i % 4 AS customer_id, "
        "i % 3 = 0 AS returned FROM range(1, 21) t(i)"
    )
    con.close()
    sql = "SELECT count(*) * 1.0 / (SELECT count(*) FROM orders) FROM orders WHERE returned"
    verdict = scored(tmp_path, path, "What share of customer orders were returned?", *[sql] * 5)
    assert "signal.aggregate_mismatch" not in codes(verdict), verdict["reasons"]
