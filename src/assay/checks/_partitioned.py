"""``per_partition``: a value per group computed by a window over its partition, one row each.

"What was the average order total price per year?" is answered as well by ``SELECT DISTINCT
extract(year FROM o_orderdate) AS y, avg(o_totalprice) OVER (PARTITION BY extract(year FROM
o_orderdate)) FROM orders`` as by a GROUP BY: the window averages each year's rows, and DISTINCT
keeps one row per year (agreed22, h22_h05: such a right answer was withheld as
grouping_missing). ``grouping_fit`` stays silent when the SELECT is DISTINCT, every aggregate of
the query is a window partitioned by expressions the SELECT also returns, and no window orders
its rows (an ordered window is a running total, not one value per group). Without DISTINCT each
group's value repeats once per row: still judged.
"""

from __future__ import annotations

from sqlglot import exp

__all__ = ["per_partition"]

_AGGREGATES = (exp.Count, exp.Sum, exp.Avg, exp.Max, exp.Min)


def per_partition(tree: exp.Expr) -> bool:
    """Whether every aggregate is a window over a partition the DISTINCT SELECT returns (the
    module docstring).

    Example:
        >>> from sqlglot import parse_one
        >>> per_partition(parse_one("SELECT DISTINCT y, avg(v) OVER (PARTITION BY y) FROM t"))
        True
        >>> per_partition(parse_one("SELECT y, avg(v) OVER (PARTITION BY y) FROM t"))
        False
        >>> per_partition(parse_one("SELECT DISTINCT avg(v) OVER (PARTITION BY y) FROM t"))
        False
    """
    if not isinstance(tree, exp.Select) or not tree.args.get("distinct"):
        return False
    aggregates = list(tree.find_all(*_AGGREGATES))
    returned = [e.unalias() for e in tree.expressions]
    return bool(aggregates) and all(_partitioned(a, tree, returned) for a in aggregates)


def _partitioned(aggregate: exp.Expr, select: exp.Select, returned: list[exp.Expr]) -> bool:
    """Whether ``aggregate`` is a window of ``select`` itself (not of a subquery), with no ORDER
    BY, partitioned only by expressions among ``returned``."""
    window = aggregate.parent
    if not isinstance(window, exp.Window) or window.args.get("order") is not None:
        return False
    if aggregate.find_ancestor(exp.Select) is not select:
        return False
    parts = window.args.get("partition_by") or []
    return bool(parts) and all(any(p == r for r in returned) for p in parts)
