"""agreed19 (a development set, tuned on): four right answers withheld, each on a misreading of
the question: "450,000" read as 450 and 0 (literal_missing), "on average ... per day" over rows
one a day and "every category except Footwear" read as breakdowns (grouping_missing), "how many
days" as COUNT(DISTINCT date) read as an unasked DISTINCT (aggregate_mismatch). Each is shown
now; what the readings must still catch is caught (the shop: ``_shop19``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.checks._cues import read_cues
from tests.checks._helpers import codes, scored
from tests.checks._shop19 import build_shop


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_shop(tmp_path_factory.mktemp("dev19") / "shop.duckdb")


def test_thousands_are_one_number() -> None:
    assert read_cues("Which lines made more than 450,000 in revenue?").numbers == (450000.0,)
    assert read_cues("Sales in 2019, 2020 and 2021").numbers == (2019.0, 2020.0, 2021.0)


# Right answers withheld before: (name, question, right SQL, the code it drew)
RIGHT_WITHHELD = [
    (
        "thousands_separator",
        "Which categories made more than 10,000 in total sales?",
        "SELECT p.category FROM sales s JOIN products p ON s.product_id = p.product_id "
        "GROUP BY p.category HAVING SUM(s.sales_amount) > 10000",
        "signal.literal_missing",
    ),
    (
        "average_per_day_over_daily_rows",
        "On average, how many clicks did the Summer campaign get per day?",
        "SELECT AVG(clicks) FROM campaign_metrics WHERE campaign_name = 'Summer'",
        "signal.grouping_missing",
    ),
    (
        "days_counted_distinct",
        "On how many days did Instagram get more than 10 mentions?",
        "SELECT COUNT(DISTINCT date) FROM mentions WHERE platform = 'Instagram' AND mentions > 10",
        "signal.aggregate_mismatch",
    ),
    (
        "every_category_except_one",
        "What were total sales for every category except Footwear?",
        "SELECT SUM(s.sales_amount) FROM sales s JOIN products p ON s.product_id = p.product_id "
        "WHERE p.category <> 'Footwear'",
        "signal.grouping_missing",
    ),
]


@pytest.mark.parametrize("case", RIGHT_WITHHELD, ids=[c[0] for c in RIGHT_WITHHELD])
def test_right_answer_shown(tmp_path: Path, shop: Path, case: tuple[str, ...]) -> None:
    name, question, right, code = case
    verdict = scored(tmp_path, shop, question, *[right] * 5)
    assert code not in codes(verdict), (name, codes(verdict))
    assert verdict["action"] == "show", (name, verdict["reasons"])


# What the exemptions must still catch: several rows a day averaged, "each" with an exception.
STILL_CAUGHT = [
    (
        "average_per_day_over_rows_per_platform",
        "On average, how many mentions did we get per day?",
        "SELECT AVG(mentions) FROM mentions",
        "signal.grouping_missing",
    ),
    (
        "each_category_except_one",
        "What were total sales for each category except Footwear?",
        "SELECT SUM(s.sales_amount) FROM sales s JOIN products p ON s.product_id = p.product_id "
        "WHERE p.category <> 'Footwear'",
        "signal.grouping_missing",
    ),
    (
        "timestamps_counted_as_days",
        "How many days had a transaction?",
        "SELECT COUNT(DISTINCT CAST(ds AS TIMESTAMP) + INTERVAL 1 HOUR) FROM transactions_seed",
        "signal.aggregate_mismatch",
    ),
]


@pytest.mark.parametrize("case", STILL_CAUGHT, ids=[c[0] for c in STILL_CAUGHT])
def test_still_caught(tmp_path: Path, shop: Path, case: tuple[str, ...]) -> None:
    name, question, wrong, code = case
    verdict = scored(tmp_path, shop, question, *[wrong] * 5)
    assert code in codes(verdict), (name, codes(verdict))
