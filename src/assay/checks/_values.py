"""Literals of the SQL against the values that exist in the database.

``col = 'Dog'`` when the column stores ``'dog'`` returns nothing, and so does ``'United
States'`` when it stores ``'usa'``: an empty or short answer every sample may agree on. For each
string literal compared by ``=``, ``!=`` or ``IN`` with a column of a base table, one bounded
query asks whether the value is stored; when it is not, a second asks for a stored value equal to
it apart from case and surrounding spaces, which the finding names. Numbers and ``LIKE`` patterns
are left alone. A query that cannot run measures nothing (the finding is never invented).
"""

from __future__ import annotations

from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._sql import parse_query
from assay.types import Finding

__all__ = ["MAX_LITERALS", "literal_in_data"]

MAX_LITERALS = 8
TIME_LIMIT_MS = 2_000
_DIALECTS = {"duckdb": "duckdb", "sqlite": "sqlite", "postgres": "postgres"}


def _owner(column: exp.Column, tree: exp.Expr, catalog: Catalog) -> tuple[str, str] | None:
    """The base table and column a column reference reads, when it is unambiguous."""
    tables = {}
    for table in tree.find_all(exp.Table):
        if isinstance(table.this, exp.Identifier) and catalog.table(table.name) is not None:
            tables[table.alias_or_name.lower()] = table.name
    if column.table:
        name = tables.get(column.table.lower())
        names = [name] if name else []
    else:
        names = sorted(set(tables.values()))
    owners = []
    for name in names:
        info = catalog.table(name)
        col = info.column(column.name) if info else None
        if info is not None and col is not None:
            owners.append((info.name, col.name))
    return owners[0] if len(set(owners)) == 1 else None


def _compared(tree: exp.Expr) -> list[tuple[exp.Column, str]]:
    pairs: list[tuple[exp.Column, str]] = []
    for node in tree.find_all(exp.EQ, exp.NEQ, exp.In):
        if isinstance(node, exp.In):
            column, values = node.this, node.expressions
        else:
            column, values = node.this, [node.expression]
            if isinstance(column, exp.Literal):
                column, values = node.expression, [node.this]
        if not isinstance(column, exp.Column):
            continue
        pairs.extend((column, v.name) for v in values if isinstance(v, exp.Literal) and v.is_string)
    return pairs


def _probe(ctx: CheckContext, table: str, column: str, value: str) -> tuple[bool, object]:
    """(stored as written, a stored value equal apart from case)."""
    assert ctx.profiles is not None
    dialect = _DIALECTS.get(ctx.dialect, ctx.dialect)
    t = exp.to_identifier(table, quoted=True).sql(dialect=dialect)
    c = exp.to_identifier(column, quoted=True).sql(dialect=dialect)
    literal = exp.Literal.string(value).sql(dialect=dialect)
    text = f"CAST({c} AS TEXT)" if dialect == "postgres" else f"CAST({c} AS VARCHAR)"
    # A probe that fails or runs past its limit raises: the check registry names it
    # (veto.check_failed, veto.check_timed_out) and nothing is shown (fail closed).
    exact = ctx.profiles.runner.execute(
        f"SELECT 1 FROM {t} WHERE {text} = {literal} LIMIT 1",
        time_limit_ms=TIME_LIMIT_MS,
        max_rows=1,
    )
    if exact.rows:
        return True, None
    near = ctx.profiles.runner.execute(
        f"SELECT {c} FROM {t} WHERE lower(trim({text})) = lower(trim({literal})) "
        f"ORDER BY 1 LIMIT 1",
        time_limit_ms=TIME_LIMIT_MS,
        max_rows=1,
    )
    return False, (near.rows[0][0] if near.rows else None)


def literal_in_data(ctx: CheckContext) -> CheckOutcome:
    """Every string literal compared with a column is a value that column stores."""
    sql = ctx.candidate.final_sql
    if ctx.catalog is None or ctx.profiles is None or not sql:
        return CheckOutcome()
    tree = parse_query(sql, ctx.dialect)
    if tree is None:
        return CheckOutcome()
    findings = []
    seen: set[tuple[str, str, str]] = set()
    for column, value in _compared(tree)[:MAX_LITERALS]:
        owner = _owner(column, tree, ctx.catalog)
        if owner is None or (*owner, value) in seen:
            continue
        seen.add((*owner, value))
        probed = _probe(ctx, owner[0], owner[1], value)
        if probed[0]:
            continue
        stored = probed[1]
        where = f"{owner[0]}.{owner[1]}"
        if stored is not None:
            message = f"{where} does not store {value!r}; it stores {stored!r} (case or spaces)."
        else:
            message = f"{where} stores no value equal to {value!r}, in any case."
        findings.append(
            Finding(
                "signal.literal_not_in_data",
                "signal",
                message,
                {"column": where, "literal": value, "stored": stored},
            )
        )
    return CheckOutcome(tuple(findings))
