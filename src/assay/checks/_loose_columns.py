"""A column the question names in its own word order, while the SQL aggregates another.

"How much cash did we refund on web returns in 2001?" answered with ``SUM(wr_return_amt)``
sums the amount returned, not ``wr_refunded_cash``: the question says both of that column's
words ("cash", "refund" for "refunded"), in another order than the name's, so ``column_fit``'s
word-for-word reading missed it, and five agreeing samples were shown at 1.00 (agreed16,
h16_d26). ``columns_said_loosely`` reads, for each table whose columns the SQL sums, averages
or takes the largest or smallest of: when none of the aggregated columns has all its words in
the question, and exactly one other column of that table, of two words or more and named
nowhere in the SQL, has each of its words said (in any order; a word and its inflections,
"refund", "refunds", "refunded", count as one), ``signal.column_mismatch`` names it.

``column_fit`` calls it after its word-for-word reading found nothing. Silence is never
evidence of a right answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import Catalog, column_prefix
from assay.checks._abbreviated import abbreviates
from assay.checks._cues import words
from assay.checks._qualified import qualified_as_said, stem
from assay.checks._values import _owner
from assay.types import Finding

__all__ = ["columns_said_loosely"]


def _own_words(column: str, prefix: str) -> list[str]:
    """A column's words less its table's shared prefix (``refunded cash`` of
    ``wr_refunded_cash``)."""
    parts = [w for w in re.split(r"[^a-z0-9]+", column.lower()) if w]
    return parts[1:] if prefix and len(parts) > 1 and parts[0] == prefix else parts


def _all_said(said: set[str], column: str, prefix: str) -> bool:
    """Each of the column's own words is said, whole, inflected or in full where the name
    abbreviates it (``ext``: "extended", ``_abbreviated``)."""
    own = _own_words(column, prefix)
    return bool(own) and all(stem(w) in said or any(abbreviates(w, s) for s in said) for w in own)


def columns_said_loosely(question: str, tree: exp.Expr, catalog: Catalog) -> list[Finding]:
    """``signal.column_mismatch`` for a column whose words the question says in any order
    while the SQL aggregates a sibling of it (see the module docstring)."""
    said = {stem(w) for w in words(question)}
    used = {c.name.lower() for c in tree.find_all(exp.Column)}
    aggregated: dict[str, list[str]] = {}
    for agg in tree.find_all(exp.Sum, exp.Avg, exp.Max, exp.Min):
        for column in agg.find_all(exp.Column):
            owner = _owner(column, tree, catalog)
            if owner is not None and owner[1] not in aggregated.setdefault(owner[0], []):
                aggregated[owner[0]].append(owner[1])
    findings = []
    for table, taken in sorted(aggregated.items()):
        info = catalog.table(table)
        if info is None:
            continue
        prefix = column_prefix([c.name for c in info.columns])
        if any(_all_said(said, c, prefix) for c in taken):
            continue
        named = [
            col.name
            for col in info.columns
            if col.name.lower() not in used
            and len(_own_words(col.name, prefix)) >= 2
            and _all_said(said, col.name, prefix)
        ]
        if len(named) == 1 and not any(qualified_as_said(question, named[0], c) for c in taken):
            findings.append(
                Finding(
                    "signal.column_mismatch",
                    "signal",
                    f"The question says each word of {table}.{named[0]} but the SQL aggregates "
                    f"{', '.join(f'{table}.{c}' for c in taken)} instead.",
                    {"named": f"{table}.{named[0]}", "aggregated": [f"{table}.{c}" for c in taken]},
                )
            )
    return findings
