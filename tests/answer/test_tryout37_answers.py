"""Written answers that hid what the rows said (outside tryout 37): a list cut at the row cap
read "(and 990 more)" of 1,499 groups, and seven ship modes' discount rates (0.0510 to
0.0524) were all written 0.05."""

from __future__ import annotations

from decimal import Decimal

from assay.answer import write_governed
from assay.checks import CheckContext, run_checks
from assay.cli._render import render_result
from assay.types import Candidate, Result

RATES = (
    ("RAIL", 0.05239794604986805),
    ("TRUCK", 0.0518549242688468),
    ("AIR", 0.05160341021350225),
    ("MAIL", 0.05158547401812175),
    ("FOB", 0.051366554781768436),
)


def _uncited(text: str, result: Result) -> list[str]:
    ctx = CheckContext("q", Candidate("SELECT 1", (), text, result), "duckdb")
    return [
        f.evidence["number"] for f in run_checks(ctx).findings if f.code == "cap.uncited_number"
    ]


def _balances(kept: int, count: int | None) -> Result:
    rows = tuple((Decimal(i) / 100, 1) for i in range(kept))
    return Result(("balance", "value"), rows, count, truncated=True)


def test_a_list_cut_at_the_row_cap_says_so_with_the_count_and_the_setting() -> None:
    result = _balances(1000, 1499)
    text = write_governed(
        result, label="customers count", period="", group="balance", definition="", row_cap=1000
    ).text
    assert text.endswith(
        "(and 990 more of the first 1,000 rows: the result was cut at the row cap, 1,499 rows "
        "in all; raise --max-rows or ASSAY_MAX_ROWS to get them all)."
    )
    assert _uncited(text, result) == []


def test_a_cut_list_whose_count_failed_says_more_than_the_rows_kept() -> None:
    result = _balances(1000, None)
    text = write_governed(
        result, label="customers count", period="", group="balance", definition="", row_cap=1000
    ).text
    assert "the result was cut at the row cap, more than 1,000 rows in all (not counted)" in text
    assert "(and 990 more of the first 1,000 rows" in text


def test_a_list_cut_short_of_the_row_cap_names_the_byte_cap() -> None:
    text = write_governed(
        _balances(400, 1499), label="n", period="", group="balance", definition="", row_cap=1000
    ).text
    assert "cut at the result size cap" in text and "--max-result-bytes" in text


def test_an_uncut_list_still_reads_and_n_more() -> None:
    rows = tuple((Decimal(i), 1) for i in range(26))
    text = write_governed(
        Result(("k", "value"), rows, 26), label="n", period="", group="k", definition=""
    ).text
    assert text.endswith("(and 16 more).")


def test_the_table_under_a_cut_answer_says_how_to_get_every_row() -> None:
    table = render_result(_balances(1000, 1499), limit=5)
    assert table.splitlines()[-1] == (
        "(5 of 1499 rows, truncated at the row cap; raise --max-rows or ASSAY_MAX_ROWS to get "
        "them all)"
    )


def test_small_rates_keep_three_significant_digits_and_are_told_apart() -> None:
    result = Result(("ship_mode", "value"), RATES, len(RATES))
    text = write_governed(
        result, label="discount rate", period="", group="ship mode", definition=""
    ).text
    assert text == (
        "Discount rate by ship mode: RAIL: 0.05240; TRUCK: 0.05185; AIR: 0.05160; "
        "MAIL: 0.05159; FOB: 0.05137."
    )
    assert _uncited(text, result) == []


def test_a_single_small_rate_keeps_three_significant_digits() -> None:
    result = Result(("value",), ((0.2986,),), 1)
    text = write_governed(result, label="cancellation rate", period="", group=None, definition="")
    assert text.text == "Cancellation rate was 0.299."
    exact = Result(("value",), ((0.3,),), 1)
    assert write_governed(exact, label="r", period="", group=None, definition="").text == (
        "R was 0.30."
    )


def test_money_is_written_as_it_was() -> None:
    rows = (("DE", Decimal("1281859.81")), ("FR", 1530888.6912), ("GB", 0.97))
    text = write_governed(
        Result(("country", "value"), rows, 3),
        label="revenue",
        period="",
        group="country",
        definition="",
    ).text
    assert text == "Revenue by country: DE: 1,281,859.81; FR: 1,530,888.69; GB: 0.97."
