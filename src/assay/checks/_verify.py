"""Verification after execution, for answers planned from a semantic layer.

``VERIFY`` runs on the executed SQL's tree and its result: were the metric's required filters
and the period actually applied, is the result non-empty, does it hold impossible values
(negative counts, shares above 100%, dates outside coverage), and does the metric aggregate a
column that carries a stand-in code without excluding it. Findings go to the gate like any
other check's.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

import sqlglot
from sqlglot import exp

from assay.catalog import Profiles
from assay.errors import ExecutionError
from assay.semantic import Metric, Period
from assay.types import Finding, Result

__all__ = ["VERIFY", "VerifyContext", "verify"]


@dataclass(frozen=True)
class VerifyContext:
    sql: str
    result: Result
    metric: Metric
    period: Period | None
    coverage: tuple[dt.date, dt.date] | None
    profiles: Profiles | None = None
    dialect: str = "duckdb"
    # Compared periods, each to be applied on its own (a change query has one subquery per
    # period), and whether the last column is a difference between them (it may be negative).
    periods: tuple[Period, ...] = ()
    difference: bool = False


def _canon(node: exp.Expr) -> str:
    return node.sql(dialect="duckdb", normalize=True).lower().replace('"', "")


def _conditions(ctx: VerifyContext) -> list[str]:
    tree = sqlglot.parse_one(ctx.sql, read=ctx.dialect)
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


def required_filters_applied(ctx: VerifyContext) -> list[Finding]:
    present = set(_conditions(ctx))
    missing = [
        f for f in ctx.metric.required_filters if _canon(sqlglot.condition(f)) not in present
    ]
    return [
        Finding(
            "cap.required_filter_missing",
            "cap",
            f"The metric {ctx.metric.label} requires {f}, which the SQL does not apply.",
            {"filter": f},
        )
        for f in missing
    ]


def period_applied(ctx: VerifyContext) -> list[Finding]:
    if len(ctx.periods) > 1:
        return _periods_applied(ctx)
    if ctx.period is None:
        return []
    conditions = " ".join(_conditions(ctx))
    column = ctx.metric.time_column.lower()
    if (
        column in conditions
        and str(ctx.period.start) in conditions
        and str(ctx.period.end) in conditions
    ):
        return []
    return [
        Finding(
            "cap.period_not_applied",
            "cap",
            f"The period {ctx.period.label} is not applied to {ctx.metric.time_column}.",
            {"period": ctx.period.label},
        )
    ]


def _periods_applied(ctx: VerifyContext) -> list[Finding]:
    """Each compared period's two bounds on the time column, together in one WHERE of the
    query (the outer one, or the subquery that measures that period)."""
    tree = sqlglot.parse_one(ctx.sql, read=ctx.dialect)
    column = ctx.metric.time_column.lower()
    wheres = [_canon(w.this) for w in tree.find_all(exp.Where)]
    on_time = [w for w in wheres if column in w]
    missing = [
        p for p in ctx.periods if not any(str(p.start) in w and str(p.end) in w for w in on_time)
    ]
    return [
        Finding(
            "cap.period_not_applied",
            "cap",
            f"The period {p.label} is not applied to {ctx.metric.time_column}.",
            {"period": p.label},
        )
        for p in missing
    ]


def non_empty(ctx: VerifyContext) -> list[Finding]:
    if ctx.result.rows and any(v is not None for row in ctx.result.rows for v in row[-1:]):
        return []
    return [
        Finding(
            "signal.empty_result",
            "signal",
            "The query returned no rows (or only NULL), so there is nothing to report.",
            {},
        )
    ]


def possible_values(ctx: VerifyContext) -> list[Finding]:
    found = []
    counts = ctx.metric.expression.upper().startswith("COUNT") and not ctx.difference
    for index, row in enumerate(ctx.result.rows):
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
                and ctx.coverage
                and not (
                    ctx.coverage[0]
                    <= (cell.date() if isinstance(cell, dt.datetime) else cell)
                    <= ctx.coverage[1]
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
    if "share" in ctx.metric.name or "percent" in ctx.metric.name:
        found += [
            Finding("veto.impossible_value", "veto", f"Row {i} has a share above 100%.", {"row": i})
            for i, r in enumerate(ctx.result.rows)
            if isinstance(r[-1], (int, float)) and r[-1] > 100
        ]
    return found[:5]


def stand_in_in_aggregate(ctx: VerifyContext) -> list[Finding]:
    if ctx.profiles is None:
        return []
    tree = sqlglot.parse_one(ctx.metric.expression, read="duckdb")
    guarded = " ".join(f.lower() for f in ctx.metric.required_filters)
    found = []
    for column in tree.find_all(exp.Column):
        try:
            profile = ctx.profiles.profile(column.table, column.name)
        except ExecutionError:
            continue
        if profile is None or not profile.stand_ins:
            continue
        if column.name.lower() in guarded:
            continue  # the metric's required filters already exclude it
        codes = ", ".join(str(s.value) for s in profile.stand_ins)
        found.append(
            Finding(
                "cap.stand_in_in_aggregate",
                "cap",
                f"{column.table}.{column.name} holds stand-in codes ({codes}) that "
                f"{ctx.metric.label} aggregates as values.",
                {"column": f"{column.table}.{column.name}", "codes": codes},
            )
        )
    return found


VERIFY: tuple[Callable[[VerifyContext], list[Finding]], ...] = (
    required_filters_applied,
    period_applied,
    non_empty,
    possible_values,
    stand_in_in_aggregate,
)


def verify(ctx: VerifyContext) -> tuple[Finding, ...]:
    return tuple(f for check in VERIFY for f in check(ctx))
