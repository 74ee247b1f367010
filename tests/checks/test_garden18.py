"""agreed18's wrong answers shown and right one withheld (a development set; five samples
agreeing on each), each kind first on a small garden centre of its own, with words and columns
none of agreed18's records use:

- a number bounded one way and compared the other while the question bounds two numbers in two
  directions (h18_s16: ``comparison_fit``, number by number: ``_bounds.bound_flipped``);
- "for each year" grouped by another column alone, no date read (h18_h12, h18_s19: ``_grain``);
- "cheapest first" sorted descending (h18_h20: ``_named_fit``);
- a decade said, its next year the exclusive end (h18_d03, right: ``_unasked_bound``);
- "how many gardeners" counted once per row of a link table keyed ``GarID`` (h18_s17:
  ``_repeated_counts``);
- one quarter said, the SQL's range starting a month early (h18_h11: ``_period_ends``);
- "tax amount" said of ``sa_tax_amt``, another amount summed (h18_d05: ``_abbreviated``);
- "each plant genus" grouped by the family (h18_d37: ``_grouped_other``);
- "refunded to online buyers" summed from the shop's refunds (h18_d36: ``_mentions``);
- "how many order lines" as a SUM of the lines' quantity (h18_h09: ``_asked``);
- "mobile phones" returned as ``Hphone`` beside ``Mphone`` (h18_s13, "first names" as
  ``LName``: ``_initials``).
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from sqlglot import parse_one

from assay.checks._abbreviated import contracts
from assay.checks._bounds import bound_flipped
from assay.checks._period_ends import _other_end, _periods
from assay.checks._unasked_bound import _said_numbers
from tests.checks._helpers import codes, scored, wrong_withheld_right_clear


@pytest.fixture(scope="module")
def garden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """40 plants of four families and eight genera; 3 gardeners tending 6 plants (one tends
    three, one two); sales over 2020 and 2021, a date and three amounts each; members who
    joined from 1985 to 2014, with a home and a mobile phone; refunds of two channels; order
    lines with a quantity."""
    path = tmp_path_factory.mktemp("garden18") / "garden.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE plant AS SELECT i AS pl_id, 'plant ' || i AS pl_name, "
        "['rose', 'mint', 'lily', 'fern'][i % 4 + 1] AS pl_family, 'genus ' || (i % 8) AS "
        "pl_genus, 5 + i AS pl_price, 10 + 3 * i AS pl_height FROM range(1, 41) t(i)"
    )
    con.execute(
        "CREATE TABLE Gardener AS SELECT * FROM (VALUES (1, 'Ann'), (2, 'Bo'), (3, 'Cy')) "
        "t(GarID, Name)"
    )
    con.execute(
        "CREATE TABLE Tends AS SELECT * FROM (VALUES (1, 1), (1, 2), (1, 3), (2, 4), (2, 5), "
        "(3, 6)) t(GarID, PlantID)"
    )
    con.execute(
        "CREATE TABLE sale AS SELECT i AS sa_id, 1 + i % 40 AS sa_plant_id, DATE '2020-01-01' "
        "+ INTERVAL (i) DAY AS sa_sold_on, 10.0 + i % 7 AS sa_net_amt, 1.0 + i % 3 AS "
        "sa_tax_amt, 0.5 * (i % 5) AS sa_disc_amt FROM range(0, 731) t(i)"
    )
    con.execute(
        "CREATE TABLE member AS SELECT i AS m_id, 1985 + i % 30 AS m_enrol_year, "
        "'555-01' || i AS Hphone, '555-02' || i AS Mphone FROM range(0, 90) t(i)"
    )
    for channel in ("shop", "online"):
        con.execute(
            f"CREATE TABLE {channel}_refunds AS SELECT i AS rf_id, 2.0 * i AS rf_amount, "
            f"2020 + i % 2 AS rf_year FROM range(0, {40 if channel == 'shop' else 15}) t(i)"
        )
    con.execute(
        "CREATE TABLE orderline AS SELECT i AS ol_id, 1 + i % 4 AS ol_qty, 2020 + i % 2 AS "
        "ol_year FROM range(0, 50) t(i)"
    )
    con.close()
    return path


WRONG_RIGHT = [
    (
        "two_directions",
        "How many plants grow higher than 50 and are priced under 30?",
        "SELECT count(*) FROM plant WHERE pl_height > 50 AND pl_price > 30",
        "SELECT count(*) FROM plant WHERE pl_height > 50 AND pl_price < 30",
        "signal.comparison_flipped",
    ),
    (
        "year_dropped",
        "What was the net amount sold by plant family for each year?",
        "SELECT p.pl_family, sum(s.sa_net_amt) FROM sale s JOIN plant p "
        "ON s.sa_plant_id = p.pl_id GROUP BY p.pl_family",
        "SELECT p.pl_family, year(s.sa_sold_on), sum(s.sa_net_amt) FROM sale s JOIN plant p "
        "ON s.sa_plant_id = p.pl_id GROUP BY 1, 2",
        "signal.grouping_missing",
    ),
    (
        "cheapest_first",
        "Name the three cheapest plants, cheapest first.",
        "SELECT pl_name, pl_price FROM plant ORDER BY pl_price DESC LIMIT 3",
        "SELECT pl_name, pl_price FROM plant ORDER BY pl_price LIMIT 3",
        "signal.ranking_mismatch",
    ),
    (
        "link_rows",
        "How many gardeners tend a plant?",
        "SELECT count(GarID) FROM Tends",
        "SELECT count(*) FROM Gardener WHERE GarID IN (SELECT GarID FROM Tends)",
        "signal.aggregate_mismatch",
    ),
    (
        "quarter_start",
        "How many sales were made in the second quarter of 2021?",
        "SELECT count(*) FROM sale WHERE sa_sold_on BETWEEN DATE '2021-03-01' "
        "AND DATE '2021-06-30'",
        "SELECT count(*) FROM sale WHERE sa_sold_on >= DATE '2021-04-01' "
        "AND sa_sold_on < DATE '2021-07-01'",
        "signal.period_bound",
    ),
    (
        "tax_amount",
        "What was the total tax amount on sales in 2021?",
        "SELECT sum(sa_net_amt) FROM sale WHERE year(sa_sold_on) = 2021",
        "SELECT sum(sa_tax_amt) FROM sale WHERE year(sa_sold_on) = 2021",
        "signal.column_mismatch",
    ),
    (
        "sibling_said_apart",
        "How much was refunded to online buyers in 2021?",
        "SELECT sum(rf_amount) FROM shop_refunds WHERE rf_year = 2021",
        "SELECT sum(rf_amount) FROM online_refunds WHERE rf_year = 2021",
        "signal.table_mismatch",
    ),
    (
        "rows_summed",
        "How many order lines were packed in 2021?",
        "SELECT sum(ol_qty) FROM orderline WHERE ol_year = 2021",
        "SELECT count(*) FROM orderline WHERE ol_year = 2021",
        "signal.aggregate_mismatch",
    ),
    (
        "initial_twin",
        "What are the mobile phones of members who enrolled before 1990?",
        "SELECT Hphone FROM member WHERE m_enrol_year < 1990",
        "SELECT Mphone FROM member WHERE m_enrol_year < 1990",
        "signal.column_mismatch",
    ),
    (
        "genus_after_table",
        "What was the net amount sold for each plant genus?",
        "SELECT p.pl_family, sum(s.sa_net_amt) FROM sale s JOIN plant p "
        "ON s.sa_plant_id = p.pl_id GROUP BY p.pl_family",
        "SELECT p.pl_genus, sum(s.sa_net_amt) FROM sale s JOIN plant p "
        "ON s.sa_plant_id = p.pl_id GROUP BY p.pl_genus",
        "signal.grouping_missing",
    ),
]


@pytest.mark.parametrize("case", WRONG_RIGHT, ids=[c[0] for c in WRONG_RIGHT])
def test_the_wrong_answer_is_withheld_and_the_right_one_shown(
    tmp_path: Path, garden: Path, case: tuple[str, str, str, str, str]
) -> None:
    name, question, wrong, right, code = case
    wrong_withheld_right_clear(tmp_path, (name, garden, question, wrong, right, code), True)


def test_a_decade_said_carries_its_next_year_as_the_end(tmp_path: Path, garden: Path) -> None:
    question = "How many members joined in the 1990s?"
    right = "SELECT count(*) FROM member WHERE m_enrol_year >= 1990 AND m_enrol_year < 2000"
    assert scored(tmp_path, garden, question, *[right] * 5)["action"] == "show"
    wider = "SELECT count(*) FROM member WHERE m_enrol_year >= 1990 AND m_enrol_year < 2010"
    assert "signal.bound_unasked" in codes(scored(tmp_path, garden, question, *[wider] * 5))
    assert _said_numbers("in their 30s") == {29.0, 30.0, 39.0, 40.0}
    assert _said_numbers("the 1995 figures") == {1995.0}


@pytest.mark.parametrize(
    ("question", "sql", "flipped"),
    [
        ("Taller than 50 and under 30?", "SELECT 1 FROM t WHERE h > 50 AND p > 30", True),
        ("Taller than 50 and under 30?", "SELECT 1 FROM t WHERE h > 50 AND 30 < p", True),
        ("Taller than 50 and under 30?", "SELECT 1 FROM t WHERE h > 50 AND p <= 30", False),
        # a negation before the bound, a NOT, rows taken away: the other way is right
        ("Taller than 50 and not under 30?", "SELECT 1 FROM t WHERE h > 50 AND p >= 30", False),
        ("Taller than 50, never under 30?", "SELECT 1 FROM t WHERE h > 50 AND p > 30", False),
        (
            "Taller than 50 and under 30?",
            "SELECT 1 FROM t WHERE h > 50 AND id NOT IN (SELECT id FROM t WHERE p >= 30)",
            False,
        ),
        (
            "Taller than 50 and under 30?",
            "SELECT id FROM t WHERE h > 50 EXCEPT SELECT id FROM t WHERE p >= 30",
            False,
        ),
        # one number said both ways: no direction to judge
        ("Over 30 or under 30?", "SELECT 1 FROM t WHERE p > 30", False),
    ],
    ids=["flipped", "constant_left", "right", "negated", "never", "not_in", "except", "both"],
)
def test_a_bound_is_judged_number_by_number(question: str, sql: str, flipped: bool) -> None:
    assert (bound_flipped(question, parse_one(sql)) is not None) is flipped


@pytest.mark.parametrize(
    ("question", "low", "high", "wrong"),
    [
        ("sales in the last quarter of 2021", "2021-09-01", "2021-12-31", True),
        ("sales in the last quarter of 2021", "2021-10-01", "2021-12-31", False),
        ("sales in the last quarter of 2021", "2021-10-01", "2022-01-01", False),  # other rule
        ("sales in May 2021", "2021-05-01", "2021-05-15", True),
        ("sales in May 2021", "2021-05-01", "2021-05-30", False),  # days short: other rule
        ("sales in Q3 2021 and Q4 2021", "2021-07-01", "2021-12-31", False),  # two periods
        ("sales in 2021", "2021-03-01", "2021-12-31", False),  # a year may sit beside words
    ],
    ids=["start", "right", "next_day", "half_month", "short", "two", "year"],
)
def test_one_quarter_or_month_kept_from_another_day(
    question: str, low: str, high: str, wrong: bool
) -> None:
    import datetime as dt

    ends = (dt.date.fromisoformat(low), dt.date.fromisoformat(high))
    assert (_other_end(_periods(question), *ends) is not None) is wrong


@pytest.mark.parametrize(
    ("word", "said", "fits"),
    [
        ("amt", "amount", True),
        ("qty", "quantity", True),
        ("cnt", "count", True),
        ("mgr", "manager", True),
        ("amt", "amt", False),  # the same word is no contraction (said as itself elsewhere)
        ("amt", "mat", False),
        ("amt", "amounts", False),  # the last letters differ: a plural is read elsewhere
        ("st", "street", False),  # two letters say too many words
    ],
)
def test_a_contraction_keeps_its_word_s_first_and_last_letters(
    word: str, said: str, fits: bool
) -> None:
    assert contracts(word, said) is fits


def test_a_date_read_anywhere_leaves_a_breakdown_per_year_unjudged(
    tmp_path: Path, garden: Path
) -> None:
    question = "What was the net amount sold by plant family for each year?"
    one_year = (
        "SELECT p.pl_family, sum(s.sa_net_amt) FROM sale s JOIN plant p ON s.sa_plant_id = "
        "p.pl_id WHERE s.sa_sold_on >= DATE '2021-01-01' GROUP BY p.pl_family"
    )
    verdict = scored(tmp_path, garden, question, *[one_year] * 5)
    assert "signal.grouping_missing" not in codes(verdict)
