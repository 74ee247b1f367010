"""``side_by_side``: two or more metrics measured on different tables or filters, each planned
on its own rows, put side by side on the groups they share.

"gross revenue and number of orders by country in 2023" asks for a sum over order lines and a
count over orders (outside tryout 13 was told they "are measured on different tables or
filters"). One query over one table cannot give both without multiplying one of them (an order
counted once per line) or losing rows (an order without lines). So each metric's own plan is
made (its table, its required filters, the period on its own time column, the same filters and
grouping), and the plans are joined on their group columns with a FULL OUTER JOIN, the way
MetricFlow joins the metrics of one query: a group one metric has no rows for shows NULL for
it, never a row lost. A question without a grouping joins one-row answers with a CROSS JOIN.

Only a plain breakdown is put side by side: a ranking (ranked by which metric?), compared
periods, a change between periods or a condition per group is refused, naming the table and
filters each metric is measured on.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import sqlglot
from sqlglot import exp

from assay.errors import GenerationError
from assay.semantic import Metric, Reading, SemanticLayer

__all__ = ["bands", "side_by_side"]


def _band(metric: Metric) -> tuple[str, str | None, tuple[str, ...]]:
    return metric.table, metric.time_column, tuple(metric.required_filters)


def bands(metrics: list[Metric]) -> list[list[Metric]]:
    """The metrics in groups one query can measure together (same table, time column and
    required filters), in the order first named."""
    out: dict[tuple[str, str | None, tuple[str, ...]], list[Metric]] = {}
    for metric in metrics:
        out.setdefault(_band(metric), []).append(metric)
    return list(out.values())


def _measured_on(metric: Metric) -> str:
    filters = " and ".join(metric.required_filters)
    return f"{metric.label} on {metric.table}" + (f" (where {filters})" if filters else "")


def _refused(groups: list[list[Metric]], why: str) -> GenerationError:
    said = "; ".join(_measured_on(band[0]) for band in groups)
    return GenerationError(
        f"The metrics are measured on different tables or filters ({said}): each is "
        f"computed on its own rows and put beside the others, and {why} cannot be answered "
        "that way.",
        hint="Ask for one metric at a time.",
    )


def side_by_side(
    reading: Reading, layer: SemanticLayer, dialect: str, plan_sql: Callable[[Reading], str]
) -> str:
    """The SQL of the reading's metrics in their ``bands``, each band's SQL made by
    ``plan_sql`` from the same reading with that band's metrics, joined on the group columns."""
    groups = bands([layer.metric(name) for name in reading.metrics])
    if reading.ranking is not None:
        raise _refused(groups, "a ranking (by which metric?)")
    if len(reading.periods) > 1 or reading.compare or reading.change:
        raise _refused(groups, "a comparison of periods")
    if reading.condition is not None:
        raise _refused(groups, "a condition per group")
    parts: list[exp.Select] = []
    for band in groups:
        sql = plan_sql(dataclasses.replace(reading, metrics=tuple(m.name for m in band)))
        part = sqlglot.parse_one(sql, read=dialect)
        if not isinstance(part, exp.Select):
            raise _refused(groups, "a query of this shape")
        parts.append(part)
    keys = _keys(parts[0])
    if any(_keys(part) != keys for part in parts):
        raise _refused(groups, "a breakdown whose groups differ between them")
    return _joined(parts, keys, groups).sql(dialect=dialect)


def _keys(part: exp.Select) -> list[str]:
    return [p.alias_or_name for p in part.expressions if not _is_value(p.alias_or_name)]


def _is_value(name: str) -> bool:
    return name == "value" or name.startswith("value_")


def _either(key: str, names: list[str]) -> exp.Expr:
    """The key of the first part that has the group (the parts joined so far)."""
    found = [exp.column(key, n) for n in names]
    return exp.func("COALESCE", *found) if len(found) > 1 else found[0]


def _joined(parts: list[exp.Select], keys: list[str], groups: list[list[Metric]]) -> exp.Select:
    """SELECT the keys (the first part's, else the next's), then every band's values, FROM the
    parts FULL OUTER JOINed on every key (NULL matching NULL: '(no customers)' is a group)."""
    names = [f"m{k}" for k in range(len(parts))]
    projections: list[exp.Expr] = [exp.alias_(_either(key, names), key) for key in keys]
    for k, (part, band) in enumerate(zip(parts, groups, strict=True)):
        values = [p.alias_or_name for p in part.expressions if _is_value(p.alias_or_name)]
        for value, metric in zip(values, band, strict=True):
            alias = "value" if k == 0 and value == "value" else f"value_{metric.name}"
            projections.append(exp.alias_(exp.column(value, names[k]), alias))
    query = exp.select(*projections).from_(parts[0].subquery(names[0]))
    for k in range(1, len(parts)):
        if keys:
            on = exp.and_(
                *[
                    exp.NullSafeEQ(
                        this=_either(key, names[:k]), expression=exp.column(key, names[k])
                    )
                    for key in keys
                ]
            )
            query = query.join(parts[k].subquery(names[k]), on=on, join_type="FULL OUTER")
        else:
            query = query.join(parts[k].subquery(names[k]), join_type="CROSS")
    if keys:
        query = query.order_by(*[str(i + 1) for i in range(len(keys))])
    return query
