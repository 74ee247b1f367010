"""Questions outside testers met on `assay ask` over the demo's shop layer (tuned on, not held
out):

1. a misspelt value beside its dimension's word ("the kitchn category") was asked back, right,
   but the reading line said "by category": the question filters by it, never groups;
2. a question that only refers back ("What about the year before?") with no earlier question
   abstained as asking for a metric the warehouse lacks; it is asked back, saying there is no
   earlier question to follow up (never answered);
3. "largest country first" was asked back on 'first' while "by country, largest first" was
   answered: it is that breakdown, sorted the same way, with the same rows.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import SemanticLayer, load_semantic

from ._helpers import read_and_decide


@pytest.fixture(scope="module")
def shop(wrb: Path) -> SemanticLayer:
    return load_semantic(wrb / "shop.yaml")


@pytest.fixture(scope="module")
def agent(wrb: Path, shop: SemanticLayer) -> Iterator[Agent]:
    with connect(str(wrb / "shop.duckdb")) as connector:
        yield Agent(connector, shop)


# --- 1. a misspelt value's dimension is no breakdown -------------------------------------------


def test_a_misspelt_value_beside_its_dimension_is_said_as_a_filter_not_read(
    shop: SemanticLayer,
) -> None:
    reading, decision = read_and_decide("Units sold in the kitchn category last year", shop)
    assert decision.code == "behaviour.did_you_mean" and "'kitchen'" in decision.message
    said = reading.restate(shop)
    assert "by category" not in said
    assert "where category is ... (not read: 'kitchn')" in said


@pytest.mark.parametrize(
    ("question", "kept", "dropped"),
    [
        ("Net sales from Germny in 2023", "net revenue, in 2023", "by country"),
        # a breakdown said with "by" stays one, the misspelt value elsewhere
        ("Units sold by country in Germny in 2023", "by country", "not read"),
    ],
    ids=["value-alone", "by-said"],
)
def test_a_misspelt_value_elsewhere_leaves_the_reading_as_it_was(
    shop: SemanticLayer, question: str, kept: str, dropped: str
) -> None:
    reading, decision = read_and_decide(question, shop)
    assert decision.code == "behaviour.did_you_mean"
    assert kept in reading.restate(shop) and dropped not in reading.restate(shop)


# --- 2. a follow-up with no earlier question -------------------------------------------------


@pytest.mark.parametrize(
    ("question", "cue"),
    [
        ("What about the year before?", "What about"),
        ("and in 2022?", "and"),
        ("Same for Germany", "Same for"),
        ("How about last year?", "How about"),
        ("the year before", "the year before"),
    ],
    ids=["what-about", "and-in", "same-for", "how-about", "year-before"],
)
def test_a_question_that_only_refers_back_is_asked_back_as_such(
    agent: Agent, question: str, cue: str
) -> None:
    verdict = agent.ask(question)
    assert verdict.behaviour == "clarify" and verdict.candidate is None
    assert verdict.reasons == ("behaviour.refers_back",)
    message = verdict.provenance["message"]
    assert f"('{cue}')" in message and "no earlier question it can follow up" in message
    assert "Ask the whole question" in message


@pytest.mark.parametrize(
    ("question", "code"),
    [
        # an unread word is named, as before: nothing refers back that is not read
        ("What about weather?", "behaviour.concept_missing"),
        ("Net revenue the year before 2023", "behaviour.answer"),
    ],
    ids=["unread-word", "a-whole-question"],
)
def test_a_whole_question_or_an_unread_word_is_decided_as_before(
    shop: SemanticLayer, question: str, code: str
) -> None:
    assert read_and_decide(question, shop)[1].code == code


# --- 3. "largest country first" ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "How many orders were placed via the app in Q3 2023, largest country first?",
            "Number of orders placed via the app in Q3 2023 by country, largest first",
        ),
        (
            "Number of orders in 2023, smallest category first",
            "Number of orders in 2023 by category, smallest first",
        ),
    ],
    ids=["largest-country", "smallest-category"],
)
def test_a_dimension_said_inside_its_sort_is_that_sorted_breakdown(
    agent: Agent, question: str, said: str
) -> None:
    verdict, expected = agent.ask(question), agent.ask(said)
    assert verdict.behaviour == expected.behaviour == "answer"
    assert verdict.action == expected.action == "show"
    assert verdict.candidate is not None and expected.candidate is not None
    assert verdict.candidate.result is not None and expected.candidate.result is not None
    assert verdict.candidate.result.rows == expected.candidate.result.rows
    assert len(verdict.candidate.result.rows) > 1
    # "How many" said of a breakdown asks for no single number
    assert "signal.shape_mismatch" not in {f.code for f in verdict.findings}


def test_a_word_between_that_names_no_dimension_is_still_asked_back(agent: Agent) -> None:
    verdict = agent.ask("Net revenue in 2023, largest colour first")
    assert verdict.behaviour == "clarify" and "'colour'" in verdict.provenance["message"]
