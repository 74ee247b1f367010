"""Kinds of mistake from agreed23 (a development set), each tried on a library of members,
books and loans that no set holds: a wrong answer five samples agree on is withheld, the right
one beside it does not draw the code; and the right answers agreed23 withheld, read again.

Wrong kinds: a coded value swapped ("silver tier" as ``tier = '1-GOLD'``), a key matched against
another key of a subquery's table (``member_id NOT IN (SELECT book_id FROM loans)``), a day of
the week numbered past its range, months of two years added together, an average over a table's
rows repeated by a join, a returned state whose flag is never read, "never" read row by row.
Right answers: an exclusion list (``NOT IN``) is no swapped value; a number's comma and a
clause ("counting only ...") are no attributes; tickets counted as groups of a subquery."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from sqlglot import parse_one

from assay.catalog import Catalog, ColumnInfo, TableInfo
from assay.checks import CheckContext
from assay.checks._cues import requested_attributes
from assay.checks._named_fit import counted_through
from assay.checks._other_key import join_on_other_key
from assay.types import Candidate
from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

TIERS = ["1-GOLD", "2-SILVER", "3-BRONZE"]
KINDS = ["borrow", "renew", "fine", "lost"]


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """40 members in 4 cities; 30 books, each with a shelf capacity; 600 loans over 2022-2024
    by member and book, a kind (borrow, renew, fine, lost), a fee, a tier coded '1-GOLD',
    '2-SILVER' or '3-BRONZE' and a returned flag 'R' (returned) or 'O' (still out). Members
    1 to 39 borrow; member 0 has no loans; fines fall on members whose number is a multiple
    of 4."""
    path = tmp_path_factory.mktemp("library") / "library.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE members AS SELECT m AS member_id, 'member ' || m AS name, "
        "['Oslo', 'Lima', 'Pune', 'Kobe'][m % 4 + 1] AS city, 20 + m AS age FROM range(40) t(m)"
    )
    con.execute(
        "CREATE TABLE books AS SELECT b AS book_id, 'title ' || b AS title, "
        "10 + (b * 7) % 23 AS shelf_capacity FROM range(30) t(b)"
    )
    con.execute(
        "CREATE TABLE loans AS SELECT l AS loan_id, 1 + l % 39 AS member_id, "
        "(l * 11) % 30 AS book_id, DATE '2022-01-01' + CAST((l * 5) % 1090 AS INTEGER) "
        "AS loan_date, CASE WHEN (1 + l % 39) % 4 = 0 AND l % 3 = 0 THEN 'fine' "
        "ELSE ['borrow', 'renew', 'lost'][l % 3 + 1] END AS kind, "
        "CAST(1 + (l * 13) % 9 AS DOUBLE) AS fee, "
        f"{TIERS}[l % 3 + 1] AS tier, "
        "CASE WHEN l % 5 = 0 THEN 'O' ELSE 'R' END AS returned_flag FROM range(600) t(l)"
    )
    con.close()
    return path


WRONG_AND_RIGHT = [
    (
        "coded-value-swapped",
        "How many silver tier loans were made in 2023?",
        "SELECT count(*) FROM loans WHERE tier = '1-GOLD' AND year(loan_date) = 2023",
        "SELECT count(*) FROM loans WHERE tier = '2-SILVER' AND year(loan_date) = 2023",
        "signal.value_swapped",
    ),
    (
        "subquery-other-key",
        "What is the average age of members who have no loans?",
        "SELECT avg(age) FROM members WHERE member_id NOT IN (SELECT book_id FROM loans)",
        "SELECT avg(age) FROM members WHERE member_id NOT IN (SELECT member_id FROM loans)",
        "signal.join_on_other_key",
    ),
    (
        "weekday-out-of-range",
        "What were the total fees of loans made on weekends in 2023?",
        "SELECT sum(fee) FROM loans WHERE year(loan_date) = 2023 AND isodow(loan_date) IN (0, 6)",
        "SELECT sum(fee) FROM loans WHERE year(loan_date) = 2023 AND isodow(loan_date) IN (6, 7)",
        "signal.date_part_impossible",
    ),
    (
        "quarters-of-two-years",
        "Show total loan fees by quarter from April 2022 through March 2024.",
        "SELECT quarter(loan_date) AS q, sum(fee) FROM loans WHERE loan_date BETWEEN "
        "DATE '2022-04-01' AND DATE '2024-03-31' GROUP BY quarter(loan_date)",
        "SELECT year(loan_date) AS y, quarter(loan_date) AS q, sum(fee) FROM loans WHERE "
        "loan_date BETWEEN DATE '2022-04-01' AND DATE '2024-03-31' GROUP BY 1, 2",
        "signal.grouping_missing",
    ),
    (
        "average-over-repeats",
        "What is the average shelf capacity of the books that have been lent out?",
        "SELECT avg(b.shelf_capacity) FROM loans l JOIN books b ON l.book_id = b.book_id",
        "SELECT avg(shelf_capacity) FROM books WHERE book_id IN (SELECT book_id FROM loans)",
        "signal.average_fanned_out",
    ),
    (
        "returned-flag-unread",
        "How many lost loans in 2024 were returned?",
        "SELECT count(*) FROM loans WHERE kind = 'lost' AND year(loan_date) = 2024",
        "SELECT count(*) FROM loans WHERE kind = 'lost' AND year(loan_date) = 2024 "
        "AND returned_flag = 'R'",
        "signal.status_dropped",
    ),
    (
        "never-row-by-row",
        "How many members never paid a fine?",
        "SELECT count(DISTINCT member_id) FROM loans WHERE kind <> 'fine'",
        "SELECT count(*) FROM members m WHERE NOT EXISTS (SELECT 1 FROM loans l "
        "WHERE l.member_id = m.member_id AND l.kind = 'fine')",
        "signal.negation_on_rows",
    ),
]


@pytest.mark.parametrize("case", WRONG_AND_RIGHT, ids=[c[0] for c in WRONG_AND_RIGHT])
def test_wrong_withheld_right_clear(
    tmp_path: Path, library: Path, case: tuple[str, str, str, str, str]
) -> None:
    name, question, wrong, right, code = case
    wrong_withheld_right_clear(tmp_path, (name, library, question, wrong, right, code))


def test_an_excluded_list_is_no_swapped_value(tmp_path: Path, library: Path) -> None:
    """ "Counting only borrows and renewals" as ``NOT IN ('fine', 'lost')``: the SQL keeps the
    values asked by dropping the others (agreed23, h23_c17: withheld as swapped and as asking
    for three attributes)."""
    question = "What is each member's total fee, counting only borrows and renewals?"
    sql = (
        "SELECT member_id, sum(fee) FROM loans WHERE kind NOT IN ('fine', 'lost') "
        "GROUP BY member_id"
    )
    verdict = scored(tmp_path, library, question, *[sql] * 5)
    assert verdict["action"] == "show", verdict["reasons"]


def test_a_rank_compared_is_no_coded_value_swapped(tmp_path: Path, library: Path) -> None:
    """ "Tiers above bronze" keeps '1-GOLD' and '2-SILVER': the word said names a bound."""
    question = "How many loans in 2023 had a tier above bronze?"
    sql = (
        "SELECT count(*) FROM loans WHERE tier IN ('1-GOLD', '2-SILVER') AND year(loan_date) = 2023"
    )
    verdict = scored(tmp_path, library, question, *[sql] * 5)
    assert "signal.value_swapped" not in codes(verdict)


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("What were total fees on the days the branch had more than 1,500 visitors?", None),
        ("What is each member's total fee, counting only borrows and renewals?", None),
        ("Show the name and city, excluding closed branches, of each member", ("name", "city")),
        ("What are the names, cities and ages of all members?", ("names", "cities", "ages")),
    ],
    ids=["number-comma", "counting-clause", "clause-after-two", "three-attributes"],
)
def test_attributes_asked(question: str, asked: tuple[str, ...] | None) -> None:
    assert requested_attributes(question) == asked


@pytest.mark.parametrize(
    ("sql", "counted"),
    [
        (
            "SELECT count(*) FROM (SELECT ws_shipment_id FROM warehouse_shipments "
            "GROUP BY ws_shipment_id HAVING sum(ws_kg) > 50) t",
            True,
        ),
        (
            "WITH s AS (SELECT DISTINCT ws_shipment_id FROM warehouse_shipments "
            "WHERE ws_kg > 50) SELECT count(*) FROM s",
            True,
        ),
        (
            "SELECT count(*) FROM (SELECT ws_warehouse_sk FROM warehouse_shipments "
            "GROUP BY ws_warehouse_sk) t",
            False,
        ),
        ("SELECT count(*) FROM warehouse_shipments WHERE ws_kg > 50", False),
    ],
    ids=["grouped-subquery", "distinct-cte", "other-key", "lines"],
)
def test_shipments_counted_as_groups(sql: str, counted: bool) -> None:
    """ "How many warehouse shipments ...": COUNT(*) over one row per shipment number counts
    shipments, as ``count(DISTINCT ws_shipment_id)`` does (agreed23, h23_d14: withheld as
    reading warehouse_shipments instead of warehouse)."""
    question = "How many warehouse shipments in 2020 weighed more than 50 kg in total?"
    assert counted_through(question, "warehouse", parse_one(sql)) is counted


def test_a_tables_own_bare_id_is_no_other_key() -> None:
    """``o.customer_id = c.id`` while orders has an ``id`` of its own: every table has one (and
    EHRSQL's ``row_id``: 192 of its gold answers matched ``event_id IN (SELECT row_id ...)``)."""
    catalog = Catalog(
        (
            TableInfo("orders", tuple(ColumnInfo(c, "") for c in ("id", "customer_id"))),
            TableInfo("customers", tuple(ColumnInfo(c, "") for c in ("id", "name"))),
            TableInfo("charges", tuple(ColumnInfo(c, "") for c in ("row_id", "event_id"))),
            TableInfo("events", tuple(ColumnInfo(c, "") for c in ("row_id", "code"))),
        )
    )
    for sql in (
        "SELECT count(*) FROM orders o JOIN customers c ON o.customer_id = c.id",
        "SELECT count(*) FROM orders WHERE customer_id IN (SELECT id FROM customers)",
        "SELECT count(*) FROM charges WHERE event_id IN (SELECT row_id FROM events)",
    ):
        outcome = join_on_other_key(CheckContext("q", Candidate(sql), "duckdb", catalog))
        assert outcome.findings == (), sql


def test_months_asked_of_the_year_stay_silent(tmp_path: Path, library: Path) -> None:
    """ "By month of the year" over two years asks the months added up."""
    question = "What were total loan fees by month of the year over 2022 and 2023?"
    sql = (
        "SELECT month(loan_date), sum(fee) FROM loans WHERE year(loan_date) IN (2022, 2023) "
        "GROUP BY 1"
    )
    verdict = scored(tmp_path, library, question, *[sql] * 5)
    assert "signal.grouping_missing" not in codes(verdict)
