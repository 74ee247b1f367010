"""A follow-up naming another place where the places are looked up in the data (outside tryout
22, F11): "same for France" after "Number of customers in Germany", with TPC-H's nation names
not read at layer load, was composed as "Number of customers in Germany France?" and abstained
on; France takes Germany's place."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from assay.semantic import Lexicon, compose_follow_up, parse_semantic

LAYER = """
name: "h"
tables: {"customer": {}, "nation": {}}
joins:
  - {left: "customer.c_nationkey", right: "nation.n_nationkey", relationship: many_to_one}
metrics:
  - {name: "customer_count", label: "number of customers", synonyms: ["customers"],
     table: "customer", expression: "count(*)"}
dimensions:
  - {name: "customer_nation_name", column: "nation.n_name", synonyms: ["nation", "country"]}
"""


def _compose(fragment: str) -> dict[str, Any]:
    layer = parse_semantic(yaml.safe_load(LAYER))
    return compose_follow_up("Number of customers in Germany", fragment, layer, Lexicon(layer))


@pytest.mark.parametrize(
    "fragment", ["same for France", "what about France?", "France"], ids=["same", "about", "bare"]
)
def test_another_place_replaces_the_place_before(fragment: str) -> None:
    composed = _compose(fragment)
    assert composed["question"] == "Number of customers in France?"
    assert composed["replaced"] == ["filter customer_nation_name Germany -> France"]
    assert composed["unclear"] is None


def test_a_word_that_is_no_place_is_not_swapped_in() -> None:
    """ "same for Frobnia": no place, nothing to look up; never put in Germany's place."""
    assert "Germany" in _compose("same for Frobnia")["question"]
