"""A written number is cited by a cell, the row count, or a share cell written as a percentage;
never by any cell times 100 ("There are 200 dogs." for a count of 2 was shown at 1.00, outside
tryout 23)."""

from __future__ import annotations

import pytest

from assay.checks import CheckContext
from assay.checks._checks import numbers_cited
from assay.types import Candidate, Result


def _codes(text: str, cell: float) -> list[str]:
    result = Result(("v",), ((cell,),), 1)
    candidate = Candidate("SELECT v FROM t", text=text, result=result)
    return [f.code for f in numbers_cited(CheckContext("How many?", candidate, "duckdb")).findings]


@pytest.mark.parametrize(
    ("text", "cell"),
    [("There are 200 dogs.", 2.0), ("Revenue was 992,643,400.", 9926434.0)],
)
def test_a_cell_times_100_is_no_citation(text: str, cell: float) -> None:
    assert _codes(text, cell) == ["cap.uncited_number"]


@pytest.mark.parametrize(
    ("text", "cell"),
    [("42.1% of orders shipped late.", 0.4213), ("There are 12 dogs.", 12.0)],
)
def test_a_share_as_a_percentage_and_the_cell_itself_are_cited(text: str, cell: float) -> None:
    assert _codes(text, cell) == []
