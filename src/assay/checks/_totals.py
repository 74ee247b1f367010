"""Do the groups of a breakdown add up to the total?

A grouped answer of an additive metric (``SUM`` or ``COUNT`` without ``DISTINCT``) must add up
to the same metric ungrouped under the same filters: "total sales by store state" whose states
sum to less than total sales lost the rows a join matched to no store; more than the total, a
join counted rows twice. The ungrouped total is the executed query with its grouping, order and
limit taken away and every join that only the grouping read (its ON and the group columns)
dropped; both sums run in the engine, so a truncated result is still checked whole. A mismatch
is ``veto.groups_do_not_add_up``. A breakdown whose groups a condition keeps (``HAVING``, and
counted in an outer query) is checked before the condition: all its groups. An answer with no
planned metric, no grouping, no additive value or no database measures nothing; a query that
fails to run raises (``veto.check_failed``: fail closed).
"""

from __future__ import annotations

import math
from decimal import Decimal

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._sql import parse_query
from assay.types import Finding

__all__ = ["groups_add_up"]

TIME_LIMIT_MS = 5_000
REL_TOL = 1e-9  # sums of floating values in another order differ in their last digits
ABS_TOL = 1e-6


def _additive(node: exp.Expr) -> bool:
    """``SUM(x)`` or ``COUNT(x)`` / ``COUNT(*)`` without DISTINCT, possibly cast or rounded."""
    while isinstance(node, (exp.Cast, exp.Paren, exp.Round)):
        node = node.this
    if isinstance(node, exp.Sum):
        return not isinstance(node.this, exp.Distinct)
    if isinstance(node, exp.Count):
        return not isinstance(node.this, exp.Distinct)
    return False


def _names(node: exp.Expr) -> set[str]:
    return {c.table for c in node.find_all(exp.Column) if c.table}


def _total_query(select: exp.Select, values: list[exp.Alias]) -> exp.Select:
    """The query without its grouping, and without the joins only the grouping needed."""
    total = select.copy()
    for arg in ("group", "order", "limit", "having"):
        total.set(arg, None)
    total.set("expressions", [v.copy() for v in values])
    joins = list(total.args.get("joins") or [])
    while True:
        used = set().union(*(_names(v) for v in values))
        where = total.args.get("where")
        if where is not None:
            used |= _names(where)
        for join in joins:
            on = join.args.get("on")
            if on is not None:
                used |= _names(on) - {join.this.alias_or_name}
        idle = [j for j in joins if j.this.alias_or_name not in used]
        if not idle:
            break
        joins = [j for j in joins if j not in idle]
    total.set("joins", joins or None)
    return total


def _number(value: object) -> float:
    if value is None:
        return 0.0
    if isinstance(value, (int, float, Decimal)):
        return float(value)
    raise TypeError(f"not a number: {value!r}")


def _kept_groups(tree: exp.Expr | None) -> exp.Select | None:
    """The grouped query inside ``SELECT COUNT(g) FROM (... GROUP BY ... HAVING ...)`` (the
    groups a condition keeps, counted): its groups are checked as any breakdown's."""
    if not isinstance(tree, exp.Select) or tree.args.get("group") is not None:
        return None
    source = tree.args.get("from_")
    inner = (
        source.this.this if source is not None and isinstance(source.this, exp.Subquery) else None
    )
    if isinstance(inner, exp.Select) and inner.args.get("having") is not None:
        return inner
    return None


def groups_add_up(ctx: CheckContext) -> CheckOutcome:
    """The groups of a planned additive breakdown sum to the ungrouped total."""
    sql = ctx.candidate.final_sql
    if ctx.metric is None or ctx.profiles is None or not sql:
        return CheckOutcome()
    tree = parse_query(sql, ctx.dialect)
    tree = _kept_groups(tree) or tree
    if not isinstance(tree, exp.Select) or tree.args.get("group") is None:
        return CheckOutcome()
    values = [
        p
        for p in tree.expressions
        if isinstance(p, exp.Alias) and p.alias.startswith("value") and _additive(p.this)
    ]
    if not values:
        return CheckOutcome()
    inner = tree.copy()
    # the groups before a HAVING keeps some: every group, so they add up to the total
    for arg in ("order", "limit", "having"):
        inner.set(arg, None)
    sums = ", ".join(f"SUM(g.{exp.to_identifier(v.alias).sql(ctx.dialect)})" for v in values)
    grouped_sql = f"SELECT {sums} FROM ({inner.sql(dialect=ctx.dialect)}) AS g"
    total_sql = _total_query(tree, values).sql(dialect=ctx.dialect)
    runner = ctx.profiles.runner
    grouped = runner.execute(grouped_sql, time_limit_ms=TIME_LIMIT_MS, max_rows=1).rows[0]
    total = runner.execute(total_sql, time_limit_ms=TIME_LIMIT_MS, max_rows=1).rows[0]
    findings = []
    for value, by_group, whole in zip(values, grouped, total, strict=True):
        a, b = _number(by_group), _number(whole)
        if math.isclose(a, b, rel_tol=REL_TOL, abs_tol=ABS_TOL):
            continue
        lost = "rows lost" if a < b else "rows counted twice"
        findings.append(
            Finding(
                "veto.groups_do_not_add_up",
                "veto",
                f"The groups of {value.alias} add up to {a:,.2f} but the total is {b:,.2f} "
                f"({lost}: a join drops or repeats rows, so every group may be wrong).",
                {"column": value.alias, "groups": a, "total": b},
            )
        )
    return CheckOutcome(tuple(findings))
