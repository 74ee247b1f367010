"""A year asked, carried only by a number compared with a key or an amount: "gross revenue in
2023" as ``year(order_date) = 2022 AND order_id <> 2023`` was shown (outside re-check of tryout
38, "extra"); here on a schema of invoices too."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from assay.checks import CheckContext
from assay.checks._consistency import literal_fit
from assay.types import Candidate
from tests.checks._helpers import codes, scored

INVOICES = "How many invoices were issued in 2021?"


def _missing(question: str, where: str) -> bool:
    sql = f"SELECT count(*) FROM invoices WHERE {where}"
    outcome = literal_fit(CheckContext(question, Candidate(sql), "duckdb", None))
    return "signal.literal_missing" in [f.code for f in outcome.findings]


@pytest.mark.parametrize(
    "where",
    [
        "year(issued_on) = 2020 AND invoice_no <> 2021",
        "year(issued_on) = 2020 AND invoice_id > 2021",
        "year(issued_on) = 2020 AND 2021 <> customer_key",
        "year(issued_on) = 2020 AND total_amount < 2021",
        "year(issued_on) = 2020 AND invoice_no NOT IN (2021, 7)",
    ],
)
def test_a_year_only_on_a_key_or_an_amount_is_missing(where: str) -> None:
    assert _missing(INVOICES, where)


@pytest.mark.parametrize(
    ("question", "where"),
    [
        (INVOICES, "year(issued_on) = 2021"),
        (INVOICES, "issued_year = 2021 AND invoice_no <> 2021"),
        (INVOICES, "issued_on >= '2021-01-01' AND issued_on < '2022-01-01' AND invoice_no > 2021"),
        (INVOICES, "EXTRACT(YEAR FROM issued_on) = 2021"),
        (INVOICES, "fiscal_year_code = 2021"),
        # the number said as an id, not a year
        ("How many invoices does customer 2021 have?", "customer_id = 2021"),
        ("What is the total of invoice number 2021?", "invoice_no = 2021"),
    ],
)
def test_a_year_on_a_date_or_a_number_said_as_a_key_is_carried(question: str, where: str) -> None:
    assert not _missing(question, where)


def test_the_wrong_year_is_withheld_through_assay_score(tmp_path: Path) -> None:
    db = tmp_path / "invoices.duckdb"
    con = duckdb.connect(str(db))
    con.execute(
        "CREATE TABLE invoices AS SELECT i AS invoice_no, "
        "DATE '2020-01-01' + CAST(i AS INTEGER) AS issued_on, "
        "10.0 * i AS total_amount FROM range(1, 2400) r(i)"
    )
    con.close()
    wrong = "SELECT count(*) FROM invoices WHERE year(issued_on) = 2020 AND invoice_no <> 2021"
    right = "SELECT count(*) FROM invoices WHERE year(issued_on) = 2021"
    assert "signal.literal_missing" in codes(scored(tmp_path, db, INVOICES, *[wrong] * 5))
    verdict = scored(tmp_path, db, INVOICES, *[right] * 5)
    assert "signal.literal_missing" not in codes(verdict)
    assert verdict["action"] == "show", verdict["reasons"]


@pytest.mark.parametrize(
    ("question", "where"),
    [
        (
            "How many invoices had a total of 2000 in 2021?",
            "total_amount = 2000 AND year(issued_on) = 2021",
        ),
        ("How many invoices totalled between 2000 and 3000?", "total_amount BETWEEN 2000 AND 3000"),
        (
            "How many invoices in 2021 were above 2000?",
            "total_amount > 2000 AND year(issued_on) = 2021",
        ),
    ],
)
def test_an_amount_said_as_an_amount_is_carried(question: str, where: str) -> None:
    assert not _missing(question, where)
