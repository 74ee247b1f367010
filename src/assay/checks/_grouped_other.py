"""A grouping the question names, answered with another column grouped.

"How many orders are there per order priority?" as ``GROUP BY o_orderstatus``: the question
names ``o_orderpriority`` (TPC-H's glued name, said as two words) and the SQL groups by a
sibling that it never reads otherwise (outside tryout 26, t_w8 and p8: shown at 1.00, since
a GROUP BY was there). ``grouping_fit`` reads it as ``signal.grouping_missing``.

Only after "per", "each", "for each" or "for every" (never "by": "sorted by name"), only a
column of a table the SQL reads whose name, less its table's shared prefix, is the first one to
three words said there run together (or the words after the name of its table: "each item
class" is ``item.i_class``), and only when the SQL names that column nowhere: a
grouping by a key beside the named column returned is a right answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._cues import table_words
from assay.checks._key_names import table_prefix
from assay.checks._sql import referenced_tables

__all__ = ["grouped_by_other"]

_PER = re.compile(r"\b(?:per|for each|for every|each)\s+([a-z][a-z ]*)")


def grouped_by_other(question: str, tree: exp.Expr, catalog: Catalog) -> str | None:
    """What is wrong when the named grouping column is not the one grouped by, or ``None``."""
    group = tree.args.get("group") if isinstance(tree, exp.Select) else None
    if group is None:
        return None
    grouped = [c for c in group.find_all(exp.Column)]
    if not grouped:
        return None
    used = {c.name.lower() for c in tree.find_all(exp.Column)}
    names = _spoken(tree, catalog)
    for match in _PER.finditer(question.lower()):
        said = match.group(1).split()[:3]
        named = {
            (table, column)
            for k in range(len(said), 0, -1)
            for form in _forms(said[:k])
            for (table, column), spoken in names.items()
            if spoken == form
        }
        if not named:
            named, said = _after_table(said, names)
        if len(named) != 1:
            continue
        table, column = next(iter(named))
        if column.lower() in used:
            return None
        others = ", ".join(c.sql() for c in grouped)
        return (
            f"The question groups per {' '.join(said)} ({table}.{column}) but the SQL groups "
            f"by {others} and never reads {column}."
        )
    return None


def _after_table(
    said: list[str], names: dict[tuple[str, str], str]
) -> tuple[set[tuple[str, str]], list[str]]:
    """The columns named by the words after a table's name, with the words that name them:
    "each item class" is ``item.i_class`` (agreed18 h18_d37: ``GROUP BY i_category`` shown)."""
    for k in range(len(said), 1, -1):
        named = {
            (table, column)
            for form in _forms(said[1:k])
            for (table, column), spoken in names.items()
            if spoken == form and said[0] in table_words(table)
        }
        if named:
            return named, said[:k]
    return set(), said


def _forms(words: list[str]) -> set[str]:
    """The words run together, joined by "_", and with the last one singular."""
    last = words[-1]
    lasts = {last, last[:-1]} if last.endswith("s") and len(last) > 3 else {last}
    return {joiner.join([*words[:-1], end]) for end in lasts for joiner in ("", "_")}


def _spoken(tree: exp.Expr, catalog: Catalog) -> dict[tuple[str, str], str]:
    """Each column of the tables read, by its name less the table's shared prefix."""
    found: dict[tuple[str, str], str] = {}
    for name in referenced_tables(tree):
        info = catalog.table(name)
        if info is None:
            continue
        prefix = table_prefix(info.column_names)
        for column in info.column_names:
            found[(info.name, column)] = column.lower()[len(prefix) :]
    return found
