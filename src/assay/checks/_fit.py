"""``fit_check``: the planned SQL compared with the question's reading, clause by clause.

Deterministic and model-free. The SQL is parsed with sqlglot and read back: the bounds on the
metric's time column (each period's ``>= start`` and ``< end``, and no other bound), every
filter on a dimension column with its polarity and values (``=``, ``IN``, ``<>``, ``NOT IN``; no
filter the reading lacks), the grouping (the dimension, the time grain, the compared periods),
and the order and limit of a ranking. Any clause that does not match is a veto
(``veto.reading_mismatch``). The share of clauses that match is the governed score's COMPLETE
term (paper, Section 3), measured here without a model.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass

import sqlglot
from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._fit_having import grouped_part
from assay.checks._ranked import Ranked, first_order, limit_of, ranked_shape
from assay.semantic import NUMERIC_TYPE, Dimension, Reading, SemanticLayer, metric_filter
from assay.types import Finding

__all__ = ["FitReport", "fit_check"]


@dataclass(frozen=True)
class FitReport:
    """Each clause checked, the mismatches, the COMPLETE share and the findings to add."""

    checked: tuple[str, ...]
    mismatches: tuple[str, ...]

    @property
    def complete(self) -> float:
        if not self.checked:
            return 1.0
        return 1.0 - len(self.mismatches) / len(self.checked)

    @property
    def findings(self) -> tuple[Finding, ...]:
        if not self.mismatches:
            return ()
        return (
            Finding(
                "veto.reading_mismatch",
                "veto",
                "The query does not do what the question was read as: "
                + "; ".join(self.mismatches)
                + ".",
                {"mismatches": list(self.mismatches), "checked": list(self.checked)},
            ),
        )


def _key(column: exp.Column, aliases: dict[str, str]) -> str:
    return f"{aliases.get(column.table, column.table)}.{column.name}"


def _date(node: exp.Expr) -> dt.date | None:
    # CAST('2021-01-01' AS DATE), or SQLite's DATE('2021-01-01')
    text = node.this if isinstance(node, (exp.Cast, exp.Date)) else node
    if isinstance(text, exp.Literal) and text.is_string:
        try:
            return dt.date.fromisoformat(text.this[:10])
        except ValueError:
            return None
    return None


def _bounds(where: exp.Expr | None, time: str, aliases: dict[str, str]) -> set[tuple[str, str]]:
    out: set[tuple[str, str]] = set()
    if where is None:
        return out
    for node in where.find_all(exp.GTE, exp.LT, exp.GT, exp.LTE):
        left, right = node.this, node.expression
        if isinstance(left, exp.Column) and _key(left, aliases) == time:
            day = _date(right)
            out.add((node.key, str(day) if day else right.sql()))
    return out


def _filters(
    where: exp.Expr | None,
    columns: dict[str, str],
    aliases: dict[str, str],
    expressions: dict[str, str] | None = None,
) -> dict[str, tuple[bool, frozenset[str]]]:
    """Predicates on dimension columns, or on an expression dimension written as its
    expression (``expressions``: its plain SQL -> its name): dimension -> (negated, values)."""
    out: dict[str, tuple[bool, frozenset[str]]] = {}
    if where is None:
        return out
    for node in where.find_all(exp.EQ, exp.NEQ, exp.In):
        column = node.this
        if isinstance(column, exp.Column) and _key(column, aliases) in columns:
            dim = columns[_key(column, aliases)]
        elif not isinstance(column, exp.Column) and expressions:
            found = expressions.get(_plain_sql(column.sql(dialect="duckdb"), aliases))
            if found is None:
                continue
            dim = found
        else:
            continue
        if isinstance(node, exp.In):
            values = frozenset(str(e.this) for e in node.expressions)
        else:
            values = frozenset({str(node.expression.this)})
        negated = isinstance(node, exp.NEQ) or isinstance(node.parent, exp.Not)
        if isinstance(node.parent, exp.Paren) and isinstance(node.parent.parent, exp.Not):
            negated = True
        out[dim] = (negated, values)
    return out


_FLIP = {"gt": "<", "gte": "<=", "lt": ">", "lte": ">="}
_OP = {"gt": ">", "gte": ">=", "lt": "<", "lte": "<="}


def _literal(node: exp.Expr) -> object:
    """A number literal's value (a negated one too); any other expression as its SQL."""
    if isinstance(node, exp.Neg) and isinstance(node.this, exp.Literal):
        inner = _literal(node.this)
        return -inner if isinstance(inner, float) else node.sql()
    if isinstance(node, exp.Literal) and not node.is_string:
        try:
            return float(node.this)
        except ValueError:
            return node.sql()
    return node.sql()


def _comparisons(
    where: exp.Expr | None, columns: dict[str, str], aliases: dict[str, str], time: str
) -> dict[str, set[tuple[str, object]]]:
    """Bounds on dimension columns (not the time column): dimension -> {(op, bound)};
    ``BETWEEN a AND b`` is ``>= a`` and ``<= b``; a bound under NOT is marked ``not``."""
    out: dict[str, set[tuple[str, object]]] = {}
    if where is None:
        return out
    for node in where.find_all(exp.GT, exp.GTE, exp.LT, exp.LTE, exp.Between):
        left, right = node.this, node.expression
        if isinstance(node, exp.Between):
            pairs = [(left, ">=", node.args.get("low")), (left, "<=", node.args.get("high"))]
        elif isinstance(right, exp.Column) and not isinstance(left, exp.Column):
            pairs = [(right, _FLIP[node.key], left)]
        else:
            pairs = [(left, _OP[node.key], right)]
        for column, op, bound in pairs:
            if not isinstance(column, exp.Column):
                continue
            key = _key(column, aliases)
            if key not in columns or key == time:
                continue
            negated = any(isinstance(a, exp.Not) for a in _ancestors(node, where))
            out.setdefault(columns[key], set()).add(
                (f"not {op}" if negated else op, _literal(bound) if bound is not None else None)
            )
    return out


def _ancestors(node: exp.Expr, top: exp.Expr) -> list[exp.Expr]:
    out = []
    parent = node.parent
    while parent is not None and parent is not top.parent:
        out.append(parent)
        parent = parent.parent
    return out


def _numeric(column: str, catalog: Catalog | None) -> bool:
    if catalog is None:
        return False
    table_name, _, name = column.partition(".")
    table = catalog.table(table_name)
    info = table.column(name) if table is not None else None
    return info is not None and NUMERIC_TYPE.match(info.type) is not None


def _plain_sql(text: str, aliases: dict[str, str] | None = None) -> str:
    """An expression's SQL with table aliases resolved, for comparing two writings."""
    try:
        tree = sqlglot.parse_one(text, read="duckdb")
    except sqlglot.errors.ParseError:
        return text
    for column in tree.find_all(exp.Column):
        if aliases and column.table in aliases:
            column.set("table", exp.to_identifier(aliases[column.table]))
    return tree.sql(dialect="duckdb")


def _without(where: exp.Expr, own: str, aliases: dict[str, str]) -> exp.Expr | None:
    """``where`` less the top-level AND term that is ``own`` (the asked metrics' own
    filters, as the planner applies them), compared with table aliases resolved."""

    def bare(node: exp.Expr) -> str:
        while isinstance(node, exp.Paren):
            node = node.this
        return _plain_sql(node.sql(dialect="duckdb"), aliases)

    target = bare(sqlglot.condition(own, dialect="duckdb"))
    parts: list[exp.Expr] = []
    stack = [where]
    while stack:
        node = stack.pop()
        if isinstance(node, exp.And):
            stack += [node.right, node.left]
        else:
            parts.append(node)
    kept = [p.copy() for p in parts]
    matches = [i for i, p in enumerate(parts) if bare(p) == target]
    if matches:
        del kept[matches[0]]
    if not kept:
        return None
    return exp.and_(*kept) if len(kept) > 1 else kept[0]


def _bound_says(spec: set[tuple[str, object]] | None) -> str:
    if not spec:
        return "none"
    return " and ".join(f"{op} {bound}" for op, bound in sorted(spec, key=str))


def fit_check(
    sql: str,
    reading: Reading,
    layer: SemanticLayer,
    dialect: str = "duckdb",
    catalog: Catalog | None = None,
) -> FitReport:
    """Compare ``sql`` with ``reading``; a SQL text that does not parse fails every clause.
    A numeric comparison on a dimension ("capacity above 3") is checked for its operator and
    bound, and for its column being a number in ``catalog`` (without a catalogue it cannot be
    checked: a mismatch)."""
    checked: list[str] = []
    bad: list[str] = []
    try:
        tree = sqlglot.parse_one(sql, read=dialect)
    except sqlglot.errors.ParseError:
        return FitReport(("parse",), ("the query could not be parsed to compare",))
    select = tree if isinstance(tree, exp.Select) else tree.find(exp.Select)
    if select is None or not reading.metrics:
        return FitReport(("shape",), ("the query is not one SELECT for a metric",))
    ranked = ranked_shape(select)
    if ranked is not None:
        select = ranked.inner
    if reading.change and reading.ranking and reading.groups and len(reading.periods) == 2:
        return _fit_change(select, reading, layer, ranked, catalog)
    if reading.condition is not None:
        return _fit_condition(select, reading, layer, dialect, catalog)
    parts = _parts_apart(select)
    if parts is not None:
        return _fit_apart(select, parts, reading, layer, dialect, catalog)
    if any(s.args.get("having") for s in select.find_all(exp.Select)):
        checked.append("condition per group")
        bad.append("the query keeps groups by a condition (HAVING) the reading does not have")
    aliases = {t.alias_or_name: t.name for t in select.find_all(exp.Table)}
    metric = layer.metric(reading.metrics[0])
    where = select.args.get("where")
    where_expr = where.this if where is not None else None
    own = metric_filter([layer.metric(name) for name in reading.metrics])
    if own and where_expr is not None:  # the metrics' own filters: part of what they measure
        where_expr = _without(where_expr, own, aliases)

    checked.append("period")
    want = {b for p in reading.periods for b in (("gte", str(p.start)), ("lt", str(p.end)))}
    got = _bounds(where_expr, metric.time_column, aliases)
    if got != want:
        bad.append(
            f"period bounds {sorted(got) or 'none'} where the reading has {sorted(want) or 'none'}"
        )

    columns = {d.column: d.name for d in layer.dimensions}
    column_of = {d.name: d.column for d in layer.dimensions}
    for c in reading.comparisons:  # a bound on a metric's column of the counted rows
        if c.column:
            columns[c.column], column_of[c.dimension] = c.dimension, c.column
    written = {_plain_sql(d.expression): d.name for d in layer.dimensions if d.expression}
    found = _filters(where_expr, columns, aliases, written)
    wanted = {f.dimension: (f.negated, frozenset(f.values)) for f in reading.filters}
    for dim in sorted(set(found) | set(wanted)):
        checked.append(f"filter {dim}")
        if found.get(dim) != wanted.get(dim):
            bad.append(
                f"filter on {dim} is {_says(found.get(dim))}, reading says {_says(wanted.get(dim))}"
            )

    bounds = _comparisons(where_expr, columns, aliases, metric.time_column)
    wanted_bounds: dict[str, set[tuple[str, object]]] = {}
    for c in reading.comparisons:
        wanted_bounds.setdefault(c.dimension, set()).add((c.op, c.number))
    for dim in sorted(set(bounds) | set(wanted_bounds)):
        checked.append(f"comparison {dim}")
        if bounds.get(dim) != wanted_bounds.get(dim):
            bad.append(
                f"comparison on {dim} is {_bound_says(bounds.get(dim))}, reading says "
                f"{_bound_says(wanted_bounds.get(dim))}"
            )
        elif not _numeric(column_of[dim], catalog):
            bad.append(
                f"comparison on {dim}: its column {column_of[dim]} is not known "
                "to be a number, so a bound on it may compare as text"
            )

    checked.append("group by")
    group = select.args.get("group")
    keys = list(group.expressions) if group is not None else []
    dims = {
        columns[_key(k, aliases)]
        for k in keys
        if isinstance(k, exp.Column) and _key(k, aliases) in columns
    }
    # an expression dimension grouped by as its expression, its tables as written
    expressions = {_plain_sql(d.expression): d.name for d in layer.dimensions if d.expression}
    as_expression = {
        id(k): expressions[_plain_sql(k.sql(dialect="duckdb"), aliases)]
        for k in keys
        if not isinstance(k, exp.Column)
        and _plain_sql(k.sql(dialect="duckdb"), aliases) in expressions
    }
    dims |= set(as_expression.values())
    want_dims = set(reading.groups)
    grains = {_grain(k) for k in keys if id(k) not in as_expression} - {None}
    want_grains: set[str | None] = set()
    compared: str | None = None
    if len(reading.periods) > 1:
        kinds = {p.kind for p in reading.periods}
        compared = kinds.pop() or "period" if len(kinds) == 1 else "period"
        want_grains.add(compared)
    if reading.grain:
        want_grains.add(reading.grain)
    if dims != want_dims or grains != want_grains:
        bad.append(
            f"grouped by {sorted(dims | {str(g) for g in grains}) or 'nothing'}, reading "
            f"groups by {sorted(want_dims | {str(g) for g in want_grains}) or 'nothing'}"
        )

    checked.append("order and limit")
    n, first = limit_of(select), first_order(select)
    if ranked is not None:
        if n is not None or not ranked.consistent:
            bad.append("the ranked rows are cut twice, or shown in another order than ranked")
        n, first = ranked.n, ranked.order
        checked.append("ranked within")
        apart = _ranked_apart(ranked, keys, compared, metric.time_column, aliases)
        if apart is not None:
            bad.append(apart)
    if reading.ranking is None:
        if n is not None:
            bad.append(f"the query keeps {n} rows where the reading keeps all")
    else:
        descending = bool(first is not None and first.args.get("desc"))
        on_value = first is not None and first.this.sql().lower() in {
            "value",
            metric.expression.lower(),
        }
        if n != reading.ranking.n or not on_value or descending != reading.ranking.descending:
            bad.append(
                f"ranking keeps {n} ordered {'descending' if descending else 'ascending'}, "
                f"reading keeps {reading.ranking.n or 'all'} "
                f"{'highest' if reading.ranking.descending else 'lowest'}"
            )
    return FitReport(tuple(checked), tuple(bad))


def _parts_apart(select: exp.Select) -> list[exp.Select] | None:
    """The parts of a query of metrics side by side (``generators._side_by_side``): nothing but
    subqueries, joined FULL OUTER or CROSS; else ``None``."""
    source = select.args.get("from_")
    joins = select.args.get("joins") or []
    if source is None or not joins:
        return None
    parts = [source.this, *(j.this for j in joins)]
    if not all(isinstance(p, exp.Subquery) and isinstance(p.this, exp.Select) for p in parts):
        return None
    return [p.this for p in parts]


def _fit_apart(
    select: exp.Select,
    parts: list[exp.Select],
    reading: Reading,
    layer: SemanticLayer,
    dialect: str,
    catalog: Catalog | None,
) -> FitReport:
    """Metrics measured apart and put side by side: each part fits the reading with its own
    metrics (one part per table, time column and required filters, in the order named), and
    the parts are joined on every group column (FULL OUTER, NULL matching NULL) or, without a
    grouping, CROSS joined one row to one row; no ranking, limit or condition around them."""
    bands: dict[tuple[str, str | None, tuple[str, ...]], list[str]] = {}
    for name in reading.metrics:
        m = layer.metric(name)
        bands.setdefault((m.table, m.time_column, tuple(m.required_filters)), []).append(name)
    if len(bands) != len(parts) or len(bands) < 2:
        return FitReport(("side by side",), ("the query joins parts the metrics do not need",))
    checked: list[str] = []
    bad: list[str] = []
    for part, names in zip(parts, bands.values(), strict=True):
        own = dataclasses.replace(reading, metrics=tuple(names))
        report = fit_check(part.sql(dialect=dialect), own, layer, dialect, catalog)
        label = " and ".join(layer.metric(n).label for n in names)
        checked += [f"{label}: {c}" for c in report.checked]
        bad += [f"{label}: {m}" for m in report.mismatches]
    checked.append("side by side")
    keys = [e.alias_or_name for e in parts[0].expressions if e.alias_or_name != "value"]
    keys = [k for k in keys if not k.startswith("value_")]
    for k, join in enumerate(select.args.get("joins") or [], 1):
        on = join.args.get("on")
        said = {
            (c.expression.table, c.expression.name)
            for c in (on.find_all(exp.NullSafeEQ) if on is not None else [])
            if isinstance(c.expression, exp.Column)
        }
        full = join.side == "FULL" and join.kind == "OUTER"
        if keys and (not full or said != {(f"m{k}", key) for key in keys}):
            bad.append(f"part {k + 1} is not joined on every group column, keeping every row")
        elif not keys and (join.kind != "CROSS" or on is not None):
            bad.append(f"part {k + 1} is not put beside one row to one row")
    if select.args.get("limit") is not None or select.args.get("where") is not None:
        bad.append("the parts side by side are cut or filtered again")
    return FitReport(tuple(checked), tuple(bad))


def _ranked_apart(
    ranked: Ranked, keys: list[exp.Expr], compared: str | None, time: str, aliases: dict[str, str]
) -> str | None:
    """What is wrong with the window's PARTITION BY, or None. A ranking of compared periods
    (``compared``: their grain, ``year`` or ``period``) is ranked apart in each period: the
    partition is exactly the grouped period key over the metric's time column. Any other
    ranking ranks all its rows together (no partition). A pooled ranking of two periods may
    keep one period's rows only (outside tryout 13); a partition by anything else keeps n rows
    of each of its values."""
    within = ranked.within
    if compared is None:
        if not within:
            return None
        apart = ", ".join(w.sql(dialect="duckdb") for w in within)
        return f"the rows are ranked apart in each {apart}, where the reading ranks them together"
    grouped = {_plain_sql(k.sql(dialect="duckdb"), aliases) for k in keys}
    on_period = [
        w
        for w in within
        if _grain(w) == compared
        and _plain_sql(w.sql(dialect="duckdb"), aliases) in grouped
        and any(_key(c, aliases) == time for c in w.find_all(exp.Column))
    ]
    if len(within) == 1 and len(on_period) == 1:
        return None
    return (
        "the ranking pools the compared periods (RANK() OVER without PARTITION BY the period "
        "alone), where the reading keeps the top rows of each period"
    )


def _fit_condition(
    select: exp.Select,
    reading: Reading,
    layer: SemanticLayer,
    dialect: str,
    catalog: Catalog | None,
) -> FitReport:
    """A condition on the metric per group: its shape (``grouped_part``), then the grouped
    query checked as the reading grouped by the group (an entity as a dimension on its key)."""
    held = reading.condition
    assert held is not None
    grouped, bad = grouped_part(select, held, layer)
    if grouped is None:
        return FitReport(("condition per group",), tuple(bad))
    if held.entity:
        entity = Dimension(held.group, held.key, ())
        layer = dataclasses.replace(layer, dimensions=(*layer.dimensions, entity))
    plain = dataclasses.replace(reading, condition=None, groups=(held.group,))
    report = fit_check(grouped.sql(dialect=dialect), plain, layer, dialect, catalog)
    return FitReport(("condition per group", *report.checked), (*bad, *report.mismatches))


def _fit_change(
    select: exp.Select,
    reading: Reading,
    layer: SemanticLayer,
    ranked: Ranked | None,
    catalog: Catalog | None = None,
) -> FitReport:
    """A ranking by change: one inner query per period (each checked as a plain reading of
    that period), the outer order on the change in the reading's direction, and its limit."""
    checked: list[str] = []
    bad: list[str] = []
    inner = [s.this for s in select.find_all(exp.Subquery)]
    one = dataclasses.replace(reading, ranking=None, change=None, compare=False)
    earlier, later = sorted(reading.periods, key=lambda p: p.start)
    checked.append("periods compared")
    if len(inner) != 2:
        bad.append(f"{len(inner)} inner queries where the change needs 2")
    else:
        for query, period in zip(inner, (later, earlier), strict=True):
            report = fit_check(
                query.sql(), dataclasses.replace(one, periods=(period,)), layer, catalog=catalog
            )
            checked.extend(f"{period.label}: {c}" for c in report.checked)
            bad.extend(f"{period.label}: {m}" for m in report.mismatches)
    checked.append("order and limit")
    assert reading.ranking is not None
    n, first = limit_of(select), first_order(select)
    if ranked is not None:
        if n is not None or not ranked.consistent:
            bad.append("the ranked rows are cut twice, or shown in another order than ranked")
        if ranked.within:  # one change per row: ranked together, never apart
            bad.append("the changes are ranked apart in groups, where the reading ranks them all")
        n, first = ranked.n, ranked.order
    descending = bool(first is not None and first.args.get("desc"))
    on_change = first is not None and first.this.sql().lower() in {"change", "a.value - b.value"}
    if not on_change or descending != reading.ranking.descending or n != reading.ranking.n:
        bad.append(
            f"ordered {'descending' if descending else 'ascending'} keeping {n}, reading orders "
            f"the change {'descending' if reading.ranking.descending else 'ascending'} keeping "
            f"{reading.ranking.n}"
        )
    return FitReport(tuple(checked), tuple(bad))


def _says(spec: tuple[bool, frozenset[str]] | None) -> str:
    if spec is None:
        return "absent"
    negated, values = spec
    return f"{'not ' if negated else ''}{' or '.join(sorted(values))}"


def _sqlite_grain(key: exp.Expr) -> str | None:
    """The grain of SQLite's date-function keys (``generators._planner._SQLITE_GRAINS``)."""
    if isinstance(key, exp.Cast) and isinstance(key.this, exp.TimeToStr):
        fmt = key.this.args.get("format")
        return "year" if isinstance(fmt, exp.Literal) and fmt.this == "%Y" else None
    if isinstance(key, exp.Date) and isinstance(key.this, exp.Column):
        return "day"
    if isinstance(key, exp.Anonymous) and str(key.this).upper() == "DATE":
        said = [str(a.this) for a in key.expressions[1:] if isinstance(a, exp.Literal)]
        tail = [a for a in key.expressions[1:] if not isinstance(a, exp.Literal)]
        if said == ["start of month"]:
            return "quarter" if len(tail) == 1 and "months" in tail[0].sql() else "month"
        if said == ["-6 days", "weekday 1"] and not tail:
            return "week"
    return None


def _grain(key: exp.Expr) -> str | None:
    sqlite = _sqlite_grain(key)
    if sqlite is not None:
        return sqlite
    if isinstance(key, exp.Year):
        return "year"
    if isinstance(key, exp.Case):
        return "period"
    if isinstance(key, (exp.DateTrunc, exp.TimestampTrunc, exp.Anonymous, exp.Func)):
        unit = key.args.get("unit")
        if unit is not None:
            return str(unit.name if hasattr(unit, "name") else unit).lower()
        literal = next((a for a in key.find_all(exp.Literal) if a.is_string), None)
        if literal is not None:
            return str(literal.this).lower()
    return None
