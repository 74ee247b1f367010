"""Outside tryout 40 (F-3): a verified query matched exactly ("the trend of sales by product
category between June 2025 and August 2025") was shown at 1.00 over data that ends on
2025-08-14, every category's August halved and nothing said; the planner says "the last month
is not over" of the same answer. The verified query's answer now says it as the planner does:
the periods the question names, at the grain its SQL buckets dates by.

Checked on a shop's sales by month (the tester's kind) and on a clinic's visits by quarter (other
words, another grain), each with a whole span that must say nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import parse_semantic

MONTHLY = (
    "SELECT region, DATE_TRUNC('MONTH', day) AS month, SUM(amount) AS sales FROM sales "
    "WHERE day >= '2023-09-01' AND day < '2023-12-01' GROUP BY 1, 2 ORDER BY 1, 2"
)
QUARTERLY = (
    "SELECT ward, date_trunc('quarter', day) AS q, SUM(amount) AS cost FROM sales "
    "GROUP BY 1, 2 ORDER BY 1, 2"
)


def _layer(question: str, sql: str, end: str, metric: str) -> dict[str, Any]:
    return {
        "name": "shop",
        "clock": end,
        "coverage": {"start": "2023-01-01", "end": end},
        "metrics": [
            {
                "name": metric,
                "table": "sales",
                "expression": "sum(sales.amount)",
                "time_column": "sales.day",
            }
        ],
        "dimensions": [
            {"name": "region", "column": "sales.region"},
            {"name": "ward", "column": "sales.ward"},
        ],
        "trusted_examples": [{"name": "trend", "question": question, "sql": sql}],
    }


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("trusted40") / "shop.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE sales AS SELECT * FROM (VALUES (DATE '2023-01-05', 10.0, 'EU', 'a'), "
        "(DATE '2023-09-01', 32.5, 'US', 'b'), (DATE '2023-10-03', 7.5, 'EU', 'a'), "
        "(DATE '2023-11-14', 5.0, 'EU', 'b')) t(day, amount, region, ward)"
    )
    con.close()
    return path


@pytest.fixture
def ask(db: Path) -> Iterator[Any]:
    with connect(str(db)) as connector:

        def run(question: str, sql: str, end: str, metric: str) -> Any:
            layer = parse_semantic(_layer(question, sql, end, metric))
            return Agent(connector, layer).ask(question)

        yield run


@pytest.mark.parametrize(
    ("question", "sql", "end", "metric", "said"),
    [
        (
            "Show me the trend of sales by region between September 2023 and November 2023",
            MONTHLY,
            "2023-11-14",
            "sales",
            "to 2023-11-14",
        ),
        ("visit cost by ward each quarter", QUARTERLY, "2023-11-14", "visit_cost", "quarter"),
    ],
    ids=["months-named", "quarters"],
)
def test_a_verified_answer_says_its_last_period_is_not_over(
    ask: Any, question: str, sql: str, end: str, metric: str, said: str
) -> None:
    verdict = ask(question, sql, end, metric)
    assert verdict.provenance["verified_query"]["match"] == "exact"
    assert verdict.candidate.result.rows, verdict.reasons
    text = verdict.candidate.text
    assert "not over" in text and said in text, text


@pytest.mark.parametrize(
    ("question", "sql", "end", "metric"),
    [
        (
            "Show me the trend of sales by region between September 2023 and November 2023",
            MONTHLY,
            "2023-11-30",
            "sales",
        ),
        ("visit cost by ward each quarter", QUARTERLY, "2023-12-31", "visit_cost"),
    ],
    ids=["months-whole", "quarters-whole"],
)
def test_a_whole_span_says_nothing(
    ask: Any, question: str, sql: str, end: str, metric: str
) -> None:
    verdict = ask(question, sql, end, metric)
    assert verdict.provenance["verified_query"]["match"] == "exact"
    assert "not over" not in verdict.candidate.text
