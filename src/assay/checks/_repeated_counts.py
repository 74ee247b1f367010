"""A count of the things the question names that counts some of them more than once.

"How many customers made at least one buy transaction?" as ``COUNT(id_customer) FROM
transactions_seed WHERE transaction_type_name = 'buy'`` counts buy transactions (41), not the
customers who made them (4); "How many customers are from North America?" as ``COUNT(*)`` over
``transactions_seed JOIN customers_seed ON t.id_customer = c.id_customer JOIN countries_seed``
counts their transactions (39 for 3 customers). Both agreed across five samples and were shown
at 1.00 (agreed19: the question said no "distinct", and the tables' names, ``customers_seed``,
are not the counted word, so ``uncounted_distinct`` and ``fanned_out_count`` were silent).

``repeated_count`` reads the counted noun, the first plural word within the two after "how
many" or "number of" ("customers"), and the one plain COUNT the outer SELECT returns (no GROUP
BY, no DISTINCT, no set operation):

- ``COUNT(col)`` where ``col``'s name says the noun (``id_customer``, ``customer_id``);
- ``COUNT(*)`` over a join that equates a column whose name says the noun.

The answer's own FROM and WHERE are counted again in the engine as ``COUNT(DISTINCT col)``:
fewer distinct values than the answer's count, and each counted thing is counted once per row
that repeats it. A count over the thing's own table, where the column is its key, counts each
once and stays silent; so does anything unmeasured (no profiles, a probe that fails). Silence
is never evidence of a right answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._context import CheckContext
from assay.checks._key_names import says_noun, unglued
from assay.errors import ExecutionError

__all__ = ["counted_and_keys", "repeated_count"]

TIME_LIMIT_MS = 5_000
_COUNTED = re.compile(r"\b(?:how many|number of)\s+([a-z]+)(?:\s+([a-z]+))?")
_SAID_DISTINCT = re.compile(r"\b(?:distinct|different|unique)\b")
_ID_WORDS = frozenset({"id", "key", "sk", "code", "no", "num", "number", "nbr"})


def _noun(question: str) -> str | None:
    """The counted noun in the singular: the first plural of the two words after the cue."""
    match = _COUNTED.search(" ".join(question.lower().split()))
    if match is None:
        return None
    plural = next((w for w in match.groups() if w and len(w) > 3 and w.endswith("s")), None)
    if plural is None:
        return None
    return plural[:-3] + "y" if plural.endswith("ies") else plural[:-1]


def _named(column: str, noun: str) -> bool:
    """Whether a column's name is the noun itself, singular or plural, after a short table
    prefix ("Model", "l_model").

    Example:
        >>> _named("Model", "model"), _named("ModelId", "model"), _named("l_model", "model")
        (True, False, True)
    """
    parts = [p for p in re.split(r"[^a-z0-9]+", column.lower()) if p]
    if len(parts) > 1 and len(parts[0]) <= 2:
        parts = parts[1:]
    return len(parts) == 1 and parts[0] in (noun, f"{noun}s")


def _says(column: str, noun: str) -> bool:
    """Whether an identifier column's name is the noun plus id words ("id_customer"); TPC-H's
    glued, abbreviated keys count too ("o_custkey": ``_key_names``; outside tryout 26, t_w1)."""
    parts = [p for p in re.split(r"[^a-z0-9]+", column.lower()) if p]
    parts = [q for p in parts for q in unglued(p)]
    rest = [p for p in parts if p not in _ID_WORDS]
    if len(rest) > 1 and len(rest[0]) <= 2:  # a table's prefix: "o_", "ss_"
        rest = rest[1:]
    if len(rest) == len(parts) or len(rest) != 1:
        return False
    # a key glued to the noun's first three letters (Spider's "StuID" of students: agreed18
    # h18_s17, "How many students have a pet?" as COUNT(StuID) FROM Has_Pet was shown); the
    # probe still measures the repeats, so a stem said by chance counts nothing twice
    return says_noun(rest[0], noun) or (len(rest[0]) == 3 and noun.startswith(rest[0]))


def _plain_count(tree: exp.Expr) -> exp.Count | None:
    """The one plain COUNT an ungrouped, undistinct outer SELECT returns alone."""
    if not isinstance(tree, exp.Select) or len(tree.expressions) != 1:
        return None
    if tree.args.get("group") is not None or tree.args.get("distinct") is not None:
        return None
    node = tree.expressions[0]
    node = node.this if isinstance(node, exp.Alias) else node
    if isinstance(node, exp.Count) and not isinstance(node.this, exp.Distinct):
        return node
    return None


def table_columns(select: exp.Select, catalog: Catalog | None) -> list[exp.Column]:
    """Every column of the one table a SELECT without joins reads, qualified by its alias; none
    when the catalog does not know it."""
    source = select.args.get("from_") or select.args.get("from")
    table = source.this if source is not None else None
    info = catalog.table(table.name) if catalog and isinstance(table, exp.Table) else None
    if table is None or info is None:
        return []
    return [exp.column(name, table=table.alias_or_name) for name in info.column_names]


def _counted_columns(
    tree: exp.Select, count: exp.Count, noun: str, catalog: Catalog | None
) -> list[exp.Column]:
    """The columns whose distinct values are the counted things: the counted column itself; for
    ``COUNT(*)`` each joined column whose name says the noun (both sides of
    ``o.o_custkey = c.c_custkey``: an anti-join's outer side is all NULL, so the side with more
    distinct values is the one read; agreed16's "customers who never placed an order" was
    withheld when only the first was); for ``COUNT(*)`` over one table, each of its columns whose
    name says the noun ("How many customers made at least one quick-buy?" as ``COUNT(*) FROM
    transactions_seed WHERE ...``: 10 transactions of 4 customers, shown at 1.00 in outside
    tryout 33; over the customers' own table the column is its key and measures equal)."""
    if isinstance(count.this, exp.Column):
        # the noun itself counts too: "How many influencers were mentioned on Instagram?" as
        # COUNT(influencer) over mention rows (7 rows, 1 influencer; outside tryout 35, w3)
        named = _says(count.this.name, noun) or _named(count.this.name, noun)
        return [count.this] if named else []
    if not isinstance(count.this, exp.Star):
        return []
    if not tree.args.get("joins"):
        return [c for c in table_columns(tree, catalog) if _says(c.name, noun)]
    equated = [
        column
        for join in tree.args["joins"]
        if join.args.get("on") is not None
        for eq in join.args["on"].find_all(exp.EQ)
        for column in (eq.this, eq.expression)
        if isinstance(column, exp.Column) and _says(column.name, noun)
    ]
    # A join written USING (order_id) equates that column too: "How many orders were placed in
    # 2022?" as count(*) FROM orders JOIN order_lines USING (order_id) counted the lines, shown
    # at 1.00 (outside tryout 41, F1); the column is read unqualified, as USING merges it.
    used = [
        exp.column(name.name)
        for join in tree.args["joins"]
        for name in join.args.get("using") or []
        if isinstance(name, (exp.Identifier, exp.Column)) and _says(name.name, noun)
    ]
    return equated + used


def repeated_count(ctx: CheckContext, tree: exp.Expr) -> str | None:
    """What is wrong with "how many customers" counted once per transaction (the module
    docstring), or ``None``."""
    noun = _noun(ctx.question)
    count = _plain_count(tree)
    if noun is None or count is None or ctx.profiles is None or tree.find(exp.SetOperation):
        return None
    if _SAID_DISTINCT.search(ctx.question.lower()):  # uncounted_distinct reads those
        return None
    assert isinstance(tree, exp.Select)
    columns = _counted_columns(tree, count, noun, ctx.catalog)
    if not columns:
        return None
    measured = counted_and_keys(ctx, tree, count, columns)
    if measured is None:
        return None
    counted, things, column = measured
    return (
        f"the question counts {noun}s but the SQL counts {counted:,} rows that repeat them: "
        f"{things:,} distinct {column.sql(dialect=ctx.dialect)}"
    )


def counted_and_keys(
    ctx: CheckContext, select: exp.Select, count: exp.Count, columns: list[exp.Column]
) -> tuple[int, int, exp.Column] | None:
    """The rows ``count`` counts in ``select`` and the most distinct values any of ``columns``
    takes over the same rows, with that column, measured in the engine; ``None`` when they are
    not fewer than the rows (each is counted once) or cannot be measured."""
    if not columns or ctx.profiles is None:
        return None
    probe = select.copy()
    for arg in ("order", "limit", "offset"):
        probe.set(arg, None)
    distincts = [exp.Count(this=exp.Distinct(expressions=[c.copy()])) for c in columns]
    probe.set("expressions", [count.copy(), *distincts])
    try:
        rows = ctx.profiles.runner.execute(
            probe.sql(dialect=ctx.dialect), time_limit_ms=TIME_LIMIT_MS, max_rows=1
        ).rows
    except ExecutionError:
        return None
    if not rows or not all(isinstance(v, int) for v in rows[0]):
        return None
    counted, *each = rows[0]
    things = max(each)
    if things >= counted:
        return None
    return counted, things, columns[each.index(things)]
