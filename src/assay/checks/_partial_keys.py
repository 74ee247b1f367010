"""A join on part of a two-column key: every row matches every row that shares that part.

"Total net paid on store sales lines that were later returned" answered with ``store_sales JOIN
store_returns ON ss_item_sk = sr_item_sk`` sums each sale of a returned item once per return of
that item: a return belongs to one sales line, named by the ticket number AND the item. Five
samples agreeing on it were shown at 1.00 (agreed16, h16_d01). ``partial_key_join`` reads, in
each SELECT whose result counts rows (a SUM, AVG or plain COUNT, or rows listed without
DISTINCT or GROUP BY, not the inside of an EXISTS or IN), the equalities joining two base
tables, and says ``signal.partial_key_join`` when they cover only part of the key the two
tables relate through:

- declared: a foreign key of two or more columns between them, of which the SQL equates some
  and not all;
- or evident in the names and the data: the SQL equates columns of the same name on both sides
  (``ss_item_sk = sr_item_sk``, each table's shared prefix set aside), the equated columns
  repeat on both sides (many to many: checked on the first ``SAMPLE_ROWS`` rows of each), and
  another key-like column of the same name on both sides (``ss_ticket_number`` and
  ``sr_ticket_number``; a name ending in id, key, sk, number, no, num or code) makes them unique
  on one side.

The data is read with one bounded query per column set (``TIME_LIMIT_MS``; a probe that fails
or runs past it is the registry's finding, fail closed). Without a database only declared keys
are read. Silence is never evidence of a right answer.
"""

from __future__ import annotations

import re
from collections import defaultdict

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from assay.catalog import Catalog, column_prefix
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._where import finding, tree_of
from assay.guard import DIALECTS, QueryAnalysis, analyse
from assay.types import Finding

__all__ = ["MAX_CANDIDATES", "SAMPLE_ROWS", "TIME_LIMIT_MS", "partial_key_join"]

SAMPLE_ROWS = 100_000
TIME_LIMIT_MS = 2_000
# Key-like columns paired by name that are tried as the missing part (TPC-DS store_sales and
# store_returns pair six: customer, demographics, household, address, store, ticket number).
MAX_CANDIDATES = 8
_KEY_LIKE = re.compile(r"(?:id|key|sk|number|no|num|nbr|code)$")
_COUNTING = (exp.Sum, exp.Avg, exp.Count)

Pair = tuple[str, str]  # (column of the first table, column of the second), as the catalog names


def _counts_rows(select: exp.Select) -> bool:
    """Whether a repeated joined row changes the SELECT's result: it sums, averages or counts
    rows (not distinct values), or lists rows without DISTINCT or GROUP BY; the inside of an
    EXISTS or IN only asks whether a row exists."""
    if select.args.get("distinct") is not None:
        return False
    parent = select.parent
    while isinstance(parent, (exp.Subquery, exp.Paren)):
        parent = parent.parent
    if isinstance(parent, (exp.Exists, exp.In)):
        return False
    aggregates = [a for a in select.find_all(exp.AggFunc) if _in_scope(a, select)]
    if not aggregates and select.args.get("group") is None:
        return True
    for agg in aggregates:
        if isinstance(agg, _COUNTING) and not isinstance(agg.this, exp.Distinct):
            return True
    return False


def _in_scope(node: exp.Expr, select: exp.Select) -> bool:
    """The node belongs to this SELECT, not to a subquery inside it."""
    parent = node.parent
    while parent is not None and parent is not select:
        if isinstance(parent, exp.Select):
            return False
        parent = parent.parent
    return parent is select


def _joins(scope: Scope, analysis: QueryAnalysis, catalog: Catalog) -> dict[Pair, set[Pair]]:
    """Per pair of base tables (sorted), the column pairs the SELECT equates between them."""
    select = scope.expression
    conditions = [j.args["on"] for j in select.args.get("joins") or [] if j.args.get("on")]
    if select.args.get("where") is not None:
        conditions.append(select.args["where"])
    found: dict[Pair, set[Pair]] = defaultdict(set)
    for condition in conditions:
        for eq in condition.find_all(exp.EQ):
            left, right = eq.this, eq.expression
            if not (isinstance(left, exp.Column) and isinstance(right, exp.Column)):
                continue
            ends = []
            for column in (left, right):
                ref = analysis.resolve(scope, column)
                info = catalog.table(ref.table) if ref.table else None
                col = info.column(column.name) if info else None
                if info is None or col is None:
                    break
                ends.append((info.name, col.name))
            if len(ends) == 2 and ends[0][0].lower() != ends[1][0].lower():
                (ta, ca), (tb, cb) = sorted(ends, key=lambda e: e[0].lower())
                found[(ta, tb)].add((ca, cb))
    return found


def _stem(column: str, prefix: str) -> str:
    """A column's name less its table's shared prefix (``item_sk`` of ``ss_item_sk``)."""
    name = column.lower()
    return name[len(prefix) + 1 :] if prefix and name.startswith(prefix + "_") else name


def _paired(catalog: Catalog, tables: Pair) -> dict[str, Pair]:
    """The columns of the same stem on both tables, by stem."""
    sides = []
    for table in tables:
        info = catalog.table(table)
        if info is None:
            return {}
        prefix = column_prefix([c.name for c in info.columns])
        sides.append({_stem(c.name, prefix): c.name for c in info.columns})
    return {s: (sides[0][s], sides[1][s]) for s in sorted(sides[0].keys() & sides[1].keys())}


def _quote(name: str, dialect: str) -> str:
    return exp.to_identifier(name, quoted=True).sql(dialect=DIALECTS.get(dialect, dialect))


def _repeats(ctx: CheckContext, table: str, columns: list[str]) -> bool:
    """Whether two of the table's first ``SAMPLE_ROWS`` rows share the columns' values (rows
    with a NULL in them set aside). A probe that fails raises: the registry names it."""
    assert ctx.profiles is not None
    cols = ", ".join(_quote(c, ctx.dialect) for c in columns)
    present = " AND ".join(f"{_quote(c, ctx.dialect)} IS NOT NULL" for c in columns)
    sql = (
        f"SELECT 1 FROM (SELECT {cols} FROM {_quote(table, ctx.dialect)} WHERE {present} "
        f"LIMIT {SAMPLE_ROWS}) AS s GROUP BY {cols} HAVING count(*) > 1 LIMIT 1"
    )
    return bool(ctx.profiles.runner.execute(sql, time_limit_ms=TIME_LIMIT_MS, max_rows=1).rows)


def _declared_missing(catalog: Catalog, tables: Pair, equated: set[Pair]) -> list[Pair]:
    """The columns of a declared key of two or more columns between the tables that the SQL
    leaves out while it equates some others of that key."""
    for key in catalog.foreign_keys:
        if len(key.columns) < 2 or {key.table.lower(), key.ref_table.lower()} != {
            t.lower() for t in tables
        }:
            continue
        forward = key.table.lower() == tables[0].lower()
        pairs = [
            (a, b) if forward else (b, a)
            for a, b in zip(key.columns, key.ref_columns, strict=False)
        ]
        said = {(a.lower(), b.lower()) for a, b in equated}
        covered = [p for p in pairs if (p[0].lower(), p[1].lower()) in said]
        if covered and len(covered) < len(pairs):
            return [p for p in pairs if p not in covered]
    return []


def _evident_missing(ctx: CheckContext, tables: Pair, equated: set[Pair]) -> list[Pair]:
    """The key-like column pairs of one name on both sides that, added to the equated columns,
    name one row on one side, when the equated columns (paired by name) repeat on both."""
    assert ctx.catalog is not None
    paired = _paired(ctx.catalog, tables)
    by_name = {pair for pair in paired.values()}
    if ctx.profiles is None or not equated <= by_name:
        return []
    left, right = [a for a, _ in sorted(equated)], [b for _, b in sorted(equated)]
    candidates = [
        pair for stem, pair in paired.items() if pair not in equated and _KEY_LIKE.search(stem)
    ][:MAX_CANDIDATES]
    if not candidates:
        return []
    if not (_repeats(ctx, tables[0], left) and _repeats(ctx, tables[1], right)):
        return []  # one side names one row: no multiplication
    # each candidate: (unique on the first table, unique on the second)
    unique = {
        (a, b): (
            not _repeats(ctx, tables[0], [*left, a]),
            not _repeats(ctx, tables[1], [*right, b]),
        )
        for a, b in candidates
    }
    # a key of both tables (the ticket number names one sales line and one return) before a
    # column that names one row only where the data is sparse
    return [p for p in candidates if all(unique[p])] or [p for p in candidates if any(unique[p])]


def partial_key_join(ctx: CheckContext) -> CheckOutcome:
    """The SQL joins two tables on part of the key they relate through, in a SELECT that counts
    rows: each row is matched with every row sharing that part (``signal.partial_key_join``)."""
    tree = tree_of(ctx)
    if tree is None or ctx.catalog is None:
        return CheckOutcome()
    dialect = ctx.catalog.dialect if ctx.catalog.dialect in DIALECTS else None
    analysis = analyse(tree, dialect, ctx.catalog)
    for scope in analysis.scopes:
        select = scope.expression
        if not isinstance(select, exp.Select) or not _counts_rows(select):
            continue
        for tables, equated in sorted(_joins(scope, analysis, ctx.catalog).items()):
            missing = _declared_missing(ctx.catalog, tables, equated) or _evident_missing(
                ctx, tables, equated
            )
            if missing:
                return CheckOutcome((_finding(tables, equated, missing),))
    return CheckOutcome()


def _finding(tables: Pair, equated: set[Pair], missing: list[Pair]) -> Finding:
    said = " AND ".join(f"{tables[0]}.{a} = {tables[1]}.{b}" for a, b in sorted(equated))
    wanted = " or ".join(f"{tables[0]}.{a} = {tables[1]}.{b}" for a, b in missing)
    return finding(
        "signal.partial_key_join",
        f"The SQL joins {tables[0]} and {tables[1]} on {said} alone, but the two relate through "
        f"a key of more columns: each row is matched with every row that shares that part, so "
        f"rows are repeated in the result. Equate the rest of the key too ({wanted}).",
        tables=list(tables),
        equated=[f"{a} = {b}" for a, b in sorted(equated)],
        missing=[f"{a} = {b}" for a, b in missing],
    )
