"""Does the answer's LIMIT cut through a tie?

"What model has the most different versions?" answered ``... GROUP BY Model ORDER BY count(*)
DESC LIMIT 1`` shows one model; when the next row has the same count, which of the tied rows
came first is the engine's choice, not the data's, and the answer names one of several equally
right rows as if it were the only one (outside tryout 14: Spider dev 142, every model counted
once, 'amc' shown for 'ford'; dev 102, one of 35 cars of 1970 shown as "the" earliest). Every
sample that writes the same query gets the same arbitrary row, so agreement cannot see it.

The check runs the answer's query again with one row more than its LIMIT, the ORDER BY keys
beside the columns, and compares the keys of the last row kept and the first row cut: equal is
``cap.limit_cuts_tie`` (a warning naming the tie; asking for every tied row answers it). With an
OFFSET the row skipped just before the rows kept is compared with the first one kept as well
("the second oldest" as ``LIMIT 1 OFFSET 1`` when the two oldest tie). A query without ORDER BY
and LIMIT, a DISTINCT whose keys are not among its columns, or a set operation measures
nothing; no database measures nothing; a query that fails to run raises (``veto.check_failed``:
fail closed).
"""

from __future__ import annotations

from typing import Any

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._sql import parse_query
from assay.types import Finding

__all__ = ["limit_cuts_tie"]

TIME_LIMIT_MS = 5_000
MAX_LIMIT = 1_000  # a LIMIT past this is a row cap, not a "top N"
_KEY = "assay_tie_key_"


def _int(value: object) -> int | None:
    if not isinstance(value, exp.Literal) or value.is_string:
        return None
    try:
        return int(value.this)
    except ValueError:
        return None


def _window(select: exp.Select) -> tuple[int, int] | None:
    """(LIMIT n, OFFSET m) of the query; m is 0 without an OFFSET. None when either is not a
    whole-number literal or the LIMIT is a row cap rather than a "top N"."""
    limit = select.args.get("limit")
    if not isinstance(limit, exp.Limit):
        return None
    n = _int(limit.expression)
    offset = select.args.get("offset")
    if offset is None:
        offset = limit.args.get("offset")  # LIMIT m, n is read with its offset inside
    else:
        offset = offset.expression if isinstance(offset, exp.Offset) else None
        if offset is None:
            return None
    m = 0 if offset is None else _int(offset)
    if n is None or m is None or not 1 <= n <= MAX_LIMIT or not 0 <= m <= MAX_LIMIT:
        return None
    return n, m


def _key_index(key: exp.Expr, projections: list[exp.Expr]) -> int | None:
    """The column of the result that holds ``key``: by position (ORDER BY 2), by alias (ORDER
    BY n), or the same expression (ORDER BY count(*) beside SELECT count(*))."""
    if isinstance(key, exp.Literal) and not key.is_string:
        try:
            position = int(key.this)
        except ValueError:
            return None
        return position - 1 if 1 <= position <= len(projections) else None
    for index, projection in enumerate(projections):
        inner = projection.this if isinstance(projection, exp.Alias) else projection
        if isinstance(key, exp.Column) and not key.table and key.name == projection.alias:
            return index
        if key == inner:
            return index
    return None


def _probe(select: exp.Select, n: int) -> tuple[exp.Select, list[int]] | None:
    """The query without its OFFSET, with its first ``n`` rows and every ORDER BY key among its
    columns, and which column holds each key; None when the keys cannot be added (DISTINCT)."""
    order = select.args.get("order")
    if not isinstance(order, exp.Order) or not order.expressions:
        return None
    probe = select.copy()
    projections = list(probe.expressions)
    if any(isinstance(p, exp.Star) or p.find(exp.Star) is p for p in projections):
        return None  # SELECT *: the keys are among the columns, but not by name
    indexes: list[int] = []
    extra: list[exp.Expr] = []
    for ordered in order.expressions:
        key = ordered.this if isinstance(ordered, exp.Ordered) else ordered
        index = _key_index(key, projections)
        if index is None:
            if probe.args.get("distinct") is not None:
                return None  # another column would change which rows are distinct
            index = len(projections) + len(extra)
            extra.append(exp.alias_(key.copy(), f"{_KEY}{len(extra)}"))
        indexes.append(index)
    probe.set("expressions", projections + extra)
    probe.set("limit", exp.Limit(expression=exp.Literal.number(n)))
    probe.set("offset", None)
    return probe, indexes


def _shown(value: Any) -> str:
    return "NULL" if value is None else repr(value) if isinstance(value, str) else str(value)


def limit_cuts_tie(ctx: CheckContext) -> CheckOutcome:
    """``cap.limit_cuts_tie``: the row after the LIMIT ties the last row kept."""
    sql = ctx.candidate.final_sql
    result = ctx.candidate.result
    if not sql or result is None or ctx.profiles is None:
        return CheckOutcome()
    tree = parse_query(sql, ctx.dialect)
    if not isinstance(tree, exp.Select):
        return CheckOutcome()
    window = _window(tree)
    if window is None:
        return CheckOutcome()
    n, m = window
    # The rows before the window, the window, and one row after it: a tie at either edge of
    # the window (OFFSET 1 skipping one of two tied rows, LIMIT cutting the other) is cut.
    probed = _probe(tree, m + n + 1)
    if probed is None:
        return CheckOutcome()
    probe, indexes = probed
    rows = ctx.profiles.runner.execute(
        probe.sql(dialect=ctx.dialect), time_limit_ms=TIME_LIMIT_MS, max_rows=m + n + 1
    ).rows

    def keys(i: int) -> tuple[Any, ...]:
        return tuple(rows[i][k] for k in indexes)

    edges = []
    if m > 0 and len(rows) > m:
        edges.append((m, m - 1, "first", "row skipped by the OFFSET before it"))
    if len(rows) > m + n:
        edges.append((m + n - 1, m + n, "last", "next row"))
    tied = [(i, j, which, other) for i, j, which, other in edges if keys(i) == keys(j)]
    if not tied:
        return CheckOutcome()
    i, _, which, other = tied[0]
    order = ", ".join(
        (o.this if isinstance(o, exp.Ordered) else o).sql(dialect=ctx.dialect)
        for o in tree.args["order"].expressions
    )
    value = ", ".join(_shown(v) for v in keys(i))
    kept = (
        f"the first {n} row{'s' if n != 1 else ''}"
        if m == 0
        else f"{n} row{'s' if n != 1 else ''} after skipping {m}"
    )
    return CheckOutcome(
        (
            Finding(
                "cap.limit_cuts_tie",
                "cap",
                f"The answer keeps {kept} by {order}, and the {other} ties the {which} one "
                f"kept ({value}): which of the tied rows are shown is the engine's choice, not "
                "the data's. Ask for every row with that value.",
                {"limit": n, "offset": m, "order_by": order, "tied_value": value},
            ),
        )
    )
