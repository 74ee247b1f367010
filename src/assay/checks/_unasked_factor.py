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

``factor_dropped``: "What is the total revenue of line items shipped in 1996 after discount?"
as ``sum(l_extendedprice)`` never takes the discount off (outside tryout 40, F-2 w5: five
samples agreeing, shown at 1.00). When the question says an adjustment ("after X", "net of X",
"less X", "minus X", "deducting X", "including X", "plus X") whose word X names exactly one
number column of a table whose column the SQL aggregates, and the SQL reads that column
nowhere, the adjustment is dropped: ``signal.column_mismatch``. Silent when X names no column,
or more than one.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import Catalog, column_prefix
from assay.checks._cues import words
from assay.checks._qualified import column_words, stem
from assay.checks._values import _owner
from assay.types import Finding

__all__ = ["factor_dropped", "factor_unasked"]

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


# An adjustment said in words: "after discount", "net of tax", "less the discount".
_ADJUSTED = re.compile(
    r"\b(?P<how>after|net of|less|minus|deducting|including|inclusive of|plus)\s+"
    r"(?:the\s+|any\s+|all\s+|its\s+|their\s+)?(?P<word>[a-z]+)\b",
    re.IGNORECASE,
)
_NOT_NUMBER = re.compile(r"char|text|string|date|time|bool|blob", re.IGNORECASE)


def factor_dropped(question: str, tree: exp.Expr, catalog: Catalog) -> list[Finding]:
    """``signal.column_mismatch`` for "revenue after discount" as ``sum(l_extendedprice)``,
    the discount column read nowhere (see the module docstring)."""
    aggregated = {
        owner[0]
        for agg in tree.find_all(*_AGGREGATES)
        for column in agg.find_all(exp.Column)
        if (owner := _owner(column, tree, catalog)) is not None
    }
    read = {c.name.lower() for c in tree.find_all(exp.Column)}
    for match in _ADJUSTED.finditer(question):
        said = stem(match.group("word").lower())
        named: list[tuple[str, str]] = []
        for table in sorted(aggregated):
            info = catalog.table(table)
            if info is None:
                continue
            prefix = column_prefix([c.name for c in info.columns])
            named.extend(
                (table, c.name)
                for c in info.columns
                if not _NOT_NUMBER.search(c.type)
                and said in {stem(w) for w in column_words(c.name, prefix)}
            )
        if len(named) != 1 or named[0][1].lower() in read:
            continue
        table, column = named[0]
        phrase = " ".join(match.group(0).split())
        return [
            Finding(
                "signal.column_mismatch",
                "signal",
                f"The question asks for the measure {phrase} ({table}.{column}), but the SQL "
                f"never reads {column}: the adjustment is left out, so the value is the "
                "unadjusted one.",
                {"named": f"{table}.{column}", "said": phrase},
            )
        ]
    return []
