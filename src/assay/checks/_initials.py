"""A column named by an initial and a word returned in place of its twin.

"What are the first names of students who own a cat?" answered with ``SELECT s.LName``: Spider's
``Student`` holds ``Fname`` and ``LName``, each a word's initial glued to "name", and the SQL
returns the last names (agreed18 h18_s13: shown at 1.00, five samples agreeing). Read word for
word, "first names" names no column, so ``column_fit`` said nothing.

``initial_swapped``: a column the outer SELECT returns is an initial glued to a word of three
letters or more (``LName``: l + name), its table has a twin glued to the same word with another
initial (``Fname``), the question says the twin's initial word before the word ("first names"),
never the returned one's ("last name"), and the SQL reads the twin nowhere. Silence is never
evidence of a right answer.
"""

from __future__ import annotations

import re
from itertools import pairwise

from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._cues import words
from assay.checks._values import _owner
from assay.types import Finding

__all__ = ["initial_swapped"]

_GLUED = re.compile(r"^([a-z])_?([a-z]{3,})$")


def _split(column: str) -> tuple[str, str] | None:
    """(initial, word) of a column glued as one letter and a word ("Fname", "l_name"). "Name"
    splits too ("n", "ame"): ``initial_swapped`` asks the question to say both halves.

    Example:
        >>> _split("Fname"), _split("l_name"), _split("pl_name"), _split("Age")
        (('f', 'name'), ('l', 'name'), None, None)
    """
    match = _GLUED.match(column.lower())
    return (match.group(1), match.group(2)) if match else None


def _says(said: list[str], initial: str, word: str) -> bool:
    """The question says a word starting with ``initial`` right before ``word`` (or its
    plural)."""
    return any(
        first.startswith(initial) and second in (word, word + "s", word + "es")
        for first, second in pairwise(said)
    )


def initial_swapped(question: str, tree: exp.Expr, catalog: Catalog) -> list[Finding]:
    """``signal.column_mismatch`` for "first names" returned as ``LName`` (the module
    docstring)."""
    if not isinstance(tree, exp.Select):
        return []
    said = words(question)
    read = {c.name.lower() for c in tree.find_all(exp.Column)}
    for projection in tree.expressions:
        column = projection.this if isinstance(projection, exp.Alias) else projection
        if not isinstance(column, exp.Column):
            continue
        owner = _owner(column, tree, catalog)
        parts = _split(owner[1]) if owner is not None else None
        info = catalog.table(owner[0]) if owner is not None else None
        if parts is None or info is None or owner is None or _says(said, *parts):
            continue
        initial, word = parts
        twins = [
            c
            for c in info.column_names
            if c.lower() not in read
            and (twin := _split(c)) is not None
            and twin[1] == word
            and twin[0] != initial
            and _says(said, *twin)
        ]
        if len(twins) != 1:
            continue
        return [
            Finding(
                "signal.column_mismatch",
                "signal",
                f"The question asks for {info.name}.{twins[0]} but the SQL returns "
                f"{info.name}.{owner[1]}, its twin, instead.",
                {"named": f"{info.name}.{twins[0]}", "returned": f"{info.name}.{owner[1]}"},
            )
        ]
    return []
