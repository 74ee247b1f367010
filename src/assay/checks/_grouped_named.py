"""Numbers the question names that a grouping returns whole: ``literal_fit``'s reading of
"How many concerts were held in 2014 and 2015 combined, per year?" as ``SELECT Year, count(*)
FROM concert GROUP BY Year`` where ``concert.Year`` stores only 2014 and 2015: every group is one
of the named years and none is left out, so the years need no literal (outside tryout 40, F-10
w9: the right rows were withheld as ``signal.literal_missing``).

``grouped_to_named`` says so when the SQL has no WHERE, groups by one plain column of a table it
reads, and every value that column stores (read whole with one bounded query: at most
``MOST`` distinct values, NULL among them counting as a value no number names) is a number the
question names, the number asked among them. A stored value the question does not name, a
column of more values, or a query that cannot run: not carried (the number stays missing).
"""

from __future__ import annotations

from sqlglot import exp

from assay.checks._context import CheckContext
from assay.checks._values import _owner

__all__ = ["grouped_to_named"]

MOST = 12
TIME_LIMIT_MS = 2_000


def _number(value: object) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        return float(str(value).strip())
    except ValueError:
        return None


def grouped_to_named(
    number: float, named: frozenset[float], tree: exp.Expr, ctx: CheckContext
) -> bool:
    """Whether the SQL's one grouping returns exactly named numbers, ``number`` among them
    (see the module docstring)."""
    if ctx.catalog is None or ctx.profiles is None or not isinstance(tree, exp.Select):
        return False
    group = tree.args.get("group")
    if group is None or tree.args.get("where") is not None or len(group.expressions) != 1:
        return False
    column = group.expressions[0]
    owner = _owner(column, tree, ctx.catalog) if isinstance(column, exp.Column) else None
    if owner is None:
        return False
    dialect = {"duckdb": "duckdb", "sqlite": "sqlite", "postgres": "postgres"}.get(
        ctx.dialect, ctx.dialect
    )
    t = exp.to_identifier(owner[0], quoted=True).sql(dialect=dialect)
    c = exp.to_identifier(owner[1], quoted=True).sql(dialect=dialect)
    # A probe that fails or runs past its limit raises: the registry names it (fail closed).
    result = ctx.profiles.runner.execute(
        f"SELECT DISTINCT {c} FROM {t} LIMIT {MOST + 1}",
        time_limit_ms=TIME_LIMIT_MS,
        max_rows=MOST + 1,
    )
    stored = [_number(row[0]) for row in result.rows]
    if not stored or len(stored) > MOST or any(v is None or v not in named for v in stored):
        return False
    return number in stored
