"""Glued column names of a drafted layer said as words (outside draft 23, TPC-H sf 0.01).

``assay semantic init`` over TPC-H names its dimensions ``orders_o_orderpriority``,
``lineitem_l_shipmode``, ``customer_c_mktsegment``: "orders by priority" was abstained on
(dimension_missing, naming ``orders_o_orderpriority`` as the closest), "by ship mode" was read as
the filter SHIP and the aggregate "mode", and "customers in the building segment" was asked back
"did you mean 'mktsegment'?" though BUILDING was applied. A glued word is split where the layer
itself knows the head (a table's noun, a glued key or date's stem, an abbreviation), and a tail
another column ends in unsplit is asked back, never guessed.
"""

from __future__ import annotations

import dataclasses

import pytest

from assay.semantic import (
    Dimension,
    JoinPath,
    Metric,
    SemanticLayer,
    decide,
    read,
    with_derived_names,
)


def _layer() -> SemanticLayer:
    metrics = (
        Metric(
            "orders_count", "orders count", ("orders",), "orders", "count(*)", "orders.o_orderdate"
        ),
        Metric(
            "lineitem_count", "lineitem count", (), "lineitem", "count(*)", "lineitem.l_shipdate"
        ),
        Metric("customer_count", "customer count", ("customers",), "customer", "count(*)"),
    )
    dims = (
        Dimension(
            "customer_c_mktsegment",
            "customer.c_mktsegment",
            ("mktsegment",),
            ("BUILDING", "AUTOMOBILE"),
        ),
        Dimension("lineitem_l_shipmode", "lineitem.l_shipmode", ("shipmode",), ("AIR", "SHIP")),
        Dimension("lineitem_l_linestatus", "lineitem.l_linestatus", ("linestatus",), ("F", "O")),
        Dimension(
            "orders_o_orderpriority",
            "orders.o_orderpriority",
            ("orderpriority",),
            ("1-URGENT", "5-LOW"),
        ),
        Dimension("orders_o_orderstatus", "orders.o_orderstatus", ("orderstatus",), ("F", "P")),
    )
    joins = (
        JoinPath("lineitem.l_orderkey", "orders.o_orderkey"),
        JoinPath("orders.o_custkey", "customer.c_custkey"),
    )
    return with_derived_names(
        SemanticLayer(name="tpch", metrics=metrics, dimensions=dims, joins=joins)
    )


@pytest.mark.parametrize(
    ("question", "group"),
    [
        ("orders by priority", "orders_o_orderpriority"),
        ("orders count by order priority", "orders_o_orderpriority"),
        ("lineitem count by ship mode", "lineitem_l_shipmode"),
        ("customers by market segment", "customer_c_mktsegment"),
        ("customers by segment", "customer_c_mktsegment"),
        ("orders by order status", "orders_o_orderstatus"),
    ],
    ids=["priority", "order-priority", "ship-mode", "market-segment", "segment", "order-status"],
)
def test_a_glued_dimension_is_called_by_its_words(question: str, group: str) -> None:
    layer = _layer()
    reading = read(question, layer)
    assert reading.groups == (group,)
    assert reading.filters == () and reading.unread == () and reading.aggregates == ()
    assert decide(reading, layer).behaviour == "answer"


def test_a_segment_value_is_read_with_its_word_not_asked_back() -> None:
    layer = _layer()
    reading = read("customers in the building segment", layer)
    assert [(f.dimension, f.values) for f in reading.filters] == [
        ("customer_c_mktsegment", ("BUILDING",))
    ]
    assert reading.suggestions == () and reading.unread == ()
    assert decide(reading, layer).behaviour == "answer"


def test_a_tail_another_column_ends_in_is_never_read_as_the_split_one() -> None:
    """ "status" ends ``o_orderstatus`` (split: "order status") and ``l_linestatus`` (no known
    split): said of line items it is their own status, said of neither it is asked back."""
    layer = _layer()
    assert read("lineitem count by status", layer).groups == ("lineitem_l_linestatus",)
    decision = decide(read("customers by status", layer), layer)
    assert decision.behaviour == "clarify"
    assert "lineitem_l_linestatus" in decision.message
    assert "orders_o_orderstatus" in decision.message


def test_an_undefined_aggregate_names_the_word_left_unread() -> None:
    """ "average customer age": the message spoke of 'average' only; 'age' is read nowhere."""
    layer = _layer()
    decision = decide(read("average customer age", layer), layer)
    assert decision.behaviour == "abstain"
    assert "'average'" in decision.message
    assert "'age' was not read either" in decision.message


def test_a_ranked_code_is_read_by_its_words() -> None:
    """ "number of urgent orders" was abstained on ("no dimension, value or metric says which
    rows that is") though ``o_orderpriority`` holds 1-URGENT."""
    layer = _layer()
    reading = read("number of urgent orders", layer)
    assert [(f.dimension, f.values) for f in reading.filters] == [
        ("orders_o_orderpriority", ("1-URGENT",))
    ]
    assert decide(reading, layer).behaviour == "answer"


def test_a_ranked_code_word_two_values_share_is_not_read() -> None:
    layer = _layer()
    dims = tuple(
        dataclasses.replace(d, values=("1-HIGH", "2-HIGH", "3-LOW"))
        if d.name == "orders_o_orderpriority"
        else d
        for d in layer.dimensions
    )
    layer = dataclasses.replace(layer, dimensions=dims)
    reading = read("number of high orders", layer)
    assert reading.filters == ()
    assert decide(reading, layer).behaviour != "answer"


def test_a_value_right_after_by_that_begins_a_glued_name_is_no_filter() -> None:
    """ "by ship instructions": SHIP (a ship mode) was applied as a filter and "by" dropped."""
    layer = _layer()
    reading = read("lineitem count by ship instructions", layer)
    assert reading.filters == ()
    assert reading.unknown_groups == ("ship",)
    assert decide(reading, layer).behaviour != "answer"
    kept = read("lineitem count for ship", layer)  # not after "by": the value
    assert [(f.dimension, f.values) for f in kept.filters] == [("lineitem_l_shipmode", ("SHIP",))]
