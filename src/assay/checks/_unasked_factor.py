"""A measure adjusted by a factor the question never says, beside one it does say.

"What was the total revenue after discount for line items shipped in 1994?" answered with
``sum(l_extendedprice * (1 - l_discount) * (1 + l_tax))`` adds the tax back in: the question
spells out the one adjustment it wants ("after discount") and the SQL applies another (agreed20,
h20_h06: shown at 1.00, five samples agreeing).

``factor_unasked``: inside one aggregate, the adjusting factors are the columns taken as
``(1 - x)`` or ``(1 + x)`` (a rate off or on a base value). When the question says a word of one
factor's column ("discount") and no word of another's ("tax"), the other is an adjustment nobody
asked for: ``signal.column_mismatch``. Silent when the question says no factor's word ("the
total charge" may well include tax: nothing tells), when the aggregate has one factor, or when
the SQL does not parse: its silence is never evidence of a right answer.
"""

from __future__ import annotations

from sqlglot import exp

from assay.catalog import Catalog, column_prefix
from assay.checks._cues import words
from assay.checks._qualified import column_words, stem
from assay.checks._values import _owner
from assay.types import Finding

__all__ = ["factor_unasked"]

_AGGREGATES = (exp.Sum, exp.Avg, exp.Max, exp.Min)


def _factors(agg: exp.Expr, tree: exp.Expr, catalog: Catalog) -> list[tuple[str, str]]:
    """(table, column) of each ``1 - x`` or ``1 + x`` inside the aggregate, ``x`` a column."""
    found = []
    for node in agg.find_all(exp.Sub, exp.Add):
        left, right = node.left, node.right
        if not (isinstance(left, exp.Literal) and left.name == "1"):
            continue
        owner = _owner(right, tree, catalog) if isinstance(right, exp.Column) else None
        if owner is not None and owner not in found:
            found.append(owner)
    return found


def _named(owner: tuple[str, str], stems: set[str], catalog: Catalog) -> bool:
    info = catalog.table(owner[0])
    prefix = column_prefix([c.name for c in info.columns]) if info is not None else ""
    return any(stem(w) in stems for w in column_words(owner[1], prefix))


def factor_unasked(question: str, tree: exp.Expr, catalog: Catalog) -> list[Finding]:
    """``signal.column_mismatch`` for ``(1 + l_tax)`` multiplied into "revenue after
    discount" (see the module docstring)."""
    stems = {stem(w) for w in words(question)}
    findings = []
    for agg in tree.find_all(*_AGGREGATES):
        factors = _factors(agg, tree, catalog)
        said = [f for f in factors if _named(f, stems, catalog)]
        unsaid = [f for f in factors if f not in said]
        if not said or not unsaid:
            continue
        names = ", ".join(f"{t}.{c}" for t, c in unsaid)
        findings.append(
            Finding(
                "signal.column_mismatch",
                "signal",
                f"The question asks for the measure adjusted by {said[0][0]}.{said[0][1]} "
                f"only, but the SQL also applies {names}.",
                {"named": f"{said[0][0]}.{said[0][1]}", "used": [f"{t}.{c}" for t, c in unsaid]},
            )
        )
    return findings
