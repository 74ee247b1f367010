"""Properties of the reader (hypothesis): an unknown word is never answered over, and a
negation or a second value always changes the reading."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay.semantic import Lexicon, SemanticLayer, decide, load_semantic, read, tokenize
from assay.semantic._words import FUNCTION_WORDS

ANSWERED = (
    "What was the gross revenue in 2023?",
    "gross revenue in 2023 excluding Germany",
    "Which product category had the most net revenue in Q4 2023?",
    "Top 3 country by net revenue last year",
    "units sold by category in H1 2024",
    "How many orders in 2024?",
    "net revenue for books or toys in 2023",
    "Compare gross revenue 2023 vs 2022",
    "Monthly net revenue in 2023",
    "average delivery days in 2023 for France",
)
# Consonants only: no such word is in a layer, a period spelling or a word list.
UNKNOWN = st.text(alphabet="bcdfghjklmnpqrstvwxz", min_size=5, max_size=9)


@pytest.fixture(scope="module")
def shop(wrb: Path) -> tuple[SemanticLayer, Lexicon]:
    layer = load_semantic(wrb / "shop.yaml")
    return layer, Lexicon(layer)


def _content_positions(question: str) -> list[tuple[int, int]]:
    return [
        (t.start, t.end)
        for t in tokenize(question)
        if t.text.isalpha() and t.lower not in FUNCTION_WORDS
    ]


def test_the_questions_are_answered(shop: tuple[SemanticLayer, Lexicon]) -> None:
    layer, lexicon = shop
    for question in ANSWERED:
        assert decide(read(question, layer, lexicon), layer).behaviour == "answer", question


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data(), word=UNKNOWN)
def test_an_unknown_word_is_never_answered_over(
    shop: tuple[SemanticLayer, Lexicon], data: st.DataObject, word: str
) -> None:
    layer, lexicon = shop
    question = data.draw(st.sampled_from(ANSWERED))
    start, end = data.draw(st.sampled_from(_content_positions(question)))
    changed = question[:start] + word + question[end:]
    decision = decide(read(changed, layer, lexicon), layer)
    assert decision.behaviour in {"clarify", "abstain"}, changed
    assert word in decision.message, (changed, decision.message)


# Modifiers that restrict the rows to some of them; the shop layer defines none of them.
MODIFIERS = ("new", "old", "registered", "first-time", "returning", "active", "former", "churned")


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data(), word=st.sampled_from(MODIFIERS))
def test_a_modifier_the_layer_does_not_define_is_never_answered_over(
    shop: tuple[SemanticLayer, Lexicon], data: st.DataObject, word: str
) -> None:
    layer, lexicon = shop
    question = data.draw(st.sampled_from(ANSWERED))
    start, _ = data.draw(st.sampled_from(_content_positions(question)))
    changed = question[:start] + word + " " + question[start:]
    decision = decide(read(changed, layer, lexicon), layer)
    assert decision.behaviour in {"clarify", "abstain"}, changed
    assert word in decision.message, (changed, decision.message)


WITH_VALUE = (
    ("gross revenue for Germany in 2023", "Germany", "country"),
    ("net revenue in 2023 for books", "books", "category"),
    ("units sold via the app in Q2 2024", "app", "channel"),
    ("number of orders from FR last year", "FR", "country"),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_negation_or_a_second_value_changes_the_reading(
    shop: tuple[SemanticLayer, Lexicon], data: st.DataObject
) -> None:
    layer, lexicon = shop
    question, value, dimension = data.draw(st.sampled_from(WITH_VALUE))
    before = read(question, layer, lexicon)
    negation = data.draw(st.sampled_from(["excluding", "except", "other than", "not", "outside"]))
    negated = read(question.replace(value, f"{negation} {value}"), layer, lexicon)
    assert negated.filters != before.filters
    assert negated.filters[0].negated
    other = data.draw(
        st.sampled_from([v for v in layer.dimension(dimension).values if v not in question])
    )
    joiner = data.draw(st.sampled_from(["and", "or", ","]))
    listed = read(question.replace(value, f"{value} {joiner} {other}"), layer, lexicon)
    assert listed.filters != before.filters
    assert other in listed.filters[0].values
