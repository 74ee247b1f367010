"""A share's numerator that counts the rows of a link table, not the things the share is of.

"What share of students own a pet?" as ``count(*) * 1.0 / (SELECT count(*) FROM student) FROM
has_pet`` divides the pets' rows by the students: a student with two pets is counted twice, 3/34
where the share is 2/34 (outside tryout 38: shown at 1.00, five samples agreeing). The same over
``student JOIN has_pet`` counts the same rows. ``repeated_count`` reads "how many students" so
counted; a share's numerator counts the things its whole names ("share of students") too.

The counted table is the one the question names right after the share's cue (``counted_words``);
the numerator is one plain COUNT (no DISTINCT, no GROUP BY) over base tables other than that
table alone. Each column of those other tables that holds the counted table's keys (a declared
foreign key to it; with no key declared from it, a column of the same name as one of the counted
table's) is counted again in the engine, over the numerator's own FROM, joins and WHERE, as
``count(DISTINCT column)``. Fewer distinct keys than the numerator's count: each thing is
counted once per row that repeats it, and ``aggregate_mismatch`` says by how much. A numerator
over the counted table alone, a probe that fails, or no profiles: silent.
"""

from __future__ import annotations

from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._context import CheckContext
from assay.checks._cues import named_tables
from assay.checks._distinct_counts import counted_words
from assay.checks._repeated_counts import counted_and_keys
from assay.checks._share_whole import share_division

__all__ = ["share_counted_twice"]


def _holding_keys(catalog: Catalog, table: exp.Table, counted: str) -> list[exp.Column]:
    """The columns of a read table that hold the counted table's keys, by the read alias."""
    info, target = catalog.table(table.name), catalog.table(counted)
    if info is None or target is None:
        return []
    declared = {
        fk.columns[0].lower(): fk.ref_table.lower()
        for fk in catalog.foreign_keys
        if fk.table.lower() == info.name.lower() and len(fk.columns) == 1
    }
    names = {c.lower() for c in target.column_names}
    return [
        exp.column(name, table=table.alias_or_name)
        for name in info.column_names
        if declared.get(name.lower(), "") == target.name.lower()
        or (name.lower() not in declared and not declared and name.lower() in names)
    ]


def share_counted_twice(ctx: CheckContext, tree: exp.Expr) -> str | None:
    """What is wrong with a share's numerator that counts the things of its whole once per row
    of a link table (the module docstring), or ``None``."""
    if ctx.catalog is None or ctx.profiles is None:
        return None
    found = share_division(tree)
    if found is None:
        return None
    _, (count, select), _ = found
    if not isinstance(count, exp.Count) or isinstance(count.this, exp.Distinct):
        return None
    if select.args.get("group") is not None or select.args.get("distinct") is not None:
        return None
    sources = [select.args.get("from_"), *(select.args.get("joins") or [])]
    tables = [s.this for s in sources if s is not None]
    if not tables or not all(isinstance(t, exp.Table) for t in tables):
        return None
    names = tuple(t.name for t in ctx.catalog.tables)
    named = named_tables(counted_words(ctx.question), names)
    for counted in sorted(named):
        if any(t.name.lower() != counted.lower() and t.name in named for t in tables):
            continue  # "share of customer orders": the orders read are what is counted
        columns = [
            column
            for table in tables
            if table.name.lower() != counted.lower()
            for column in _holding_keys(ctx.catalog, table, counted)
        ]
        problem = _measured(ctx, select, count, columns, counted)
        if problem is not None:
            return problem
    return None


def _measured(
    ctx: CheckContext, select: exp.Select, count: exp.Count, columns: list[exp.Column], noun: str
) -> str | None:
    """The numerator's count against its distinct keys, measured on its own rows."""
    measured = counted_and_keys(ctx, select, count, columns)
    if measured is None:
        return None
    counted, things, key = measured
    column = key.sql(dialect=ctx.dialect)
    return (
        f"the share is of {noun} rows, but its numerator counts {counted:,} rows that repeat "
        f"them: {things:,} distinct {column}; count each once (COUNT(DISTINCT {column}))"
    )
