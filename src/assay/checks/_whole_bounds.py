"""A bound on a whole number written with its neighbour: "more than 6 cylinders" as
``Cylinders >= 7``.

"How many cars made after 1975 have more than 6 cylinders?" answered with ``Cylinders >= 7 AND
NOT Year <= 1975`` is right (``Cylinders`` is an INTEGER column: no car has 6.5 of them), yet
``literal_fit`` withheld it, "the question names 6, which no literal in the SQL carries"
(agreed22, a development set: five samples agreeing, withheld).

``neighbour_bound`` says a number is carried when the question bounds it ("more than 6", "at
least 7", "under 10", "at most 9") and the SQL compares a column of a whole-number type with the
number next to it the equivalent way: strictly more than n as ``>= n + 1``, at least n as ``> n
- 1``, strictly less than n as ``<= n - 1``, at most n as ``< n + 1``. A column of another type
(a price over 6 is not a price of at least 7), a column whose type is unknown, and a neighbour
compared the other way are not: the number stays missing.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._bounds import _question_bounds
from assay.checks._values import _owner
from assay.checks._where import comparison

__all__ = ["neighbour_bound"]

_WHOLE = re.compile(r"int", re.IGNORECASE)  # INTEGER, BIGINT, SMALLINT, HUGEINT, ...


def _equivalents(number: float, question: str) -> set[tuple[str, float]]:
    """(operator, neighbour) pairs that say the question's bounds on ``number``.

    Example:
        >>> sorted(_equivalents(6.0, "cars with more than 6 cylinders"))
        [('>=', 7.0)]
        >>> sorted(_equivalents(6.0, "cars with at most 6 cylinders"))
        [('<', 7.0)]
    """
    found = set()
    for said, direction, strict, _ in _question_bounds(question):
        if said != number:
            continue
        if direction == "more":
            found.add((">=", number + 1) if strict else (">", number - 1))
        else:
            found.add(("<=", number - 1) if strict else ("<", number + 1))
    return found


def _whole(column: exp.Column, tree: exp.Expr, catalog: Catalog) -> bool:
    owner = _owner(column, tree, catalog)
    info = catalog.table(owner[0]) if owner is not None else None
    found = info.column(owner[1]) if info is not None and owner is not None else None
    return found is not None and bool(_WHOLE.search(found.type or ""))


def neighbour_bound(number: float, question: str, tree: exp.Expr, catalog: Catalog | None) -> bool:
    """The question bounds the whole ``number`` and the SQL says the same bound with the number
    next to it on a whole-number column (the module docstring)."""
    if catalog is None or not number.is_integer():
        return False
    wanted = _equivalents(number, question)
    for node in tree.find_all(exp.GT, exp.GTE, exp.LT, exp.LTE) if wanted else ():
        compared = comparison(node)
        if compared is None or (compared[1], compared[2].number) not in wanted:
            continue
        column, value = compared[0], compared[2]
        if value.kind == "num" and isinstance(column, exp.Column) and _whole(column, tree, catalog):
            return True
    return False
