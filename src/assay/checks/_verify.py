"""The checks that read the semantic layer: an answer planned from a reading is verified after
execution against what the layer defines.

``reading_fit`` compares the executed SQL with the question's reading clause by clause
(``fit_check``: a mismatch is ``veto.reading_mismatch``, the matching share is COMPLETE); the
others read the executed SQL's tree and its result: were the metric's required filters and the
period actually applied, does the result hold impossible values (negative counts, shares above
100%, dates outside coverage), and does the metric aggregate a column that carries a stand-in
code without excluding it. Each is a ``Check`` of ``CHECKS`` over the one ``CheckContext`` and
measures nothing when the context carries no reading or metric (a sampled answer).
"""

from __future__ import annotations

import datetime as dt

import sqlglot
from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._fit import fit_check
from assay.checks._ranked import ranked_shape
from assay.checks._sql import in_condition
from assay.checks._stand_in_aggregate import stand_in_in_aggregate
from assay.checks._unmatched_rows import unmatched_rows
from assay.semantic import JoinPath, Metric, Period
from assay.types import Finding

__all__ = ["LAYER_CHECKS", "PLAN_CHECKS", "VERIFICATION_CODES", "reading_fit"]


def _canon(node: exp.Expr) -> str:
    return node.sql(dialect="duckdb", normalize=True).lower().replace('"', "")


def _conditions(sql: str, dialect: str) -> list[str]:
    tree = sqlglot.parse_one(sql, read=dialect)
    ranked = ranked_shape(tree) if isinstance(tree, exp.Select) else None
    if ranked is not None:  # a ranking that keeps ties: the query it ranks holds the WHERE
        tree = ranked.inner
    where = tree.find(exp.Where)
    if where is None:
        return []
    out = []
    stack = [where.this]
    while stack:
        node = stack.pop()
        if isinstance(node, exp.And):
            stack += [node.left, node.right]
        else:
            out.append(_canon(node))
    return out


def reading_fit(ctx: CheckContext) -> CheckOutcome:
    """COMPLETE without a model: the share of the reading's clauses the SQL does (``fit_check``);
    a clause that does not match is ``veto.reading_mismatch``. Unmeasured without a reading."""
    sql = ctx.candidate.final_sql
    if ctx.reading is None or ctx.layer is None or not sql:
        return CheckOutcome()
    fit = fit_check(sql, ctx.reading, ctx.layer, ctx.dialect, ctx.catalog)
    return CheckOutcome(
        fit.findings,
        {"complete": fit.complete},
        {"fit": {"checked": list(fit.checked), "mismatches": list(fit.mismatches)}},
    )


def required_filters_applied(ctx: CheckContext) -> CheckOutcome:
    """The metric's required filters (``status <> 'void'``) appear in the executed WHERE."""
    metric, sql = ctx.metric, ctx.candidate.final_sql
    if metric is None or not sql or ctx.candidate.result is None:
        return CheckOutcome()
    present = set(_conditions(sql, ctx.dialect))
    missing = [f for f in metric.required_filters if _canon(sqlglot.condition(f)) not in present]
    return CheckOutcome(
        tuple(
            Finding(
                "cap.required_filter_missing",
                "cap",
                f"The metric {metric.label} requires {f}, which the SQL does not apply.",
                {"filter": f},
            )
            for f in missing
        )
    )


def period_applied(ctx: CheckContext) -> CheckOutcome:
    """The reading's period bounds the metric's time column in the executed WHERE."""
    metric, period, sql = ctx.metric, ctx.period, ctx.candidate.final_sql
    if metric is None or not sql or ctx.candidate.result is None:
        return CheckOutcome()
    if len(ctx.periods) > 1:
        return CheckOutcome(tuple(_periods_applied(sql, ctx.dialect, metric, ctx.periods)))
    if period is None:
        return CheckOutcome()
    conditions = " ".join(_conditions(sql, ctx.dialect))
    column = metric.time_column.lower()
    if column in conditions and str(period.start) in conditions and str(period.end) in conditions:
        return CheckOutcome()
    return CheckOutcome(
        (
            Finding(
                "cap.period_not_applied",
                "cap",
                f"The period {period.label} is not applied to {metric.time_column}.",
                {"period": period.label},
            ),
        )
    )


def _periods_applied(
    sql: str, dialect: str, metric: Metric, periods: tuple[Period, ...]
) -> list[Finding]:
    """Each compared period's two bounds on the time column, together in one WHERE of the
    query (the outer one, or the subquery that measures that period)."""
    tree = sqlglot.parse_one(sql, read=dialect)
    column = metric.time_column.lower()
    wheres = [_canon(w.this) for w in tree.find_all(exp.Where)]
    on_time = [w for w in wheres if column in w]
    missing = [
        p for p in periods if not any(str(p.start) in w and str(p.end) in w for w in on_time)
    ]
    return [
        Finding(
            "cap.period_not_applied",
            "cap",
            f"The period {p.label} is not applied to {metric.time_column}.",
            {"period": p.label},
        )
        for p in missing
    ]


def possible_values(ctx: CheckContext) -> CheckOutcome:
    """No negative count, no share above 100%, no date outside the layer's coverage (at most
    five findings)."""
    if ctx.metric is None or ctx.candidate.result is None:
        return CheckOutcome()
    coverage = ctx.coverage
    if coverage is not None and ctx.reading is not None:
        # A row of a series is labelled by its bucket's first day ("per month": 2025-05-01 for
        # data from 2025-05-16): the bucket that holds coverage's first day starts before it.
        kinds = {ctx.reading.grain, *(p.kind for p in ctx.reading.periods)} - {None}
        starts = [_bucket_start(coverage[0], str(k)) for k in kinds]
        coverage = (min([coverage[0], *starts]), coverage[1])
    return CheckOutcome(
        tuple(_impossible(ctx.metric, ctx.candidate.result.rows, coverage, ctx.difference))
    )


def _bucket_start(day: dt.date, kind: str) -> dt.date:
    """The first day of the ``kind`` bucket (year, quarter, month, week) that holds ``day``;
    ``day`` itself for any other kind.

    Example:
        >>> _bucket_start(dt.date(2025, 5, 16), "quarter")
        datetime.date(2025, 4, 1)
    """
    if kind == "year":
        return dt.date(day.year, 1, 1)
    if kind == "quarter":
        return dt.date(day.year, 3 * ((day.month - 1) // 3) + 1, 1)
    if kind == "month":
        return dt.date(day.year, day.month, 1)
    if kind == "week":
        return day - dt.timedelta(days=day.weekday())
    return day


def _impossible(
    metric: Metric,
    rows: tuple[tuple[object, ...], ...],
    coverage: tuple[dt.date, dt.date] | None,
    difference: bool = False,
) -> list[Finding]:
    found = []
    # A difference between two counts (a change query's last column) may be negative.
    counts = metric.expression.upper().startswith("COUNT") and not difference
    for index, row in enumerate(rows):
        value = row[-1] if row else None
        if counts and isinstance(value, (int, float)) and value < 0:
            found.append(
                Finding(
                    "veto.impossible_value",
                    "veto",
                    f"Row {index} has a negative count ({value}).",
                    {"row": index, "value": value},
                )
            )
        for cell in row:
            if (
                isinstance(cell, dt.date)
                and coverage
                and not (
                    coverage[0]
                    <= (cell.date() if isinstance(cell, dt.datetime) else cell)
                    <= coverage[1]
                )
            ):
                found.append(
                    Finding(
                        "veto.impossible_value",
                        "veto",
                        f"Row {index} has a date outside coverage ({cell}).",
                        {"row": index, "value": str(cell)},
                    )
                )
    if "share" in metric.name or "percent" in metric.name:
        found += [
            Finding("veto.impossible_value", "veto", f"Row {i} has a share above 100%.", {"row": i})
            for i, r in enumerate(rows)
            if isinstance(r[-1], (int, float)) and r[-1] > 100
        ]
    return found[:5]


def _unique(ctx: CheckContext, join: JoinPath, table: str) -> bool:
    """The join's key on ``table`` is unique: proven by the data when the engine is reachable
    (non-null values all distinct), else as the join declares it."""
    key = join.right if join.tables[1].lower() == table.lower() else join.left
    if ctx.profiles is not None:
        profile = ctx.profiles.profile(*key.split(".", 1))
        if profile is not None:
            return profile.n_distinct == profile.n_rows - profile.n_null
    on_right = join.tables[1].lower() == table.lower()
    declared = {"one_to_one", "many_to_one" if on_right else "one_to_many"}
    return join.relationship in declared


def _looked_up(ctx: CheckContext, many: str, one: str) -> bool:
    """Every row of ``many`` meets at most one row of ``one``: a path of the layer's joins from
    ``many`` to ``one`` whose every hop lands on a unique key. No path, or a hop onto a key
    that repeats (one to many), is a fan-out."""
    layer = ctx.layer
    if layer is None:
        return False
    frontier, seen = [many.lower()], {many.lower()}
    while frontier:
        table = frontier.pop()
        if table == one.lower():
            return True
        for join in layer.joins:
            ends = [t.lower() for t in join.tables]
            if table not in ends:
                continue
            other = ends[1] if ends[0] == table else ends[0]
            if other in seen or not _unique(ctx, join, other):
                continue
            seen.add(other)
            frontier.append(other)
    return False


def fan_out_in_metric(ctx: CheckContext) -> CheckOutcome:
    """A metric whose own definition aggregates (``SUM``, ``COUNT``, ``AVG``, not ``DISTINCT``)
    a column of another table, joined many to one from the metric's table, counts each row of
    that one side once per row of the many side (``SUM(store.s_number_employees)`` over
    ``store_sales``: each store's employees once per sale). The answer is the definition's, so
    it may be shown, but only warned, the fan-out named (``cap.fan_out_in_metric``). A
    definition that cannot be read raises (``veto.check_failed``: fail closed)."""
    metric, layer, sql = ctx.metric, ctx.layer, ctx.candidate.final_sql
    if metric is None or not sql or ctx.candidate.result is None:
        return CheckOutcome()
    metrics = [metric]
    if ctx.reading is not None and layer is not None:
        metrics += [layer.metric(n) for n in ctx.reading.metrics if n != metric.name]
    found: list[Finding] = []
    said: set[tuple[str, str]] = set()
    for m in metrics:
        tree = sqlglot.parse_one(m.expression, read="duckdb")  # raises: the check fails closed
        for agg in tree.find_all(exp.Sum, exp.Avg, exp.Count):
            if agg.find(exp.Distinct) is not None:
                continue
            for column in agg.find_all(exp.Column):
                if not column.table:
                    raise ValueError(f"{m.label}: {column.sql()!r} names no table")
                if column.table.lower() == m.table.lower():
                    continue
                one, many = column.table, m.table
                test = in_condition(column, agg)
                if test and _looked_up(ctx, many, one):
                    continue  # read once per row of the metric's table: a lookup, no fan-out
                if (m.name, f"{one}.{column.name}") in said:
                    continue
                said.add((m.name, f"{one}.{column.name}"))
                lost = next(
                    (
                        j.unmatched
                        for j in (layer.joins if layer is not None else ())
                        if j.unmatched
                        and {t.lower() for t in j.tables} == {one.lower(), many.lower()}
                    ),
                    0,
                )
                unmatched = (
                    f" {lost} rows of {many} match no {one} row: they count in its other "
                    f"aggregates, not in {agg.sql(dialect='duckdb')}."
                    if lost
                    else ""
                )
                what = (
                    f"{many} rows joined to {one}, whose key is not proven unique (one to "
                    f"many): each {many} row is taken once per matching {one} row, so "
                    f"{agg.sql(dialect='duckdb')} counts it more than once."
                    if test
                    else f"{many} rows joined to {one} (many to one): {column.name} is counted "
                    f"once per {many} row, not once per {one} row."
                )
                found.append(
                    Finding(
                        "cap.fan_out_in_metric",
                        "cap",
                        f"{m.label} is defined as {m.expression}, over {what} The answer is "
                        f"the definition's, fan-out included.{unmatched}",
                        {"metric": m.name, "column": f"{one}.{column.name}", "table": many},
                    )
                )
    return CheckOutcome(tuple(found))


# The checks that read only the SQL text and the reading: all that can be checked of a plan the
# guard refused or the engine failed on (there is no result to verify).
PLAN_CHECKS = (reading_fit,)
# The checks over the executed answer that read the metric, its period and the coverage.
LAYER_CHECKS = (
    required_filters_applied,
    period_applied,
    possible_values,
    stand_in_in_aggregate,
    fan_out_in_metric,
    unmatched_rows,
)
# The codes of verification against the layer (with an empty result), counted as the confidence
# model's ``verification_issues`` feature.
VERIFICATION_CODES = frozenset(
    {
        "cap.required_filter_missing",
        "cap.period_not_applied",
        "signal.empty_result",
        "veto.impossible_value",
        "cap.stand_in_in_aggregate",
        "veto.stand_in_in_aggregate",
    }
)
