"""A half or a quarter of a year the question names, kept in the SQL as other months.

"What was the total store sales net profit in the first half of 2000?" as ``d_year = 2000 AND
d_moy BETWEEN 1 AND 7`` adds July (outside tryout 28, w08: shown at 1.00, five samples
agreeing). The question's part of a year is read ("first half", "second half", "third quarter",
"Q2", "H1"); the SQL's months are those its WHERE keeps of a month column (``d_moy``,
``month``) or a month of a date (``EXTRACT(MONTH FROM d)``), each AND-ed comparison with a
number narrowing them (``BETWEEN``, ``>=``, ``<``, ``=``, ``IN``). When they are not the part's
months, ``signal.months_of_part``: the answer takes in a month too many or leaves one out.

Silent when the question names two parts ("the first half against the second") or a month by
name (``month_mismatch`` reads those), when no month is compared (a date range is read by the
period checks), and when a comparison sits under an OR or a NOT, whose months cannot be read.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._month_named import _is_month_of_date, named_months
from assay.checks._where import conjuncts, finding, tree_of

__all__ = ["asked_part", "months_of_part"]

_ORDINALS = {
    **{"first": 1, "second": 2, "third": 3, "fourth": 4},
    **{"1st": 1, "2nd": 2, "3rd": 3, "4th": 4},
}
_PARTS = re.compile(
    r"\b(?P<nth>first|second|third|fourth|1st|2nd|3rd|4th)\s+(?P<unit>half|quarter)\b"
    r"|\b(?P<code>[qh])(?P<n>[1-4])\b"
)
_MONTH_COLUMN = frozenset({"month", "moy", "mon"})


def asked_part(question: str) -> tuple[str, frozenset[int]] | None:
    """The one half or quarter of a year the question names, with its months; ``None`` when
    it names none or two.

    Example:
        >>> asked_part("net profit in the first half of 2000")
        ('first half', frozenset({1, 2, 3, 4, 5, 6}))
        >>> sorted(asked_part("sales in Q3 2001")[1])
        [7, 8, 9]
        >>> asked_part("the first half against the second half") is None
        True
    """
    found = {}
    for m in _PARTS.finditer(question.lower()):
        if m.group("nth"):
            unit, n = m.group("unit"), _ORDINALS[m.group("nth")]
        else:
            unit, n = ("half" if m.group("code") == "h" else "quarter"), int(m.group("n"))
        size = 6 if unit == "half" else 3
        if n * size > 12:
            continue  # "third half" is no part of a year
        found[m.group(0)] = frozenset(range((n - 1) * size + 1, n * size + 1))
    if len(set(found.values())) != 1:
        return None
    return next(iter(found.items()))


def _is_month(node: exp.Expr) -> bool:
    if isinstance(node, exp.Column):
        spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", node.name)
        return bool(_MONTH_COLUMN & set(re.split(r"[^a-z0-9]+", spaced.lower())))
    return _is_month_of_date(node)


def _number(node: exp.Expr) -> int | None:
    if isinstance(node, exp.Literal) and re.fullmatch(r"\d{1,2}", node.name.strip()):
        return int(node.name)
    return None


def _kept(term: exp.Expr) -> set[int] | None:
    """The months one WHERE term keeps, or ``None`` when it compares no month with numbers."""
    if isinstance(term, exp.Between) and _is_month(term.this):
        low, high = _number(term.args["low"]), _number(term.args["high"])
        return set(range(low, high + 1)) if low is not None and high is not None else None
    if isinstance(term, exp.In) and _is_month(term.this) and term.expressions:
        values = [_number(v) for v in term.expressions]
        return {v for v in values if v is not None} if None not in values else None
    n = _number(term.expression) if isinstance(term, exp.Binary) else None
    if n is None or not _is_month(term.this):
        return None
    kept = {
        exp.EQ: {n},
        exp.GTE: set(range(n, 13)),
        exp.GT: set(range(n + 1, 13)),
        exp.LTE: set(range(1, n + 1)),
        exp.LT: set(range(1, n)),
    }
    return next((months for kind, months in kept.items() if type(term) is kind), None)


def _sql_months(tree: exp.Expr) -> tuple[set[int], list[str]] | None:
    """The months the query's WHERE clauses keep, and the SQL of the terms that keep them."""
    months = set(range(1, 13))
    said = []
    for where in tree.find_all(exp.Where):
        for term in conjuncts(where.this):
            kept = _kept(term)
            if kept is not None:
                months &= kept
                said.append(term.sql())
    return (months, said) if said else None


def months_of_part(ctx: CheckContext) -> CheckOutcome:
    """``signal.months_of_part``: "the first half of 2000" as ``d_moy BETWEEN 1 AND 7`` (the
    module docstring)."""
    asked = asked_part(ctx.question)
    tree = tree_of(ctx) if asked is not None and not named_months(ctx.question) else None
    found = _sql_months(tree) if tree is not None else None
    if asked is None or found is None or found[0] == asked[1]:
        return CheckOutcome()
    (part, wanted), (kept, said) = asked, found
    return CheckOutcome(
        (
            finding(
                "signal.months_of_part",
                f"The question asks for the {part} of a year, months {min(wanted)} to "
                f"{max(wanted)}, but the SQL keeps months "
                f"{', '.join(map(str, sorted(kept))) or 'none'} ({'; '.join(said)}): the "
                "answer is about another span of the year.",
                asked=sorted(wanted),
                kept=sorted(kept),
                sql=said,
            ),
        )
    )
