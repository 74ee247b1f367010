"""agreed26 (a development set): seven kinds of wrong answer it showed and six kinds of right
answer it withheld, each tested on a small lending library of our own (members, books, shelves,
halls, loans), with words none of its records use. Each wrong answer, as five agreeing samples,
is withheld with its code; the right one beside it does not draw the code."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
import sqlglot

from assay.catalog import Catalog, ColumnInfo, TableInfo
from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

TABLES = """
CREATE TABLE members (member_id INTEGER PRIMARY KEY, name VARCHAR, city VARCHAR);
-- members 11 and 12 never borrowed
INSERT INTO members SELECT i, 'Member ' || i, CASE WHEN i % 3 = 0 THEN 'Paris' ELSE 'Lyon' END
    FROM range(1, 13) t(i);
CREATE TABLE books (book_id INTEGER PRIMARY KEY, shelf VARCHAR, genre VARCHAR, pages INTEGER);
INSERT INTO books SELECT i, 'S' || (1 + i % 4), ['poetry', 'drama', 'travel'][1 + i % 3],
    100 + (37 * i) % 400 FROM range(1, 31) t(i);
-- shelves S5 and S6 hold no book
CREATE TABLE shelves (shelf VARCHAR PRIMARY KEY, floor INTEGER);
INSERT INTO shelves SELECT 'S' || i, i % 2 FROM range(1, 7) t(i);
-- one row per room: a hall's label repeated four times
CREATE TABLE halls (hall_id INTEGER, hall_label VARCHAR, room INTEGER);
INSERT INTO halls SELECT 1 + i // 4, 'Hall ' || chr(CAST(65 + i // 4 AS INTEGER)), i % 4
    FROM range(0, 12) t(i);
-- a visit spans three loans of one member
CREATE TABLE loans (loan_id INTEGER PRIMARY KEY, id_member INTEGER NOT NULL, id_visit INTEGER,
    id_book INTEGER, id_hall INTEGER, loan_state VARCHAR, loan_kind VARCHAR, fee DOUBLE,
    copies_qty INTEGER, lent_on DATE, lend_year INTEGER);
INSERT INTO loans SELECT i, 1 + (i // 3) % 10, i // 3, 1 + i % 30, 1 + i % 3,
    ['L', 'R', 'O'][1 + i % 3], ['standard', 'overdue', 'renewal'][1 + i % 3], 1.5 + i % 7,
    1 + i % 3, DATE '2024-03-01' + CAST(i % 20 AS INTEGER), 2023 + i % 2 FROM range(0, 90) t(i);
"""


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path: Path = tmp_path_factory.mktemp("agreed26") / "library.duckdb"
    con = duckdb.connect(str(path))
    con.execute(TABLES)
    con.close()
    return path


TOP = (
    "WITH t AS (SELECT b.genre, SUM(l.fee) AS fees FROM loans l JOIN books b "
    "ON b.book_id = l.id_book GROUP BY b.genre), r AS (SELECT *, RANK() OVER "
    "(ORDER BY fees DESC) AS rk FROM t) SELECT genre, fees FROM r WHERE rk <= {n} ORDER BY rk"
)
PARIS = (
    "SELECT b.genre, SUM(CASE WHEN m.city = 'Paris' THEN 1 ELSE 0 END) AS paris, "
    "SUM(CASE WHEN m.city <> 'Paris' THEN 1 ELSE 0 END) AS elsewhere FROM books b "
    "JOIN loans l ON l.id_book = b.book_id JOIN members m ON m.member_id = l.id_member "
    "GROUP BY b.genre"
)
NOT_OVERDUE = (
    "SELECT m.city, SUM(l.fee) FROM loans l JOIN members m ON m.member_id = l.id_member "
    "WHERE l.loan_kind <> 'overdue' GROUP BY m.city"
)
LABELS = (
    "SELECT h.hall_label, SUM(l.fee) AS fees FROM loans l JOIN (SELECT hall_id, "
    "MIN(hall_label) AS hall_label FROM halls GROUP BY hall_id) h ON h.hall_id = l.id_hall "
    "GROUP BY h.hall_label ORDER BY fees {way} LIMIT 1"
)

# (name, question, the wrong SQL all five samples agree on, the right SQL, the code)
CASES = [
    (
        # "distinct" said, counted per group with no DISTINCT (h26_c16)
        "distinct_per_group",
        "How many distinct visits did each member make?",
        "SELECT id_member, count(id_visit) FROM loans GROUP BY id_member",
        "SELECT id_member, count(DISTINCT id_visit) FROM loans GROUP BY id_member",
        "signal.aggregate_mismatch",
    ),
    (
        # "zeros included" asks for the shelves with no book (h26_c18)
        "zeros_included",
        "Number of books on every shelf we have, zeroes too.",
        "SELECT s.shelf, count(*) FROM shelves s JOIN books b ON b.shelf = s.shelf "
        "GROUP BY s.shelf",
        "SELECT s.shelf, count(b.book_id) FROM shelves s LEFT JOIN books b ON b.shelf = s.shelf "
        "GROUP BY s.shelf",
        "signal.empty_groups_dropped",
    ),
    (
        # a one-letter code said beside its column, another compared (h26_h07)
        "code_beside_column",
        "What did loans with state R bring in fees?",
        "SELECT SUM(fee) FROM loans WHERE loan_state = 'O'",
        "SELECT SUM(fee) FROM loans WHERE loan_state = 'R'",
        "signal.value_swapped",
    ),
    (
        # a range of days names its last day (h26_c04)
        "range_of_days",
        "What did we charge in fees from March 3 to March 9, 2024?",
        "SELECT SUM(fee) FROM loans WHERE lent_on >= DATE '2024-03-03' "
        "AND lent_on < DATE '2024-03-09'",
        "SELECT SUM(fee) FROM loans WHERE lent_on >= DATE '2024-03-03' "
        "AND lent_on < DATE '2024-03-10'",
        "signal.date_bound_strictness",
    ),
    (
        # units asked, another measure summed beside the units column (h26_c06)
        "units_of_other",
        "How many units did each hall lend out?",
        "SELECT id_hall, SUM(fee) AS lent FROM loans GROUP BY id_hall",
        "SELECT id_hall, SUM(copies_qty) AS lent FROM loans GROUP BY id_hall",
        "signal.aggregate_mismatch",
    ),
    (
        # a bound on each counted row put on the group's largest value (h26_d16)
        "bound_on_group_max",
        "How many books per genre have more than 300 pages?",
        "SELECT genre, count(*) FROM books GROUP BY genre HAVING MAX(pages) > 300",
        "SELECT genre, count(*) FROM books WHERE pages > 300 GROUP BY genre",
        "signal.aggregate_mismatch",
    ),
    (
        # one year kept where the question says no time at all (h26_s07)
        "year_unasked",
        "Which members have never borrowed a book?",
        "SELECT name FROM members WHERE member_id NOT IN "
        "(SELECT id_member FROM loans WHERE lend_year = 2023)",
        "SELECT name FROM members WHERE member_id NOT IN (SELECT id_member FROM loans)",
        "signal.bound_unasked",
    ),
    (
        # a rank cut in a CTE is the top N (h26_h05: the right one was withheld)
        "rank_in_cte",
        "Top 2 genres by total fees, highest first.",
        TOP.format(n=3),
        TOP.format(n=2),
        "signal.ranking_mismatch",
    ),
    (
        # a label picked per key with MIN is no quantity (h26_c14: the right one was withheld)
        "label_picked_with_min",
        "Which hall took in the most fees?",
        LABELS.format(way="ASC"),
        LABELS.format(way="DESC"),
        "signal.ranking_mismatch",
    ),
]


@pytest.mark.parametrize(
    ("name", "question", "wrong", "right", "code"), CASES, ids=[c[0] for c in CASES]
)
def test_wrong_withheld_right_clear(
    library: Path, tmp_path: Path, name: str, question: str, wrong: str, right: str, code: str
) -> None:
    wrong_withheld_right_clear(tmp_path, (name, library, question, wrong, right, code))


@pytest.mark.parametrize(
    ("question", "sql", "code"),
    [
        ("Top 2 genres by total fees, highest first.", TOP.format(n=2), ""),
        ("Which hall took in the most fees?", LABELS.format(way="DESC"), ""),
        ("Total fees per member city, ignoring overdue loans.", NOT_OVERDUE, ""),
        ("Total fees per member city, leaving out overdue loans.", NOT_OVERDUE, ""),
        (
            "Fees per genre (poetry, drama, ...), with codes (SF, YA, etc.)",
            "SELECT b.genre, SUM(l.fee) FROM loans l JOIN books b ON b.book_id = l.id_book "
            "GROUP BY b.genre",
            "signal.literal_missing",
        ),
        (
            "For each genre, how many were lent to members in Paris and how many elsewhere?",
            PARIS,
            "signal.sum_fanned_out",
        ),
    ],
    ids=[
        "rank_in_cte",
        "min_label",
        "ignoring",
        "leaving_out",
        "examples_in_brackets",
        "indicator_rows",
    ],
)
def test_right_answers_shown(
    library: Path, tmp_path: Path, question: str, sql: str, code: str
) -> None:
    """Each right answer was withheld before (agreed26 h26_h05, c14, c15, c17, s10)."""
    verdict = scored(tmp_path, library, question, *[sql] * 5)
    assert verdict["action"] == "show", (verdict["reasons"], codes(verdict))
    assert not code or code not in codes(verdict)


def test_codes_said_in_a_condition_still_missing(library: Path, tmp_path: Path) -> None:
    """A code said outside a parenthesis of examples is still read as a condition."""
    sql = (
        "SELECT b.genre, SUM(l.fee) FROM loans l JOIN books b ON b.book_id = l.id_book "
        "GROUP BY b.genre"
    )
    verdict = scored(tmp_path, library, "Fees per genre for the SF shelf", *[sql] * 5)
    assert "signal.literal_missing" in codes(verdict)


def test_indicator_counting_the_repeated_table_still_fires(library: Path, tmp_path: Path) -> None:
    """The question counts members: each member's row is repeated once per loan."""
    question = "For each genre, how many members from Paris borrowed it?"
    verdict = scored(tmp_path, library, question, *[PARIS] * 5)
    assert "signal.sum_fanned_out" in codes(verdict)
    assert verdict["action"] == "withhold"


def test_a_column_named_in_brackets_is_the_one_summed() -> None:
    """ "Total charged (fee)" names ``fee`` itself: no extended ``ext_fee`` is asked for; the
    same total without the bracket still draws the mismatch (h26_d05)."""
    from assay.checks._unit_summed import unit_summed

    catalog = Catalog(
        (TableInfo("rentals", (ColumnInfo("r_fee", "DOUBLE"), ColumnInfo("r_ext_fee", "DOUBLE"))),)
    )
    tree = sqlglot.parse_one("SELECT SUM(r_fee) FROM rentals")
    assert unit_summed("What did rentals bring in (fee) overall?", tree, catalog) == []
    assert [f.code for f in unit_summed("What fee did rentals bring?", tree, catalog)] == [
        "signal.column_mismatch"
    ]


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Loans per shelf, zeros included.", True),
        ("Loans per shelf, including zeroes.", True),
        ("Loans per shelf with zero fees.", False),
    ],
)
def test_zeros_asked(question: str, asked: bool) -> None:
    from assay.checks._empty_groups import asks_for_empty_groups

    assert asks_for_empty_groups(question) is asked
