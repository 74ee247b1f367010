"""``signal.value_dropped`` on share36's revenue tables (``_revenue36``): the message said "the
answer counts or lists every value" of a SUM too, and named the value lower-cased ('europe'
where 'Europe' is stored and said). It now says what the SQL does with the rows (counts,
totals, averages, lists) and names the value as stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.checks._helpers import scored
from tests.checks._revenue36 import build_revenue


@pytest.fixture(scope="module")
def revenue(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_revenue(tmp_path_factory.mktemp("dropped36") / "revenue.duckdb")


VALUE = "signal.value_dropped"
THROUGH_REGION = "FROM daily_revenue d JOIN region r ON d.Region_id = r.Region_id"
DOES = [
    ("counts", "How many days had revenue in Europe?", f"SELECT count(*) {THROUGH_REGION}",
     "counts the rows of every Region"),
    ("totals", "What was the total revenue in Europe?", f"SELECT sum(d.REVENUE) {THROUGH_REGION}",
     "totals d.REVENUE of every Region"),
    ("averages", "What was the average revenue in Europe?",
     f"SELECT avg(d.REVENUE) {THROUGH_REGION}", "averages d.REVENUE of every Region"),
    ("lists", "List the days with revenue in Europe.", f"SELECT d.DATE {THROUGH_REGION}",
     "lists the rows of every Region"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "question", "sql", "does"), DOES, ids=[c[0] for c in DOES])
def test_a_dropped_value_says_what_the_sql_does_and_the_value_as_stored(
    tmp_path: Path, revenue: Path, name: str, question: str, sql: str, does: str
) -> None:
    verdict = scored(tmp_path, revenue, question, *[sql] * 5)
    found = next(f for f in verdict["findings"] if f["code"] == VALUE)
    assert found["evidence"]["value"] == "Europe", name
    assert f"the answer {does}, not only 'Europe'." in found["message"], found["message"]
