"""``ranked_shape``: the tie-keeping shape of a ranking (``RANK() <= n`` over a subquery),
read from the SQL's tree by the reading-fit check and the consistency checks alike; with its
window's PARTITION BY (a ranking of compared periods ranks within each period).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp

__all__ = ["Ranked", "first_order", "limit_of", "ranked_shape"]


@dataclass(frozen=True)
class Ranked:
    """A ranking that keeps ties: ``SELECT ... FROM (SELECT ..., RANK() OVER ([PARTITION BY p]
    ORDER BY x) AS r ...) WHERE r <= n ORDER BY ...``. ``order`` is the window's ordering (what
    is ranked and which way); ``consistent`` whether the rows are shown in that same direction;
    ``within`` the window's PARTITION BY (ranked apart in each; empty: one ranking of all)."""

    inner: exp.Select
    n: int | None
    order: exp.Ordered | None
    consistent: bool
    within: tuple[exp.Expr, ...] = ()


def ranked_shape(select: exp.Select) -> Ranked | None:
    """The tie-keeping shape of a ranking, or None when ``select`` is not one."""
    source = select.args.get("from_")
    where = select.args.get("where")
    if source is None or not isinstance(source.this, exp.Subquery) or where is None:
        return None
    inner = source.this.this
    if not isinstance(inner, exp.Select):
        return None
    windows = {
        p.alias: p.this
        for p in inner.expressions
        if isinstance(p, exp.Alias) and isinstance(p.this, exp.Window)
    }
    cut = where.this
    if not isinstance(cut, (exp.LTE, exp.LT)) or not isinstance(cut.this, exp.Column):
        return None
    window = windows.get(cut.this.name)
    if window is None or not isinstance(cut.expression, exp.Literal):
        return None
    if not isinstance(window.this, exp.Rank):
        return None  # ROW_NUMBER cuts ties
    try:
        n = int(cut.expression.this) - (1 if isinstance(cut, exp.LT) else 0)
    except ValueError:
        return None
    order = window.args.get("order")
    ranked_by = order.expressions[0] if order is not None and order.expressions else None
    shown = first_order(select)
    consistent = (
        ranked_by is not None
        and shown is not None
        and bool(shown.args.get("desc")) == bool(ranked_by.args.get("desc"))
        and len(windows) == 1
    )
    within = tuple(window.args.get("partition_by") or ())
    return Ranked(inner, n, ranked_by, consistent, within)


def limit_of(select: exp.Select) -> int | None:
    limit = select.args.get("limit")
    if limit is None or limit.expression is None:
        return None
    return int(limit.expression.this)


def first_order(select: exp.Select) -> exp.Ordered | None:
    order = select.args.get("order")
    return order.expressions[0] if order is not None and order.expressions else None
