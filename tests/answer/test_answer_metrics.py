"""Two metrics in one answer ("forecasted sales vs sales in 2023", found by an outside user on
the Cortex quickstart: written as "by None ... 1056956.0399999998: 1,100,398.17"): each value
is named by its metric and formatted; and no governed answer ever shows "None" or a raw float
repr (``veto.garbled_answer``)."""

from __future__ import annotations

import pytest

from assay.answer import write_governed
from assay.checks import CheckContext, run_checks
from assay.semantic import Reading
from assay.types import Candidate, Result


def test_two_metrics_one_row_each_named_and_formatted() -> None:
    result = Result(("value", "value_daily_revenue"), ((1056956.0399999998, 1100398.17),), 1)
    text = write_governed(
        result,
        label="daily forecasted revenue",
        labels=("daily forecasted revenue", "daily revenue"),
        period="2023",
        group=None,
        definition="",
    ).text
    assert text == (
        "Daily forecasted revenue in 2023 was 1,056,956.04; daily revenue in 2023 was 1,100,398.17."
    )


def test_two_metrics_by_a_group() -> None:
    result = Result(("country", "value", "value_net"), (("DE", 10.5, 9.25), ("FR", 3.0, 2.0)), 2)
    text = write_governed(
        result,
        label="gross revenue",
        labels=("gross revenue", "net revenue"),
        period="2023",
        group="country",
        definition="",
    ).text
    assert text == (
        "Gross revenue and net revenue by country in 2023: DE: gross revenue 10.50, net "
        "revenue 9.25; FR: gross revenue 3, net revenue 2."
    )
    assert "None" not in text


def test_no_group_named_never_writes_none() -> None:
    result = Result(("day", "value"), (("a", 1.0), ("b", 2.0)), 2)
    text = write_governed(result, label="revenue", period="", group=None, definition="").text
    assert "None" not in text


def _garbled(text: str) -> list[str]:
    ctx = CheckContext(
        "q",
        Candidate("SELECT 1", (), text, Result(("value",), ((1.0,),), 1)),
        "duckdb",
        reading=Reading("q", metrics=("m",)),
    )
    return [f.code for f in run_checks(ctx).findings if f.code == "veto.garbled_answer"]


@pytest.mark.parametrize(
    "text",
    [
        "Revenue by None in 2023: 1.",
        "Revenue in 2023 was 1056956.0399999998.",
        "Revenue in 2023 was 1.5e+06.",
        "Revenue was 1e6 and 2e-07.",
        "Change in 2023: -1.5e-07.",
        "Revenue by country: nan.",
    ],
)
def test_a_garbled_governed_answer_is_vetoed(text: str) -> None:
    assert _garbled(text) == ["veto.garbled_answer"]


@pytest.mark.parametrize(
    "text",
    [
        "Revenue in 2023 was 1,056,956.04.",
        "Revenue by country in 2023: DE: 1.5; None-EU: 2.",
        # Keys that hold an exponent's shape (SMG_DEMO.csv's customer ids): values, not floats.
        "Orders by customer: 0c3d6e9a-46e9-4b7c-91e6-5a1e6b2e3f10: 151; ab-1e6: 3; 2e9f: 4.",
    ],
)
def test_a_clean_governed_answer_passes(text: str) -> None:
    assert _garbled(text) == []
