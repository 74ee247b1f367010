"""``NOT IN`` over a subquery whose column holds a NULL: a condition that is never true.

"How many customers have never bought anything in a store?" as ``SELECT count(*) FROM customer
WHERE c_customer_sk NOT IN (SELECT ss_customer_sk FROM store_sales)`` answers 0: TPC-DS leaves
``ss_customer_sk`` empty on 1,197 of its sales lines at scale 0.01, and ``x NOT IN (..., NULL)``
is NULL, never true, for every ``x``; the right answer is 86 (outside tryout 28, p04: shown at
1.00, five samples agreeing). ``NOT EXISTS``, or a ``WHERE ss_customer_sk IS NOT NULL`` inside
the subquery, is right.

``not_in_nulls`` runs each uncorrelated ``NOT IN (SELECT ...)`` subquery of the final query
once more, asking only whether its one column returns a NULL (one query, ``LIMIT 1``, under
``TIME_LIMIT_MS``), and says so when it does (``signal.not_in_nulls``). A subquery that filters
its NULLs out returns none and is silent; so is a correlated one (it cannot run alone) and a
``NOT IN`` over a list of values. A probe that fails or runs past its limit is named by the
registry (fail closed).
"""

from __future__ import annotations

from sqlglot import exp
from sqlglot.optimizer.scope import build_scope

from assay.catalog import Catalog
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._where import finding, tree_of

__all__ = ["MAX_PROBED", "not_in_nulls"]

TIME_LIMIT_MS = 2_000
# Each subquery costs one query; a real question negates one or two.
MAX_PROBED = 3
_DIALECTS = {"duckdb": "duckdb", "sqlite": "sqlite", "postgres": "postgres"}


def _negated_subqueries(tree: exp.Expr) -> list[tuple[exp.In, exp.Select]]:
    """Each ``x NOT IN (SELECT one column ...)`` of the query, with its subquery."""
    found = []
    for node in tree.find_all(exp.Not):
        inner = node.this
        while isinstance(inner, exp.Paren):
            inner = inner.this
        query = inner.args.get("query") if isinstance(inner, exp.In) else None
        select = query.this if isinstance(query, exp.Subquery) else query
        if isinstance(select, exp.Select) and len(select.expressions) == 1:
            found.append((inner, select))
    return found


def _correlated(select: exp.Select, catalog: Catalog) -> bool:
    """Whether the subquery reads a column of an outer query (then it cannot run alone): one
    qualified by a name it does not define, or an unqualified one none of its tables has."""
    scope = build_scope(select.copy())
    if scope is None:
        return True
    own: set[str] = set()
    for table in select.find_all(exp.Table):
        info = catalog.table(table.name)
        if info is None:
            return True
        own.update(c.lower() for c in info.column_names)
    return any(
        c.table or c.name.lower() not in own for s in scope.traverse() for c in s.external_columns
    )


def _null_probe(select: exp.Select, dialect: str) -> str:
    """SQL that returns one row when the subquery's one column returns a NULL."""
    inner = select.copy()
    value = inner.expressions[0].unalias()
    inner.set("expressions", [exp.alias_(value.copy(), "assay_v")])
    inner.set("order", None)
    return (
        f"SELECT 1 FROM ({inner.sql(dialect=dialect)}) AS assay_s "
        "WHERE assay_s.assay_v IS NULL LIMIT 1"
    )


def not_in_nulls(ctx: CheckContext) -> CheckOutcome:
    """``signal.not_in_nulls``: ``x NOT IN (SELECT c ...)`` where ``c`` returns a NULL, so the
    condition holds for no row (the module docstring)."""
    catalog = ctx.catalog
    tree = tree_of(ctx) if ctx.profiles is not None and catalog is not None else None
    if tree is None or ctx.profiles is None or catalog is None:
        return CheckOutcome()
    dialect = _DIALECTS.get(ctx.dialect, ctx.dialect)
    probed = 0
    for node, select in _negated_subqueries(tree):
        if probed >= MAX_PROBED or _correlated(select, catalog):
            continue
        probed += 1
        result = ctx.profiles.runner.execute(
            _null_probe(select, dialect), time_limit_ms=TIME_LIMIT_MS, max_rows=1
        )
        if not result.rows:
            continue
        column = select.expressions[0].sql(dialect=dialect)
        return CheckOutcome(
            (
                finding(
                    "signal.not_in_nulls",
                    f"The SQL keeps the rows whose {node.this.sql(dialect=dialect)} is NOT IN "
                    f"a subquery whose {column} returns NULL: NOT IN over a NULL is never "
                    "true, so no row passes and the answer is empty or 0. Use NOT EXISTS, or "
                    f"add WHERE {column} IS NOT NULL inside the subquery.",
                    column=column,
                    condition=f"{node.this.sql(dialect=dialect)} NOT IN (SELECT {column} ...)",
                ),
            )
        )
    return CheckOutcome()
