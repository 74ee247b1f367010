"""Outside tryout 39, F3: ask-backs named words the user never said.

- "What is the age of the youngest singer?" was asked back on 'bottom': "what" before
  "youngest" was read as "which rows have the youngest" and a ranking put in that had nothing
  to rank. docs/semantic.md: "youngest"/"oldest" is the minimum/maximum of the one age column.
- "Largest order totalprice in 1995" was asked back on 'top'; the word said was 'Largest'.
"""

from __future__ import annotations

import pytest

from assay.semantic import SemanticLayer
from assay.semantic._model import Dimension, Metric
from tests.semantic._helpers import read_and_decide

PEOPLE = SemanticLayer(
    metrics=(
        Metric("age_min", "minimum Age", ("minimum age",), "singer", "min(singer.Age)"),
        Metric("age_max", "maximum Age", ("maximum age",), "singer", "max(singer.Age)"),
        Metric(
            "singer_count", "singer count", ("singers", "number of singers"), "singer", "count(*)"
        ),
    ),
    dimensions=(Dimension("singer_Country", "singer.Country", ("country",), ("France", "US")),),
)


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        ("What is the age of the youngest singer?", "age_min"),
        ("What was the age of the oldest singer?", "age_max"),
        ("What is the youngest singer's age?", "age_min"),
    ],
)
def test_what_is_the_youngest_is_the_minimum_age(question: str, metric: str) -> None:
    reading, decision = read_and_decide(question, PEOPLE)
    assert reading.metrics == (metric,) and reading.ranking is None, reading
    assert decision.behaviour == "answer", decision


def test_which_rows_have_the_oldest_stays_ranked() -> None:
    reading, decision = read_and_decide("Which country has the oldest singer?", PEOPLE)
    assert reading.groups == ("singer_Country",) and reading.ranking is not None
    assert decision.behaviour == "answer", decision


def test_a_ranking_with_nothing_to_rank_is_asked_back_in_the_users_word() -> None:
    _, decision = read_and_decide("Largest singer count", PEOPLE)
    assert decision.behaviour == "clarify", decision
    assert "'Largest'" in decision.message and "'top'" not in decision.message
