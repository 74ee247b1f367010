"""Cross joins in Spark queries: tables of one SELECT that no key equality connects.

A comma join or ``CROSS JOIN`` is accepted when equalities between columns in ``ON`` or
``WHERE`` connect every table of the ``SELECT`` (TPC-H writes its joins that way); a one-row
aggregate (``CROSS JOIN (SELECT sum(x) ...)``) multiplies nothing and counts as connected.
Unqualified columns are attributed through the catalogue, CTEs and derived tables.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlglot import exp

from assay.catalog import Catalog
from assay.guard._report import Violation

__all__ = ["disconnected", "query_columns"]


def query_columns(query: Any, alias: Any) -> set[str]:
    if isinstance(alias, exp.TableAlias) and alias.columns:
        return {c.name.lower() for c in alias.columns}
    if isinstance(query, exp.Query):
        return {name.lower() for name in query.named_selects}
    return set()


def _source_names(select: exp.Select) -> list[str]:
    sources = []
    from_ = select.args.get("from") or select.args.get("from_")
    items = [from_.this] if from_ is not None else []
    items += [j.this for j in select.args.get("joins") or []]
    for item in items:
        sources.append(item.alias_or_name.lower())
    return sources


def disconnected(
    select: exp.Select, catalog: Catalog | None, cte_columns: dict[str, set[str]]
) -> list[Violation]:
    """Refuse comma joins whose tables no equality in ON or WHERE connects (a cross join)."""
    joins = select.args.get("joins") or []
    if not joins:
        return []
    sources = _source_names(select)
    owner = _owners(select, catalog, cte_columns)
    parent = {s: s for s in sources}

    def find(x: str) -> str:
        while parent[x] != x:
            x = parent[x]
        return x

    conditions = [j.args.get("on") for j in joins] + [select.args.get("where")]
    for join in joins:
        if join.args.get("using"):
            parent[find(join.this.alias_or_name.lower())] = find(sources[0])
    for condition in conditions:
        if condition is None:
            continue
        for eq in condition.find_all(exp.EQ):
            left, right = eq.this, eq.expression
            if not (isinstance(left, exp.Column) and isinstance(right, exp.Column)):
                continue
            a, b = owner(left), owner(right)
            if a in parent and b in parent:
                parent[find(a)] = find(b)
    for single in _one_row_sources(select):
        parent[find(single)] = find(sources[0])  # a one-row aggregate multiplies nothing
    roots = {find(s) for s in sources}
    if len(roots) > 1:
        return [
            Violation(
                "guard.cross_join",
                f"Tables {', '.join(sorted(sources))} are joined without a key equality "
                "connecting them all (a cross join); join on keys.",
            )
        ]
    return []


def _one_row_sources(select: exp.Select) -> list[str]:
    from_ = select.args.get("from") or select.args.get("from_")
    items = [from_.this] if from_ is not None else []
    items += [j.this for j in select.args.get("joins") or []]
    found = []
    for item in items:
        query = item.this if isinstance(item, exp.Subquery) else None
        if (
            isinstance(query, exp.Select)
            and not query.args.get("group")
            and query.expressions
            and all(isinstance(e.unalias(), exp.AggFunc) for e in query.expressions)
        ):
            found.append(item.alias_or_name.lower())
    return found


def _owners(
    select: exp.Select, catalog: Catalog | None, cte_columns: dict[str, set[str]]
) -> Callable[[exp.Column], str | None]:
    from_ = select.args.get("from") or select.args.get("from_")
    items = [from_.this] if from_ is not None else []
    items += [j.this for j in select.args.get("joins") or []]
    columns_of: dict[str, set[str]] = {}
    for item in items:
        alias = item.alias_or_name.lower()
        cols: set[str] = set()
        if isinstance(item, exp.Table) and not item.db and item.name.lower() in cte_columns:
            cols = cte_columns[item.name.lower()]
        elif isinstance(item, exp.Table) and catalog is not None:
            info = catalog.table(item.name)
            cols = {c.name.lower() for c in info.columns} if info else set()
        elif isinstance(item, exp.Subquery):
            cols = query_columns(item.this, item.args.get("alias"))
        columns_of[alias] = cols

    def owner(column: exp.Column) -> str | None:
        if column.table:
            return column.table.lower()
        holders = [a for a, cols in columns_of.items() if column.name.lower() in cols]
        return holders[0] if len(holders) == 1 else None

    return owner
