"""Wrong answers a new user's tryout still found (issue 9): a modifier or a word the reader
cannot attach to the reading is left unread and named, never consumed while a total over
something else is shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.semantic import (
    Lexicon,
    SemanticLayer,
    ask_back_choices,
    decide,
    load_semantic,
    read,
)


@pytest.fixture(scope="module")
def layers(wrb: Path) -> dict[str, tuple[SemanticLayer, Lexicon]]:
    out = {}
    for domain in ("shop", "insurance", "saas", "clinic"):
        layer = load_semantic(wrb / f"{domain}.yaml")
        out[domain] = (layer, Lexicon(layer))
    return out


def _decide(layers: dict[str, tuple[SemanticLayer, Lexicon]], domain: str, question: str):  # type: ignore[no-untyped-def]
    layer, lexicon = layers[domain]
    reading = read(question, layer, lexicon)
    return reading, decide(reading, layer)


@pytest.mark.parametrize(
    ("domain", "question", "word"),
    [
        ("shop", "gross revenue from new customers", "new"),
        ("shop", "gross revenue from new customers in 2023", "new"),
        ("clinic", "number of visits from new patients", "new"),
        ("saas", "gross revenue from new accounts", "new"),
        ("saas", "net revenue in 2023 from new accounts", "new"),
        ("saas", "gross revenue by old region", "old"),
        ("saas", "gross revenue in 2023 by old region", "old"),
        ("shop", "gross revenue from returning customers in 2023", "returning"),
        ("shop", "gross revenue from first-time customers in 2023", "first-time"),
        ("saas", "gross revenue from churned accounts in 2023", "churned"),
        ("saas", "gross revenue from active accounts in 2023", "active"),
        ("clinic", "number of visits by former patients in 2023", "former"),
        # "new" said of other rows than the metric counts, though the metric counts arrivals
        ("insurance", "number of claims from new customers", "new"),
        ("insurance", "policies sold in 2023 to new customers", "new"),
    ],
)
def test_a_modifier_the_layer_does_not_define_is_named(
    layers: dict[str, tuple[SemanticLayer, Lexicon]], domain: str, question: str, word: str
) -> None:
    _, decision = _decide(layers, domain, question)
    assert decision.behaviour in {"clarify", "abstain"}, (question, decision)
    assert f"'{word}" in decision.message, decision.message


@pytest.mark.parametrize(
    ("domain", "question", "metric"),
    [
        # "new" said of a count of things dated by their own creation: the count itself.
        ("shop", "How many new customers registered in Q1 2024?", "registered_customers"),
        ("shop", "customers who registered in 2022", "registered_customers"),
        ("saas", "new accounts in 2023", "new_accounts"),
        ("clinic", "registered patients in 2022", "registered_patients"),
        ("clinic", "How many new patients registered in 2023?", "registered_patients"),
    ],
)
def test_a_modifier_the_metric_itself_means_is_read(
    layers: dict[str, tuple[SemanticLayer, Lexicon]], domain: str, question: str, metric: str
) -> None:
    reading, decision = _decide(layers, domain, question)
    assert decision.behaviour == "answer", decision.message
    assert reading.metrics == (metric,)


def test_the_old_column_named_as_a_column_is_its_replacement(
    layers: dict[str, tuple[SemanticLayer, Lexicon]],
) -> None:
    reading, decision = _decide(
        layers, "saas", "gross revenue in 2023 split by the old region column"
    )
    assert decision.behaviour == "answer", decision.message
    assert reading.groups == ("region",)


@pytest.mark.parametrize(
    ("domain", "question", "named"),
    [
        ("shop", "gross revenue from customers who registered in 2022", "registered"),
        ("shop", "net revenue from customers registered in 2023", "registered"),
        ("clinic", "visits for patients who registered in 2022", "registered"),
        ("saas", "gross revenue from accounts that signed up in 2022", "signed"),
    ],
)
def test_a_period_of_another_event_is_not_the_metrics_period(
    layers: dict[str, tuple[SemanticLayer, Lexicon]], domain: str, question: str, named: str
) -> None:
    reading, decision = _decide(layers, domain, question)
    assert decision.behaviour in {"clarify", "abstain"}, (question, reading)
    assert named in decision.message, decision.message


@pytest.mark.parametrize(
    "question",
    [
        "number of visits by patients born after 1990",
        "number of visits by patients born before 1980",
        "visit cost for patients born since 1985",
    ],
)
def test_a_year_said_of_another_attribute_is_no_period(
    layers: dict[str, tuple[SemanticLayer, Lexicon]], question: str
) -> None:
    reading, decision = _decide(layers, "clinic", question)
    assert not reading.periods, reading.periods
    assert decision.behaviour in {"clarify", "abstain"}
    assert "born" in decision.message
    assert decision.code != "behaviour.period_outside_coverage"


@pytest.mark.parametrize(
    "question",
    [
        "gross revenue for Germany in 2023 and France in 2024",
        "gross revenue in 2023 for Germany and in 2024 for France",
        "net revenue for books in Q1 2024 and toys in Q2 2024",
    ],
)
def test_paired_values_and_periods_are_no_cross_product(
    layers: dict[str, tuple[SemanticLayer, Lexicon]], question: str
) -> None:
    _, decision = _decide(layers, "shop", question)
    assert decision.behaviour == "clarify", decision
    assert "pair" in decision.message


@pytest.mark.parametrize(
    "question",
    [
        "total gross revenue across all years",
        "gross revenue over all years",
        "gross revenue of all time",
        "all-time gross revenue",
        "total gross revenue for all years combined",
    ],
)
def test_a_total_over_all_years_is_one_total(
    layers: dict[str, tuple[SemanticLayer, Lexicon]], question: str
) -> None:
    reading, decision = _decide(layers, "shop", question)
    assert decision.behaviour == "answer", decision.message
    assert reading.grain is None and not reading.groups and not reading.periods


def test_a_total_over_all_years_by_year_is_asked_back(
    layers: dict[str, tuple[SemanticLayer, Lexicon]],
) -> None:
    _, decision = _decide(layers, "shop", "gross revenue across all years in 2023")
    assert decision.behaviour == "clarify"


@pytest.mark.parametrize(
    ("domain", "question", "word"),
    [
        # found by the blind held-out set (fresh.insurance.017), fixed after; "Q2 of fiscal
        # 2025" (fresh.saas.003) is now read as fiscal Q2 2025 (test_reading_risks)
        ("shop", "gross revenue in Q4 2023 compared with 2023", "one within the other"),
        (
            "insurance",
            "written premium for 2024 to date compared with the same period last year",
            "same period",
        ),
        ("shop", "gross revenue this year vs the same time last year", "same time"),
        ("shop", "gross revenue in 2024, like-for-like with 2023", "like-for-like"),
    ],
)
def test_one_period_said_of_another_or_like_for_like_is_asked_back(
    layers: dict[str, tuple[SemanticLayer, Lexicon]], domain: str, question: str, word: str
) -> None:
    reading, decision = _decide(layers, domain, question)
    assert decision.behaviour == "clarify", (question, decision)
    assert any(word in d for d in reading.dangling), reading.dangling


@pytest.mark.parametrize(
    ("domain", "question"),
    [
        ("saas", "net revenue in 2023 vs 2022"),
        ("shop", "gross revenue year over year in 2023"),
        ("shop", "gross revenue in Q1 2024 compared with Q4 2023"),
    ],
)
def test_periods_apart_are_still_compared(
    layers: dict[str, tuple[SemanticLayer, Lexicon]], domain: str, question: str
) -> None:
    reading, decision = _decide(layers, domain, question)
    assert decision.behaviour == "answer", (question, decision, reading.dangling)
    assert len(reading.periods) == 2 and reading.compare


@pytest.mark.parametrize(
    ("question", "words"),
    [
        # found by an outside tryout on imported layers: the span word was dropped and the
        # single day shown
        ("gross revenue in the week of 2023-03-06", "week of 2023-03-06"),
        ("gross revenue in the month of 2023-03-06", "month of 2023-03-06"),
        ("gross revenue around 2023-03-06", "around 2023-03-06"),
        ("gross revenue roughly March 2023", "roughly March 2023"),
    ],
)
def test_a_date_with_a_span_word_or_hedge_is_asked_back(
    layers: dict[str, tuple[SemanticLayer, Lexicon]], question: str, words: str
) -> None:
    reading, decision = _decide(layers, "shop", question)
    assert decision.behaviour == "clarify", (question, decision)
    assert any(words in d for d in reading.dangling), reading.dangling


def test_a_plain_date_is_still_read(layers: dict[str, tuple[SemanticLayer, Lexicon]]) -> None:
    for question in ("gross revenue since 2023-03-06", "gross revenue in March 2023"):
        reading, decision = _decide(layers, "shop", question)
        assert decision.behaviour == "answer", (question, decision, reading.dangling)


@pytest.mark.parametrize(
    "question",
    [
        # tryout 26: asked back on 'bought', though "buyers" names purchasing customers
        "How many customers bought from the web channel in 2023?",
        "How many customers purchased from the web channel in 2023?",
    ],
)
def test_a_verb_of_a_metrics_synonym_pins_it(
    layers: dict[str, tuple[SemanticLayer, Lexicon]], question: str
) -> None:
    reading, decision = _decide(layers, "shop", question)
    assert decision.behaviour == "answer", decision.message
    assert reading.metrics == ("purchasing_customers",)


@pytest.mark.parametrize(
    "question", ["Gross revenue in Spain in 2023", "Gross revenue in Germny in 2023"]
)
def test_a_year_read_with_an_unknown_value_is_not_restated_as_all_dates(
    layers: dict[str, tuple[SemanticLayer, Lexicon]], question: str
) -> None:
    """Tryout 26: an abstained and a did-you-mean question both printed "I read this as: gross
    revenue, over all dates", dropping the year the question gave."""
    layer, lexicon = layers["shop"]
    restated = read(question, layer, lexicon).restate(layer)
    assert "over all dates" not in restated and "2023" in restated, restated


@pytest.mark.parametrize(
    ("question", "behaviour"),
    [
        ("Gross revenue in Spain in 2023", "abstain"),
        ("Gross revenue in Germny in 2023", "clarify"),
        ("gross revenue from Spain in 2023", "abstain"),
    ],
)
def test_a_year_after_an_unknown_value_is_read_as_the_period(
    layers: dict[str, tuple[SemanticLayer, Lexicon]], question: str, behaviour: str
) -> None:
    """Tryout 26, as the layer reads it: the year is the metric's period, restated as such
    ("in 2023 (2023-01-01 to 2023-12-31)", not "the period in 'Spain in 2023' not read"), and
    the unknown word is still asked back or abstained on, never dropped."""
    reading, decision = _decide(layers, "shop", question)
    layer, _ = layers["shop"]
    assert [p.label for p in reading.periods] == ["2023"]
    assert reading.restate(layer) == "gross revenue, in 2023 (2023-01-01 to 2023-12-31)"
    assert decision.behaviour == behaviour, decision.message


def test_a_period_said_of_a_verb_is_still_its_own(
    layers: dict[str, tuple[SemanticLayer, Lexicon]],
) -> None:
    reading, decision = _decide(layers, "shop", "gross revenue of customers registered in 2022")
    assert reading.periods == () and "registered in 2022" in reading.unread
    assert decision.behaviour != "answer"


def test_a_did_you_mean_names_the_value_as_stored(
    layers: dict[str, tuple[SemanticLayer, Lexicon]],
) -> None:
    """Tryout 26: "Germny" was offered as 'germany', a name the column holds as 'DE'."""
    _, decision = _decide(layers, "shop", "Gross revenue in Germny in 2023")
    assert "did you mean 'Germany (DE)'?" in decision.message, decision.message
    layer, lexicon = layers["shop"]
    (choice,) = ask_back_choices("Gross revenue in Germny in 2023", layer, lexicon)
    assert (choice.label, choice.question) == ("Germany (DE)", "Gross revenue in Germany in 2023")


@pytest.mark.parametrize(
    ("domain", "question", "said", "why"),
    [
        # outside recheck 40, N4: "orders count in the same quarter last year" was told "I don't
        # know what 'the same quarter (name both periods' dates)' applies to here"
        ("insurance", "written premium in the same quarter last year", "the same quarter", "dates"),
        ("shop", "gross revenue around March 10 2024", "around", "which dates"),
    ],
)
def test_a_word_asked_back_with_its_reason_is_quoted_apart_from_it(
    layers: dict[str, tuple[SemanticLayer, Lexicon]],
    domain: str,
    question: str,
    said: str,
    why: str,
) -> None:
    _, decision = _decide(layers, domain, question)
    assert decision.behaviour == "clarify", (question, decision)
    assert f"'{said}" in decision.message, decision.message
    assert why in decision.message, decision.message
    assert "dates)'" not in decision.message and "?)'" not in decision.message, decision.message
