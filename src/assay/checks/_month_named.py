"""A month the question names, filtered in the SQL as another month's number.

"What were total sales in August 2025?" as ``year(date) = 2025 AND month(date) = 7`` sums July
(agreed19, a development set: shown at 1.00, five samples agreeing). The question's months are
read by name ("August", "in May", "March 2024"); the SQL's are the constants its WHERE compares
a month of a date with (``month(d) = 7``, ``EXTRACT(MONTH FROM d) IN (7, 8)``,
``strftime('%m', d) = '07'``). When the SQL compares months and not one of its months is one
the question names, ``signal.month_mismatch``: the answer is about another month.

Silent when the question names no month (a season, "last month"), when any month the SQL keeps
is one the question names (comparisons of two months), or when the SQL bounds months by a
range: a range is read by the bound checks, never here.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._where import finding, tree_of

__all__ = ["month_mismatch"]

MONTHS = (
    "january february march april may june july august september october november december"
).split()
# "may" and "march" are verbs too: read as months only beside a year, a day or "in".
_AMBIGUOUS = frozenset({"may", "march"})
_NAMED = re.compile(rf"\b({'|'.join(MONTHS)})\b")
_MONTH_UNIT = frozenset({"month", "months", "mm", "mon"})


def named_months(question: str) -> frozenset[int]:
    """The months (1-12) a question names.

    Example:
        >>> sorted(named_months("Sales in August 2025 and in May?"))
        [5, 8]
        >>> sorted(named_months("Which products may sell best?"))
        []
    """
    text = question.lower()
    found = set()
    for m in _NAMED.finditer(text):
        word = m.group(1)
        before, after = text[: m.start()].rstrip(), text[m.end() :].lstrip(" ,")
        beside = re.match(r"(?:19|20)\d\d\b|\d{1,2}(?:st|nd|rd|th)?\b", after)
        if word in _AMBIGUOUS and not (beside or re.search(r"\b(?:in|of|during)$", before)):
            continue
        found.add(MONTHS.index(word) + 1)
    return frozenset(found)


def _is_month_of_date(node: exp.Expr) -> bool:
    """``month(d)``, ``EXTRACT(MONTH FROM d)``, ``date_part('month', d)``, ``strftime('%m', d)``."""
    if isinstance(node, exp.Month):
        return True
    if isinstance(node, exp.Extract):
        return node.this.name.lower() in _MONTH_UNIT
    if isinstance(node, exp.TimeToStr):  # DuckDB reads strftime('%m', d) with its args swapped
        return "%m" in {node.text("format"), node.this.name}
    if isinstance(node, exp.Anonymous) and node.name.lower() in {"date_part", "datepart"}:
        unit = next(iter(node.expressions), None)
        return unit is not None and unit.name.lower() in _MONTH_UNIT
    return False


def _month_number(node: exp.Expr) -> int | None:
    """A constant month: ``7`` or ``'07'``, 1 to 12."""
    match = re.fullmatch(r"\d{1,2}", node.name.strip()) if isinstance(node, exp.Literal) else None
    value = int(match.group(0)) if match else 0
    return value if 1 <= value <= 12 else None


def sql_months(tree: exp.Expr) -> tuple[set[int], list[str]]:
    """The month numbers the query's conditions keep, and the SQL of those conditions."""
    months: set[int] = set()
    said: list[str] = []
    for node in tree.find_all(exp.EQ, exp.In):
        if isinstance(node, exp.In):
            sides, values = [node.this], list(node.expressions)
        else:
            sides, values = [node.this, node.expression], [node.expression, node.this]
        for side in sides:
            if not _is_month_of_date(side):
                continue
            numbers = [_month_number(v) for v in values if v is not side]
            if numbers and all(n is not None for n in numbers):
                months.update(n for n in numbers if n is not None)
                said.append(node.sql())
    return months, said


def month_mismatch(ctx: CheckContext) -> CheckOutcome:
    """``signal.month_mismatch``: "August 2025" as ``month(date) = 7`` (the module docstring)."""
    asked = named_months(ctx.question)
    tree = tree_of(ctx) if asked else None
    if tree is None:
        return CheckOutcome()
    kept, said = sql_months(tree)
    if not kept or kept & asked:
        return CheckOutcome()
    names = ", ".join(MONTHS[m - 1].title() for m in sorted(asked))
    other = ", ".join(MONTHS[m - 1].title() for m in sorted(kept))
    return CheckOutcome(
        (
            finding(
                "signal.month_mismatch",
                f"The question asks about {names}, but the SQL keeps the rows of {other} "
                f"({'; '.join(said)}): the answer is about another month.",
                asked=sorted(asked),
                kept=sorted(kept),
                sql=said,
            ),
        )
    )
