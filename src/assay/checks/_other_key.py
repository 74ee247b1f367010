"""A join that pairs a key with another key, while the table carries the matching one.

"Break down total revenue by product line" as ``daily_revenue d JOIN product p ON d.Region_id =
p.Product_id`` pairs each region's number with a product's (agreed19, a development set: shown
at 1.00, five samples agreeing): the numbers overlap, so the join runs and the key-overlap
check passes, though ``daily_revenue`` has a ``Product_id`` of its own. A join ``a.x = b.y``
between two tables, both columns named as keys (``..._id``, ``..._key``, ``id``), whose names
differ while ``a`` also has a column named ``y`` that the query never equates with ``b.y``:
``signal.join_on_other_key``.

A key matched against a subquery's key reads the same way: "the average age of students who
don't have any pets" as ``StuID NOT IN (SELECT PetID FROM Has_Pet)`` excludes students by pet
numbers, though ``Has_Pet`` has a ``StuID`` of its own (agreed23, a development set: shown at
1.00, five samples agreeing). ``x [NOT] IN (SELECT y FROM b)`` is read as the pair ``x = y``.

Silent on a self-join (one table), on columns not named as keys, and when the same-named column
is joined too; a key of another name (``orders.customer = customers.id``) is no evidence, nor is
a table's own bare ``id`` or ``row_id`` (``orders.customer_id = customers.id`` while orders has
an ``id``).
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._sql import ColumnKey, column_reads, equi_join_pairs
from assay.checks._where import finding, tree_of

__all__ = ["join_on_other_key"]

# A bare ``id``, ``key`` or ``row_id`` names each table's own rows, never the rows of another
# (EHRSQL's ``cost.event_id IN (SELECT procedures_icd.row_id ...)``, right, while cost has a
# ``row_id``: 192 of its gold answers).
_OWN_KEYS = frozenset({"id", "key", "rowid", "row_id", "oid", "uid"})
_KEY_NAME = re.compile(r"(?:^|_)(?:id|key)$|[a-z](?:Id|ID|Key)$")


def _looks_like_key(column: str) -> bool:
    """A column named as a key: ``id``, ``product_id``, ``ProductID``, ``p_key``.

    Example:
        >>> [_looks_like_key(c) for c in ("Region_id", "ProductID", "category", "paid")]
        [True, True, False, False]
    """
    return bool(_KEY_NAME.search(column)) or bool(_KEY_NAME.search(column.lower()))


def _one_read(tree: exp.Expr, catalog: Catalog, node: exp.Expr) -> ColumnKey | None:
    """The one base column a column node reads, through CTEs and derived tables."""
    reads = column_reads(tree, catalog, node) if isinstance(node, exp.Column) else ()
    return reads[0] if len(reads) == 1 else None


def semi_join_pairs(tree: exp.Expr, catalog: Catalog) -> list[tuple[ColumnKey, ColumnKey]]:
    """Column pairs ``x [NOT] IN (SELECT y FROM b)`` across two different base tables, read
    as the pair ``x = y`` a join would equate."""
    pairs: set[tuple[ColumnKey, ColumnKey]] = set()
    for node in tree.find_all(exp.In):
        query = node.args.get("query")
        inner = query.this if isinstance(query, exp.Subquery) else query
        if not isinstance(inner, exp.Select) or len(inner.expressions) != 1:
            continue
        outer = _one_read(tree, catalog, node.this)
        matched = _one_read(tree, catalog, inner.expressions[0].unalias())
        if outer and matched and outer[0].lower() != matched[0].lower():
            first, second = sorted([outer, matched], key=lambda k: (k[0].lower(), k[1].lower()))
            pairs.add((first, second))
    return sorted(pairs)


def join_on_other_key(ctx: CheckContext) -> CheckOutcome:
    """``signal.join_on_other_key``: ``d.Region_id = p.Product_id`` while ``d`` has a
    ``Product_id`` (the module docstring)."""
    tree = tree_of(ctx) if ctx.catalog is not None else None
    if tree is None or ctx.catalog is None:
        return CheckOutcome()
    pairs = equi_join_pairs(tree, ctx.catalog) + semi_join_pairs(tree, ctx.catalog)
    joined = {(t.lower(), c.lower()) for pair in pairs for t, c in pair}
    for pair in pairs:
        for (table, column), (other, other_column) in (pair, pair[::-1]):
            if column.lower() == other_column.lower():
                continue
            if not (_looks_like_key(column) and _looks_like_key(other_column)):
                continue
            if other_column.lower() in _OWN_KEYS:
                continue  # every table has its own ``id``: ``o.customer_id = c.id`` is right
            info = ctx.catalog.table(table)
            own = info.column(other_column) if info is not None else None
            if own is None or (table.lower(), own.name.lower()) in joined:
                continue
            return CheckOutcome(
                (
                    finding(
                        "signal.join_on_other_key",
                        f"The SQL matches {table}.{column} with {other}.{other_column}, but "
                        f"{table} has a column {own.name} of its own: it pairs one key with "
                        f"another. Match {table}.{own.name} with {other}.{other_column}.",
                        join=f"{table}.{column} = {other}.{other_column}",
                        own=f"{table}.{own.name}",
                    ),
                )
            )
    return CheckOutcome()
