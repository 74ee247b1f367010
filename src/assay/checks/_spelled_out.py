"""A column the question spells out in words, never read by the SQL.

"What was our gross profit (revenue minus cost of goods sold) in 2024?" as ``SUM(REVENUE -
FORECASTED_REVENUE)`` subtracts the forecast, though the table it reads has ``COGS``, the cost
of goods sold by its initials (agreed19, a development set: shown at 1.00, five samples
agreeing). A column of a table the SQL reads, named by the initials of words the question
says one after another ("cost of goods sold": ``COGS``; "gross national product per capita":
``gnppc``), that the SQL never reads: ``signal.spelled_column_unread``.

Only names of four to six letters are read as initials, spelled by words of two letters or
more: a longer name is a word, and three letters match by chance ("a gastro esophageal" spells
MIMIC's ``age``: EHRSQL gold). Silent when the SQL reads the column, selects ``*``, or reads no
table holding it.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._cues import words
from assay.checks._sql import referenced_tables
from assay.checks._where import finding, tree_of

__all__ = ["spelled_column_unread"]

_INITIALS = re.compile(r"[a-z]{4,6}")


def spelled_out(question: str, name: str) -> str | None:
    """The words of ``question`` whose initials spell ``name``, or ``None``.

    Example:
        >>> spelled_out("Revenue minus cost of goods sold?", "COGS")
        'cost of goods sold'
        >>> spelled_out("How old is the cat?", "COGS") is None
        True
    """
    initials = name.lower()
    if not _INITIALS.fullmatch(initials):
        return None
    said = words(question)
    n = len(initials)
    for start in range(len(said) - n + 1):
        run = said[start : start + n]
        spelled = "".join(w[0] for w in run) == initials
        if spelled and all(w.isalpha() and len(w) > 1 for w in run):
            return " ".join(run)
    return None


def _selects_all(tree: exp.Expr) -> bool:
    """A ``*`` that returns columns (``SELECT *``, ``t.*``), not ``count(*)``'s."""
    return any(not isinstance(star.parent, exp.AggFunc) for star in tree.find_all(exp.Star))


def spelled_column_unread(ctx: CheckContext) -> CheckOutcome:
    """``signal.spelled_column_unread``: "cost of goods sold" and ``COGS`` never read (the
    module docstring)."""
    tree = tree_of(ctx) if ctx.catalog is not None else None
    if tree is None or ctx.catalog is None or _selects_all(tree):
        return CheckOutcome()
    read = {c.name.lower() for c in tree.find_all(exp.Column)}
    for table in referenced_tables(tree):
        info = ctx.catalog.table(table)
        if info is None:
            continue
        for column in info.columns:
            phrase = spelled_out(ctx.question, column.name)
            if phrase is None or column.name.lower() in read:
                continue
            return CheckOutcome(
                (
                    finding(
                        "signal.spelled_column_unread",
                        f"The question says '{phrase}', which {info.name}.{column.name} "
                        f"spells by its initials, but the SQL never reads {column.name}: it "
                        "answers with other columns.",
                        said=phrase,
                        column=f"{table}.{column.name}",
                    ),
                )
            )
    return CheckOutcome()
