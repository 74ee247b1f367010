"""A place said of rows named after an entity with a place of its own (``semantic._whose_place``):
"total net paid in GA" over store sales, read by the layer on the customer's address, was shown
(warned) on a drafted TPC-DS layer though the store's own state is the other reading."""

from __future__ import annotations

import pytest
import yaml

from assay.catalog import Catalog, ColumnInfo, TableInfo
from assay.semantic import OtherPlace, other_places, parse_semantic, read

LAYER = """
name: "ds"
tables: {"store_sales": {}, "customer_address": {}}
joins:
  - {left: "store_sales.ss_addr_sk", right: "customer_address.ca_address_sk",
     relationship: many_to_one}
metrics:
  - {name: "net_paid", label: "total net paid", synonyms: ["net paid"], table: "store_sales",
     expression: "sum(store_sales.ss_net_paid)"}
  - {name: "addresses", label: "number of addresses", synonyms: ["addresses"],
     table: "customer_address", expression: "count(*)"}
dimensions:
  - {name: "ca_state", column: "customer_address.ca_state", synonyms: ["state"],
     values: ["GA", "TN"]}
"""


def _table(name: str, *columns: str) -> TableInfo:
    return TableInfo(name, tuple(ColumnInfo(c, "VARCHAR") for c in columns))


def _catalog(*store: str) -> Catalog:
    tables = [
        _table("store_sales", "ss_addr_sk", "ss_store_sk", "ss_net_paid"),
        _table("customer_address", "ca_address_sk", "ca_state", "ca_city"),
    ]
    if store:
        tables.append(_table("store", *store))
    return Catalog(tuple(tables))


def _places(question: str, catalog: Catalog) -> list[OtherPlace]:
    layer = parse_semantic(yaml.safe_load(LAYER))
    return other_places(read(question, layer), layer, catalog)


def test_the_store_state_is_the_other_reading_of_store_sales_in_a_state() -> None:
    catalog = _catalog("s_store_sk", "s_state", "s_city")
    assert _places("total net paid in GA", catalog) == [
        OtherPlace("GA", "customer_address.ca_state", "store.s_state")
    ]


@pytest.mark.parametrize(
    ("question", "store"),
    [
        ("total net paid in GA", ()),  # no store table: one reading
        ("total net paid in GA", ("s_store_sk", "s_city")),  # the store has no state
        ("total net paid of customers in GA", ("s_store_sk", "s_state")),  # said whose
        ("number of addresses in GA", ("s_store_sk", "s_state")),  # the place's own table
        ("total net paid", ("s_store_sk", "s_state")),  # no place said
    ],
    ids=["no-store", "no-state", "said-whose", "own-table", "no-place"],
)
def test_one_reading_is_left_alone(question: str, store: tuple[str, ...]) -> None:
    assert _places(question, _catalog(*store)) == []


@pytest.mark.parametrize(
    "question",
    [
        "total net paid by state of the store",
        "total net paid by store state",
        "total net paid by the store's state",
    ],
    ids=["of-the-store", "store-state", "store-s-state"],
)
def test_a_grouping_said_of_the_store_is_the_store_state(question: str) -> None:
    """ "by state of the store" was answered by the customer's address state, the store's
    word dropped silently."""
    catalog = _catalog("s_store_sk", "s_state", "s_city")
    places = _places(question, catalog)
    assert [(p.column, p.other, p.grouped) for p in places] == [
        ("customer_address.ca_state", "store.s_state", True)
    ]


@pytest.mark.parametrize(
    ("question", "store"),
    [
        ("total net paid by state", ("s_store_sk", "s_state")),  # whose not said
        ("total net paid by store state", ("s_store_sk", "s_city")),  # the store has no state
        ("total net paid by customer state", ("s_store_sk", "s_state")),  # the layer's own
        ("total net paid by state of the customer", ("s_store_sk", "s_state")),
    ],
    ids=["unsaid", "no-state", "customer-state", "of-the-customer"],
)
def test_a_grouping_said_of_its_own_table_is_left_alone(
    question: str, store: tuple[str, ...]
) -> None:
    assert _places(question, _catalog(*store)) == []


def test_the_store_before_a_grouped_state_is_no_second_metric() -> None:
    """ "by store state" asked which of "total net paid" and "stores" to measure: the word
    says whose state it is."""
    data = yaml.safe_load(LAYER)
    data["tables"]["store"] = {}
    data["metrics"].append(
        {
            "name": "stores",
            "label": "number of stores",
            "synonyms": ["store", "stores"],
            "table": "store",
            "expression": "count(*)",
        }
    )
    layer = parse_semantic(data)
    for question in ("total net paid by store state", "total net paid by the store's state"):
        reading = read(question, layer)
        assert (reading.several, reading.metrics) == ((), ("net_paid",)), question
        assert reading.groups == ("ca_state",)
