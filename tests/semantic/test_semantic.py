"""The semantic layer: loading with every problem named, the lexicon, periods, behaviour."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
import yaml

from assay.connectors import connect
from assay.errors import SemanticError
from assay.guard import refusal_reasons
from assay.semantic import (
    Lexicon,
    check_against,
    decide,
    load_semantic,
    parse_period,
    parse_semantic,
    resolve,
)

CLOCK = dt.date(2024, 11, 15)


def test_shape_problems_all_reported_with_paths(wrb: Path) -> None:
    raw = yaml.safe_load((wrb / "shop.yaml").read_text())
    raw["metrics"][1]["expresion"] = raw["metrics"][1].pop("expression")
    raw["dimensions"][0]["values"] = "DE"
    del raw["name"]
    with pytest.raises(SemanticError) as info:
        parse_semantic(raw)
    text = str(info.value)
    for path in ("metrics[1].expression", "metrics[1].expresion", "dimensions[0].values", "name"):
        assert path in text, path
    assert len(info.value.details["problems"]) >= 4


def test_columns_checked_against_the_database(wrb: Path) -> None:
    raw = yaml.safe_load((wrb / "shop.yaml").read_text())
    raw["metrics"][0]["expression"] = "SUM(order_lines.qty * order_lines.unit_price)"
    raw["dimensions"][1]["column"] = "products.kind"
    layer = parse_semantic(raw)
    with connect(str(wrb / "shop.duckdb")) as connector:
        problems = check_against(layer, connector.catalog())
    assert "metrics[0].expression: column 'order_lines.qty' does not exist" in problems
    assert "dimensions[1].column: column 'products.kind' does not exist" in problems
    assert len(problems) == 2


def test_bad_yaml_named(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text("metrics: [\n")
    with pytest.raises(SemanticError, match="not valid YAML"):
        load_semantic(path)


def test_longest_match_wins(wrb: Path) -> None:
    layer = load_semantic(wrb / "shop.yaml")
    lexicon = Lexicon(layer)
    gross = [m for m in lexicon.match("gross revenue in 2023") if m.kind == "metric"]
    assert [m.targets for m in gross] == [("gross_revenue",)]
    plain = [m for m in lexicon.match("revenue in 2023") if m.kind == "metric"]
    assert plain[0].targets == ("gross_revenue", "net_revenue")
    values = [
        m.targets for m in lexicon.match("orders from Germany via the app") if m.kind == "value"
    ]
    assert ("country=DE",) in values and ("channel=A",) in values


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("in 2023", "2023-01-01", "2024-01-01"),
        ("in Q2 2023", "2023-04-01", "2023-07-01"),
        ("in the fourth quarter of 2022", "2022-10-01", "2023-01-01"),
        ("in March 2024", "2024-03-01", "2024-04-01"),
        ("last year", "2023-01-01", "2024-01-01"),
        ("last quarter", "2024-07-01", "2024-10-01"),
        ("this year", "2024-01-01", "2024-11-16"),
        ("next year", "2025-01-01", "2026-01-01"),
        ("for 2022 and 2023", "2022-01-01", "2024-01-01"),
        ("in FY2024", "2023-04-01", "2024-04-01"),
    ],
)
def test_periods(text: str, start: str, end: str) -> None:
    period = parse_period(f"revenue {text}?", CLOCK, fiscal_start_month=4)
    assert period is not None
    assert (str(period.start), str(period.end)) == (start, end)


def test_no_period() -> None:
    assert parse_period("how are we doing", CLOCK) is None


@pytest.mark.parametrize(
    ("question", "behaviour", "code"),
    [
        ("Delete revenue for 2019", "refuse", "intent.write"),
        ("What was revenue in 2019?", "abstain", "behaviour.period_outside_coverage"),
        ("What was revenue for Atlantis in 2023?", "abstain", "behaviour.value_not_in_domain"),
        ("What was revenue by legacy segment in 2023?", "abstain", "behaviour.retired_column"),
        ("What was revenue in 2023?", "clarify", "behaviour.ambiguous_metric"),
        ("What was our profit margin in 2023?", "abstain", "behaviour.concept_missing"),
        ("How is performance?", "clarify", "behaviour.undefined_concept"),
        ("What was the gross revenue in 2023?", "answer", "behaviour.answer"),
    ],
    ids=[
        "refuse-first",
        "coverage-before-ambiguity",
        "closed-domain",
        "retired",
        "ambiguous",
        "missing",
        "undefined",
        "answer",
    ],
)
def test_behaviour_rules_in_order(wrb: Path, question: str, behaviour: str, code: str) -> None:
    layer = load_semantic(wrb / "shop.yaml")
    decision = decide(resolve(question, layer), layer, refusal_reasons(question))
    assert (decision.behaviour, decision.code) == (behaviour, code)


def test_clarification_lists_readings_with_their_tokens(wrb: Path) -> None:
    layer = load_semantic(wrb / "shop.yaml")
    decision = decide(resolve("How many customers did we have in 2023?", layer), layer)
    assert dict(decision.readings) == {
        "purchasing_customers": ("purchasing",),
        "registered_customers": ("registered",),
    }
    assert "purchasing" in decision.message and "registered" in decision.message


def test_derived_measure_is_not_the_metric(wrb: Path) -> None:
    layer = load_semantic(wrb / "saas.yaml")
    resolution = resolve("What was our net revenue retention in 2023?", layer)
    assert resolution.metrics == ()
    assert decide(resolution, layer).behaviour == "abstain"


@pytest.mark.parametrize(
    "question",
    [
        "What was the gross revenue in 2023?",
        "Break down net sales by country for 2022.",
        "Which orders were returned in March 2024?",
        "Show units sold per month in 2023",
    ],
)
def test_ordinary_questions_are_not_refused(question: str) -> None:
    assert refusal_reasons(question) == ()
