"""The planner: a resolved question compiled to SQL with sqlglot's builder, no model involved.

The metric's expression and required filters, the period on its time column, dimension filters,
grouping (a dimension, or a month or year grain), ordering and limits. Tables are joined along
the semantic layer's join paths from the metric's table, in the direction that cannot multiply
rows (many to one); a path that would fan out is refused rather than guessed. Deterministic:
the same question always gives the same SQL.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import sqlglot
from sqlglot import exp

from assay.errors import GenerationError
from assay.semantic import JoinPath, Metric, Resolution, SemanticLayer

__all__ = ["Plan", "plan"]


@dataclass(frozen=True)
class Plan:
    sql: str
    metric: Metric
    tables: tuple[str, ...]
    join_count: int
    group_by: str | None
    grain: str | None
    filters: tuple[tuple[str, str], ...]


def _tables_of(text: str) -> set[str]:
    return {c.table for c in sqlglot.parse_one(text, read="duckdb").find_all(exp.Column) if c.table}


def _path(layer: SemanticLayer, start: str, goal: str) -> list[tuple[JoinPath, bool]]:
    """Joins from ``start`` to ``goal``; each step says whether it goes left to right."""
    queue: deque[tuple[str, list[tuple[JoinPath, bool]]]] = deque([(start, [])])
    seen = {start}
    while queue:
        table, steps = queue.popleft()
        if table == goal:
            return steps
        for join in layer.joins:
            left, right = join.tables
            for here, there, forward in ((left, right, True), (right, left, False)):
                if here == table and there not in seen:
                    seen.add(there)
                    queue.append((there, [*steps, (join, forward)]))
    raise GenerationError(
        f"No join path from {start} to {goal} in the semantic layer.",
        hint="Add the join to the layer's joins.",
    )


def _joins(layer: SemanticLayer, metric: Metric, needed: set[str]) -> list[tuple[str, str]]:
    ordered: list[tuple[str, str]] = []
    joined = {metric.table}
    distinct = "DISTINCT" in metric.expression.upper()
    for goal in sorted(needed - {metric.table}):
        for join, forward in _path(layer, metric.table, goal):
            left, right = join.tables
            target = right if forward else left
            if target in joined:
                continue
            fans_out = (join.relationship == "many_to_one") != forward
            if fans_out and not distinct:
                raise GenerationError(
                    f"Joining {target} to {metric.table} would multiply rows and inflate "
                    f"{metric.label}.",
                    hint="Define the metric on the joined grain.",
                )
            ordered.append((target, f"{join.left} = {join.right}"))
            joined.add(target)
    return ordered


def plan(resolution: Resolution, layer: SemanticLayer, dialect: str = "duckdb") -> Plan:
    """The SQL for a question the behaviour rules chose to answer."""
    if not resolution.metrics:
        raise GenerationError(
            "Nothing to plan: the question names no metric.",
            hint="The behaviour rules should have abstained.",
        )
    metric = layer.metric(resolution.metrics[0])
    time_col = metric.time_column
    group = layer.dimension(resolution.group_by) if resolution.group_by else None
    filters = [(layer.dimension(d), v) for d, v in resolution.filters]
    needed = _tables_of(metric.expression) | _tables_of(time_col)
    for text in metric.required_filters:
        needed |= _tables_of(text)
    for dim in [group] + [d for d, _ in filters]:
        if dim is not None:
            needed.add(dim.column.split(".")[0])
    joins = _joins(layer, metric, needed)
    projections: list[exp.Expr] = []
    keys: list[exp.Expr] = []
    key: exp.Expr
    if resolution.grain == "month":
        key = exp.func("date_trunc", exp.Literal.string("month"), exp.column(*_split(time_col)))
        projections.append(exp.alias_(key, "month"))
        keys.append(key)
    elif resolution.grain == "year":
        key = exp.Year(this=exp.column(*_split(time_col)))
        projections.append(exp.alias_(key, "year"))
        keys.append(key)
    elif group is not None:
        key = exp.column(*_split(group.column))
        projections.append(exp.alias_(key, group.name))
        keys.append(key)
    value = sqlglot.parse_one(metric.expression, read="duckdb")
    projections.append(exp.alias_(value, "value"))
    query = exp.select(*projections).from_(metric.table)
    for table, on in joins:
        query = query.join(table, on=on)
    conditions: list[exp.Expr] = []
    if resolution.period is not None:
        column = exp.column(*_split(time_col))
        conditions.append(
            column >= exp.cast(exp.Literal.string(str(resolution.period.start)), "DATE")
        )
        conditions.append(column < exp.cast(exp.Literal.string(str(resolution.period.end)), "DATE"))
    conditions += [sqlglot.condition(text) for text in metric.required_filters]
    conditions += [exp.column(*_split(d.column)).eq(exp.Literal.string(v)) for d, v in filters]
    if conditions:
        query = query.where(*conditions)
    if keys:
        query = query.group_by(*keys)
    if resolution.grain is not None:
        query = query.order_by(keys[0])
    elif resolution.top_n:
        direction = "DESC" if resolution.descending else "ASC"
        query = query.order_by(f"value {direction}", keys[0] if keys else "1").limit(
            resolution.top_n
        )
    sql = query.sql(dialect=dialect)
    return Plan(
        sql,
        metric,
        (metric.table, *[t for t, _ in joins]),
        len(joins),
        group.name if group else None,
        resolution.grain,
        tuple((d.name, v) for d, v in filters),
    )


def _split(ref: str) -> tuple[str, str]:
    table, column = ref.split(".", 1)
    return column, table
