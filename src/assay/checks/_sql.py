"""What the checks read from a query's tree: its tables, equi-join pairs and output lineage."""

from __future__ import annotations

import logging
from functools import lru_cache

import sqlglot
from sqlglot import exp
from sqlglot.errors import ErrorLevel
from sqlglot.optimizer.scope import Scope, traverse_scope

from assay.catalog import Catalog

__all__ = ["equi_join_pairs", "output_sources", "parse_query", "referenced_tables"]

ColumnKey = tuple[str, str]
_DIALECTS = {"duckdb": "duckdb", "sqlite": "sqlite", "postgres": "postgres"}
# Engine catalogues and table-valued functions are not fabricated tables (Appendix C).
_CATALOGUE_TABLES = frozenset({"sqlite_master", "sqlite_schema", "sqlite_sequence"})
_CATALOGUE_SCHEMAS = frozenset({"information_schema", "pg_catalog"})

_STATEMENTS = (
    exp.Query,
    exp.Values,
    exp.Insert,
    exp.Update,
    exp.Delete,
    exp.Merge,
    exp.Create,
    exp.Drop,
    exp.Describe,
)

logging.getLogger("sqlglot").setLevel(logging.ERROR)


@lru_cache(maxsize=4096)
def parse_query(sql: str, dialect: str) -> exp.Expr | None:
    """The query's tree, or ``None`` when it does not parse as one statement."""
    try:
        trees = [
            t
            for t in sqlglot.parse(
                sql, read=_DIALECTS.get(dialect, dialect), error_level=ErrorLevel.RAISE
            )
            if t is not None
        ]
    except Exception:  # any parse failure means "not a parsed query" for the share
        return None
    if len(trees) != 1 or not isinstance(trees[0], _STATEMENTS):
        return None  # a bare expression or sqlglot's Command fallback is not a parsed query
    return trees[0]


def _cte_names(tree: exp.Expr) -> set[str]:
    return {cte.alias.lower() for cte in tree.find_all(exp.CTE) if cte.alias}


def referenced_tables(tree: exp.Expr) -> list[str]:
    """Names of the tables a query reads, without CTEs, functions and engine catalogues.

    Example:
        >>> referenced_tables(parse_query("WITH t AS (SELECT 1) SELECT * FROM t, x", "duckdb"))
        ['x']
    """
    ctes = _cte_names(tree)
    names = []
    for table in tree.find_all(exp.Table):
        if not isinstance(table.this, exp.Identifier):
            continue
        name = table.name
        if table.db.lower() in _CATALOGUE_SCHEMAS or name.lower() in _CATALOGUE_TABLES:
            continue
        if name.lower() in ctes and not table.db:
            continue
        names.append(name)
    return sorted(set(names), key=str.lower)


def _scopes(tree: exp.Expr) -> list[Scope]:
    try:
        return list(traverse_scope(tree))
    except Exception:  # an odd tree has no usable scopes; the checks then measure nothing
        return []


def _resolve(column: exp.Column, scope: Scope, catalog: Catalog) -> ColumnKey | None:
    sources = {
        alias.lower(): source
        for alias, (_node, source) in scope.selected_sources.items()
        if isinstance(source, exp.Table) and isinstance(source.this, exp.Identifier)
    }
    if column.table:
        source = sources.get(column.table.lower())
        if source is None:
            return None
        info = catalog.table(source.name)
        col = info.column(column.name) if info else None
        return (info.name, col.name) if info and col else None
    owners = []
    for source in sources.values():
        info = catalog.table(source.name)
        col = info.column(column.name) if info else None
        if info and col:
            owners.append((info.name, col.name))
    return owners[0] if len(owners) == 1 else None


def equi_join_pairs(tree: exp.Expr, catalog: Catalog) -> list[tuple[ColumnKey, ColumnKey]]:
    """Column pairs ``a = b`` joining two different base tables, from ON and WHERE clauses."""
    pairs: set[tuple[ColumnKey, ColumnKey]] = set()
    for scope in _scopes(tree):
        select = scope.expression
        if not isinstance(select, exp.Select):
            continue
        conditions: list[exp.Expr] = [
            j.args["on"] for j in select.args.get("joins") or [] if j.args.get("on") is not None
        ]
        where = select.args.get("where")
        if where is not None:
            conditions.append(where)
        for condition in conditions:
            for eq in condition.find_all(exp.EQ):
                left, right = eq.this, eq.expression
                if not (isinstance(left, exp.Column) and isinstance(right, exp.Column)):
                    continue
                a, b = _resolve(left, scope, catalog), _resolve(right, scope, catalog)
                if a and b and a[0].lower() != b[0].lower():
                    first, second = sorted([a, b], key=lambda k: (k[0].lower(), k[1].lower()))
                    pairs.add((first, second))
    return sorted(pairs)


_PASS_THROUGH = (exp.Min, exp.Max, exp.AnyValue, exp.Alias, exp.Paren, exp.Distinct)


def output_sources(tree: exp.Expr, catalog: Catalog) -> list[ColumnKey | None]:
    """For each output column of the outer query, the base column it returns as is (directly,
    or through MIN, MAX or ANY_VALUE), else ``None``."""
    if not isinstance(tree, exp.Select):
        return []
    scopes = _scopes(tree)
    root = next((s for s in scopes if s.expression is tree), None)
    if root is None:
        return [None] * len(tree.expressions)
    out: list[ColumnKey | None] = []
    for projection in tree.expressions:
        node = projection
        while isinstance(node, _PASS_THROUGH):
            node = node.this
        out.append(_resolve(node, root, catalog) if isinstance(node, exp.Column) else None)
    return out
