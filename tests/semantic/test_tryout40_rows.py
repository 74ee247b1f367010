"""Outside tryout 40 (F-1): "LTV pre-tax of customers who first ordered in 2017" on the
imported MetricFlow customers layer was read as "..., in 2017, by customer" and 657 rows were
shown at 1.00 for the one total asked. "ordered" inside the relative clause was read as a sort
word, so the noun before it ("customers") was taken as a ranked breakdown. A noun that a
relative clause describes ("of customers who ...", "for patients that ...") names the rows,
never a breakdown: the question is asked back (or answered as one total), never grouped.

Each kind is checked on the tester's layer (its YAML as imported) and on a second schema with
other words (a clinic's visits), so the kind is fixed, not the record.
"""

from __future__ import annotations

import pytest
import yaml

from assay.semantic import Lexicon, SemanticLayer, parse_semantic

from ._helpers import read_and_decide

SMG = """
name: customers.yml
tables: {customers: {}}
joins: []
metrics:
- {name: lifetime_spend_pretax, label: LTV Pre-tax, table: customers,
   expression: sum(customers.lifetime_spend_pretax), time_column: customers.first_ordered_at}
- {name: count_lifetime_orders, label: Count Lifetime Orders, table: customers,
   expression: sum(customers.count_lifetime_orders), time_column: customers.first_ordered_at}
dimensions:
- {name: customer, column: customers.customer_id}
- {name: customer_type, column: customers.customer_type, values: [new, returning]}
clock: 2017-08-30
"""

CLINIC = """
name: clinic
tables: {visits: {}}
joins: []
metrics:
- {name: visit_cost, label: Visit Cost, table: visits, expression: sum(visits.cost),
   time_column: visits.admitted_at}
dimensions:
- {name: patient, column: visits.patient_id}
- {name: ward, column: visits.ward, values: [cardiology, oncology]}
clock: 2024-11-15
"""


def _layer(text: str) -> SemanticLayer:
    return parse_semantic(yaml.safe_load(text))


@pytest.mark.parametrize(
    ("layer", "question"),
    [
        (SMG, "LTV pre-tax of customers who first ordered in 2017"),
        (SMG, "count lifetime orders of customers who first ordered in 2017"),
        (SMG, "LTV pre-tax for customers that ordered in 2016"),
        (SMG, "LTV pre-tax of customers who ranked first in 2017"),
        (CLINIC, "visit cost of patients who were first admitted in 2023"),
        (CLINIC, "visit cost for patients that ordered tests in 2023"),
        (CLINIC, "visit cost of patients whose visits were sorted in 2023"),
    ],
)
def test_a_noun_a_relative_clause_describes_is_no_breakdown(layer: str, question: str) -> None:
    semantic = _layer(layer)
    reading, decision = read_and_decide(question, semantic, Lexicon(semantic))
    assert reading.groups == (), reading
    assert reading.ranking is None and reading.metrics, reading
    assert decision.behaviour == "clarify", decision
    # the ask-back says the choice: one total, or one figure per row
    noun = "customer" if semantic.name == "customers.yml" else "patient"
    assert "one total" in decision.message and f"one per {noun}" in decision.message, decision


@pytest.mark.parametrize(
    ("layer", "question", "group"),
    [
        (SMG, "LTV pre-tax by customer ordered by LTV pre-tax", "customer"),
        (SMG, "top 3 customers who first ordered in 2017 by LTV pre-tax", "customer"),
        (CLINIC, "visit cost by patient sorted by visit cost", "patient"),
        (CLINIC, "visit cost by patient who was admitted in 2023", "patient"),
    ],
)
def test_a_breakdown_said_is_still_one(layer: str, question: str, group: str) -> None:
    """A "by" or a ranking still says a breakdown, a relative clause after it or not."""
    semantic = _layer(layer)
    reading, _ = read_and_decide(question, semantic, Lexicon(semantic))
    assert group in reading.groups, reading
