"""A ranking over a time grain never ranks a partial bucket or the undated rows silently against
whole ones (outside tryout 39, F1b/F1c: "Which year had the fewest orders?" named 1998, whose
orders stop on 2 August; "Which year had the fewest catalog sales?" named "no value: 81", the
sales with no date; both shown at 1.00), and the caption names the metric's own last day, not
the layer's.

A bakery of its own: one sale a day from 2021-01-01 to 2023-03-10 plus one more on each of
the first ten days of every month (a whole month 38 to 41 sales, March 2023 only 20; 2021 485,
2022 485 + 0, 2023 99), refunds in 2021 (3) and 2022 (4) and 1 with no date, and a layer whose
coverage runs to 2023-06-30 (its clock), past the sales' own last day.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import SemanticLayer, load_semantic
from assay.semantic._model import Metric
from assay.types import Verdict

LAST_SALE = dt.date(2023, 3, 10)
LAYER = SemanticLayer(
    name="bakery",
    metrics=(
        Metric(
            "sales",
            "sales count",
            ("sales", "number of sales"),
            "sales",
            "COUNT(*)",
            "sales.day",
            coverage=(dt.date(2021, 1, 1), LAST_SALE),
        ),
        Metric(
            "refunds",
            "refunds count",
            ("refunds", "number of refunds"),
            "refunds",
            "COUNT(*)",
            "refunds.day",
        ),
    ),
    tables=("sales", "refunds"),
    coverage=(dt.date(2021, 1, 1), dt.date(2023, 6, 30)),
    clock=dt.date(2023, 6, 30),
)


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Agent]:
    db = tmp_path_factory.mktemp("bakery") / "bakery.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE sales (day DATE)")
    days, day = [], dt.date(2021, 1, 1)
    while day <= LAST_SALE:
        days += [day, day] if day.day <= 10 else [day]
        day += dt.timedelta(days=1)
    con.executemany("INSERT INTO sales VALUES (?)", [(d,) for d in days])
    con.execute("CREATE TABLE refunds (day DATE)")
    refunds = [dt.date(2021, 5, d) for d in (1, 2, 3)] + [dt.date(2022, 6, d) for d in range(1, 5)]
    con.executemany("INSERT INTO refunds VALUES (?)", [(d,) for d in [*refunds, None]])
    con.close()
    with connect(str(db)) as connector:
        yield Agent(connector, LAYER)


def _codes(verdict: Verdict) -> list[str]:
    return [f.code for f in verdict.findings]


def _text(verdict: Verdict) -> str:
    return (verdict.candidate.text if verdict.candidate else None) or ""


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "Which year had the fewest sales?",
            "2023 holds only 2023-01-01 to 2023-03-10 of its days, ranked against whole years. "
            "A part of a year, or rows with no date, is not comparable with a whole one; ask for "
            'the whole years only ("between 2021 and 2022")',
        ),
        (
            "Which month had the fewest sales?",
            "March 2023 holds only 2023-03-01 to 2023-03-10 of its days, ranked against whole "
            "months. A part of a month, or rows with no date, is not comparable with a whole "
            'one; ask for the whole months only ("between January 2021 and February 2023")',
        ),
        # the quarter as a question says it, never its first month (recheck of tryout 39, N3:
        # "2024-10 holds only 2024-10-01 to 2024-11-07" for the fourth quarter of 2024)
        (
            "Which quarter had the fewest sales?",
            "Q1 2023 holds only 2023-01-01 to 2023-03-10 of its days, ranked against whole "
            "quarters. A part of a quarter, or rows with no date, is not comparable with a whole "
            'one; ask for the whole quarters only ("between Q1 2021 and Q4 2022")',
        ),
        ("Which year had the fewest refunds?", "the rows with no date are ranked as a year"),
    ],
    ids=["partial-year", "partial-month", "partial-quarter", "undated"],
)
def test_a_partial_or_undated_bucket_ranked_is_warned(
    agent: Agent, question: str, said: str
) -> None:
    verdict = agent.ask(question)
    assert "cap.partial_ranking" in _codes(verdict), (question, _codes(verdict), _text(verdict))
    assert verdict.action != "show", (question, verdict.action)
    finding = next(f for f in verdict.findings if f.code == "cap.partial_ranking")
    assert said in finding.message, finding.message


@pytest.mark.parametrize(
    "question",
    ["Which year had the most sales?", "Top 2 months by sales", "Which year had the most refunds?"],
)
def test_whole_buckets_ranked_are_not_warned(agent: Agent, question: str) -> None:
    verdict = agent.ask(question)
    assert verdict.candidate is not None and verdict.candidate.result is not None, question
    assert "cap.partial_ranking" not in _codes(verdict), (question, _text(verdict))


def test_the_whole_buckets_offered_are_ranked_unwarned(agent: Agent) -> None:
    """The period the warning offers is read, and ranks whole months only: the three
    Februaries (28 + 10 sales each), not March 2023's 20."""
    verdict = agent.ask("Which month had the fewest sales between January 2021 and February 2023?")
    assert verdict.candidate is not None and verdict.candidate.result is not None
    assert {row[-1] for row in verdict.candidate.result.rows} == {38}
    assert "cap.partial_ranking" not in _codes(verdict), _text(verdict)


def test_the_caption_names_the_metrics_own_last_day(agent: Agent) -> None:
    """ "(to 2023-06-30, the last year is not over)" was the layer's clock: the sales stop on
    2023-03-10, and what follows is missing data, not a year not yet over."""
    text = _text(agent.ask("Number of sales by year"))
    assert "to 2023-03-10, where its data ends" in text, text
    assert "2023-06-30" not in text and "not over" not in text, text


def test_the_undated_rows_read_no_date_not_no_value(agent: Agent) -> None:
    text = _text(agent.ask("Number of refunds by year"))
    assert "(no date): 1" in text, text
    assert "no value" not in text, text


@pytest.fixture(scope="module")
def tpch(tpch_duckdb: Path, tpch_draft: Path) -> Iterator[Agent]:
    with connect(str(tpch_duckdb)) as connector:
        yield Agent(connector, load_semantic(tpch_draft))


def test_the_testers_fewest_orders_year_is_not_shown_as_whole(tpch: Agent) -> None:
    """TPC-H's orders stop on 1998-08-02 while its line items run to 1998-12-25 (the clock):
    1998 (1,346 orders in 7 months) was shown as the year with the fewest orders, captioned
    "to 1998-12-25, the last year is not over" (outside tryout 39, F1b)."""
    verdict = tpch.ask("Which year had the fewest orders?")
    assert verdict.action != "show", verdict.action
    finding = next(f for f in verdict.findings if f.code == "cap.partial_ranking")
    assert "1998 holds only 1998-01-01 to 1998-08-02" in finding.message
    assert '("between 1992 and 1997")' in finding.message
    text = _text(verdict)
    assert "to 1998-08-02" in text and "1998-12-25" not in text, text
    month = tpch.ask("Which month had the fewest orders?")
    assert "cap.partial_ranking" in _codes(month) and month.action != "show", _text(month)
