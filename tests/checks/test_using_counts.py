"""A count of the things asked for over a join written with USING (outside tryout 41, F1).

"How many orders were placed in 2022?" as ``count(*) FROM orders JOIN order_lines
USING(order_id)`` counts order lines (16,123 for 5,532 orders) and was shown at 1.00 with two
samples agreeing; the same join written ``ON o.order_id = l.order_id`` was withheld
(``signal.aggregate_mismatch``): the count of repeated things read only the columns an ON
equates, never the ones USING names.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from tests.checks._helpers import codes, scored, wrong_withheld_right_clear


@pytest.fixture
def harbour(tmp_path: Path) -> Path:
    """Four voyages in 2021, of three legs (odd ids) or two; one in 2022."""
    path = tmp_path / "harbour.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE voyages (voyage_id INTEGER PRIMARY KEY, sailed_on DATE)")
        con.execute("CREATE TABLE legs (voyage_id INTEGER, leg_no INTEGER, miles DOUBLE)")
        for vid in range(1, 6):
            con.execute("INSERT INTO voyages VALUES (?, ?)", [vid, f"202{1 + vid // 5}-03-0{vid}"])
            for leg in range(1, 3 + vid % 2):
                con.execute("INSERT INTO legs VALUES (?, ?, ?)", [vid, leg, 10.0 * leg])
    return path


def test_a_count_over_a_using_join_that_repeats_the_counted_things_is_withheld(
    tmp_path: Path, harbour: Path
) -> None:
    wrong_withheld_right_clear(
        tmp_path,
        (
            "using",
            harbour,
            "How many voyages sailed in 2021?",
            "SELECT count(*) FROM voyages JOIN legs USING (voyage_id) WHERE year(sailed_on) = 2021",
            "SELECT count(*) FROM voyages WHERE year(sailed_on) = 2021",
            "signal.aggregate_mismatch",
        ),
    )


def test_a_count_of_the_many_side_over_a_using_join_is_not_judged(
    tmp_path: Path, harbour: Path
) -> None:
    verdict = scored(
        tmp_path,
        harbour,
        "How many legs were sailed in 2021?",
        *["SELECT count(*) FROM voyages JOIN legs USING (voyage_id) WHERE year(sailed_on) = 2021"]
        * 5,
    )
    assert "signal.aggregate_mismatch" not in codes(verdict), verdict["reasons"]
