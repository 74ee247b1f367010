"""A count of the entity the question names, inflated by a join that repeats its rows.

"How many students have pets?" as ``count(*)`` over ``Student JOIN Has_Pet`` counts a student
once per pet (3; two students have pets), and "How many singers from France performed in any
concert?" as ``count(*)`` over ``singer JOIN singer_in_concert`` counts a singer once per
concert (8; right 4): five samples agreeing on either were shown at 1.00 (outside tryout 23).

The question names the counted table right after "how many" (``counted_table``); the SQL
returns one COUNT, not DISTINCT, over a FROM that joins that table to others. Whether the join
repeats its rows in this very answer is measured in the engine, never guessed from names: the
answer's own FROM and WHERE counted again as ``count(DISTINCT key)``, the key being a column of
the counted table that one of the joins equates and that is unique and never null in it. Fewer
keys than the answer's count: the count is inflated, and ``fanned_out_count`` says by how much.

"How many pets do students have?" over the same join counts pets (the many side): the table
named after "how many" is not read, so nothing is measured. A count with GROUP BY, DISTINCT or a
set operation, a table read twice, no unique join key, or no profiles: silent, never evidence
of a right answer.
"""

from __future__ import annotations

from sqlglot import exp

from assay.checks._context import CheckContext
from assay.checks._named_fit import counted_table
from assay.checks._sql import equi_join_pairs
from assay.errors import ExecutionError

__all__ = ["fanned_out_count"]

TIME_LIMIT_MS = 5_000


def _one_count(tree: exp.Select) -> tuple[int, exp.Count] | None:
    """The position and node of the one plain COUNT the outer SELECT returns (``count(*)`` or
    ``count(col)``), or ``None``."""
    found = []
    for index, projection in enumerate(tree.expressions):
        node = projection.this if isinstance(projection, exp.Alias) else projection
        if isinstance(node, exp.Count) and not isinstance(node.this, exp.Distinct):
            found.append((index, node))
    return found[0] if len(found) == 1 and len(tree.expressions) == 1 else None


def _aliases(tree: exp.Select, table: str) -> list[str]:
    """The names the outer FROM and JOINs read ``table`` under (its alias or its name)."""
    sources = [tree.args.get("from_") or tree.args.get("from")]
    sources += list(tree.args.get("joins") or [])
    return [
        s.this.alias_or_name
        for s in sources
        if s is not None and isinstance(s.this, exp.Table) and s.this.name.lower() == table.lower()
    ]


def _key(ctx: CheckContext, tree: exp.Select, table: str) -> str | None:
    """A column of ``table`` that a join equates and that is unique and never null in it."""
    assert ctx.catalog is not None and ctx.profiles is not None
    pairs = equi_join_pairs(tree, ctx.catalog)
    joined = sorted({c for pair in pairs for t, c in pair if t.lower() == table.lower()})
    for column in joined:
        try:
            profile = ctx.profiles.profile(table, column)
        except ExecutionError:  # not measured: not known to be a key
            continue
        if profile is not None and profile.n_null == 0 and profile.n_distinct == profile.n_rows:
            return column
    return None


def _plain(tree: exp.Expr) -> exp.Select | None:
    """The outer SELECT when it joins base tables and returns one number: no GROUP BY, no
    DISTINCT, no set operation."""
    if not isinstance(tree, exp.Select) or not tree.args.get("joins"):
        return None
    if tree.args.get("group") is not None or tree.args.get("distinct") is not None:
        return None
    return tree


def fanned_out_count(ctx: CheckContext, tree: exp.Expr) -> str | None:
    """What is wrong with "how many students" counted once per pet (the module docstring), or
    ``None``."""
    result = ctx.candidate.result
    select = _plain(tree)
    if select is None or ctx.catalog is None or ctx.profiles is None or result is None:
        return None
    counted = counted_table(ctx.question, ctx.catalog)
    count = _one_count(select)
    if counted is None or count is None or len(result.rows) != 1:
        return None
    aliases = _aliases(select, counted[0])
    key = _key(ctx, select, counted[0]) if len(aliases) == 1 else None
    answer = result.rows[0][count[0]]
    if key is None or not isinstance(answer, int) or isinstance(answer, bool):
        return None
    distinct = exp.Count(this=exp.Distinct(expressions=[exp.column(key, table=aliases[0])]))
    probe = select.copy()
    for arg in ("order", "limit", "offset"):
        probe.set(arg, None)
    probe.set("expressions", [count[1].copy(), distinct])
    rows = ctx.profiles.runner.execute(
        probe.sql(dialect=ctx.dialect), time_limit_ms=TIME_LIMIT_MS, max_rows=1
    ).rows
    if not rows or rows[0][0] != answer or not isinstance(rows[0][1], int) or rows[0][1] >= answer:
        return None
    return (
        f"the question counts {counted[0]} (how many {counted[1]}) but the SQL counts the rows "
        f"of a join that repeats them: {answer:,} rows for {rows[0][1]:,} {counted[0]} "
        f"(count DISTINCT {aliases[0]}.{key})"
    )
