"""A column the question asks for by its full name, returned as its sibling instead.

"Give me the full names of the car makers from Japan" as ``SELECT cm.Maker FROM car_makers cm
...`` returns each maker's short name, though ``car_makers`` holds ``FullName`` beside it
(agreed25 h25_s03: shown at 1.00, five samples agreeing). ``column_fit`` reads the columns a
SUM, AVG, MAX or MIN takes; this reads the plain columns the outer SELECT returns.

``returned_sibling`` says so (``signal.column_mismatch``) when the question says, word for word
(abbreviations read in full), a column of two words or more ("full name": ``FullName``) of a
table whose column the outer SELECT returns, the SQL reads that column nowhere, and no column
the SELECT returns of that table is said by as many words ("makers" says ``Maker`` by one).
One word is said of too many columns ("name", "price") to tell which is meant, unless the
question ties it to the table: "the name of the stadium", "the stadium's name", "stadium name"
(outside tryout 40, F-2 w2: "What is the name of the stadium with the largest capacity?" as
``SELECT Location FROM stadium ...`` was shown at 1.00). Then a one-word column so tied to a
table whose column the outer SELECT returns, read nowhere in the SQL, while no returned column
of that table has all its words said, is named the same way. Silent on set
operations and on any column whose table is not known; silence is never evidence of a right
answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._abbreviated import longest_said, says_abbreviated
from assay.checks._cues import words
from assay.checks._key_names import table_prefix
from assay.checks._values import _owner
from assay.types import Finding

__all__ = ["returned_sibling"]


def _words(column: str, prefix: str) -> tuple[str, ...]:
    """A column's words, its table's prefix dropped (``FullName``: full, name)."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", column[len(prefix) :])
    return tuple(w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w)


def returned_sibling(question: str, tree: exp.Expr, catalog: Catalog) -> list[Finding]:
    """``signal.column_mismatch``: "the full names of the car makers" as ``SELECT Maker`` (the
    module docstring).

    Example:
        >>> from sqlglot import parse_one
        >>> from assay.catalog import ColumnInfo, TableInfo
        >>> cols = ("Id", "Maker", "FullName")
        >>> cat = Catalog((TableInfo("car_makers", tuple(ColumnInfo(c, "TEXT") for c in cols)),))
        >>> q = "the full names of the car makers"
        >>> [f.evidence["named"] for f in returned_sibling(q, parse_one("SELECT Maker FROM "
        ...     "car_makers"), cat)]
        ['car_makers.FullName']
        >>> returned_sibling(q, parse_one("SELECT FullName FROM car_makers"), cat)
        []
    """
    if not isinstance(tree, exp.Select):
        return []
    returned: dict[str, list[str]] = {}
    for projection in tree.expressions:
        column = projection.unalias()
        owner = _owner(column, tree, catalog) if isinstance(column, exp.Column) else None
        if owner is not None:
            returned.setdefault(owner[0], []).append(owner[1])
    said = words(question)
    used = {c.name.lower() for c in tree.find_all(exp.Column)}
    for table in sorted(returned):
        info = catalog.table(table)
        if info is None:
            continue
        prefix = table_prefix(info.column_names)
        taken = returned[table]
        phrases = {
            col.name: _words(col.name, prefix)
            for col in info.columns
            if (col.name in taken or len(_words(col.name, prefix)) >= 2)
            and says_abbreviated(said, _words(col.name, prefix))
        }
        longest = longest_said(phrases)
        named = [c for c in longest if c.lower() not in used and len(phrases[c]) >= 2]
        if len(named) != 1 or any(len(phrases.get(c, ())) >= len(phrases[named[0]]) for c in taken):
            continue  # a returned column said as fully ("maker" of car_makers is the table's)
        return [
            Finding(
                "signal.column_mismatch",
                "signal",
                f"The question asks for {table}.{named[0]} but the SQL returns "
                f"{', '.join(f'{table}.{c}' for c in taken)} instead: return {named[0]}.",
                {"named": f"{table}.{named[0]}", "returned": [f"{table}.{c}" for c in taken]},
            )
        ]
    return _tied_instead(question, returned, used, catalog)


def _tied(question: str, column: str, table: str) -> bool:
    """Whether the question ties the one word ``column`` to ``table``: "the name of the
    stadium", "the stadium's name", "stadium names"."""
    col, tab = re.escape(column.lower()), re.escape(table.lower().replace("_", " "))
    text = " ".join(question.lower().replace("\u2019", "'").split())
    tied = re.search(
        rf"\b{col}s? of (?:the |each |every |all |a |an |that |this )?(?:\w+ )?{tab}s?\b"
        rf"|\b{tab}(?:s|es)?(?:'s|s'|')? {col}s?\b",
        text,
    )
    return tied is not None


def _tied_instead(
    question: str, returned: dict[str, list[str]], used: set[str], catalog: Catalog
) -> list[Finding]:
    """A one-word column the question ties to a returned table, returned as another column of
    it (the module docstring)."""
    said = words(question)
    for table in sorted(returned):
        info = catalog.table(table)
        if info is None:
            continue
        prefix = table_prefix(info.column_names)
        taken = returned[table]
        if any(says_abbreviated(said, _words(c, prefix)) for c in taken):
            continue  # a returned column is said too ("the name and location of ...")
        named = [
            col.name
            for col in info.columns
            if len(_words(col.name, prefix)) == 1
            and col.name.lower() not in used
            and _tied(question, _words(col.name, prefix)[0], table)
        ]
        if len(named) != 1:
            continue
        return [
            Finding(
                "signal.column_mismatch",
                "signal",
                f"The question asks for the {table}'s {named[0]} but the SQL returns "
                f"{', '.join(f'{table}.{c}' for c in taken)} instead: return {named[0]}.",
                {"named": f"{table}.{named[0]}", "returned": [f"{table}.{c}" for c in taken]},
            )
        ]
    return []
