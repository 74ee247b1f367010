"""A metric word with several definitions is asked back before the coverage of one of them
abstains (outside tryout 39, F6: "total net profit in 2001" on a drafted TPC-DS layer was
abstained on as the catalog sales' net profit, whose rows stop on 2001-11-11, and "in 2002" as
"no data to answer from", while the store and web readings cover both years)."""

from __future__ import annotations

import datetime as dt

import pytest

from assay.semantic import Metric, SemanticLayer

from ._helpers import read_and_decide

# Two channels' net profit, both "net profit": the kiosk's rows stop in September 2023, the
# shop's run to the end of the layer.
LAYER = SemanticLayer(
    name="channels",
    metrics=(
        Metric(
            "kiosk_net_profit",
            "kiosk net profit",
            ("net profit", "kiosk profit"),
            "kiosk",
            "sum(kiosk.profit)",
            "kiosk.day",
            coverage=(dt.date(2021, 1, 1), dt.date(2023, 9, 30)),
        ),
        Metric(
            "shop_net_profit",
            "shop net profit",
            ("net profit", "shop profit"),
            "shop",
            "sum(shop.profit)",
            "shop.day",
        ),
    ),
    tables=("kiosk", "shop"),
    coverage=(dt.date(2021, 1, 1), dt.date(2024, 12, 31)),
    clock=dt.date(2024, 12, 31),
)


@pytest.mark.parametrize(
    "question",
    ["total net profit in 2023", "net profit in 2024", "net profit in Q4 2023"],
)
def test_the_definitions_are_asked_back_before_one_readings_coverage(question: str) -> None:
    _, decision = read_and_decide(question, LAYER)
    assert decision.behaviour == "clarify", (question, decision)
    assert decision.code == "behaviour.ambiguous_metric", (question, decision)
    assert "kiosk net profit" in decision.message and "shop net profit" in decision.message


@pytest.mark.parametrize(
    ("question", "code"),
    [
        ("kiosk net profit in 2024", "behaviour.period_outside_coverage"),
        ("kiosk net profit in 2023", "behaviour.period_partly_covered"),
    ],
)
def test_the_chosen_readings_coverage_still_abstains(question: str, code: str) -> None:
    _, decision = read_and_decide(question, LAYER)
    assert (decision.behaviour, decision.code) == ("abstain", code), decision


def test_a_period_outside_the_whole_warehouse_abstains_for_every_reading() -> None:
    _, decision = read_and_decide("net profit in 2019", LAYER)
    assert decision.behaviour == "abstain", decision
