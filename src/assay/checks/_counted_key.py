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
from assay.checks._values import _owner

__all__ = ["counts_distinct_keys", "counts_through_key"]


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
