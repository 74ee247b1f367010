"""Six readings of a column read in place of its twin, for ``column_fit`` (agreed20: each
shown at 1.00, five samples agreeing).

- ``_qualified.qualifier_unread``: "tax included" as ``ws_net_paid`` beside
  ``ws_net_paid_inc_tax``; "before tax" as ``LIFETIME_SPEND`` beside ``LIFETIME_SPEND_PRETAX``.
- ``_first_last.first_last_swapped``: "their first order" through ``LAST_ORDERED_AT``.
- ``_unit_summed.unit_summed``: a total as ``sum(cs_wholesale_cost)`` beside
  ``cs_ext_wholesale_cost``.
- ``_unasked_factor.factor_unasked``: "revenue after discount" with ``(1 + l_tax)`` multiplied in;
  ``factor_dropped``: "revenue after discount" as ``sum(l_extendedprice)`` (tryout 40).
- ``_initials.initial_swapped``: "first names" returned as ``LName`` beside ``Fname`` (agreed18).

Each is ``signal.column_mismatch``; ``twin_misread`` returns the first reading's findings that
finds any, so one answer is named once. Silence is never evidence of a right answer.
"""

from __future__ import annotations

from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._first_last import first_last_swapped
from assay.checks._initials import initial_swapped
from assay.checks._qualified import qualifier_unread
from assay.checks._unasked_factor import factor_dropped, factor_unasked
from assay.checks._unit_summed import unit_summed
from assay.types import Finding

__all__ = ["twin_misread"]

_READINGS = (
    qualifier_unread,
    first_last_swapped,
    unit_summed,
    factor_unasked,
    factor_dropped,
    initial_swapped,
)


def twin_misread(question: str, tree: exp.Expr, catalog: Catalog) -> list[Finding]:
    """The findings of the first of the six readings that finds any (see the module
    docstring)."""
    for reading in _READINGS:
        found = reading(question, tree, catalog)
        if found:
            return found
    return []
