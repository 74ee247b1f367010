"""An answer joined inner through a layer join that leaves rows without a partner.

A layer's join may carry ``unmatched: N``: N rows of its left table have no partner in its
right table (a NULL or missing key; TPC-DS store_sales has 1,263 rows with no
``ss_cdemo_sk``). The planner joins it inner only where a filter keeps the right table to
given values (``cd_gender = 'F'``), which no such row can pass. That answer is right about the
rows whose partner is known, but it is not about all rows: a sale with no demographics may
well have been to a woman. ``unmatched_rows`` says so, naming N, as a warning
(``cap.unmatched_rows``): a careful analyst gives the number and what it leaves out, never
the number alone (the drafted layer keeps such joins usable instead of forbidding them).

It reads every inner join of the executed SQL (and every LEFT join into the right table whose
rows a WHERE condition then keeps to values, which drops the same rows) whose condition equates
the two columns of such a join. A join into the calendar that times a metric of its left table
(``store_sales.ss_sold_date_sk -> date_dim``) is left out: the layer defines a period on that
date, and a row with no date is in no period by that definition (docs/semantic.md, "A star
schema's facts"). A breakdown LEFT joined keeps the rows as a group of their own ("(no
customer_demographics)"), so it is not warned. Silence is never evidence of a right answer.
"""

from __future__ import annotations

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._where import tree_of
from assay.semantic import JoinPath, SemanticLayer
from assay.types import Finding

__all__ = ["unmatched_rows"]


def _partial_joins(layer: SemanticLayer) -> list[JoinPath]:
    """The layer's joins with unmatched rows, less each metric's time join into its calendar."""
    timed = {
        (m.table.lower(), m.time_column.split(".", 1)[0].lower())
        for m in layer.metrics
        if m.time_column
    }
    return [
        j
        for j in layer.joins
        if j.unmatched and (j.tables[0].lower(), j.tables[1].lower()) not in timed
    ]


def _names(tree: exp.Expr) -> dict[str, str]:
    """Each table's alias (or bare name) in the query -> the table's name, lower case."""
    return {
        (t.alias_or_name or t.name).lower(): t.name.lower()
        for t in tree.find_all(exp.Table)
        if t.name
    }


def _equated(on: exp.Expr, names: dict[str, str]) -> set[tuple[str, str]]:
    """The ``table.column`` pairs the condition equates, both orders, tables by their names."""
    out: set[tuple[str, str]] = set()
    for eq in on.find_all(exp.EQ):
        left, right = eq.this, eq.expression
        if not (isinstance(left, exp.Column) and isinstance(right, exp.Column)):
            continue
        if not (left.table and right.table):
            continue
        a = f"{names.get(left.table.lower(), left.table.lower())}.{left.name.lower()}"
        b = f"{names.get(right.table.lower(), right.table.lower())}.{right.name.lower()}"
        out |= {(a, b), (b, a)}
    return out


def _drops_rows(join: exp.Join, alias: str) -> bool:
    """The join keeps only matched rows: inner, or LEFT into a table the WHERE then reads
    outside an ``IS NULL`` test (a condition on its columns no unmatched row passes)."""
    side = (join.side or "").upper()
    if side in ("", "INNER") and (join.kind or "").upper() not in ("CROSS", "ANTI"):
        return True
    if side != "LEFT":
        return False
    select = join.find_ancestor(exp.Select)
    where = select.args.get("where") if select is not None else None
    if where is None:
        return False
    for column in where.find_all(exp.Column):
        if column.table.lower() == alias and not isinstance(column.parent, exp.Is):
            return True
    return False


def unmatched_rows(ctx: CheckContext) -> CheckOutcome:
    """``cap.unmatched_rows`` per layer join with unmatched rows that the SQL joins dropping
    them (see the module docstring); nothing without a layer or SQL."""
    sql = ctx.candidate.final_sql
    if ctx.layer is None or not sql:
        return CheckOutcome()
    partial = _partial_joins(ctx.layer)
    tree = tree_of(ctx) if partial else None
    if tree is None:
        return CheckOutcome()
    names = _names(tree)
    found: list[Finding] = []
    said: set[str] = set()
    for join in tree.find_all(exp.Join):
        table = join.this
        on = join.args.get("on")
        if not isinstance(table, exp.Table) or on is None:
            continue
        if not _drops_rows(join, (table.alias_or_name or table.name).lower()):
            continue
        pairs = _equated(on, names)
        for j in partial:
            if (j.left.lower(), j.right.lower()) not in pairs or j.left in said:
                continue
            said.add(j.left)
            many, one = j.tables
            found.append(
                Finding(
                    "cap.unmatched_rows",
                    "cap",
                    f"{j.unmatched} rows of {many} have no match in {one} ({j.left} is NULL "
                    f"or names no {one} row): the join leaves them out, so the answer counts "
                    f"only the {many} rows whose {one} is known; any of those {j.unmatched} "
                    "rows may belong to it as well.",
                    {"join": f"{j.left} -> {j.right}", "unmatched": j.unmatched},
                )
            )
    return CheckOutcome(tuple(found))
