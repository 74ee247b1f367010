"""What the checks read from a query's tree: its tables, equi-join pairs and output lineage.

The checks do not resolve names themselves: they read the guard's one analysis of the query
(``assay.guard.analyse``), which resolves tables and columns by scope as the engine does.
"""

from __future__ import annotations

import logging
from functools import lru_cache

import sqlglot
from sqlglot import exp
from sqlglot.errors import ErrorLevel

from assay.catalog import Catalog
from assay.guard import DIALECTS, QueryAnalysis, analyse

__all__ = [
    "bare",
    "column_reads",
    "equi_join_pairs",
    "in_condition",
    "indicator_sum",
    "output_sources",
    "parse_query",
    "referenced_tables",
]

ColumnKey = tuple[str, str]

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
                sql, read=DIALECTS.get(dialect, dialect), error_level=ErrorLevel.RAISE
            )
            if t is not None and not isinstance(t, exp.Semicolon)
        ]
    except Exception:  # any parse failure means "not a parsed query" for the share
        return None
    if len(trees) != 1 or not isinstance(trees[0], _STATEMENTS):
        return None  # a bare expression or sqlglot's Command fallback is not a parsed query
    return trees[0]


def _analysis(tree: exp.Expr, catalog: Catalog | None) -> QueryAnalysis:
    dialect = catalog.dialect if catalog is not None and catalog.dialect in DIALECTS else None
    return analyse(tree, dialect, catalog)


def referenced_tables(tree: exp.Expr) -> list[str]:
    """Names of the tables a query reads, without CTEs, functions and engine catalogues.

    Example:
        >>> referenced_tables(parse_query("WITH t AS (SELECT 1) SELECT * FROM t, x", "duckdb"))
        ['x']
    """
    return _analysis(tree, None).base_tables


def column_reads(tree: exp.Expr, catalog: Catalog, column: exp.Column) -> tuple[ColumnKey, ...]:
    """The base-table columns one column node of ``tree`` finally reads (through CTEs and
    derived tables); empty when it reads an alias or cannot be resolved."""
    analysis = _analysis(tree, catalog)
    return next((ref.reads for ref in analysis.column_refs if ref.node is column), ())


def _key(table: str | None, column: str, catalog: Catalog) -> ColumnKey | None:
    if table is None:
        return None
    info = catalog.table(table)
    col = info.column(column) if info else None
    return (info.name, col.name) if info and col else None


def equi_join_pairs(tree: exp.Expr, catalog: Catalog) -> list[tuple[ColumnKey, ColumnKey]]:
    """Column pairs ``a = b`` joining two different base tables, from ON and WHERE clauses."""
    analysis = _analysis(tree, catalog)
    pairs: set[tuple[ColumnKey, ColumnKey]] = set()
    for scope in analysis.scopes:
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
                a_ref, b_ref = analysis.resolve(scope, left), analysis.resolve(scope, right)
                a = _key(a_ref.table, left.name, catalog)
                b = _key(b_ref.table, right.name, catalog)
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
    analysis = _analysis(tree, catalog)
    root = analysis.root
    if root is None or not isinstance(root.expression, exp.Select):
        return [None] * len(tree.expressions)
    out: list[ColumnKey | None] = []
    for projection in root.expression.expressions:
        node = projection
        while isinstance(node, _PASS_THROUGH):
            node = node.this
        if isinstance(node, exp.Column) and not isinstance(node.this, exp.Star):
            ref = analysis.resolve(root, node)
            out.append(_key(ref.table, node.name, catalog))
        else:
            out.append(None)
    return out


def in_condition(column: exp.Column, agg: exp.Expr) -> bool:
    """The column only decides which rows the aggregate takes (a ``CASE WHEN`` test, a
    ``FILTER (WHERE ...)``): its value is never aggregated itself."""
    node: exp.Expr | None = column
    while node is not None and node is not agg:
        parent = node.parent
        if isinstance(parent, exp.If) and parent.this is node:
            return True
        if isinstance(parent, exp.Case) and parent.this is node:
            return True  # CASE x WHEN ...: x is only compared
        if isinstance(node, exp.Where) and isinstance(parent, exp.Filter):
            return True
        node = parent
    return False


def bare(node: exp.Expr) -> exp.Expr:
    """``node`` through parentheses, casts, ``NULLIF(_, 0)`` and factors that are numbers
    (``100.0 * (a - b)``).

    Example:
        >>> from sqlglot import parse_one
        >>> bare(parse_one("100.0 * (a - b)")).sql()
        'a - b'
    """
    while True:
        if isinstance(node, (exp.Paren, exp.Cast, exp.Nullif)):
            node = node.this
        elif isinstance(node, exp.Mul) and isinstance(node.this, exp.Literal):
            node = node.expression
        elif isinstance(node, exp.Mul) and isinstance(node.expression, exp.Literal):
            node = node.this
        else:
            return node


def indicator_sum(total: exp.Expr) -> bool:
    """Whether ``total`` (a SUM) adds a CASE whose every result is 0, 1 or NULL: it counts the
    rows that meet its conditions (``SUM(CASE WHEN late THEN 1 ELSE 0 END)`` is a count), and
    the columns it reads only pick them.

    Example:
        >>> from sqlglot import parse_one
        >>> indicator_sum(parse_one("sum(CASE WHEN r > c THEN 1 ELSE 0 END)"))
        True
        >>> indicator_sum(parse_one("sum(CASE WHEN r > c THEN x ELSE 0 END)"))
        False
    """
    case = total.this
    if not isinstance(case, exp.Case):
        return False
    results = [i.args.get("true") for i in case.args.get("ifs") or []]
    results.append(case.args.get("default"))
    return all(
        r is None or isinstance(r, exp.Null) or (isinstance(r, exp.Literal) and r.name in "01")
        for r in results
    )
