"""fix41a: a verified query's answer, written as the planner writes its answers.

Outside re-check of tryout 40 (F-3 row, N5): the trusted example's sentence printed raw floats
("1465703.299999998") where the planner writes 1,465,703.30, and its partial-period note said
"June 2025 to August 2025 is not over" without saying how much of August the data holds.
Checked on a clinic's fees by month (my own data: float sums that do not come out round) and
on the planner's own doubles (Ward names as labels, other words).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from assay.connectors import connect
from assay.pipeline import Agent
from assay.pipeline._agent import _last_bucket_held
from assay.semantic import Period, Reading, SemanticLayer, parse_semantic

MONTHLY = (
    "SELECT ward, DATE_TRUNC('MONTH', day) AS month, SUM(fee) AS fees FROM visits "
    "WHERE day >= '2023-10-01' AND day < '2023-12-01' GROUP BY 1, 2 ORDER BY 1, 2"
)
QUESTION = "Show me the trend of fees by ward between October 2023 and November 2023"


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Agent]:
    path: Path = tmp_path_factory.mktemp("fix41a") / "clinic.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE visits (day DATE, fee DOUBLE, ward VARCHAR)")
        con.execute(
            "INSERT INTO visits VALUES "
            "('2023-10-02', 0.1, 'north'), ('2023-10-09', 0.2, 'north'), "
            "('2023-11-03', 1465703.1, 'north'), ('2023-11-07', 0.2, 'north'), "
            "('2023-10-04', 12.5, 'south')"
        )
    layer = parse_semantic(
        {
            "name": "clinic",
            "clock": "2023-11-14",
            "coverage": {"start": "2023-01-01", "end": "2023-11-14"},
            "metrics": [
                {
                    "name": "fees",
                    "table": "visits",
                    "expression": "sum(visits.fee)",
                    "time_column": "visits.day",
                }
            ],
            "dimensions": [{"name": "ward", "column": "visits.ward"}],
            "trusted_examples": [{"name": "fees trend", "question": QUESTION, "sql": MONTHLY}],
        }
    )
    with connect(str(path)) as connector:
        yield Agent(connector, layer)


def test_a_verified_answer_writes_numbers_as_the_planner_does(agent: Agent) -> None:
    verdict = agent.ask(QUESTION)
    assert verdict.provenance["verified_query"]["match"] == "exact"
    text = verdict.candidate.text
    sums = [row[2] for row in verdict.candidate.result.rows]
    assert 0.30000000000000004 in sums  # the float the engine returns, not round
    assert "0.30000000000000004" not in text and "1465703.3" not in text, text
    assert "north, 2023-10, 0.30" in text and "1,465,703.30" in text, text
    assert verdict.action == "show", (verdict.action, verdict.reasons)


def test_a_verified_answer_says_how_much_of_its_last_month_the_data_holds(agent: Agent) -> None:
    text = agent.ask(QUESTION).candidate.text
    assert "November 2023 holds data to the 14th only" in text, text


def test_a_last_bucket_held_whole_says_nothing() -> None:
    layer = SemanticLayer(clock=dt.date(2023, 9, 30))
    assert _last_bucket_held(Reading("fees by quarter"), "quarter", layer) == ""
    layer = SemanticLayer(clock=dt.date(2023, 8, 2))
    said = _last_bucket_held(Reading("fees by quarter"), "quarter", layer)
    assert said == "Q3 2023 holds data to 2023-08-02 only"
    # a period asked that ends before the data does: no bucket of it is cut
    june = Period(dt.date(2023, 6, 1), dt.date(2023, 7, 1), "June 2023", "June 2023")
    assert _last_bucket_held(Reading("fees in June 2023", periods=(june,)), "month", layer) == ""
