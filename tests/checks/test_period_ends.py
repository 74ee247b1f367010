"""A period the question names, closed on the first day (or year) of the next one: agreed16's
"first quarter of 1994" as BETWEEN '1994-01-01' AND '1994-04-01' and "born in the 1970s" as
BETWEEN 1970 AND 1980 were shown at 1.00."""

from __future__ import annotations

import pytest

from assay.checks import CheckContext
from assay.checks._period_ends import period_end_included
from assay.types import Candidate

Q1 = "How many orders were placed in the first quarter of 1994?"
DECADE = "How many customers were born in the 1970s?"


def _fires(question: str, where: str) -> bool:
    sql = f"SELECT count(*) FROM t WHERE {where}"
    outcome = period_end_included(CheckContext(question, Candidate(sql), "duckdb", None))
    return [f.code for f in outcome.findings] == ["signal.period_bound"]


@pytest.mark.parametrize(
    ("question", "where"),
    [
        (Q1, "d BETWEEN '1994-01-01' AND '1994-04-01'"),
        (Q1, "d >= '1994-01-01' AND d <= DATE '1994-04-01'"),
        (DECADE, "y BETWEEN 1970 AND 1980"),
        ("How many sales in December 1999?", "d BETWEEN '1999-12-01' AND '2000-01-01'"),
        ("How many sales were made in 1999?", "y BETWEEN 1999 AND 2000"),
        ("Revenue in Q4 2001?", "d BETWEEN '2001-10-01' AND '2002-01-01'"),
    ],
)
def test_the_next_periods_first_day_included_fires(question: str, where: str) -> None:
    assert _fires(question, where)


@pytest.mark.parametrize(
    ("question", "where"),
    [
        (Q1, "d BETWEEN DATE '1994-01-01' AND DATE '1994-03-31'"),
        (Q1, "d >= '1994-01-01' AND d < '1994-04-01'"),
        (DECADE, "y BETWEEN 1970 AND 1979"),
        ("How many sales between 1999 and 2000?", "y BETWEEN 1999 AND 2000"),
        ("How many sales were made in 1999?", "y = 1999"),
    ],
)
def test_a_period_closed_on_its_own_last_day_is_silent(question: str, where: str) -> None:
    assert not _fires(question, where)


def test_a_period_closed_days_before_its_end_fires() -> None:
    # outside tryout 23: "in 2001" as BETWEEN '2001-01-01' AND '2001-12-30' drops 31 December
    assert _fires("Total sales in 2001?", "d BETWEEN '2001-01-01' AND '2001-12-30'")
    assert not _fires("Total sales in 2001?", "d BETWEEN '2001-01-01' AND '2001-12-31'")


GROSS = "What was the gross revenue in 2023?"


@pytest.mark.parametrize(
    "where",
    [
        # the year before, its upper bound carrying 2023 (outside re-check of tryout 38: shown)
        "order_date >= '2022-01-01' AND order_date < '2023-01-01'",
        "order_date BETWEEN '2024-01-01' AND '2024-12-31'",
    ],
)
def test_a_range_outside_the_period_asked_fires(where: str) -> None:
    assert _fires(GROSS, where)


@pytest.mark.parametrize(
    ("question", "where"),
    [
        (GROSS, "order_date >= '2023-01-01' AND order_date < '2024-01-01'"),
        (GROSS, "order_date BETWEEN '2023-01-01' AND '2023-12-31'"),
        # two ranges, one on the year asked: a comparison, not the wrong year
        (
            "What was the gross revenue in 2023, and what was it the year before?",
            "(order_date >= '2023-01-01' AND order_date < '2024-01-01') OR "
            "(order_date >= '2022-01-01' AND order_date < '2023-01-01')",
        ),
    ],
)
def test_a_range_touching_the_period_asked_is_silent(question: str, where: str) -> None:
    assert not _fires(question, where)


# Outside re-check of tryout 38 ("extra"): "gross revenue in 2023" as a mid-year range or a
# single bound that leaves out all of 2023 was shown; a NEW example on a schema of tickets too.
TICKETS = "How many tickets were opened in March 2021?"


@pytest.mark.parametrize(
    ("question", "where"),
    [
        (GROSS, "order_date >= '2022-06-01' AND order_date < '2023-06-01'"),
        (GROSS, "order_date < '2023-01-01'"),
        (GROSS, "order_date <= '2022-12-31'"),
        (GROSS, "order_date >= '2024-01-01'"),
        (GROSS, "order_date >= '2023-03-01'"),
        (TICKETS, "opened_on >= '2021-03-15' AND opened_on < '2021-04-15'"),
        (TICKETS, "opened_on BETWEEN '2021-02-01' AND '2021-03-31'"),
        (TICKETS, "opened_on < DATE '2021-03-01'"),
        (TICKETS, "opened_on > '2021-03-01'"),
    ],
)
def test_a_restriction_not_the_period_asked_fires(question: str, where: str) -> None:
    assert _fires(question, where)


@pytest.mark.parametrize(
    ("question", "where"),
    [
        (TICKETS, "opened_on >= '2021-03-01' AND opened_on < '2021-04-01'"),
        (TICKETS, "opened_on >= '2021-03-01' AND opened_on <= '2021-03-31'"),
        # a bound on the period's own first or last day and no other: right where no rows lie
        # past it ("in 1998" on TPC-H, which ends in 1998: agreed22 h22_h09)
        ("Top customers by order value in 1998?", "o_orderdate >= DATE '1998-01-01'"),
        (GROSS, "order_date <= '2023-12-31'"),
        # narrower than the period: the question's other words may say so
        (GROSS, "order_date >= '2023-03-01' AND order_date < '2023-04-01'"),
        # the year carried another way, a bound beside it
        (GROSS, "year(order_date) = 2023 AND order_date >= '2023-01-01'"),
        # one-sided questions, comparisons, fiscal years, rolling windows, no period
        ("What was the gross revenue since 2023?", "order_date >= '2023-01-01'"),
        ("What was the gross revenue before 2023?", "order_date < '2023-01-01'"),
        (
            "What was the gross revenue in 2023 compared with 2022?",
            "order_date >= '2022-01-01' AND order_date < '2024-01-01'",
        ),
        (
            "What was the gross revenue in 2024, by fiscal year starting in October?",
            "order_date >= '2023-10-01' AND order_date < '2024-10-01'",
        ),
        (
            "What was the gross revenue in the 12 months up to March 2023?",
            "order_date >= '2022-04-01' AND order_date < '2023-04-01'",
        ),
        ("What was the gross revenue in the last 12 months?", "order_date >= '2023-06-01'"),
        ("What was the gross revenue?", "order_date < '2023-01-01'"),
        (
            "How many tickets were opened from January to March 2021?",
            "opened_on >= '2021-01-01' AND opened_on < '2021-04-01'",
        ),
    ],
)
def test_a_restriction_on_the_period_asked_is_silent(question: str, where: str) -> None:
    assert not _fires(question, where)


@pytest.mark.parametrize(
    "where",
    [
        # the other end written as a timestamp, or with the literal first
        "order_date >= '2023-01-01' AND order_date <= '2023-12-31 23:59:59'",
        "order_date >= '2023-01-01' AND '2024-01-01' > order_date",
    ],
)
def test_a_range_with_an_end_not_read_as_a_date_is_not_one_sided(where: str) -> None:
    assert not _fires(GROSS, where)


# Outside tryout 39 (F12): "Revenue in Q1 and Q3 2024" as two OR'ed ranges, both right, printed
# "the SQL bounds date from 2024-07-01 to 2024-03-31: it leaves out its last days" under the
# shown answer: the lower bound of one range was paired with the upper bound of the other.
@pytest.mark.parametrize(
    ("question", "where"),
    [
        (
            "Revenue in Q1 and Q3 2024?",
            "(d >= '2024-01-01' AND d < '2024-04-01') OR (d >= '2024-07-01' AND d < '2024-10-01')",
        ),
        (
            "Orders in March 2023 or May 2023?",
            "(d >= '2023-03-01' AND d <= '2023-03-31') OR "
            "(d >= '2023-05-01' AND d <= '2023-05-31')",
        ),
        (
            "Sales in Q2 and Q4 2001?",
            "x = 1 AND ((d >= '2001-04-01' AND d < '2001-07-01') OR "
            "(d >= '2001-10-01' AND d < '2002-01-01'))",
        ),
    ],
    ids=["quarters", "months", "nested"],
)
def test_two_disjoint_periods_or_ed_are_silent(question: str, where: str) -> None:
    assert not _fires(question, where)


@pytest.mark.parametrize(
    "where",
    [
        # one of the two OR'ed ranges ends a day into the next quarter: still caught
        "(d >= '2024-01-01' AND d < '2024-04-01') OR (d >= '2024-07-01' AND d <= '2024-10-01')",
        # a bound outside the OR holds with each branch of it
        "d >= '2024-07-01' AND (d <= '2024-10-01' OR d IS NULL)",
    ],
    ids=["or-ed-range-past-its-end", "bound-above-the-or"],
)
def test_a_range_past_its_end_beside_an_or_still_fires(where: str) -> None:
    assert _fires("Revenue in Q1 and Q3 2024?", where)
