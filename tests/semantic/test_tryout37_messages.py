"""Messages that said more than Assay knew (outside tryout 37): a value the layer lists no
values for was "not a value the warehouse records", and "bought" was asked "did you mean
'ought'?" (a TPC-DS store name one letter from it)."""

from __future__ import annotations

from assay.semantic import SemanticLayer, parse_semantic

from ._helpers import read_and_decide


def _layer(*, open_name: bool) -> SemanticLayer:
    names = [{"name": "c_last_name", "column": "customer.c_last_name"}] if open_name else []
    return parse_semantic(
        {
            "name": "t",
            "metrics": [
                {"name": "total_sales", "table": "sales", "expression": "sum(sales.amount)"}
            ],
            "dimensions": [
                {"name": "s_store_name", "column": "store.s_store_name", "values": ["ought"]},
                {"name": "s_city", "column": "store.s_city", "values": ["Midway", "Fairview"]},
                *names,
            ],
            "joins": [
                {"left": "sales.store_id", "right": "store.store_id"},
                {"left": "sales.customer_id", "right": "customer.customer_id"},
            ],
        }
    )


def test_a_value_the_layer_does_not_list_is_not_said_absent_from_the_warehouse() -> None:
    _, decision = read_and_decide("total sales for customers named Smith", _layer(open_name=True))
    assert decision.behaviour == "abstain", decision.message
    assert decision.code == "behaviour.value_not_in_domain"
    assert "not a value the warehouse records" not in decision.message
    assert "'Smith' is not a value the semantic layer lists" in decision.message
    assert "The layer lists no values for c_last_name" in decision.message
    assert "cannot be checked" in decision.message


def test_a_value_outside_every_listed_domain_is_still_not_recorded() -> None:
    _, decision = read_and_decide("total sales in Springfield", _layer(open_name=False))
    assert decision.code == "behaviour.value_not_in_domain", decision.message
    assert "'Springfield' is not a value the warehouse records" in decision.message


def test_an_everyday_verb_is_not_offered_a_value_spelt_like_it() -> None:
    reading, decision = read_and_decide("how many customers bought in 2002", _layer(open_name=True))
    assert reading.suggestions == ()
    assert decision.code != "behaviour.did_you_mean"
    assert "ought" not in decision.message
    assert decision.behaviour in {"abstain", "clarify"}


def test_a_misspelt_value_is_still_offered() -> None:
    _, decision = read_and_decide("total sales in Midwya", _layer(open_name=False))
    assert decision.code == "behaviour.did_you_mean", decision.message
    assert "'Midway'" in decision.message or "'midway'" in decision.message
