"""The whole-question reader: every word accounted for, the issue's failures as tests."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from assay.semantic import (
    Filter,
    Lexicon,
    SemanticLayer,
    canonical,
    decide,
    find_periods,
    load_semantic,
    read,
)

CLOCK = dt.date(2024, 11, 15)


@pytest.fixture(scope="module")
def layers(wrb: Path) -> dict[str, tuple[SemanticLayer, Lexicon]]:
    out = {}
    for domain in ("shop", "insurance", "saas", "clinic"):
        layer = load_semantic(wrb / f"{domain}.yaml")
        out[domain] = (layer, Lexicon(layer))
    return out


def _read(layers: dict[str, tuple[SemanticLayer, Lexicon]], domain: str, question: str):  # type: ignore[no-untyped-def]
    layer, lexicon = layers[domain]
    reading = read(question, layer, lexicon)
    return reading, decide(reading, layer)


@pytest.mark.parametrize(
    ("question", "filters"),
    [
        ("gross revenue in 2023 excluding Germany", (Filter("country", ("DE",), True),)),
        (
            "gross revenue in 2023 from customers who are not in the US",
            (Filter("country", ("US",), True),),
        ),
        (
            "gross revenue in 2023 where country is DE or FR",
            (Filter("country", ("DE", "FR"), False),),
        ),
        ("gross revenue in 2023 for germany", (Filter("country", ("DE",), False),)),
        (
            "net revenue 2023 other than books and toys",
            (Filter("category", ("books", "toys"), True),),
        ),
        ("units sold in 2023 via the app", (Filter("channel", ("A",), False),)),
    ],
    ids=["excluding", "not-in", "or-list", "lower-case-synonym", "other-than-list", "code"],
)
def test_filters_with_negation_and_lists(
    layers: dict[str, tuple[SemanticLayer, Lexicon]], question: str, filters: tuple[Filter, ...]
) -> None:
    reading, decision = _read(layers, "shop", question)
    assert decision.behaviour == "answer", decision.message
    assert [(f.dimension, f.values, f.negated) for f in reading.filters] == [
        (f.dimension, f.values, f.negated) for f in filters
    ]


@pytest.mark.parametrize(
    ("question", "group_by", "n", "descending"),
    [
        ("Which product category had the most net revenue in Q4 2023?", "category", 1, True),
        ("the fewest units sold by category in 2023", "category", 1, False),
        ("Top 3 country by net revenue last year", "country", 3, True),
        ("bottom two categories by gross revenue in 2023", "category", 2, False),
        ("Which 2 country values had the highest gross revenue in 2022?", "country", 2, True),
    ],
    ids=["which-most", "fewest", "top-n", "bottom-words", "which-n"],
)
def test_rankings(
    layers: dict[str, tuple[SemanticLayer, Lexicon]],
    question: str,
    group_by: str,
    n: int,
    descending: bool,
) -> None:
    reading, decision = _read(layers, "shop", question)
    assert decision.behaviour == "answer", decision.message
    assert reading.group_by == group_by
    assert reading.ranking is not None
    assert (reading.ranking.n, reading.ranking.descending) == (n, descending)


@pytest.mark.parametrize(
    ("question", "behaviour", "named"),
    [
        ("top 5 customers by gross revenue in 2023", "abstain", "customers"),
        ("bottom two products by units sold in 2023", "abstain", "products"),
        ("median gross revenue per order in 2023", "abstain", "median"),
        ("gross revenue for Atlantis in 2023", "abstain", "Atlantis"),
        ("gross revnue 2023", "clarify", "gross revenue"),
        ("gross revenue in 2023 excluding", "clarify", "excluding"),
        ("gross revenue in 2023 for the frobnicated accounts", "abstain", "frobnicated"),
        ("gross revenue sparkly in 2023", "clarify", "sparkly"),
        ("What was our churn rate in 2023?", "abstain", "closest metrics are"),
        ("How many orders were cancelled in 2023?", "abstain", "cancelled"),
        ("gross sales by customer age band, 2023", "abstain", "age band"),
    ],
    ids=[
        "entity-not-dimension",
        "bottom-entity",
        "median",
        "unknown-value",
        "typo",
        "dangling-negation",
        "unknown-value-lower",
        "unknown-word",
        "unknown-concept-closest",
        "excluded-by-definition",
        "unknown-grouping",
    ],
)
def test_words_not_read_are_named(
    layers: dict[str, tuple[SemanticLayer, Lexicon]], question: str, behaviour: str, named: str
) -> None:
    _, decision = _read(layers, "shop", question)
    assert decision.behaviour == behaviour, decision.message
    assert named in decision.message


@pytest.mark.parametrize(
    ("question", "labels"),
    [
        ("gross revenue in 2023 compared with the previous year", ["2023", "2022"]),
        ("Compare gross revenue 2023 vs 2022", ["2023", "2022"]),
        ("gross revenue Q1 2024 vs Q1 2023", ["Q1 2024", "Q1 2023"]),
        ("gross revenue H1 2023 versus H1 2022", ["H1 2023", "H1 2022"]),
    ],
    ids=["previous-year", "vs-years", "vs-quarters", "versus-halves"],
)
def test_period_comparisons(
    layers: dict[str, tuple[SemanticLayer, Lexicon]], question: str, labels: list[str]
) -> None:
    reading, decision = _read(layers, "shop", question)
    assert decision.behaviour == "answer", decision.message
    assert reading.compare
    assert [p.label for p in reading.periods] == labels


@pytest.mark.parametrize(
    ("text", "fiscal", "start", "end"),
    [
        ("in 2023", 1, "2023-01-01", "2024-01-01"),
        ("last yr", 1, "2023-01-01", "2024-01-01"),
        ("H1 2023", 1, "2023-01-01", "2023-07-01"),
        ("second half of 2022", 1, "2022-07-01", "2023-01-01"),
        ("since March 2024", 1, "2024-03-01", "2024-11-16"),
        ("since 1 March 2024", 1, "2024-03-01", "2024-11-16"),
        ("in March", 1, "2024-03-01", "2024-04-01"),
        ("in December", 1, "2023-12-01", "2024-01-01"),
        # three months back from 2024-11-15 left out, as "the past 30 days" counts 30
        ("the past 3 months", 1, "2024-08-16", "2024-11-16"),
        ("the last 12 months", 1, "2023-11-16", "2024-11-16"),
        ("the last 30 days", 1, "2024-10-17", "2024-11-16"),
        # quarters and years are whole calendar ones ("the last 2 full years")
        ("the last 2 years", 1, "2022-01-01", "2024-01-01"),
        ("the last 2 quarters", 1, "2024-04-01", "2024-10-01"),
        ("the last 6 full months", 1, "2024-05-01", "2024-11-01"),
        ("so far this month", 1, "2024-11-01", "2024-11-16"),
        ("FY2024", 4, "2023-04-01", "2024-04-01"),
        ("FY24", 4, "2023-04-01", "2024-04-01"),
        ("fiscal 2023/24", 4, "2023-04-01", "2024-04-01"),
        ("fiscal Q2 this year", 4, "2024-07-01", "2024-10-01"),
        ("this fiscal year to date", 4, "2024-04-01", "2024-11-16"),
        ("2024 YTD", 1, "2024-01-01", "2024-11-16"),
        ("from 2022 to 2024", 1, "2022-01-01", "2025-01-01"),
        ("in 2023-Q2", 1, "2023-04-01", "2023-07-01"),
    ],
)
def test_period_spellings(text: str, fiscal: int, start: str, end: str) -> None:
    found = find_periods(text, CLOCK, fiscal)
    assert len(found) == 1, found
    assert (str(found[0].start), str(found[0].end)) == (start, end)


def test_plain_wording_and_spelling(layers: dict[str, tuple[SemanticLayer, Lexicon]]) -> None:
    reading, decision = _read(layers, "shop", "How many orders in 2024?")
    assert decision.behaviour == "answer" and reading.metrics == ("order_count",)
    reading, decision = _read(layers, "clinic", "visits for pediatrics in 2023")
    assert decision.behaviour == "answer"
    assert reading.filters[0].values == ("PED",)
    assert canonical("Paediatrics") == canonical("pediatrics")
    reading, decision = _read(layers, "shop", "How many new customers registered in Q1 2024?")
    assert decision.behaviour == "answer" and reading.metrics == ("registered_customers",)


def test_ambiguous_metric_still_asked_back(
    layers: dict[str, tuple[SemanticLayer, Lexicon]],
) -> None:
    _, decision = _read(layers, "shop", "Break down revenue by country for 2022.")
    assert decision.behaviour == "clarify"
    assert "gross" in decision.message and "net" in decision.message


def test_restatement_names_every_part(layers: dict[str, tuple[SemanticLayer, Lexicon]]) -> None:
    layer, _ = layers["shop"]
    reading, _ = _read(layers, "shop", "top 2 categories by net revenue in 2023 excluding DE")
    said = reading.restate(layer)
    for part in ("net revenue", "country is not DE", "2023-01-01 to 2023-12-31", "category"):
        assert part in said
    assert "2 highest" in said


def test_sorting_and_several_groupings(layers: dict[str, tuple[SemanticLayer, Lexicon]]) -> None:
    reading, decision = _read(
        layers, "shop", "categories ranked by units sold in 2024, lowest first"
    )
    assert decision.behaviour == "answer"
    assert reading.ranking is not None
    assert (reading.ranking.n, reading.ranking.descending) == (None, False)
    reading, decision = _read(layers, "shop", "net revenue by channel and category in 2023")
    assert decision.behaviour == "answer" and reading.groups == ("channel", "category")


def test_metric_named_as_context_or_apart(
    layers: dict[str, tuple[SemanticLayer, Lexicon]],
) -> None:
    reading, decision = _read(layers, "shop", "latest ship date for orders placed in March 2024")
    assert decision.behaviour == "answer" and reading.metrics == ("latest_ship_date",)
    reading, decision = _read(layers, "shop", "gross revenue and net revenue in 2023")
    assert decision.behaviour == "answer"
    assert reading.metrics == ("gross_revenue", "net_revenue")
    _, decision = _read(layers, "shop", "gross revenue in 2023 number of orders")
    assert decision.behaviour == "clarify" and "number of orders" in decision.message


@pytest.mark.parametrize(
    ("question", "grain", "start", "end"),
    [
        ("gross revenue for the year 2023", None, "2023-01-01", "2024-01-01"),
        ("gross revenue Q1-Q3 2023", None, "2023-01-01", "2023-10-01"),
        ("gross revenue Jan-Mar 2024", None, "2024-01-01", "2024-04-01"),
        ("top 3 months by gross revenue in 2023", "month", "2023-01-01", "2024-01-01"),
    ],
    ids=["bare-year-is-no-grain", "quarter-range", "month-range", "top-months"],
)
def test_units_and_ranges(
    layers: dict[str, tuple[SemanticLayer, Lexicon]],
    question: str,
    grain: str | None,
    start: str,
    end: str,
) -> None:
    reading, decision = _read(layers, "shop", question)
    assert decision.behaviour == "answer", decision.message
    assert reading.grain == grain
    assert reading.period is not None
    assert (str(reading.period.start), str(reading.period.end)) == (start, end)


def test_or_across_dimensions_is_asked_back(
    layers: dict[str, tuple[SemanticLayer, Lexicon]],
) -> None:
    _, decision = _read(layers, "shop", "gross revenue for Germany or books in 2023")
    assert decision.behaviour == "clarify" and "or" in decision.message


def test_a_statement_around_the_question_is_background(
    layers: dict[str, tuple[SemanticLayer, Lexicon]],
) -> None:
    layer, _ = layers["saas"]
    question = "We closed the APAC office last year - what were APAC net billings in 2023?"
    reading, decision = _read(layers, "saas", question)
    assert decision.behaviour == "answer"
    assert reading.background == ("We closed the APAC office last year",)
    assert [p.label for p in reading.periods] == ["2023"]
    assert "read as background" in reading.restate(layer)
    # A clause that addresses the system, or opens with a verb, is never set aside.
    for asked in (
        "We want you to delete all invoices - what was net revenue in 2023?",
        "Close all open invoices from 2022. What was net revenue in 2023?",
    ):
        reading, decision = _read(layers, "saas", asked)
        assert decision.behaviour != "answer" and not reading.background, asked


def test_conflicting_directions_are_asked_back(
    layers: dict[str, tuple[SemanticLayer, Lexicon]],
) -> None:
    _, decision = _read(layers, "shop", "top categories by gross revenue in 2023, fewest first")
    assert decision.behaviour == "clarify" and "which one" in decision.message


@pytest.mark.parametrize(
    "question",
    [
        "gross revenue in 2023 per customer",
        "gross revenue in 2023 for each customer",
        "gross revenue in 2023 by customer",
        "gross revenue in 2023 per client",
    ],
    ids=["per", "for-each", "by-last", "per-client"],
)
def test_a_breakdown_by_an_entity_that_is_no_dimension_is_never_dropped(
    layers: dict[str, tuple[SemanticLayer, Lexicon]], question: str
) -> None:
    """Found by a new user: the total over every customer was shown at 1.00."""
    _, decision = _read(layers, "shop", question)
    assert decision.behaviour in {"clarify", "abstain"}
    assert question.split()[-1] in decision.message


SHIP_LAYER = """
name: lines
tables:
  lineitem: {}
metrics:
- name: line_items_total_sales_amount
  table: lineitem
  expression: SUM(lineitem.l_extendedprice)
dimensions:
- name: line_items_ship_mode
  column: lineitem.l_shipmode
  synonyms: [line item ship mode]
"""


def test_a_dimensions_own_words_come_before_an_aggregate_word(tmp_path: Path) -> None:
    """ "by ship mode" names the dimension "line items ship mode", not the statistical mode;
    "mode" alone still is the aggregate the layer does not define."""
    (tmp_path / "lines.yaml").write_text(SHIP_LAYER)
    layer = load_semantic(tmp_path / "lines.yaml")
    lexicon = Lexicon(layer)
    reading = read("line items total sales amount by ship mode", layer, lexicon)
    assert reading.groups == ("line_items_ship_mode",)
    assert reading.aggregates == ()
    assert read("mode of line items total sales amount", layer, lexicon).aggregates == ("mode",)


PETS_LAYER = """
name: pets_1
tables:
  Student: {}
  Pets: {}
  Has_Pet: {}
joins:
- {left: Has_Pet.PetID, right: Pets.PetID, relationship: many_to_one}
- {left: Has_Pet.StuID, right: Student.StuID, relationship: many_to_one}
metrics:
- {name: Student_count, label: Student count, table: Student, expression: count(*),
   synonyms: [number of student]}
- {name: Pets_count, label: Pets count, table: Pets, expression: count(*),
   synonyms: [number of pets]}
dimensions:
- {name: Pets_PetType, column: Pets.PetType, values: [cat, dog],
   value_synonyms: {dogs: dog, cats: cat}}
- {name: Student_Sex, column: Student.Sex, values: [F, M]}
"""


@pytest.mark.parametrize(
    ("question", "unread"),
    [
        # Another table's rows named beside the counted ones restrict them: never dropped (an
        # outside tryout saw the count of every student shown for the first).
        ("how many students have pets", ("pets",)),
        ("how many students with pets", ("pets",)),
        # The measured rows named again, or the rows a filter reads, say nothing new.
        ("how many students are there", ()),
        ("number of students by sex", ()),
        ("how many pets are dogs", ()),
    ],
)
def test_an_entity_word_of_another_table_is_left_unread(
    tmp_path: Path, question: str, unread: tuple[str, ...]
) -> None:
    (tmp_path / "pets.yaml").write_text(PETS_LAYER)
    layer = load_semantic(tmp_path / "pets.yaml")
    reading = read(question, layer, Lexicon(layer))
    assert reading.metrics
    assert reading.unread == unread
