"""A period the reader could not read is no missing concept (outside tryout 38, item 4).

"What was churn in 1Q24?" abstained with "the warehouse has no metric for ('churn', 'Q', '1',
'24')": the pieces of a period it could not read were quoted as if they were concepts the
warehouse lacks. Only 'churn' is a concept; the period is said as a period, in plain words, with
how to write it so that it is read."""

from __future__ import annotations

import pytest

from assay.semantic import SemanticLayer, parse_semantic

from ._helpers import read_and_decide


def _layer() -> SemanticLayer:
    return parse_semantic(
        {
            "name": "t",
            "clock": "2024-11-15",
            "metrics": [
                {
                    "name": "net_revenue",
                    "table": "sales",
                    "expression": "sum(sales.amount)",
                    "time_column": "sales.sold_on",
                }
            ],
            "dimensions": [{"name": "region", "column": "sales.region", "values": ["North"]}],
        }
    )


@pytest.mark.parametrize(
    ("question", "period"),
    [
        ("What was churn in 24Q1?", "24Q1"),
        ("What was churn in Q5 2024?", "Q5 2024"),
        ("What was churn in 2024/25?", "2024/25"),
        ("What was churn in quarter 1 2024?", "quarter 1 2024"),
    ],
    ids=["24q1", "q5", "split-year", "quarter-1"],
)
def test_an_unread_period_is_not_quoted_as_a_concept(question: str, period: str) -> None:
    _, decision = read_and_decide(question, _layer())
    assert decision.code == "behaviour.concept_missing", decision.message
    assert "('churn')" in decision.message, decision.message
    assert f"period '{period}'" in decision.message, decision.message
    for piece in ("'Q'", "'1'", "'24'", "'5'", "'25'"):
        assert piece not in decision.message.split("period")[0], decision.message


def test_a_question_with_only_an_unread_period_says_the_period() -> None:
    _, decision = read_and_decide("What was it in 24Q1?", _layer())
    assert decision.behaviour == "abstain", decision.message
    assert "'Q'" not in decision.message and "period '24Q1'" in decision.message


def test_1q24_is_now_read_as_the_quarter() -> None:
    # fix39d: "1Q24" (the quarter first, as analysts write it) is Q1 2024; only 'churn' is
    # left for the warehouse to lack
    reading, decision = read_and_decide("What was net revenue in 1Q24?", _layer())
    assert [p.label for p in reading.periods] == ["Q1 2024"] and decision.behaviour == "answer"
    _, decision = read_and_decide("What was churn in 1Q24?", _layer())
    assert decision.code == "behaviour.concept_missing" and "('churn')" in decision.message
    assert "could not be read" not in decision.message
