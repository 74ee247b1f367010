"""Outside tryout 40 (F-6): "line items total sales amount shipped by regular air in 1996" was
read as ship mode AIR (the reading line said so) and abstained on for 'regular'; the data
stores "REG AIR". A value read from fewer words than the user said beside it, where another
value is that value plus the word the user shortened or spelt out, is asked back naming the
fuller one, never read as the shorter.

Checked on the tester's ship modes and on a clinic's wards ("intensive care": "INT CARE").
"""

from __future__ import annotations

import pytest
import yaml

from assay.semantic import Lexicon, parse_semantic

from ._helpers import read_and_decide

SHIP = """
name: cube
tables: {lineitem: {}}
metrics:
- {name: total_sales_amount, label: line items total sales amount, table: lineitem,
   expression: sum(lineitem.l_extendedprice), time_column: lineitem.l_shipdate}
dimensions:
- {name: ship_mode, column: lineitem.l_shipmode,
   values: [AIR, REG AIR, MAIL, SHIP, TRUCK, RAIL, FOB]}
clock: 1998-12-01
"""

CLINIC = """
name: clinic
tables: {visits: {}}
metrics:
- {name: visit_cost, label: visit cost, table: visits, expression: sum(visits.cost),
   time_column: visits.day}
dimensions:
- {name: ward, column: visits.ward, values: [CARE, INT CARE, ONCOLOGY]}
clock: 2024-11-15
"""


@pytest.mark.parametrize(
    ("layer", "question", "fuller"),
    [
        (SHIP, "line items total sales amount shipped by regular air in 1996", "reg air"),
        (SHIP, "line items total sales amount for regular air in 1996", "reg air"),
        (CLINIC, "visit cost in intensive care in 2023", "int care"),
        (CLINIC, "visit cost for intensive care", "int care"),
    ],
)
def test_a_value_that_drops_a_word_said_is_asked_back(
    layer: str, question: str, fuller: str
) -> None:
    semantic = parse_semantic(yaml.safe_load(layer))
    reading, decision = read_and_decide(question, semantic, Lexicon(semantic))
    assert not reading.filters, reading.filters
    assert decision.behaviour == "clarify", decision
    assert fuller in decision.message.lower(), decision.message


@pytest.mark.parametrize(
    ("layer", "question", "value"),
    [
        (SHIP, "line items total sales amount shipped by air in 1996", "AIR"),
        (SHIP, "line items total sales amount shipped by reg air in 1996", "REG AIR"),
        (CLINIC, "visit cost in care in 2023", "CARE"),
    ],
)
def test_a_value_said_whole_is_read(layer: str, question: str, value: str) -> None:
    semantic = parse_semantic(yaml.safe_load(layer))
    reading, decision = read_and_decide(question, semantic, Lexicon(semantic))
    assert [f.values for f in reading.filters] == [(value,)], reading
    assert decision.behaviour == "answer", decision
