"""An order said outright ("highest first", "in descending order") against an ORDER BY of an
aggregate, or its alias, sorted the other way (outside tryout 23: shown at 1.00)."""

from __future__ import annotations

import pytest
import sqlglot

from assay.checks._named_fit import direction_problems

BY_STATUS = "SELECT status, COUNT(*) AS n FROM orders GROUP BY status ORDER BY "


@pytest.mark.parametrize(
    ("question", "order"),
    [
        ("Number of orders by status, highest first", "n"),
        ("Number of orders by status in descending order", "COUNT(*) ASC"),
        ("Number of orders by status, lowest first", "n DESC"),
        ("Number of orders by status from smallest to largest", "COUNT(*) DESC"),
    ],
)
def test_an_aggregate_sorted_against_the_order_said_fires(question: str, order: str) -> None:
    problems = direction_problems(question, sqlglot.parse_one(BY_STATUS + order), (False, False))
    assert any("sorts the aggregate" in p for p in problems), problems


@pytest.mark.parametrize(
    ("question", "order"),
    [
        ("Number of orders by status, highest first", "n DESC"),
        ("Number of orders by status, ascending", "COUNT(*)"),
        ("Number of orders by status", "n"),
        ("Statuses in descending order", "status"),  # a column: the column checks judge it
    ],
)
def test_the_order_said_or_none_is_silent(question: str, order: str) -> None:
    problems = direction_problems(question, sqlglot.parse_one(BY_STATUS + order), (False, False))
    assert not any("sorts the aggregate" in p for p in problems), problems


def test_a_noun_between_and_the_order_is_no_attribute() -> None:
    """Outside tryout 24: "most pets first" sorted ascending was shown, and the right answer
    withheld as projection_short ("most pets first" read as a third attribute)."""
    from assay.checks._cues import requested_attributes

    question = "List each student's first name and how many pets they own, most pets first."
    assert requested_attributes(question) == ("each student's first name", "how many pets they own")
    wrong = "SELECT Fname, count(*) AS n FROM Student GROUP BY Fname ORDER BY n ASC"
    assert direction_problems(question, sqlglot.parse_one(wrong), (False, False))
