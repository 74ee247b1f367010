"""Literals of the SQL against the values that exist in the database.

``col = 'Dog'`` when the column stores ``'dog'`` returns nothing, and so does ``'United
States'`` when it stores ``'usa'``: an empty or short answer every sample may agree on. For each
string literal compared by ``=``, ``!=`` or ``IN`` with a column of a base table, one bounded
query asks whether the value is stored; when it is not, a second asks for a stored value equal to
it apart from case and surrounding spaces, which the finding names. Numbers and ``LIKE`` patterns
are left alone. On SQLite a double-quoted name that is no column or alias of the query is a
string (``Country = "France"`` compares with the string 'France'; outside tryout 17, Spider dev
114, 'france' stored): it is probed as a literal. A query that cannot run measures nothing
(the finding is never invented).
"""

from __future__ import annotations

from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._sql import parse_query
from assay.checks._text_numbers import numbers_in_text
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


def _names(tree: exp.Expr, catalog: Catalog) -> set[str] | None:
    """Every name a bare identifier of the query can resolve to: the columns of its base
    tables and every alias it defines (lower case); None when a table read is neither in the
    catalog nor defined by the query (its columns are unknown)."""
    names = {a.alias.lower() for a in tree.find_all(exp.Alias) if a.alias}
    defined = {c.alias_or_name.lower() for c in tree.find_all(exp.CTE)}
    for alias in tree.find_all(exp.TableAlias):
        names.update(c.name.lower() for c in alias.columns)
    for table in tree.find_all(exp.Table):
        info = catalog.table(table.name)
        if info is None:
            if table.name.lower() not in defined:
                return None
            continue
        names.update(c.name.lower() for c in info.columns)
    for cte in tree.find_all(exp.CTE, exp.Subquery):
        inner = cte.this
        if isinstance(inner, exp.Select):
            names.update(e.alias_or_name.lower() for e in inner.expressions)
    return names


def _string(node: exp.Expr, names: set[str] | None) -> str | None:
    """The string a comparison operand stands for: a string literal, or on SQLite a
    double-quoted name that is no column or alias of the query (SQLite reads ``"France"`` as
    the string 'France' when no column has that name)."""
    if isinstance(node, exp.Literal):
        return node.name if node.is_string else None
    if names is None or not isinstance(node, exp.Column) or node.table:
        return None
    if not isinstance(node.this, exp.Identifier) or not node.this.quoted:
        return None
    return node.name if node.name.lower() not in names else None


def _compared(tree: exp.Expr, names: set[str] | None = None) -> list[tuple[exp.Column, str]]:
    """(column, string) pairs compared by ``=``, ``!=`` or ``IN``; ``names`` (SQLite only) are
    the names a double-quoted identifier may resolve to, any other being a string."""
    pairs: list[tuple[exp.Column, str]] = []
    for node in tree.find_all(exp.EQ, exp.NEQ, exp.In):
        if isinstance(node, exp.In):
            column, values = node.this, node.expressions
        else:
            column, values = node.this, [node.expression]
            if _string(column, names) is not None:
                column, values = node.expression, [node.this]
        if not isinstance(column, exp.Column) or _string(column, names) is not None:
            continue
        strings = (_string(v, names) for v in values)
        pairs.extend((column, v) for v in strings if v is not None)
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
    names = _names(tree, ctx.catalog) if ctx.dialect == "sqlite" else None
    for column, value in _compared(tree, names)[:MAX_LITERALS]:
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
    findings.extend(numbers_in_text(ctx, tree, _owner))  # 'T'/'F' against 1 (_text_numbers)
    return CheckOutcome(tuple(findings))
