"""A count per group of the things the question names that counts some of them more than once.

"How many orders has each customer placed?" as ``SELECT id_customer, count(*) FROM
transactions_seed GROUP BY id_customer`` counts each customer's transactions, though an order
(``id_order``) spans several of them; "How many models does each car maker have?" as
``count(*)`` over ``car_makers JOIN model_list JOIN car_names ON n.Model = l.Model`` counts each
model once per car of it (agreed22, a development set: both shown at 1.00, five samples
agreeing). ``repeated_count`` and ``fanned_out_count`` read only an ungrouped count, so both
were silent.

``grouped_repeat`` reads the counted noun as ``repeated_count`` does (the first plural within
the two words after "how many" or "number of": "orders") and the one plain COUNT a grouped
SELECT returns beside its group columns. The columns whose distinct values are the counted
things are those whose names say the noun with an id word (``id_order``) or are the noun
itself (``Model``), outside the GROUP BY:

- ``COUNT(col)``: the column itself;
- ``COUNT(*)`` over a join: each column the joins equate;
- ``COUNT(*)`` over one table: each of its columns.

The answer's own FROM, WHERE, GROUP BY and HAVING are counted again in the engine with
``COUNT(DISTINCT col)`` beside the answer's count: a group with more rows than distinct values
counts some things once per row that repeats them.

A question that says "distinct" ("How many distinct orders did each customer place?" as
``count(id_order) ... GROUP BY id_customer``: agreed26, shown at 1.00) is read the same way,
the counted column itself being the things, whatever its name: ``uncounted_distinct`` reads
only an ungrouped count, so both were silent. A column that is its table's key, or an
answer over a table holding each thing once, measures equal and stays silent; so does anything
unmeasured (no profiles, a probe that fails). Silence is never evidence of a right answer.
"""

from __future__ import annotations

from sqlglot import exp

from assay.checks._context import CheckContext
from assay.checks._repeated_counts import _SAID_DISTINCT, _named, _noun, _says, table_columns
from assay.errors import ExecutionError

__all__ = ["grouped_repeat"]

TIME_LIMIT_MS = 5_000


def _grouped_count(tree: exp.Expr) -> tuple[exp.Select, exp.Count] | None:
    """The grouped outer SELECT and the one plain COUNT it returns; every other projection is
    free of aggregates (the group's columns)."""
    if not isinstance(tree, exp.Select) or tree.args.get("group") is None:
        return None
    if tree.args.get("distinct") is not None or tree.find(exp.SetOperation) is not None:
        return None
    counts = []
    for projection in tree.expressions:
        node = projection.this if isinstance(projection, exp.Alias) else projection
        if isinstance(node, exp.Count) and not isinstance(node.this, exp.Distinct):
            counts.append(node)
        elif node.find(exp.AggFunc) is not None:
            return None
    return (tree, counts[0]) if len(counts) == 1 else None


def _grouped_names(select: exp.Select) -> set[str]:
    """The columns the GROUP BY reads, and those a join equates with them (``t2.country`` for
    ``GROUP BY t1.countryid`` joined ``ON t1.countryid = t2.country``): one value per group,
    never the counted things. Qualified and bare, lower case."""
    group = select.args["group"]
    out = {c.sql().lower() for node in group.expressions for c in node.find_all(exp.Column)}
    out |= {c.name.lower() for node in group.expressions for c in node.find_all(exp.Column)}
    for join in select.args.get("joins") or []:
        on = join.args.get("on")
        for eq in on.find_all(exp.EQ) if on is not None else []:
            pair = (eq.this, eq.expression)
            if not all(isinstance(c, exp.Column) for c in pair):
                continue
            if any(c.sql().lower() in out for c in pair):
                out |= {c.sql().lower() for c in pair}
    return out


def _candidates(ctx: CheckContext, select: exp.Select, count: exp.Count) -> list[exp.Column]:
    """The columns read as the counted things (the module docstring's three cases)."""
    if isinstance(count.this, exp.Column):
        return [count.this]
    if not isinstance(count.this, exp.Star):
        return []
    joins = select.args.get("joins") or []
    if joins:
        return [
            column
            for join in joins
            if join.args.get("on") is not None
            for eq in join.args["on"].find_all(exp.EQ)
            for column in (eq.this, eq.expression)
            if isinstance(column, exp.Column)
        ]
    return table_columns(select, ctx.catalog)


def _probe(
    ctx: CheckContext, select: exp.Select, count: exp.Count, columns: list[exp.Column]
) -> str:
    """SQL that returns, over the answer's own groups, how many groups repeat a counted thing,
    how many groups there are, and the rows and the first column's distinct things of the
    repeating groups."""
    probe = select.copy()
    for arg in ("order", "limit", "offset"):
        probe.set(arg, None)
    distincts = [
        exp.alias_(exp.Count(this=exp.Distinct(expressions=[c.copy()])), f"assay_d{i}")
        for i, c in enumerate(columns)
    ]
    probe.set("expressions", [exp.alias_(count.copy(), "assay_n"), *distincts])
    most = " + ".join(
        f"CASE WHEN assay_n > assay_d{i} THEN 0 ELSE 1 END" for i in range(len(columns))
    )
    # a group repeats the things when no candidate column counts as many as its rows
    return (
        f"SELECT sum(CASE WHEN {most} = 0 THEN 1 ELSE 0 END), count(*), "
        f"sum(CASE WHEN {most} = 0 THEN assay_n ELSE 0 END), "
        f"sum(CASE WHEN {most} = 0 THEN assay_d0 ELSE 0 END) "
        f"FROM ({probe.sql(dialect=ctx.dialect)}) AS assay_g"
    )


def grouped_repeat(ctx: CheckContext, tree: exp.Expr) -> str | None:
    """What is wrong with "how many orders does each customer have" counted once per
    transaction (the module docstring), or ``None``."""
    noun = _noun(ctx.question)
    found = _grouped_count(tree)
    if noun is None or found is None or ctx.profiles is None or ctx.catalog is None:
        return None
    select, count = found
    grouped = _grouped_names(select)
    said = _SAID_DISTINCT.search(ctx.question.lower()) is not None
    if said and not isinstance(count.this, exp.Column):
        return None  # an ungrouped count: uncounted_distinct reads those
    columns = [
        c
        for c in _candidates(ctx, select, count)
        if (said or _says(c.name, noun) or _named(c.name, noun))
        and c.sql().lower() not in grouped
        and c.name.lower() not in grouped
    ]
    if not columns:
        return None
    try:
        rows = ctx.profiles.runner.execute(
            _probe(ctx, select, count, columns), time_limit_ms=TIME_LIMIT_MS, max_rows=1
        ).rows
    except ExecutionError:
        return None
    if not rows or not all(isinstance(v, int) for v in rows[0]) or not rows[0][0]:
        return None
    repeating, groups, counted, things = rows[0]
    if said:
        return (
            f"the question counts distinct {noun}s per group but the SQL counts every row "
            f"(no DISTINCT): in {repeating:,} of {groups:,} groups, {counted:,} rows for "
            f"{things:,} distinct {columns[0].sql(dialect=ctx.dialect)}; count "
            f"DISTINCT {columns[0].sql(dialect=ctx.dialect)}"
        )
    return (
        f"the question counts {noun}s per group but the SQL counts rows that repeat them: in "
        f"{repeating:,} of {groups:,} groups, {counted:,} rows for {things:,} distinct "
        f"{columns[0].sql(dialect=ctx.dialect)}"
    )
