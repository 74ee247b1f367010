"""An outside tester's share whose whole is said by a code (share36, on the Cortex Analyst
revenue tables): "What share of Europe's revenue came from Electronics?" as ``sum(CASE WHEN
Product_line = 'Electronics' AND Region_id = 2 THEN REVENUE ELSE 0 END) / sum(REVENUE)``
divides Europe's electronics by the revenue of every region, 0.036 where Europe's share is
0.173, shown at 1.00: ``Region_id`` 2 is 'Europe' only in ``region``, so no literal said the
whole. ``signal.share_whole_dropped`` reads the code's name through its key and withholds it;
the whole on both sides (one WHERE, a join to ``region``, a CTE) and Europe as the part stay
clear (the tables: ``_revenue36``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.checks._helpers import codes, scored
from tests.checks._revenue36 import build_revenue

DROPPED = "signal.share_whole_dropped"
OF_EUROPE = "What share of Europe's revenue came from Electronics?"
JOINED = "FROM daily_revenue d JOIN product p ON d.Product_id = p.Product_id"
ELECTRONICS = "sum(CASE WHEN p.Product_line = 'Electronics' THEN d.REVENUE ELSE 0 END)"


@pytest.fixture(scope="module")
def revenue(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_revenue(tmp_path_factory.mktemp("share36") / "revenue.duckdb")


WRONG = [
    ("tester_case", OF_EUROPE,
     "SELECT sum(CASE WHEN Product_line = 'Electronics' AND Region_id = 2 THEN REVENUE ELSE 0 "
     f"END) / sum(REVENUE) {JOINED}"),
    ("scalar_subqueries", OF_EUROPE,
     f"SELECT (SELECT sum(d.REVENUE) {JOINED} WHERE p.Product_line = 'Electronics' AND "
     "d.Region_id = 2) / (SELECT sum(REVENUE) FROM daily_revenue)"),
    ("code_in_list", OF_EUROPE,
     "SELECT sum(CASE WHEN Product_line = 'Electronics' AND Region_id IN (2) THEN REVENUE "
     f"ELSE 0 END) / sum(REVENUE) {JOINED}"),
    ("own_key_coded", "What share of the Electronics revenue came from Europe?",
     "SELECT sum(CASE WHEN p.Product_id = 1 AND d.Region_id = 2 THEN d.REVENUE ELSE 0 END) / "
     f"sum(d.REVENUE) {JOINED}"),
    ("another_region_below", OF_EUROPE,
     f"SELECT (SELECT sum(d.REVENUE) {JOINED} WHERE p.Product_line = 'Electronics' AND "
     "d.Region_id = 2) / (SELECT sum(REVENUE) FROM daily_revenue WHERE Region_id = 3)"),
]  # fmt: skip

RIGHT = [
    ("one_where", OF_EUROPE, f"SELECT {ELECTRONICS} / sum(d.REVENUE) {JOINED} WHERE Region_id = 2"),
    ("cte", OF_EUROPE,
     "WITH e AS (SELECT REVENUE, Product_id FROM daily_revenue WHERE Region_id = 2) "
     "SELECT sum(CASE WHEN p.Product_line = 'Electronics' THEN e.REVENUE ELSE 0 END) / "
     "sum(e.REVENUE) FROM e JOIN product p ON e.Product_id = p.Product_id"),
    ("both_subqueries_coded", OF_EUROPE,
     f"SELECT (SELECT sum(d.REVENUE) {JOINED} WHERE p.Product_line = 'Electronics' AND "
     "d.Region_id = 2) / (SELECT sum(REVENUE) FROM daily_revenue WHERE Region_id = 2)"),
    ("label_above_code_below", OF_EUROPE,
     f"SELECT (SELECT sum(d.REVENUE) {JOINED} JOIN (SELECT DISTINCT Region_id, Region FROM "
     "region) r ON d.Region_id = r.Region_id WHERE p.Product_line = 'Electronics' AND "
     "r.Region = 'Europe') / (SELECT sum(REVENUE) FROM daily_revenue WHERE Region_id = 2)"),
    ("europe_is_the_part", "What share of revenue came from Europe?",
     "SELECT sum(CASE WHEN Region_id = 2 THEN REVENUE ELSE 0 END) / sum(REVENUE) "
     "FROM daily_revenue"),
    ("europe_is_the_part_subqueries", "What share of revenue came from Europe?",
     "SELECT (SELECT sum(REVENUE) FROM daily_revenue WHERE Region_id = 2) / "
     "(SELECT sum(REVENUE) FROM daily_revenue)"),
]  # fmt: skip

# Europe's rows through the region table (its name in the WHERE): right, though ``region``'s row
# per state repeats each day's revenue in both sums (``signal.sum_fanned_out`` says so).
JOINED_REGION = (
    "joined_region",
    OF_EUROPE,
    f"SELECT {ELECTRONICS} / sum(d.REVENUE) {JOINED} JOIN region r ON d.Region_id = r.Region_id "
    "WHERE r.Region = 'Europe'",
)


@pytest.mark.parametrize(("name", "question", "sql"), WRONG, ids=[c[0] for c in WRONG])
def test_a_whole_said_by_its_code_and_dropped_is_withheld(
    tmp_path: Path, revenue: Path, name: str, question: str, sql: str
) -> None:
    verdict = scored(tmp_path, revenue, question, *[sql] * 5)
    assert DROPPED in codes(verdict), (name, codes(verdict))
    assert verdict["action"] == "withhold"


def test_the_message_names_the_code(tmp_path: Path, revenue: Path) -> None:
    verdict = scored(tmp_path, revenue, OF_EUROPE, *[WRONG[0][2]] * 5)
    found = next(f for f in verdict["findings"] if f["code"] == DROPPED)
    assert found["evidence"]["dropped"] == ["Region_id = 2"]
    assert found["evidence"]["named"] == ["region.Region_id 2 is 'Europe'"]
    assert "drops Region_id = 2 (region.Region_id 2 is 'Europe')" in found["message"]


CLEAR = [*RIGHT, JOINED_REGION]


@pytest.mark.parametrize(("name", "question", "sql"), CLEAR, ids=[c[0] for c in CLEAR])
def test_the_whole_on_both_sides_or_said_as_the_part_is_clear(
    tmp_path: Path, revenue: Path, name: str, question: str, sql: str
) -> None:
    verdict = scored(tmp_path, revenue, question, *[sql] * 5)
    assert DROPPED not in codes(verdict), (name, verdict["findings"])
    if (name, question, sql) in RIGHT:
        assert verdict["action"] == "show", (name, verdict["reasons"])
