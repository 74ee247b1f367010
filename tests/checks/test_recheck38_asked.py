"""The outside re-check of tryout 38 on the demo warehouse, "What was the gross revenue in
2023?" answered by ``assay ask --agent`` with one FINAL_SQL (one sample: warned at best): a
mid-year range, a single bound leaving out all of 2023 and ``year(order_date) = 2022 AND
order_id <> 2023`` were shown (the asked year sat in some literal); "from customers in Germany"
as ``customers.country = 'DE'`` was withheld as ``code_unasked``, and ``= 'FR'`` withheld with
a message saying the question names no country."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.cli._ask import demo_warehouse
from assay.settings import load_settings
from tests.checks._helpers import codes, scored

GROSS = "What was the gross revenue in 2023?"
GERMANY = "What was the gross revenue from customers in Germany in 2023?"
SELECT = (
    "SELECT SUM(ol.quantity * ol.unit_price) FROM orders JOIN order_lines ol "
    "ON ol.order_id = orders.order_id JOIN customers c ON c.customer_id = orders.customer_id "
    "WHERE "
)
IN_2023 = "orders.order_date >= '2023-01-01' AND orders.order_date < '2024-01-01'"


@pytest.fixture(scope="module")
def demo() -> Path:
    return demo_warehouse(load_settings())[0]


@pytest.mark.parametrize(
    ("question", "where", "code"),
    [
        (GROSS, "orders.order_date >= '2022-06-01' AND orders.order_date < '2023-06-01'", None),
        (GROSS, "orders.order_date < '2023-01-01'", None),
        (GROSS, "year(orders.order_date) = 2022 AND orders.order_id <> 2023", None),
        (GERMANY, f"c.country = 'FR' AND {IN_2023}", "signal.value_swapped"),
    ],
)
def test_the_wrong_answers_are_withheld(
    tmp_path: Path, demo: Path, question: str, where: str, code: str | None
) -> None:
    verdict = scored(tmp_path, demo, question, SELECT + where)
    assert verdict["action"] == "withhold", codes(verdict)
    if code is not None:
        assert code in codes(verdict)
        said = " ".join(f["message"] for f in verdict["findings"] if f["code"] == code)
        assert "Germany" in said and "France" in said, said


@pytest.mark.parametrize(
    ("question", "where"),
    [
        (GROSS, IN_2023),
        (GROSS, "year(orders.order_date) = 2023"),
        (GERMANY, f"c.country = 'DE' AND {IN_2023}"),
    ],
)
def test_the_right_answers_are_warned(
    tmp_path: Path, demo: Path, question: str, where: str
) -> None:
    verdict = scored(tmp_path, demo, question, SELECT + where)
    assert verdict["action"] == "warn", [(f["code"], f["message"]) for f in verdict["findings"]]
