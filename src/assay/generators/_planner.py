"""The planner: a question's reading compiled to SQL with sqlglot's builder, no model involved.

The metric's expression and required filters, the period on its time column, dimension filters,
grouping (a dimension, or a month or year grain), ordering and limits. Tables are joined along
the semantic layer's join paths from the metric's table, in the direction that cannot multiply
rows (many to one); a path that would fan out is refused rather than guessed. Deterministic:
the same question always gives the same SQL.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import sqlglot
from sqlglot import exp

from assay.errors import FanOut, GenerationError, NoJoinPath, UnmatchedRows
from assay.generators._side_by_side import bands, side_by_side
from assay.semantic import (
    Comparison,
    Dimension,
    Filter,
    JoinPath,
    Metric,
    Period,
    Ranking,
    Reading,
    SemanticLayer,
    metric_filter,
)

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
    steps = layer.join_steps(start, goal)
    if steps or start == goal:
        return steps
    # no path: the tables the metric's table does reach, for the forbidden join that barred it
    seen = {start} | {t for j in layer.joins for t in j.tables if layer.join_steps(start, t)}
    barred = [
        f for f in layer.forbidden_joins if {f.left, f.right} & seen and goal in (f.left, f.right)
    ]
    # the metric's own table's join first: outside tryout 23 was told of catalog_returns's
    # join for a store sales question, a table the question never touched
    forbidden = next((f for f in barred if start in (f.left, f.right)), next(iter(barred), None))
    if forbidden is not None:
        # The layer's authors said why: say that, not that they forgot a join.
        why = f" ({forbidden.reason})" if forbidden.reason else ""
        raise NoJoinPath(
            f"The semantic layer forbids joining {forbidden.left} to {forbidden.right}{why}, "
            f"and declares no other join path from {start} (the metric's table) to {goal}, so "
            f"{goal}'s columns cannot group or filter this metric.",
            hint=f"Ask by a dimension of {start} or of a table the layer joins to it.",
        )
    raise NoJoinPath(
        f"The semantic layer declares no join path from {start} (the metric's table) to "
        f"{goal}, so {goal}'s columns cannot group or filter this metric.",
        hint=f"Ask by a dimension of {start}, or add a join from {start} to {goal} to the "
        "layer's joins (only if each row of the metric then still counts once).",
    )


@dataclass(frozen=True)
class _Join:
    table: str
    on: str
    key: str  # the joined table's column of ``on``: NULL on a row the join found no match for
    outer: bool  # LEFT JOIN: only a grouping needs the table, and no fact row may be lost


def _joins(
    layer: SemanticLayer,
    metric: Metric,
    needed: set[str],
    grouped: set[str],
    kept: frozenset[str] = frozenset(),
    measured: frozenset[str] = frozenset(),
) -> list[_Join]:
    """The joins from the metric's table, the tables in ``needed`` (measured or filtered on)
    first, joined inner; the tables only a grouping needs are LEFT joined, so a fact row with
    no match stays in the answer as its own group instead of vanishing from the total.

    A join that leaves rows without a partner (``unmatched``) is taken inner only into a table
    of ``kept``: one a positive filter (``=``, ``IN``, a numeric bound, a period on its date)
    on its own column holds to values, which no unmatched row (all NULL there) can have, so
    the inner join keeps the rows any correct plan keeps. Into a table only a grouping needs
    it is LEFT joined like any other: the unmatched rows stay, as a group of their own ("(no
    store)"; a NULL year of a time grain). Any other use (a total, a metric, a negated filter)
    is refused: the unmatched rows would vanish or be counted as "not X".

    The one exception is a table of ``measured``: one only the metric's own expression reads
    (``SUM(store.s_number_employees)`` of a metric over ``store_sales``), neither grouped nor
    filtered on. It is LEFT joined from the unmatched step on, as the metric defines it: every
    row of the metric's table stays in its aggregates, the joined columns NULL where nothing
    matched (the check ``fan_out_in_metric`` warns of both)."""
    ordered: list[_Join] = []
    joined = {metric.table}
    distinct = "DISTINCT" in metric.expression.upper()
    goals = [(g, False) for g in sorted(needed - {metric.table})]
    goals += [(g, True) for g in sorted(grouped - needed - {metric.table})]
    for goal, outer in goals:
        for join, forward in _path(layer, metric.table, goal):
            left, right = join.tables
            target = right if forward else left
            if target in joined:
                continue
            if join.unmatched and forward and goal in measured and target not in kept:
                outer = True  # this step and every later one: no row of the metric's table lost
            if join.unmatched and not (forward and (target in kept or goal in measured or outer)):
                raise UnmatchedRows(
                    f"{join.unmatched} rows of {join.tables[0]} have no match in "
                    f"{join.tables[1]}: joined to answer this, they would vanish from it.",
                    hint=f"Only a filter keeping {join.tables[1]} to given values may join it.",
                )
            fans_out = (join.relationship == "many_to_one") != forward
            if fans_out and not distinct:
                raise FanOut(
                    f"Joining {target} to {metric.table} would multiply rows and inflate "
                    f"{metric.label}{_on_the_way(layer, metric.table, goal, target)}.",
                    hint="Define the metric on the joined grain.",
                )
            key = join.right if forward else join.left
            ordered.append(_Join(target, f"{join.left} = {join.right}", key, outer))
            joined.add(target)
    return ordered


def _on_the_way(layer: SemanticLayer, table: str, goal: str, step: str) -> str:
    """Why a table the question never named is joined: it lies on the path to one it needs,
    and why the direct join was not taken (outside tryout 22 F14: "Joining web_sales to
    customer" read as if the question had asked about web sales)."""
    if step == goal:
        return ""
    said = f" ({step} lies on the join path from {table} to {goal}, which the question needs"
    for forbidden in layer.forbidden_joins:
        if {forbidden.left, forbidden.right} == {table, goal}:
            return f"{said}; the direct join is forbidden: {forbidden.reason})"
    return f"{said})"


def plan(reading: Reading, layer: SemanticLayer, dialect: str = "duckdb") -> Plan:
    """The SQL for a question the behaviour rules chose to answer.

    Filters become ``=``, ``IN``, ``<>`` or ``NOT IN``, a numeric comparison ``>``, ``>=``, ``<``
    or ``<=`` on its column; two or more periods are compared side by side (grouped by their
    grain when each is a whole year, quarter or month, else by a labelled period, in time
    order); a ranking orders by the value and keeps its first N, and a breakdown no ranking
    orders lists the largest value first in each period or time bucket; a condition on the
    metric per group is the grouped query with ``HAVING``, counted in an outer ``COUNT`` when
    the groups are counted.
    """
    if reading.condition is not None:
        return _plan_condition(reading, layer, dialect)
    return _plan(reading, layer, dialect)


def _plan_condition(reading: Reading, layer: SemanticLayer, dialect: str) -> Plan:
    """ "number of customers with more than 3 orders": the metric grouped by the group (an
    entity by its key, joined inner: a row no entity holds is no entity's), ``HAVING metric op
    value``, and ``SELECT COUNT(group)`` over it when the groups are counted. The grouping goes
    through the same joins as any other, so a group the metric would fan out to is refused."""
    held = reading.condition
    assert held is not None
    inner_layer = layer
    # counted groups are joined inner: a row no group holds is in no group to count
    entities = frozenset({held.key.split(".")[0]}) if held.counted else frozenset()
    if held.entity:
        entity = Dimension(held.group, held.key, ())
        inner_layer = dataclasses.replace(layer, dimensions=(*layer.dimensions, entity))
    inner = dataclasses.replace(reading, condition=None, groups=(held.group,), ranking=None)
    base = _plan(inner, inner_layer, dialect, entities)
    query = sqlglot.parse_one(base.sql, read=dialect)
    assert isinstance(query, exp.Select)
    measured = sqlglot.parse_one(layer.metric(held.metric).expression, read="duckdb")
    query = query.having(_bound(measured, held.op, held.value))
    if held.counted:
        # COUNT of the group column: a NULL value is no group to count
        counted = exp.Count(this=exp.column(held.group, "per_group"))
        query = exp.select(exp.alias_(counted, "value")).from_(query.subquery("per_group"))
    return dataclasses.replace(
        base, sql=query.sql(dialect=dialect), group_by=None if held.counted else base.group_by
    )


def _plan(
    reading: Reading,
    layer: SemanticLayer,
    dialect: str = "duckdb",
    entities: frozenset[str] = frozenset(),
) -> Plan:
    """``plan`` of a reading without a per-group condition; ``entities``: tables grouped by
    their key for such a condition, joined inner."""
    if not reading.metrics:
        raise GenerationError(
            "Nothing to plan: the question names no metric.",
            hint="The behaviour rules should have abstained.",
        )
    if reading.change and reading.ranking and reading.groups and len(reading.periods) == 2:
        return _plan_change(reading, layer, dialect)
    metrics = [layer.metric(name) for name in reading.metrics]
    metric = metrics[0]
    if len(bands(metrics)) > 1 and not entities:
        return _plan_apart(reading, layer, dialect)
    time_col = metric.time_column
    if not time_col and (reading.periods or reading.grain is not None):
        raise GenerationError(
            f"{metric.label} has no time column, so no period or time grain can be applied.",
            hint="The behaviour rules should have abstained (behaviour.no_time).",
        )
    groups = [layer.dimension(name) for name in reading.groups]
    filters = [(layer.dimension(f.dimension), f) for f in reading.filters]
    # The time column's table is joined only when a period or grain reads it: an inner join
    # to a date table would drop every fact row without a date from an all-time answer. A
    # period keeps it to dates (a row with no date is in no period: joined inner, as a filter
    # keeping values is); a grain alone groups by it, LEFT joined (a row with no date stays,
    # in a year of its own, NULL).
    timed = bool(time_col) and (bool(reading.periods) or reading.grain is not None)
    dated = _tables_of(time_col) if time_col and reading.periods else set()
    needed = _tables_of(metric.expression) | dated
    for other in metrics[1:]:
        needed |= _tables_of(other.expression)
    for text in metric.required_filters:
        needed |= _tables_of(text)
    bounded = [(_bounded(layer, c), c) for c in reading.comparisons]
    for dim in [d for d, _ in filters] + [d for d, _ in bounded]:
        needed.add(dim.column.split(".")[0])
    needed |= entities
    grouped = {dim.column.split(".")[0] for dim in groups}
    if timed and not dated:
        grouped |= _tables_of(time_col)
    # the tables a positive filter on a plain column keeps to values (never NULL there)
    kept = frozenset(
        [d.column.split(".")[0] for d, f in filters if not f.negated and not d.expression]
        + [d.column.split(".")[0] for d, _ in bounded if not d.expression]
        + list(entities)
        + list(dated)
    )
    read = set(_tables_of(metric.expression))
    for other in metrics[1:]:
        read |= _tables_of(other.expression)
    filtered = {
        dim.column.split(".")[0] for dim in [d for d, _ in filters] + [d for d, _ in bounded]
    }
    for written in [*metric.required_filters, metric.filter]:
        filtered |= _tables_of(written) if written else set()
    measured = frozenset(
        read - grouped - filtered - {metric.table} - set(_tables_of(time_col) if timed else ())
    )
    joins = _joins(layer, metric, needed, grouped, kept, measured)
    outer = {j.table: j for j in joins if j.outer}
    time = exp.column(*_split(time_col)) if time_col else exp.null()
    projections: list[exp.Expr] = []
    keys: list[exp.Expr] = []
    periods = reading.periods
    kinds = {p.kind for p in periods}
    compared = len(periods) > 1
    kind: str | None = None
    per_period: list[exp.Expr] = []  # a ranking of compared periods is within each period
    if compared:
        kind = kinds.pop() if len(kinds) == 1 else None
        if kind is not None:
            key: exp.Expr = _grain_key(kind, time, dialect)
        else:
            key = exp.Case(
                ifs=[
                    exp.If(this=_between(time, p.start, p.end), true=exp.Literal.string(p.label))
                    for p in periods
                ]
            )
        projections.append(exp.alias_(key, kind or "period"))
        keys.append(key)
        per_period.append(key)
    compared_kind = kind if compared else None
    if reading.grain is not None and reading.grain != compared_kind:
        key = _grain_key(reading.grain, time, dialect)
        projections.append(exp.alias_(key, reading.grain))
        keys.append(key)
        dateless = outer.get(_split(time_col)[1]) if time_col else None
        if dateless is not None:  # the rows with no date: a NULL period of their own
            keys.append(exp.paren(exp.column(*_split(dateless.key)).is_(exp.null())))
    timed_keys = len(projections)  # the compared periods' and the grain's columns
    for group in groups:
        key = _dimension_sql(group)
        table = group.column.split(".")[0]
        if table in outer:
            # The fact rows the LEFT JOIN matched to no row of the table: one group of
            # their own, labelled plainly, apart from a row whose value is NULL.
            missing = exp.column(*_split(outer[table].key)).is_(exp.null())
            label = exp.Case(
                ifs=[exp.If(this=missing.copy(), true=exp.Literal.string(f"(no {table})"))],
                default=exp.cast(key.copy(), "VARCHAR"),
            )
            projections.append(exp.alias_(label, group.name))
            keys += [key, exp.paren(missing)]
            continue
        projections.append(exp.alias_(key, group.name))
        keys.append(key)
    shown = len(projections)  # the group columns, before the values
    for k, m in enumerate(metrics):
        value = sqlglot.parse_one(m.expression, read="duckdb")
        projections.append(exp.alias_(value, "value" if k == 0 else f"value_{m.name}"))
    query = exp.select(*projections).from_(metric.table)
    for join in joins:
        query = query.join(join.table, on=join.on, join_type="LEFT" if join.outer else None)
    conditions: list[exp.Expr] = []
    if len(periods) == 1:
        conditions.append(_between(time, periods[0].start, periods[0].end))
    elif periods:
        conditions.append(exp.or_(*[exp.paren(_between(time, p.start, p.end)) for p in periods]))
    conditions += [sqlglot.condition(text) for text in metric.required_filters]
    own = metric_filter(metrics)
    if own:  # the metrics' own filters as WHERE too: no group where none of them keeps a row
        condition = sqlglot.condition(own)
        conditions.append(condition if isinstance(condition, exp.Paren) else exp.paren(condition))
    conditions += [_filter(d, f) for d, f in filters]
    conditions += [_compare(d, c) for d, c in bounded]
    if conditions:
        query = query.where(*conditions)
    if keys:
        query = query.group_by(*keys)
    if reading.ranking is not None and keys:
        direction = "DESC" if reading.ranking.descending else "ASC"
        query = query.order_by(f"value {direction}", "1")
        if reading.ranking.n is not None:
            ranked_on = sqlglot.parse_one(metric.expression, read="duckdb")
            names = [p.alias for p in projections]
            query = _keep_ties(query, ranked_on, names, "value", reading.ranking, per_period)
    elif keys:
        order: list[str | exp.Expr] = [*_breakdown_order(timed_keys, shown)]
        if compared and kind is None:  # labelled periods in time order, not by their labels
            order[0] = _in_time_order(keys[0], periods)
        query = query.order_by(*order)
    sql = query.sql(dialect=dialect)
    return Plan(
        sql,
        metric,
        (metric.table, *[j.table for j in joins]),
        len(joins),
        groups[0].name if groups else None,
        reading.grain,
        tuple((d.name, v) for d, f in filters for v in f.values),
    )


def _plan_apart(reading: Reading, layer: SemanticLayer, dialect: str) -> Plan:
    """Metrics on different tables or filters: each planned on its own rows, side by side
    (``side_by_side``); the plan names the first metric, every table read and every join."""
    plans: list[Plan] = []

    def one(part: Reading) -> str:
        plans.append(_plan(part, layer, dialect))
        return plans[-1].sql

    sql = side_by_side(reading, layer, dialect, one)
    tables = tuple(dict.fromkeys(t for p in plans for t in p.tables))
    return dataclasses.replace(
        plans[0], sql=sql, tables=tables, join_count=sum(p.join_count for p in plans)
    )


def _plan_change(reading: Reading, layer: SemanticLayer, dialect: str) -> Plan:
    """Groups ranked by the change of the metric between two periods: each period planned
    alone, joined on the groups, ``later - earlier`` ordered (a fall: most negative first)."""
    earlier, later = sorted(reading.periods, key=lambda p: p.start)
    one = dataclasses.replace(reading, ranking=None, change=None, compare=False)
    a = _plan(dataclasses.replace(one, periods=(later,)), layer, dialect)
    b = _plan(dataclasses.replace(one, periods=(earlier,)), layer, dialect)
    assert reading.ranking is not None
    names = list(reading.groups)
    change = exp.column("value", "a") - exp.column("value", "b")
    query = (
        exp.select(*[exp.column(n, "a") for n in names], exp.alias_(change, "change"))
        .from_(exp.alias_(exp.paren(sqlglot.parse_one(a.sql, read=dialect)), "a"))
        .join(
            exp.alias_(exp.paren(sqlglot.parse_one(b.sql, read=dialect)), "b"),
            on=exp.and_(*[exp.column(n, "a").eq(exp.column(n, "b")) for n in names]),
        )
        .order_by(f"change {'DESC' if reading.ranking.descending else 'ASC'}", "1")
    )
    if reading.ranking.n is not None:
        query = _keep_ties(query, change.copy(), [*names, "change"], "change", reading.ranking)
    return Plan(
        query.sql(dialect=dialect),
        a.metric,
        a.tables,
        a.join_count,
        a.group_by,
        a.grain,
        a.filters,
    )


def _keep_ties(
    query: exp.Select,
    ranked_on: exp.Expr,
    names: list[str],
    order: str,
    ranking: Ranking,
    within: list[exp.Expr] | None = None,
) -> exp.Select:
    """The first ``ranking.n`` rows by ``ranked_on``, and every row tied with the last of
    them: ``RANK() <= n`` over the query, never a ``LIMIT`` that cuts a tie silently (a tie
    for 3rd in "top 3 days" keeps all the tied days; the written answer says so). ``within``:
    ranked apart in each of these (the compared periods: "top 2 countries, 2023 vs 2022" is
    the top 2 of each year, never the top 2 rows of both pooled; outside tryout 13 was shown
    one period's rows alone)."""
    direction = "DESC" if ranking.descending else "ASC"
    partition = ""
    if within:
        partition = "PARTITION BY " + ", ".join(w.sql(dialect="duckdb") for w in within) + " "
    window = sqlglot.parse_one(
        f"RANK() OVER ({partition}ORDER BY {ranked_on.sql(dialect='duckdb')} {direction})",
        read="duckdb",
    )
    inner = query.copy()
    inner.set("order", None)
    inner = inner.select(exp.alias_(window, f"{order}_rank"))
    return (
        exp.select(*names)
        .from_(exp.alias_(exp.paren(inner), "ranked"))
        .where(exp.column(f"{order}_rank") <= exp.Literal.number(ranking.n or 0))
        .order_by(f"{order} {direction}", "1")
    )


# SQLite has no YEAR() or DATE_TRUNC(): its own date functions, on ISO text dates (the first
# day of the grain, as DATE_TRUNC gives; a week starts on Monday, as DuckDB's and PostgreSQL's).
_SQLITE_GRAINS = {
    "year": "CAST(STRFTIME('%Y', {c}) AS INTEGER)",
    "quarter": "DATE({c}, 'start of month', "
    "PRINTF('-%d months', (CAST(STRFTIME('%m', {c}) AS INTEGER) - 1) % 3))",
    "month": "DATE({c}, 'start of month')",
    "week": "DATE({c}, '-6 days', 'weekday 1')",
    "day": "DATE({c})",
}


def _breakdown_order(timed: int, shown: int) -> list[str]:
    """The order of a breakdown no ranking orders: time first (its columns, in time order),
    then the groups by the value, largest first, ties by their names. Rows were listed as the
    engine grouped them, in no order (tryout 26: "now by country").

    Example:
        >>> _breakdown_order(0, 1), _breakdown_order(1, 2), _breakdown_order(1, 1)
        (['value DESC', '1'], ['1', 'value DESC', '2'], ['1'])
    """
    order = [str(i + 1) for i in range(timed)]
    if shown > timed:
        order += ["value DESC", *[str(i + 1) for i in range(timed, shown)]]
    return order


def _in_time_order(label: exp.Expr, periods: tuple[Period, ...]) -> exp.Expr:
    """Labelled periods' order key, earliest first: ``CASE <label> WHEN 'Q4 2023' THEN 0 ...``
    (a function of the grouped key, so every engine accepts it; "Q1 2024" sorts before "Q4
    2023" as text)."""
    ordered = sorted(periods, key=lambda p: (p.start, p.end))
    return exp.Case(
        this=label.copy(),
        ifs=[
            exp.If(this=exp.Literal.string(p.label), true=exp.Literal.number(k))
            for k, p in enumerate(ordered)
        ],
    )


def _grain_key(grain: str, time: exp.Expr, dialect: str) -> exp.Expr:
    """The group key of a time grain (``year``, ``quarter``, ``month``, ``week``, ``day``) in
    the dialect: YEAR() and DATE_TRUNC() where the engine has them, SQLite's date functions
    where it has not (outside tryout 14: 'by month' failed on SQLite, no DATE_TRUNC)."""
    if dialect == "sqlite" and grain in _SQLITE_GRAINS:
        text = _SQLITE_GRAINS[grain].format(c=time.sql(dialect="sqlite"))
        return sqlglot.parse_one(text, read="sqlite")
    if grain == "year":
        return exp.Year(this=time.copy())
    return exp.func("date_trunc", exp.Literal.string(grain), time.copy())


def _between(column: exp.Expr, start: object, end: object) -> exp.Expr:
    lower = column.copy() >= exp.cast(exp.Literal.string(str(start)), "DATE")
    upper = column.copy() < exp.cast(exp.Literal.string(str(end)), "DATE")
    return exp.and_(lower, upper)


def _dimension_sql(dim: Dimension) -> exp.Expr:
    """The dimension's column, or its expression (over columns of its own table)."""
    if dim.expression:
        return sqlglot.parse_one(dim.expression, read="duckdb")
    return exp.column(*_split(dim.column))


def _filter(dim: Dimension, f: Filter) -> exp.Expr:
    column = _dimension_sql(dim)
    literals = [exp.Literal.string(v) for v in f.values]
    if len(literals) == 1:
        return column.neq(literals[0]) if f.negated else column.eq(literals[0])
    listed = column.isin(*literals)
    return exp.not_(listed) if f.negated else listed


_OPERATORS = {">": exp.GT, ">=": exp.GTE, "<": exp.LT, "<=": exp.LTE}


def _bounded(layer: SemanticLayer, c: Comparison) -> Dimension:
    """The dimension a bound is on; a metric's column ("stadium.Capacity") as one."""
    return Dimension(c.dimension, c.column, ()) if c.column else layer.dimension(c.dimension)


def _bound(this: exp.Expr, op: str, value: str) -> exp.Expr:
    """``this > 3``: the bound as a number literal (a minus sign kept as negation)."""
    number: exp.Expr = exp.Literal.number(value.lstrip("-"))
    if value.startswith("-"):
        number = exp.Neg(this=number)
    return _OPERATORS[op](this=this, expression=number)


def _compare(dim: Dimension, c: Comparison) -> exp.Expr:
    """``column > 3`` on the dimension's column."""
    return _bound(_dimension_sql(dim), c.op, c.value)


def _split(ref: str) -> tuple[str, str]:
    table, column = ref.split(".", 1)
    return column, table
