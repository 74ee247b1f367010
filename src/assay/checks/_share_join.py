"""A share whose whole loses rows through an inner join that only its part needs.

"What share of 2001 store net paid came from female customers?" as ``SUM(CASE WHEN
cd.cd_gender = 'F' THEN ss.ss_net_paid ELSE 0 END) / SUM(ss.ss_net_paid) FROM store_sales ss
JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk JOIN customer_demographics cd ON
ss.ss_cdemo_sk = cd.cd_demo_sk WHERE d.d_year = 2001`` divides by the net paid of the sales
whose customer has a demographics row: 1,263 store sales have none (158 of 2001), so the whole
shrinks, 0.5153 where the share is 0.5077 (outside tryout 32: shown at 1.00). The numerator
needs the join to read the gender; the whole the question names does not.

Read on one SELECT that divides two of its aggregates: a table joined inner whose columns are
read in the numerator's aggregate and nowhere else but the join's own ON (not in the
denominator, the WHERE, the GROUP BY, the HAVING, another join, the other projections). Whether
the join loses rows is measured in the engine, never guessed from names: the SELECT's FROM,
joins and WHERE counted as they are and with that join made LEFT; more rows under the LEFT JOIN
are rows of the whole with no partner: ``signal.share_whole_joined``.

Silent when the join loses no row (the right share of the same shape), when the question says
the whole is among the rows with a partner ("among customers with known gender", "known",
"recorded"), when each side is its own subquery (read by ``_share_whole``), when a side is not
one aggregate, and without the engine's profiles.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._rates import RATE
from assay.checks._where import finding, tree_of
from assay.errors import ExecutionError

__all__ = ["share_whole_joined"]

TIME_LIMIT_MS = 5_000

# "among customers with known gender", "of sales with a recorded customer": the whole is the
# rows with a partner, which the inner join keeps
_AMONG_KNOWN = re.compile(r"\b(?:among|known|recorded|on record)\b", re.IGNORECASE)


def _sides(select: exp.Select) -> tuple[exp.Expr, exp.Expr] | None:
    """The numerator's and the denominator's aggregate (with its ``FILTER``) of the first
    division of ``select``'s projections whose sides each hold one aggregate of ``select``."""
    for projection in select.expressions:
        for div in projection.find_all(exp.Div):
            top = [_filtered(a) for a in div.this.find_all(exp.AggFunc) if _own(a, select)]
            bottom = [_filtered(a) for a in div.expression.find_all(exp.AggFunc) if _own(a, select)]
            if len(top) == 1 and len(bottom) == 1:
                return top[0], bottom[0]
    return None


def _filtered(aggregate: exp.AggFunc) -> exp.Expr:
    """The aggregate with the ``FILTER (WHERE ..)`` that narrows it, if any."""
    return aggregate.parent if isinstance(aggregate.parent, exp.Filter) else aggregate


def _own(node: exp.Expr, select: exp.Select) -> bool:
    return node.find_ancestor(exp.Select) is select


def _within(node: exp.Expr | None, outer: exp.Expr | None) -> bool:
    """Whether ``node`` is ``outer`` or lies inside it."""
    while node is not None:
        if node is outer:
            return True
        node = node.parent
    return False


def _owner(column: exp.Column, select: exp.Select, catalog: Catalog) -> str | None:
    """The alias a column of ``select`` reads: its qualifier, or the one table read that has
    it."""
    if column.table:
        return column.table.lower()
    owners = [
        s.alias_or_name.lower()
        for s in _tables(select)
        if (info := catalog.table(s.name)) is not None and info.column(column.name) is not None
    ]
    return owners[0] if len(owners) == 1 else None


def _tables(select: exp.Select) -> list[exp.Table]:
    """The base tables the FROM and JOINs read."""
    first = select.args.get("from_") or select.args.get("from")
    nodes = [first, *(select.args.get("joins") or [])]
    return [n.this for n in nodes if n is not None and isinstance(n.this, exp.Table)]


def _part_only(select: exp.Select, top: exp.Expr, catalog: Catalog) -> list[exp.Join]:
    """The inner joins whose table's columns are read in the numerator's aggregate and
    nowhere else but their own ON."""
    found = []
    for join in select.args.get("joins") or []:
        if join.side or join.kind not in ("", "INNER") or not isinstance(join.this, exp.Table):
            continue
        alias = join.this.alias_or_name.lower()
        on = join.args.get("on")
        reads = [
            c
            for c in select.find_all(exp.Column)
            if _own(c, select) and _owner(c, select, catalog) == alias
        ]
        in_top = [c for c in reads if _within(c, top)]
        elsewhere = [c for c in reads if not _within(c, top) and not _within(c, on)]
        if on is not None and in_top and not elsewhere:
            found.append(join)
    return found


def _lost(ctx: CheckContext, select: exp.Select, join: exp.Join) -> int:
    """The rows of the SELECT's FROM, joins and WHERE that find no partner through ``join``:
    its rows counted with ``join`` made LEFT, less its rows as written."""
    assert ctx.profiles is not None
    probe = select.copy()
    for arg in ("order", "limit", "offset", "having", "distinct", "group"):
        probe.set(arg, None)
    probe.set("expressions", [exp.Count(this=exp.Star())])
    outer = probe.copy()
    index = next(i for i, j in enumerate(select.args.get("joins") or []) if j is join)
    kept = outer.args["joins"][index]
    kept.set("kind", None)
    kept.set("side", "LEFT")
    both = exp.select(exp.Sub(this=outer.subquery(), expression=probe.subquery()))
    rows = ctx.profiles.runner.execute(
        both.sql(dialect=ctx.dialect), time_limit_ms=TIME_LIMIT_MS, max_rows=1
    ).rows
    value = rows[0][0] if rows else None
    return value if isinstance(value, int) else 0


def share_whole_joined(ctx: CheckContext) -> CheckOutcome:
    """``signal.share_whole_joined``: a share's whole joined inner to a table only its part
    reads, losing rows (the module docstring)."""
    question = " ".join(ctx.question.split())
    if ctx.catalog is None or ctx.profiles is None or RATE.search(question) is None:
        return CheckOutcome()
    tree = tree_of(ctx)
    sides = (
        _sides(tree) if isinstance(tree, exp.Select) and not _AMONG_KNOWN.search(question) else None
    )
    if not isinstance(tree, exp.Select) or sides is None:
        return CheckOutcome()
    top, bottom = sides
    for join in _part_only(tree, top, ctx.catalog):
        try:
            lost = _lost(ctx, tree, join)
        except ExecutionError:  # not measured: no evidence
            continue
        if lost > 0:
            table = join.this.name
            return CheckOutcome(
                (
                    finding(
                        "signal.share_whole_joined",
                        f"The question asks a share of a whole, but the SQL joins {table} "
                        f"inner for the numerator's {top.sql(dialect=ctx.dialect)} alone, and "
                        f"{lost:,} rows of the whole have no {table} row: the denominator "
                        f"({bottom.sql(dialect=ctx.dialect)}) drops them, so the share is of "
                        f"the rows with one. LEFT JOIN {table} (the numerator's condition then "
                        "counts those rows in the whole only), or ask the share among them.",
                        table=table,
                        lost=lost,
                    ),
                )
            )
    return CheckOutcome()
