"""A count of the named rows through a fact table's key to them, beside a table that only
describes them.

"How many different female customers with a College education bought in stores in 2001?" as
``count(DISTINCT ss_customer_sk)`` over ``store_sales JOIN customer_demographics ON
ss_cdemo_sk = cd_demo_sk``: TPC-DS keeps a buyer's sex and education only in
``customer_demographics``, and each sale names its customer in ``ss_customer_sk``, so the
count is of customers though the SQL never reads ``customer`` (outside tryout 28, r12 and y3:
both right answers were withheld as ``table_mismatch``, the question counting customers).
``table_fit`` then lets the describing table stand: the count is of the named table's rows
where the question speaks of the counting table's rows ("bought in stores").
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._mentions import key_to, references
from assay.checks._named_fit import counted_table
from assay.checks._values import _owner

__all__ = ["counts_distinct_keys", "counts_key_pairs", "counts_through_key"]


def _parts(name: str) -> tuple[str, ...]:
    return tuple(p for p in re.split(r"[^a-z0-9]+", name.lower()) if p)


def counts_through_key(catalog: Catalog, tree: exp.Expr, name: str, named: frozenset[str]) -> bool:
    """Whether the SQL counts the distinct values of another table's key to ``name``: a column
    whose name holds ``name``'s words (``ss_customer_sk`` for ``customer``) in a table whose
    rows each name a ``name`` row (``_mentions.references``), and which the question speaks of:
    it names that table or another it refers to ("bought in stores": ``store``). "How many
    customers live in Texas?" counted through the sales' addresses counts buyers only."""
    wanted = _parts(name)
    others = {n for n in named if n.lower() != name.lower()}
    for count in tree.find_all(exp.Count):
        distinct = count.this
        columns = distinct.expressions if isinstance(distinct, exp.Distinct) else []
        if len(columns) != 1 or not isinstance(columns[0], exp.Column):
            continue
        owner = _owner(columns[0], tree, catalog)
        if owner is None or owner[0].lower() == name.lower():
            continue
        parts = _parts(owner[1])
        held = any(parts[i : i + len(wanted)] == wanted for i in range(len(parts)))
        spoken = any(
            n.lower() == owner[0].lower() or references(catalog, owner[0], n) for n in others
        )
        if held and spoken and references(catalog, owner[0], name):
            return True
    return False


def counts_distinct_keys(catalog: Catalog, tree: exp.Expr, name: str) -> bool:
    """Whether ``COUNT(*)`` counts the rows of a CTE that keeps one row per value of a key to
    ``name`` (its one DISTINCT projection or GROUP BY key): the count is that key's
    COUNT(DISTINCT), a count of ``name`` rows. "How many different customers placed orders in
    1996?" as ``WITH b AS (SELECT DISTINCT o_custkey FROM orders ...) SELECT count(*) FROM b``
    (outside tryout 31, r4: 880, right, withheld as counting rows of orders)."""
    source = tree.args.get("from_") if isinstance(tree, exp.Select) else None
    cte = source.this.name.lower() if source is not None else ""
    inner = [c.this for c in tree.find_all(exp.CTE) if c.alias.lower() == cte]
    if len(inner) != 1 or not isinstance(inner[0], exp.Select):
        return False
    group = inner[0].args.get("group")
    keys = inner[0].expressions if inner[0].args.get("distinct") else []
    keys = keys or (group.expressions if group is not None else [])
    column = keys[0].unalias() if len(keys) == 1 else None
    owner = _owner(column, inner[0], catalog) if isinstance(column, exp.Column) else None
    if owner is None:
        return False
    return owner[0].lower() == name.lower() or key_to(catalog, owner[0], owner[1], name)


def _grouped_source(tree: exp.Expr) -> exp.Select | None:
    """The SELECT a bare ``SELECT count(*) FROM (...)`` counts the rows of: its subquery, or
    the CTE it reads; ``None`` for any other shape."""
    if not isinstance(tree, exp.Select) or tree.args.get("group") or len(tree.expressions) != 1:
        return None
    count = tree.expressions[0].unalias()
    if not isinstance(count, exp.Count) or not isinstance(count.this, (exp.Star, exp.Literal)):
        return None
    source = tree.args.get("from_")
    inner = source.this if source is not None else None
    if isinstance(inner, exp.Subquery):
        inner = inner.this
    elif isinstance(inner, exp.Table):
        ctes = [c.this for c in tree.find_all(exp.CTE) if c.alias.lower() == inner.name.lower()]
        inner = ctes[0] if len(ctes) == 1 else None
    return inner if isinstance(inner, exp.Select) else None


def _fixed(select: exp.Select, column: exp.Column) -> bool:
    """The WHERE holds the column to one value (``d_year = 2001``): a key that splits nothing."""
    where = select.args.get("where")
    return where is not None and any(
        isinstance(eq.this, exp.Column) and eq.this.name.lower() == column.name.lower()
        for eq in where.find_all(exp.EQ)
    )


def counts_key_pairs(question: str, tree: exp.Expr, catalog: Catalog) -> str | None:
    """ "How many customers bought in a store in 2001?" as ``SELECT count(*) FROM (SELECT
    ss_customer_sk, ss_ticket_number ... GROUP BY ss_customer_sk, ss_ticket_number)``: the rows
    counted are the pairs of a customer and a ticket, not the customers (outside tryout 32, X3:
    shown at 1.00). Fires when the counted groups are keyed by another table's key to the counted
    table and by a second column of that same table (many values per counted row: a ticket, a
    date) that the WHERE does not hold to one value; a column of the counted table itself or of
    a third table (an attribute, one value per counted row) is left alone.
    ``counts_distinct_keys`` reads the one-key case, a right count. What is wrong, or
    ``None``."""
    inner = _grouped_source(tree)
    found = counted_table(question, catalog) if inner is not None else None
    if inner is None or found is None:
        return None
    name = found[0].lower()
    group = inner.args.get("group")
    keys = group.expressions if group is not None else []
    keys = keys or (inner.expressions if inner.args.get("distinct") else [])
    columns = [k.unalias() for k in keys]
    if len(columns) < 2 or not all(isinstance(c, exp.Column) for c in columns):
        return None
    owners = [(c, _owner(c, inner, catalog)) for c in columns]
    if any(owner is None for _, owner in owners):
        return None
    through = {o[0].lower() for _, o in owners if o and key_to(catalog, *o, name)} - {name}
    counted = [c for c, o in owners if o and key_to(catalog, *o, name)]
    other = [
        c
        for c, o in owners
        if o and c not in counted and o[0].lower() in through and not _fixed(inner, c)
    ]
    if not counted or not other:
        return None
    return (
        f"the question counts {name} rows but the SQL counts the groups of "
        f"{', '.join(c.sql() for c in columns)}: one per {counted[0].sql()} and "
        f"{other[0].sql()} together, not one per {name}"
    )
