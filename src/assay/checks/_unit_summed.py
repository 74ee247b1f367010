"""A per-unit value summed over rows while its table holds the value extended over the line.

"What was the total wholesale cost of catalog sales in 1999?" answered with
``sum(cs_wholesale_cost)`` adds up one unit's cost per line, whatever the line's quantity,
though ``catalog_sales`` holds ``cs_ext_wholesale_cost``, the cost of the whole line (agreed20,
h20_d05: shown at 1.00, five samples agreeing). An "extended" column is the unit value times the
quantity (TPC-DS ``ext_``, TPC-H ``l_extendedprice``, an invoice's extended price): where a
table keeps both, a total is the sum of the extended one, and a sum of the unit one is a number
no question asks for.

``unit_summed``: a SUM whose argument is one bare column (a cast aside) of a table that also
holds the same column with an ``ext`` or ``extended`` word added, which the SQL never reads:
``signal.column_mismatch``. Silent when the question says "unit" (a sum of unit prices asked
for), when the SUM multiplies the column by anything (``cs_wholesale_cost *
cs_quantity`` extends it), when the question names the summed column itself in parentheses
("the running total of catalog sales (sales price)" as ``SUM(cs_sales_price)``: agreed26
h26_d05, the right answer withheld; the question chose the column, the bracket says which), or
when the SQL does not parse: its silence is never evidence of a right answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import Catalog, column_prefix
from assay.checks._cues import words
from assay.checks._qualified import _EXTENDED, _qualifier, _read, column_words
from assay.checks._values import _owner
from assay.types import Finding

__all__ = ["unit_summed"]

_UNIT_ASKED = frozenset({"unit", "units"})
_BRACKETED = re.compile(r"\(([^()]*)\)")


def _bracketed(question: str) -> list[set[str]]:
    """The words of each parenthesis of the question: "catalog sales (sales price)" names its
    column.

    Example:
        >>> [sorted(w) for w in _bracketed("Total catalog sales (sales price), by month")]
        [['price', 'sales']]
    """
    return [set(words(m.group(1))) for m in _BRACKETED.finditer(question)]


def _summed(tree: exp.Expr, catalog: Catalog) -> list[tuple[str, str]]:
    """(table, column) of every SUM over one bare column."""
    found = []
    for agg in tree.find_all(exp.Sum):
        arg = agg.this
        while isinstance(arg, exp.Cast | exp.Paren):
            arg = arg.this
        owner = _owner(arg, tree, catalog) if isinstance(arg, exp.Column) else None
        if owner is not None and owner not in found:
            found.append(owner)
    return found


def unit_summed(question: str, tree: exp.Expr, catalog: Catalog) -> list[Finding]:
    """``signal.column_mismatch`` for ``sum(cs_wholesale_cost)`` beside
    ``cs_ext_wholesale_cost`` (see the module docstring)."""
    if _UNIT_ASKED & set(words(question)):
        return []
    read = _read(tree, catalog)
    bracketed = _bracketed(question)
    findings = []
    for table, column in _summed(tree, catalog):
        info = catalog.table(table)
        if info is None:
            continue
        names = [c.name for c in info.columns]
        prefix = column_prefix(names)
        own = column_words(column, prefix)
        if own and any(set(own) <= said for said in bracketed):
            continue  # the question names this column itself
        extended = [
            other
            for other in names
            if other not in read.get(table, set())
            and set(_qualifier(own, column_words(other, prefix)) or ()) in _EXTENDED
        ]
        if len(extended) == 1:
            findings.append(
                Finding(
                    "signal.column_mismatch",
                    "signal",
                    f"The SQL sums {table}.{column}, one unit's value per row, though "
                    f"{table}.{extended[0]} holds it extended over each row's quantity.",
                    {"named": f"{table}.{extended[0]}", "used": [f"{table}.{column}"]},
                )
            )
    return findings
