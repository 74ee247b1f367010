"""Kinds of mistake from agreed25 (a development set), each tried on a courier's depots, drivers,
parcels and daily counts that no set holds: a wrong answer five samples agree on is withheld,
the right one beside it does not draw the code (and, for the kinds agreed25 withheld right, is
shown).

Wrong kinds: a comparison said with its thing between the comparative and "than" ("a lower
rating than the average") and flipped; "haven't ever" read row by row; groups asked for "even
if nothing" was sent, inner joined away; a row ranked by a column the question never names
beside the one it does ("the most pickups" by ``scans``); a range said "inclusive" cut a day
early; growth over two rows of a self-joined CTE divided by the later; a bound at 0 on the
column averaged; a stored value of three words said inflected ("signed on receipt") and
dropped; a column asked by its full name ("full names") returned as its sibling.
Right kinds: rows counted as a SUM of a CASE of 1s and 0s; an average number of rows per thing
written ``count(*) / count(DISTINCT x)``; "how many of our hub workers" counted over drivers,
the hub's scans only picking them."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from sqlglot import parse_one

from assay.checks._cues import read_cues
from assay.checks._written_average import counted_per
from tests.checks._helpers import codes, scored, wrong_withheld_right_clear


@pytest.fixture(scope="module")
def courier(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """4 depots (the fourth, Fjord, has no driver); 24 drivers with a nickname, a full name, a
    home city, a rating and a bonus (some negative: penalties); 900 parcels over 2022-2023 by
    driver, a kind, a handling instruction of three words, a fee and promised and delivered
    dates; a daily count of scans and pickups per depot over 2023."""
    path = tmp_path_factory.mktemp("courier") / "courier.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE depots AS SELECT * FROM (VALUES (1, 'Harbour'), (2, 'Airport'), "
        "(3, 'Market'), (4, 'Fjord')) t(depot_id, depot_name)"
    )
    con.execute(
        "CREATE TABLE drivers AS SELECT d AS driver_id, 'nick' || d AS Nickname, "
        "'Driver Number ' || d AS FullName, 1 + d % 3 AS depot_id, "
        "['Oslo', 'Bergen', 'Tromso'][d % 3 + 1] AS home_city, "
        "CAST(2.5 + (d * 7) % 25 / 10.0 AS DOUBLE) AS rating, "
        "CAST((d * 37) % 200 - 60 AS DOUBLE) AS bonus FROM range(24) t(d)"
    )
    con.execute(
        "CREATE TABLE parcels AS SELECT p AS parcel_id, (p * 7) % 24 AS driver_id, "
        "DATE '2022-01-01' + CAST((p * 3) % 730 AS INTEGER) AS sent_date, "
        "DATE '2022-01-03' + CAST((p * 3) % 730 AS INTEGER) AS promised_date, "
        "DATE '2022-01-02' + CAST((p * 3) % 730 + p % 4 AS INTEGER) AS delivered_date, "
        "['standard', 'express', 'return'][p % 3 + 1] AS kind, "
        "['LEAVE AT DOOR', 'SIGN ON RECEIPT', 'HAND TO NEIGHBOUR'][(p // 3) % 3 + 1] "
        "AS handling, CAST(5 + (p * 13) % 40 AS DOUBLE) AS fee FROM range(900) t(p)"
    )
    con.execute(
        "CREATE TABLE daily_counts AS SELECT DATE '2023-01-01' + CAST(n // 3 AS INTEGER) AS day, "
        "1 + n % 3 AS depot_id, CAST((n * 17) % 101 * 2000 + n AS INTEGER) AS scans, "
        "CAST((n * 29) % 53 * 2000 + n AS INTEGER) AS pickups FROM range(1095) t(n)"
    )
    con.execute(
        "CREATE TABLE hub AS SELECT h AS hub_id, 'hub ' || h AS hub_name FROM range(5) t(h)"
    )
    con.execute(
        "CREATE TABLE hub_scans AS SELECT s AS scan_id, s % 5 AS hub_id, "
        "(s * 5) % 20 AS driver_id, DATE '2023-01-01' + CAST(s % 365 AS INTEGER) AS scanned_on "
        "FROM range(300) t(s)"
    )
    con.close()
    return path


WRONG_AND_RIGHT = [
    (
        "comparative-apart-flipped",
        "Which drivers have a lower rating than the average driver?",
        "SELECT FullName FROM drivers WHERE rating > (SELECT avg(rating) FROM drivers)",
        "SELECT FullName FROM drivers WHERE rating < (SELECT avg(rating) FROM drivers)",
        "signal.comparison_flipped",
    ),
    (
        "not-ever-row-by-row",
        "Which drivers haven't ever carried an express parcel?",
        "SELECT DISTINCT driver_id FROM parcels WHERE kind <> 'express'",
        "SELECT driver_id FROM drivers d WHERE NOT EXISTS (SELECT 1 FROM parcels p "
        "WHERE p.driver_id = d.driver_id AND p.kind = 'express')",
        "signal.negation_on_rows",
    ),
    (
        "even-if-nothing-inner-joined",
        "Total parcel fees for each depot; list every depot, even if nothing was sent from it.",
        "SELECT x.depot_name, sum(p.fee) FROM depots x JOIN drivers d ON d.depot_id = x.depot_id "
        "JOIN parcels p ON p.driver_id = d.driver_id GROUP BY x.depot_name",
        "SELECT x.depot_name, coalesce(sum(p.fee), 0) FROM depots x LEFT JOIN drivers d "
        "ON d.depot_id = x.depot_id LEFT JOIN parcels p ON p.driver_id = d.driver_id "
        "GROUP BY x.depot_name",
        "signal.empty_groups_dropped",
    ),
    (
        "ranked-by-unnamed-column",
        "On which day did the Harbour depot have the most pickups?",
        "SELECT day FROM daily_counts WHERE depot_id = 1 ORDER BY scans DESC LIMIT 1",
        "SELECT day FROM daily_counts WHERE depot_id = 1 ORDER BY pickups DESC LIMIT 1",
        "signal.ranked_by_other_measure",
    ),
    (
        "inclusive-range-cut-early",
        "Total fees of parcels sent March 3 to March 9 2023 inclusive",
        "SELECT sum(fee) FROM parcels WHERE sent_date >= DATE '2023-03-03' "
        "AND sent_date < DATE '2023-03-09'",
        "SELECT sum(fee) FROM parcels WHERE sent_date >= DATE '2023-03-03' "
        "AND sent_date < DATE '2023-03-10'",
        "signal.date_bound_strictness",
    ),
    (
        "growth-over-later-row",
        "By what percent did total parcel fees grow from 2022 to 2023?",
        "WITH y AS (SELECT year(sent_date) AS yr, sum(fee) AS total FROM parcels GROUP BY 1) "
        "SELECT 100.0 * (n.total - o.total) / n.total FROM y o, y n "
        "WHERE o.yr = 2022 AND n.yr = 2023",
        "WITH y AS (SELECT year(sent_date) AS yr, sum(fee) AS total FROM parcels GROUP BY 1) "
        "SELECT 100.0 * (n.total - o.total) / o.total FROM y o, y n "
        "WHERE o.yr = 2022 AND n.yr = 2023",
        "signal.growth_over_later",
    ),
    (
        "zero-bound-on-averaged-column",
        "What is the average bonus of the drivers who live in Bergen?",
        "SELECT avg(bonus) FROM drivers WHERE home_city = 'Bergen' AND bonus > 0",
        "SELECT avg(bonus) FROM drivers WHERE home_city = 'Bergen'",
        "signal.bound_unasked",
    ),
    (
        "inflected-value-dropped",
        "What were the total fees of 2023 parcels that had to be signed on receipt?",
        "SELECT sum(fee) FROM parcels WHERE year(sent_date) = 2023",
        "SELECT sum(fee) FROM parcels WHERE year(sent_date) = 2023 "
        "AND handling = 'SIGN ON RECEIPT'",
        "signal.value_dropped",
    ),
    (
        "full-name-returned-as-sibling",
        "Give me the full names of the drivers who live in Tromso",
        "SELECT Nickname FROM drivers WHERE home_city = 'Tromso'",
        "SELECT FullName FROM drivers WHERE home_city = 'Tromso'",
        "signal.column_mismatch",
    ),
    (
        "rows-counted-by-case",
        "How many parcels arrived after their promised date in 2023, per kind?",
        "SELECT kind, sum(fee) FROM parcels WHERE year(sent_date) = 2023 "
        "AND delivered_date > promised_date GROUP BY kind",
        "SELECT kind, sum(CASE WHEN delivered_date > promised_date THEN 1 ELSE 0 END) "
        "FROM parcels WHERE year(sent_date) = 2023 GROUP BY kind",
        "signal.aggregate_mismatch",
    ),
    (
        "counted-through-a-modifier",
        "How many of our hub workers have never carried an express parcel?",
        "SELECT count(DISTINCT h.driver_id) FROM hub_scans h JOIN parcels p "
        "ON p.driver_id = h.driver_id WHERE p.kind <> 'express'",
        "SELECT count(*) FROM drivers d WHERE EXISTS (SELECT 1 FROM hub_scans h WHERE "
        "h.driver_id = d.driver_id) AND NOT EXISTS (SELECT 1 FROM parcels p WHERE "
        "p.driver_id = d.driver_id AND p.kind = 'express')",
        "signal.table_mismatch",
    ),
    (
        "rows-per-thing-averaged",
        "On average, how many parcels does a driver carry?",
        "SELECT count(*) * 1.0 / count(DISTINCT kind) FROM parcels",
        "SELECT count(*) * 1.0 / count(DISTINCT driver_id) FROM parcels",
        "signal.aggregate_mismatch",
    ),
]


@pytest.mark.parametrize("case", WRONG_AND_RIGHT, ids=[c[0] for c in WRONG_AND_RIGHT])
def test_wrong_withheld_right_clear(
    tmp_path: Path, courier: Path, case: tuple[str, str, str, str, str]
) -> None:
    name, question, wrong, right, code = case
    wrong_withheld_right_clear(
        tmp_path, (name, courier, question, wrong, right, code), right_shown=True
    )


@pytest.mark.parametrize(
    ("question", "more", "less"),
    [
        ("Which drivers have a lower rating than the average driver?", False, True),
        ("Depots with more parcels than Harbour", True, False),
        ("Which drivers earn a bonus higher than 50?", True, False),
        ("List the drivers and their ratings", False, False),
    ],
    ids=["lower-apart", "more-apart", "higher-than", "none"],
)
def test_comparatives_read_apart_from_than(question: str, more: bool, less: bool) -> None:
    cues = read_cues(question)
    assert (cues.more, cues.less) == (more, less)


@pytest.mark.parametrize(
    ("question", "sql", "n"),
    [
        (
            "On average, how many parcels does a driver carry?",
            "SELECT count(*) * 1.0 / count(DISTINCT driver_id) FROM parcels",
            1,
        ),
        (
            "How many parcels does a driver carry?",  # no average said: one driver's count
            "SELECT count(*) * 1.0 / count(DISTINCT driver_id) FROM parcels",
            0,
        ),
        (
            "On average, how many parcels does each driver carry?",  # one value per driver
            "SELECT count(*) * 1.0 / count(DISTINCT driver_id) FROM parcels",
            0,
        ),
    ],
    ids=["average-does-a", "no-average", "each"],
)
def test_counted_per_the_subject_of_have(question: str, sql: str, n: int) -> None:
    assert len(counted_per(question, parse_one(sql))) == n


def test_a_zero_bound_the_question_explains_is_silent(tmp_path: Path, courier: Path) -> None:
    verdict = scored(
        tmp_path,
        courier,
        "What is the average bonus of the drivers in Bergen, ignoring penalties?",
        *["SELECT avg(bonus) FROM drivers WHERE home_city = 'Bergen' AND bonus > 0"] * 5,
    )
    assert "signal.bound_unasked" not in codes(verdict)


def test_a_ranked_key_is_no_measure(tmp_path: Path, courier: Path) -> None:
    """ "the most expensive parcel" says no column; "parcel" is the table's own word, so
    ``parcel_id`` is no measure ranked by (agreed16 h16_d46 drew it before the key rule)."""
    verdict = scored(
        tmp_path,
        courier,
        "Which is the most expensive parcel sent in 2023, and what was its fee?",
        *[
            "SELECT parcel_id, fee FROM parcels WHERE year(sent_date) = 2023 "
            "ORDER BY fee DESC LIMIT 1"
        ]
        * 5,
    )
    assert "signal.ranked_by_other_measure" not in codes(verdict)
