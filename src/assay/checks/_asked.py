"""What a question asks of an aggregate without naming it: ``aggregate_fit``'s readings.

A SUM is asked without "total" by "how much", "the amount of", "accumulated", "overall" (EHRSQL's
gold sums doses and volumes so), per group ("for each category", "top 5 categories by revenue",
"which category had the most units": a measure per group is its total there), or inside an asked
outer MAX, MIN or AVG ("the maximum cost of a stay" over each stay's SUM); an AVG by "rate" or
"ratio" (a mortality rate is an average of 0 and 1); and "mean" inside a compared string names a
measure ("arterial blood pressure mean"), not an average. And "how many units" asks a sum of a
quantity column, never a count of lines (``units_counted``).
"""

from __future__ import annotations

import re

from sqlglot import exp

__all__ = ["AMOUNT", "RATE", "named_in_literal", "per_group", "sums_within", "units_counted"]

# Words that ask for a sum without saying "total" (EHRSQL's gold sums doses and volumes for
# "how much X has patient N been prescribed", "the amount of", "the accumulated output"), and
# for an average of an indicator ("the 3-month mortality rate" as AVG of 0 and 1).
AMOUNT = re.compile(
    r"\b(how much|amount of|accumulated|aggregate|overall|cumulative|revenue|turnover)\b",
    re.IGNORECASE,
)
RATE = re.compile(r"\b(rate|ratio|proportion|percentage|fraction)\b", re.IGNORECASE)


# A measure asked per group, or groups ranked by it: its value per group is its total there
# ("web sales net profit for each category", "which category had the most units returned",
# "top 5 categories by revenue"; agreed16's right answers were withheld).
_PER_GROUP = re.compile(
    r"\b(for each|each|every|per|by|(?:the )?most|top \d+|top (?:two|three|four|five|ten))\b",
    re.IGNORECASE,
)


_PER_ROW = re.compile(r"\b(maximum|max|minimum|min|average|mean)\b", re.IGNORECASE)


def per_group(question: str, grouped: bool) -> bool:
    """The SQL sums per group and the question asks per group or ranks the groups, naming no
    other aggregate ("the most gasoline, that is the maximum miles per gallon" as ORDER BY
    SUM(mpg) is still judged)."""
    return grouped and bool(_PER_GROUP.search(question)) and not _PER_ROW.search(question)


def named_in_literal(cues: tuple[str, ...], tree: exp.Expr) -> bool:
    """Whether a string the SQL compares with holds one of ``cues``: the word then names a
    measure ("arterial blood pressure mean", an item of EHRSQL's d_items), not an average."""
    return any(
        re.search(rf"\b{cue}\b", literal.name.lower())
        for literal in tree.find_all(exp.Literal)
        if literal.is_string
        for cue in cues
    )


def sums_within(tree: exp.Expr, asked: frozenset[str]) -> bool:
    """Every SUM builds totals inside a subquery that an asked outer MAX, MIN or AVG reads
    ("the maximum cost of a hospital stay involving X" as MAX over each stay's SUM)."""
    outer = {"max": exp.Max, "min": exp.Min, "avg": exp.Avg}
    wanted = [outer[a] for a in asked & outer.keys()]
    sums = list(tree.find_all(exp.Sum))
    return bool(wanted and sums) and all(_outer_aggregate(s, tuple(wanted)) for s in sums)


def _outer_aggregate(node: exp.Expr, kinds: tuple[type[exp.Expr], ...]) -> bool:
    """Whether a SELECT enclosing ``node``'s own SELECT computes one of ``kinds`` over it."""
    inner = node.find_ancestor(exp.Select)
    select = inner.find_ancestor(exp.Select) if inner is not None else None
    while select is not None:
        if any(
            a.find_ancestor(exp.Select) is select for kind in kinds for a in select.find_all(kind)
        ):
            return True
        select = select.find_ancestor(exp.Select)
    return False


_UNITS = re.compile(r"\b(?:how many|number of|count of)\s+units\b", re.IGNORECASE)
_QUANTITY = re.compile(r"(?:^|_)(?:quantity|qty)(?:_|$)", re.IGNORECASE)


def units_counted(question: str, tree: exp.Expr, columns: list[str]) -> bool:
    """ "How many units were returned?" answered with a COUNT of rows, no SUM, though a table
    the SQL reads has a quantity column (agreed16: return lines counted, shown at 1.00).

    Example:
        >>> import sqlglot
        >>> tree = sqlglot.parse_one("SELECT COUNT(*) FROM store_returns")
        >>> units_counted("How many units were returned?", tree, ["sr_return_quantity"])
        True
        >>> units_counted("How many returns were there?", tree, ["sr_return_quantity"])
        False
    """
    if not _UNITS.search(question) or tree.find(exp.Count) is None or tree.find(exp.Sum):
        return False
    return any(_QUANTITY.search(c) for c in columns)
