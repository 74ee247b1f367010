"""Analyst phrasings outside tryouts found read wrong or refused (issue 9, fifth round): each
question is read against the shop warehouse's layer, decided, and the reading asserted."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import pytest

from assay.semantic import (
    BehaviourDecision,
    Reading,
    SemanticLayer,
    load_semantic,
)
from assay.semantic._model import Dimension, Metric
from tests.semantic._helpers import read_and_decide


@pytest.fixture(scope="module")
def shop(wrb: Path) -> SemanticLayer:
    return load_semantic(wrb / "shop.yaml")  # clock 2024-11-15, a Friday


def _decide(layer: SemanticLayer, question: str) -> tuple[Reading, BehaviourDecision]:
    return read_and_decide(question, layer)


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("orders in the last 7 days", "2024-11-09", "2024-11-16"),
        ("Count the orders in the past 30 days", "2024-10-17", "2024-11-16"),
        ("orders over the last 14 days", "2024-11-02", "2024-11-16"),
        ("orders in the past 2 weeks", "2024-11-02", "2024-11-16"),
        ("orders last week", "2024-11-04", "2024-11-11"),
        ("orders this week", "2024-11-11", "2024-11-16"),
        ("orders yesterday", "2024-11-14", "2024-11-15"),
        ("orders today", "2024-11-15", "2024-11-16"),
    ],
)
def test_rolling_day_and_week_windows_read_against_the_clock(
    shop: SemanticLayer, question: str, start: str, end: str
) -> None:
    reading, decision = _decide(shop, question)
    assert decision.behaviour == "answer", decision.message
    assert [(str(p.start), str(p.end)) for p in reading.periods] == [(start, end)]
    assert start in reading.restate(shop)  # the window is stated


@pytest.mark.parametrize("question", ["orders this day", "orders next week", "orders that week"])
def test_a_time_unit_read_as_no_period_is_never_dropped(shop: SemanticLayer, question: str) -> None:
    reading, decision = _decide(shop, question)
    assert decision.behaviour != "answer", (reading, decision)


@pytest.mark.parametrize(
    ("question", "labels"),
    [
        ("orders Feb vs Apr 2023", ["February 2023", "April 2023"]),
        ("net revenue Q1 vs Q2 2023", ["Q1 2023", "Q2 2023"]),
        ("orders in Feb 2023 vs Apr", ["February 2023", "April 2023"]),
        ("units sold in Jan, Feb and Apr 2023", ["January 2023", "February 2023", "April 2023"]),
    ],
)
def test_a_yearless_period_in_a_comparison_takes_the_named_year(
    shop: SemanticLayer, question: str, labels: list[str]
) -> None:
    reading, decision = _decide(shop, question)
    assert decision.behaviour == "answer", decision.message
    assert [p.label for p in reading.periods] == labels


def test_between_two_months_reads_the_range(shop: SemanticLayer) -> None:
    reading, decision = _decide(shop, "Count orders between Jan and Mar 2023")
    assert decision.behaviour == "answer", decision.message
    assert reading.metrics == ("order_count",)
    assert [(p.start, p.end) for p in reading.periods] == [
        (dt.date(2023, 1, 1), dt.date(2023, 4, 1))
    ]


@pytest.mark.parametrize(
    ("question", "groups"),
    [
        ("Rank countries by gross revenue in 2022", ("country",)),
        ("Rank categories by units sold", ("category",)),
        ("rank the channels by net revenue in 2023", ("channel",)),
    ],
)
def test_rank_x_by_y_sorts_every_x_highest_first(
    shop: SemanticLayer, question: str, groups: tuple[str, ...]
) -> None:
    reading, decision = _decide(shop, question)
    assert decision.behaviour == "answer", decision.message
    assert reading.groups == groups
    assert reading.ranking is not None
    assert (reading.ranking.n, reading.ranking.descending) == (None, True)


@pytest.mark.parametrize(
    "question",
    ["count orders in 2023", "Count orders in 2023", "Add up the net revenue in 2023"],
)
def test_an_opening_request_verb_is_read(shop: SemanticLayer, question: str) -> None:
    reading, decision = _decide(shop, question)
    assert decision.behaviour == "answer", decision.message
    assert reading.suggestions == ()


def test_a_known_word_left_unread_is_never_a_did_you_mean(shop: SemanticLayer) -> None:
    # "customers" after "by" is an unknown grouping here: named, never 'did you mean ...'
    _, decision = _decide(shop, "net revenue by customers in 2023")
    assert decision.behaviour != "answer"
    assert "did you mean" not in decision.message, decision.message


@pytest.mark.parametrize(
    ("question", "grain"),
    [
        ("number of orders by month from Jan 2023 to Jun 2023", "month"),
        ("net revenue per week from March 2023 to May 2023", "week"),
    ],
)
def test_a_range_with_a_grain_is_one_span_grouped(
    shop: SemanticLayer, question: str, grain: str
) -> None:
    reading, decision = _decide(shop, question)
    assert decision.behaviour == "answer", decision.message
    assert reading.grain == grain
    assert len(reading.periods) == 1 and reading.periods[0].ranged


def test_a_month_said_around_a_date_is_still_asked_back(shop: SemanticLayer) -> None:
    _, decision = _decide(shop, "number of orders the week of 2023-03-06")
    assert decision.behaviour == "clarify", decision.message


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        ("which category sold the most units in Germany last year", "units_sold"),
        ("units by category in 2023", "units_sold"),
    ],
)
def test_the_rows_a_metric_totals_name_it(shop: SemanticLayer, question: str, metric: str) -> None:
    reading, decision = _decide(shop, question)
    assert decision.behaviour == "answer", decision.message
    assert reading.metrics == (metric,)


LINES = SemanticLayer(
    name="sales",
    metrics=(Metric("daily_revenue", "daily revenue", (), "daily", "SUM(daily.r)", "daily.day"),),
    dimensions=(
        Dimension("product_line", "daily.product_line", (), ()),
        Dimension("line_of_business", "daily.lob", (), ()),
        Dimension("category", "daily.category", (), ()),
    ),
    tables=("daily",),
    coverage=(dt.date(2023, 1, 1), dt.date(2024, 12, 31)),
    clock=dt.date(2024, 12, 31),
)


@pytest.mark.parametrize(
    ("question", "group"),
    [
        ("daily revenue by product lines in 2024", "product_line"),
        ("daily revenue by lines of business in 2024", "line_of_business"),
        ("daily revenue by categories in 2024", "category"),
        ("Rank product lines by daily revenue in 2023", "product_line"),
    ],
)
def test_a_plural_dimension_name_is_the_dimension(question: str, group: str) -> None:
    reading, decision = _decide(LINES, question)
    assert decision.behaviour == "answer", decision.message
    assert reading.groups == (group,)


CODES = SemanticLayer(
    name="sales",
    metrics=(Metric("revenue", "revenue", (), "orders", "SUM(orders.amount)", "orders.day"),),
    dimensions=(
        Dimension("country", "orders.country", (), ("DE", "GB", "MX", "US")),
        Dimension("state", "orders.state", (), ("CA", "NY", "TX")),
        Dimension("region", "orders.region", (), ("CA", "DE")),  # both kinds of code
    ),
    tables=("orders",),
    coverage=(dt.date(2022, 1, 1), dt.date(2024, 12, 31)),
    clock=dt.date(2024, 12, 31),
)


@pytest.mark.parametrize(
    ("question", "dimension", "values", "negated"),
    [
        ("revenue for march 2022 except mexico", "country", ("MX",), True),
        ("revenue in Germany in 2023", "country", ("DE",), False),
        ("revenue in the UK in 2023", "country", ("GB",), False),
        ("revenue in Britain in 2023", "country", ("GB",), False),
        ("revenue in the United Kingdom in 2023", "country", ("GB",), False),
        ("revenue in the USA in 2023", "country", ("US",), False),
        ("revenue in Texas in 2023", "state", ("TX",), False),
        ("revenue excluding New York in 2023", "state", ("NY",), True),
    ],
)
def test_a_place_named_in_full_reads_its_code(
    question: str, dimension: str, values: tuple[str, ...], negated: bool
) -> None:
    reading, decision = _decide(CODES, question)
    assert decision.behaviour == "answer", decision.message
    assert [(f.dimension, f.values, f.negated) for f in reading.filters] == [
        (dimension, values, negated)
    ]


def test_codes_of_two_kinds_of_place_get_no_names() -> None:
    # "California" is CA only where the column is states; here CA may be Canada: never guessed
    layer = dataclasses.replace(CODES, dimensions=CODES.dimensions[2:])
    reading, decision = _decide(layer, "revenue in California in 2023")
    assert decision.behaviour != "answer", reading


@pytest.mark.parametrize(
    "question",
    [
        "orders in the last 7 days of 2023",
        "orders in the last 3 months of 2023",
        "orders in the last 2 weeks of March 2024",
        "orders in the last week of March 2024",
        "orders in the last 6 months in 2023",
    ],
)
def test_a_window_counted_back_from_another_period_is_never_the_clocks(
    shop: SemanticLayer, question: str
) -> None:
    # read as the last days before the clock beside 2023, the two were compared and shown
    reading, decision = _decide(shop, question)
    assert decision.behaviour != "answer", reading.restate(shop)


def test_a_place_name_made_of_a_dimension_word_is_left_out() -> None:
    countries = dataclasses.replace(CODES, dimensions=CODES.dimensions[:1])
    reading, decision = _decide(countries, "revenue in the States in 2023")
    assert decision.behaviour == "answer", decision.message
    assert [(f.dimension, f.values) for f in reading.filters] == [("country", ("US",))]
    # beside a state dimension, "the States" may be the states: never read as the US
    reading, decision = _decide(CODES, "revenue by the States in 2023")
    assert ("country", ("US",)) not in [(f.dimension, f.values) for f in reading.filters]


@pytest.fixture(scope="module")
def clinic(wrb: Path) -> SemanticLayer:
    return load_semantic(wrb / "clinic.yaml")  # clock 2024-11-15


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("visit cost by city in the last full quarter", "2024-07-01", "2024-10-01"),
        ("visit cost last complete month", "2024-10-01", "2024-11-01"),
        ("visit cost in the last full year", "2023-01-01", "2024-01-01"),
    ],
)
def test_the_last_full_period_is_the_last_whole_one(
    clinic: SemanticLayer, question: str, start: str, end: str
) -> None:
    reading, decision = _decide(clinic, question)
    assert decision.behaviour == "answer", decision.message
    assert [(str(p.start), str(p.end)) for p in reading.periods] == [(start, end)]


@pytest.mark.parametrize(
    "question", ["visit cost in the last quarter of 2023", "visit cost in the last month of 2023"]
)
def test_the_last_period_of_a_named_year_is_never_the_clocks(
    clinic: SemanticLayer, question: str
) -> None:
    reading, decision = _decide(clinic, question)
    assert decision.behaviour != "answer", reading.restate(clinic)


def test_an_irregular_verb_form_pins_the_metric_it_names(clinic: SemanticLayer) -> None:
    reading, decision = _decide(clinic, "which department saw the most patients in 2023")
    assert decision.behaviour == "answer", decision.message
    assert reading.metrics == ("patients_seen",)


@pytest.mark.parametrize(
    ("question", "values"),
    [
        ("visit cost over the past 12 months, cardiology excluded", ("CAR",)),
        ("visit cost in 2023, cardiology and paediatrics excluded", ("CAR", "PED")),
    ],
)
def test_values_excluded_after_they_are_named_are_excluded(
    clinic: SemanticLayer, question: str, values: tuple[str, ...]
) -> None:
    reading, decision = _decide(clinic, question)
    assert decision.behaviour == "answer", decision.message
    assert [(f.dimension, f.values, f.negated) for f in reading.filters] == [
        ("department", values, True)
    ]


@pytest.mark.parametrize(
    ("question", "groups"),
    [
        ("gross revenue so far this month, every country except France", ()),
        ("units sold in 2022 for every category except books", ()),
        ("units sold in 2022 for every category", ("category",)),
        ("units sold in 2022 for every category, Germany excluded", ("category",)),
    ],
)
def test_every_x_except_one_is_all_but_one(
    shop: SemanticLayer, question: str, groups: tuple[str, ...]
) -> None:
    reading, decision = _decide(shop, question)
    assert decision.behaviour == "answer", decision.message
    assert reading.groups == groups


def test_rank_a_time_unit_ranks_its_periods(shop: SemanticLayer) -> None:
    reading, decision = _decide(shop, "rank months by net revenue in 2023")
    assert decision.behaviour == "answer", decision.message
    assert reading.grain == "month"
    assert reading.ranking is not None and reading.ranking.n is None


@pytest.mark.parametrize("question", ["orders Dec vs Jan 2024", "orders in Apr 2023 vs Feb"])
def test_a_yearless_month_said_out_of_order_is_asked_back(
    shop: SemanticLayer, question: str
) -> None:
    # December 2023 or 2024? never guessed
    reading, decision = _decide(shop, question)
    assert decision.behaviour != "answer", reading.restate(shop)


def test_year_over_year_for_named_years_compares_those_years(shop: SemanticLayer) -> None:
    reading, decision = _decide(shop, "year over year net revenue for 2022 and 2023")
    assert decision.behaviour == "answer", decision.message
    assert [p.label for p in reading.periods] == ["2022", "2023"]


def test_the_previous_year_of_several_periods_is_asked_back(shop: SemanticLayer) -> None:
    # read as Q1 and Q2 2024 beside Q1 2023 alone, and shown
    reading, decision = _decide(shop, "net revenue for Q1 2024 and Q2 2024 vs the previous year")
    assert decision.behaviour == "clarify", reading.restate(shop)


@pytest.fixture(scope="module")
def saas(wrb: Path) -> SemanticLayer:
    return load_semantic(wrb / "saas.yaml")  # fiscal year from April


@pytest.mark.parametrize(
    ("question", "spans"),
    [
        (
            "net revenue in the first half of FY24 vs the second half",
            [("2023-04-01", "2023-10-01"), ("2023-10-01", "2024-04-01")],
        ),
        (
            "net revenue in H2 2023 compared with the first half",
            [("2023-07-01", "2024-01-01"), ("2023-01-01", "2023-07-01")],
        ),
    ],
)
def test_the_other_half_said_without_its_year_is_the_same_years(
    saas: SemanticLayer, question: str, spans: list[tuple[str, str]]
) -> None:
    reading, decision = _decide(saas, question)
    assert decision.behaviour == "answer", decision.message
    assert [(str(p.start), str(p.end)) for p in reading.periods] == spans


def test_the_same_half_said_again_is_asked_back(saas: SemanticLayer) -> None:
    reading, decision = _decide(saas, "net revenue in H1 2023 and the first half")
    assert decision.behaviour != "answer", reading.restate(saas)


def test_a_counted_noun_a_phrase_holds_whole_is_no_misspelling(saas: SemanticLayer) -> None:
    """ "How many accounts churned": 'accounts' is a word of 'new accounts', not a typo of it;
    no measure counts churned accounts, so it abstains naming that, never "did you mean 'new
    accounts'?" (the reading of counted nouns as a run asked it back so; main set saas.061)."""
    _, decision = _decide(saas, "How many accounts churned in 2024?")
    assert decision.behaviour == "abstain", decision.message
    assert "no 'number of accounts churned' measure" in decision.message
