"""Whether a referencing column's name names the referenced key (``names_agree``): the
evidence a drafted join needs beyond containment (outside tryout 18, items 81, 85, 86)."""

from __future__ import annotations

import pytest

from assay.catalog import names_agree
from assay.catalog._evaluate import TPCDS_REFERENCES, TPCH_KEYS


@pytest.mark.parametrize(("suffix", "table", "column"), TPCDS_REFERENCES)
def test_every_tpcds_foreign_key_has_agreeing_names(suffix: str, table: str, column: str) -> None:
    """The specification's *_sk -> dimension rule: every referencing name TPC-DS uses."""
    prefixes = {"store_sales": "ss", "catalog_returns": "cr", "customer": "c", "web_sales": "ws"}
    parent_prefix = column.split("_", 1)[0] if table != "web_site" else "web"
    for child_table, prefix in prefixes.items():
        child = f"{prefix}{suffix}"
        assert names_agree(child, table, column, prefix, parent_prefix), (child_table, child)


@pytest.mark.parametrize(
    ("child", "child_prefix", "table", "column", "parent_prefix"),
    [
        ("i_item_id", "i", "customer_address", "ca_address_id", "ca"),
        ("i_manufact_id", "i", "customer", "c_customer_sk", "c"),
        ("i_class_id", "i", "income_band", "ib_income_band_sk", "ib"),
        ("cr_order_number", "cr", "household_demographics", "hd_demo_sk", "hd"),
        ("ss_customer_sk", "ss", "customer_demographics", "cd_demo_sk", "cd"),
        ("ss_cdemo_sk", "ss", "household_demographics", "hd_demo_sk", "hd"),
        ("ws_web_site_sk", "ws", "web_page", "wp_web_page_sk", "wp"),
        ("id", "", "singer", "Singer_ID", ""),
        ("c2", "", "t22", "c2", ""),  # mangled positions, not names
    ],
)
def test_unrelated_names_do_not_agree(
    child: str, child_prefix: str, table: str, column: str, parent_prefix: str
) -> None:
    assert not names_agree(child, table, column, child_prefix, parent_prefix)


@pytest.mark.parametrize(
    ("child", "table", "column"),
    [
        ("StuID", "Student", "StuID"),
        ("Maker", "car_makers", "Id"),
        ("Country", "countries", "CountryId"),
        ("Continent", "continents", "ContId"),
        ("Stadium_ID", "stadium", "Stadium_ID"),
    ],
)
def test_spider_style_names_agree(child: str, table: str, column: str) -> None:
    assert names_agree(child, table, column)


@pytest.mark.parametrize("edge", TPCH_KEYS, ids=lambda e: f"{e[0]}.{e[1]}")
def test_every_tpch_foreign_key_has_agreeing_names(edge: tuple[str, str, str, str]) -> None:
    _table, column, ref_table, ref_column = edge
    assert names_agree(column, ref_table, ref_column, column[0], ref_column[0])
