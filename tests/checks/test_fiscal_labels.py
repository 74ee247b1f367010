"""A year said in a fiscal label ("fiscal Q1 2024") is carried by the dates its fiscal period
resolves to, which need not write the year (outside tester, dist36: the demo with
``fiscal_year_start_month: 7`` showed Jul-Sep 2023 for "net revenue in fiscal Q1 2024", right,
and printed "signal.literal_missing: The question names 2024, which no literal in the SQL
carries"). Other fiscal quarters, a calendar year the SQL lacks, are still reported."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from click.testing import CliRunner

from assay.checks import QUESTION_CHECKS, CheckContext
from assay.cli import main
from assay.semantic import SemanticLayer
from assay.types import Candidate

JULY = SemanticLayer(name="shop", clock=dt.date(2024, 11, 15), fiscal_year_start_month=7)
APRIL = SemanticLayer(name="shop", clock=dt.date(2024, 11, 15), fiscal_year_start_month=4)


def _sql(start: str, end: str) -> str:
    return (
        f"SELECT SUM(net) FROM orders WHERE order_date >= CAST('{start}' AS DATE) "
        f"AND order_date < CAST('{end}' AS DATE)"
    )


JUL_SEP_2023 = _sql("2023-07-01", "2023-10-01")


def _missing(question: str, sql: str, layer: SemanticLayer | None) -> bool:
    ctx = CheckContext(question, Candidate(sql), "duckdb", layer=layer)
    codes = {f.code for check in QUESTION_CHECKS for f in check(ctx).findings}
    return "signal.literal_missing" in codes


@pytest.mark.parametrize(
    "question",
    ["net revenue in fiscal Q1 2024", "net revenue in Q1 of fiscal 2024"],
    ids=["fiscal-q1", "q1-of-fiscal"],
)
def test_a_fiscal_quarter_is_carried_by_its_dates(question: str) -> None:
    assert not _missing(question, JUL_SEP_2023, JULY)


def test_an_inclusive_end_carries_it_too() -> None:
    between = "SELECT SUM(net) FROM orders WHERE order_date BETWEEN '2023-07-01' AND '2023-09-30'"
    assert not _missing("net revenue in fiscal Q1 2024", between, JULY)


def test_other_dates_do_not_carry_the_fiscal_year() -> None:
    """A year early (fiscal Q1 2023's dates), or the dates of another fiscal calendar than
    the layer's (April's fiscal Q1 2024 is April to June 2023), leave 2024 uncarried."""
    assert _missing("net revenue in fiscal Q1 2024", _sql("2022-07-01", "2022-10-01"), JULY)
    assert _missing("net revenue in fiscal Q1 2024", JUL_SEP_2023, APRIL)
    assert not _missing("net revenue in fiscal Q1 2024", _sql("2023-04-01", "2023-07-01"), APRIL)


def test_a_calendar_year_beside_the_fiscal_label_is_still_reported() -> None:
    question = "net revenue in fiscal Q1 2024 and in calendar year 2024"
    assert _missing(question, JUL_SEP_2023, JULY)


def test_without_a_layer_the_dates_must_be_a_whole_fiscal_period() -> None:
    """No layer says the fiscal calendar: the SQL's first day and end of a fiscal Q1 2024 under
    some start month carry it; a first day alone does not."""
    assert not _missing("net revenue in fiscal Q1 2024", JUL_SEP_2023, None)
    assert _missing("net revenue in fiscal Q1 2024", _sql("2023-07-01", "2023-12-01"), None)


def test_the_demo_shows_fiscal_q1_without_a_false_finding(tmp_path: Path, wrb: Path) -> None:
    """The tester's run: the shop layer with fiscal_year_start_month 7, "fiscal Q1 2024"."""
    layer = tmp_path / "shop.yaml"
    text = (wrb / "shop.yaml").read_text()
    layer.write_text(f"fiscal_year_start_month: 7\n{text}")
    args = ["--db", str(wrb / "shop.duckdb"), "--semantic", str(layer)]
    shown = CliRunner().invoke(main, ["ask", "net revenue in fiscal Q1 2024", *args])
    assert shown.exit_code == 0, shown.output
    assert "2023-07-01 to 2023-09-30" in shown.output, shown.output
    assert " SHOW " in shown.output and "literal_missing" not in shown.output, shown.output
