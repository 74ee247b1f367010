"""Import dbt MetricFlow semantic models and metrics into Assay's layer format.

Read: every YAML file under a directory (or one file) holding ``semantic_models:`` and
``metrics:`` (the dbt project layout) or one ``semantic_model:`` / ``metric:`` per document (the
semantic-manifest layout). Mapped:

- a semantic model's table from ``model: ref('x')`` or ``node_relation.alias``;
- a foreign entity to a join onto each model whose primary entity has the same name;
- a measure (``SUM``, ``COUNT``, ``COUNT_DISTINCT``, ``AVERAGE``/``AVG``, ``MIN``, ``MAX``,
  ``SUM_BOOLEAN``) to an aggregate over ``table.column`` (unqualified columns qualified);
- a ``simple`` metric to a metric over its measure, timed by the measure's
  ``agg_time_dimension``, else its model's; its ``filter``, when it names only categorical
  dimensions of the measure's own model (``{{ Dimension('booking__is_instant') }}``) or of a
  model its foreign entities reach along joins that are the only way into each table
  (``customer__customer_country``, ``entity_path=['customer']``), as
  ``agg(CASE WHEN filter THEN expr END)``, the condition kept as the metric's ``filter``
  (applied as WHERE when every asked metric has one: MetricFlow's groups);
- a ``categorical`` dimension over a plain column, or over a scalar expression of its own
  model's columns (``expression``), to a dimension, also read by its MetricFlow name
  ``entity__name`` ("listing capacity latest");
- a primary entity that no model holds as foreign to a dimension over its key column (a
  saved query's ``group_by: Entity('customer')``), unless its name is a metric's or a
  dimension's.

A simple metric of a model without ``agg_time_dimension`` is untimed (answered over all rows; a
period asked of it abstains). A ``ratio`` or ``derived`` metric whose inputs are mapped simple
metrics of one table and one time, without filters, offsets or windows, becomes the same
arithmetic over their aggregates (``lifetime_spend_pretax / count_lifetime_orders`` is
``(sum(...)) / (sum(...))``; a ratio is ``CAST(n AS DOUBLE) / CAST(NULLIF(d, 0) AS DOUBLE)``,
as MetricFlow renders it).

Everything else (other ratio and derived metrics, cumulative and conversion metrics, other
metric filters, other expression dimensions, percentile aggregates, measures with
``non_additive_dimension`` such as account balances and every metric over them) is listed in
the report with its path and reason, never dropped silently. Clock and coverage come from
the data (given by the caller).
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlglot
import yaml
from sqlglot import exp

from assay.errors import SemanticError

__all__ = ["ImportResult", "import_metricflow", "read_metricflow", "with_dates"]

_AGG = {
    "sum": "sum({})",
    "count": "count({})",
    "count_distinct": "count(DISTINCT {})",
    "average": "avg({})",
    "avg": "avg({})",
    "min": "min({})",
    "max": "max({})",
    "sum_boolean": "sum(CASE WHEN {} THEN 1 ELSE 0 END)",
}


@dataclass(frozen=True)
class ImportResult:
    """The layer as a YAML-ready dict, the time columns to date, and what was not mapped.

    ``undefined`` names the metrics and dimensions the source defines and the import could
    not map: the layer lists them as undefined concepts, so that a question naming one is
    abstained on rather than read as a nearby metric ("instant booking value" is not
    "instant bookings").
    """

    layer: dict[str, Any]
    time_columns: tuple[str, ...]
    unmapped: tuple[str, ...] = field(default=())
    undefined: tuple[str, ...] = field(default=())
    notes: tuple[str, ...] = field(default=())  # mapped with a caveat (e.g. without time)
    # table -> the schema the source names for it (Cortex base_table.schema), checked against
    # the schema the database reads that table from
    schemas: tuple[tuple[str, str], ...] = field(default=())
    # facts without an aggregation (Cortex): name, synonyms, table, column, time_column, where
    guesses: tuple[dict[str, Any], ...] = field(default=())
    # (where, table.column) of reported fields whose report depends on the column being in the
    # database (OSI's d_month_name, a time field TPC-DS's date_dim lacks): checked there
    reported_columns: tuple[tuple[str, str], ...] = field(default=())


def read_metricflow(path: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Semantic models and metrics from every YAML document under ``path``."""
    files = sorted(path.rglob("*.y*ml")) if path.is_dir() else [path]
    models: list[dict[str, Any]] = []
    metrics: list[dict[str, Any]] = []
    for file in files:
        try:
            docs = list(yaml.safe_load_all(file.read_text(encoding="utf-8")))
        except (OSError, yaml.YAMLError) as exc:
            raise SemanticError(
                f"Cannot read {str(file)!r} as YAML: {exc}.", hint="Give MetricFlow YAML files."
            ) from exc
        for doc in docs:
            if not isinstance(doc, dict):
                continue
            models += [m for m in doc.get("semantic_models") or [] if isinstance(m, dict)]
            metrics += [m for m in doc.get("metrics") or [] if isinstance(m, dict)]
            if isinstance(doc.get("semantic_model"), dict):
                models.append(doc["semantic_model"])
            if isinstance(doc.get("metric"), dict):
                metrics.append(doc["metric"])
    if not models:
        raise SemanticError(
            f"No MetricFlow semantic models under {str(path)!r}.",
            hint="Point at the dbt project's models folder or a semantic manifest file.",
        )
    return models, metrics


def _table(model: dict[str, Any]) -> str:
    ref = re.fullmatch(r"\s*ref\(\s*['\"]([^'\"]+)['\"]\s*\)\s*", str(model.get("model", "")))
    if ref:
        return ref.group(1)
    relation = model.get("node_relation") or {}
    return str(relation.get("alias") or model.get("name"))


def _qualify(expr: str, table: str) -> str | None:
    try:
        tree = sqlglot.parse_one(expr, read="duckdb")
    except Exception:  # an expression that does not parse is reported as unmapped
        return None
    for column in tree.find_all(exp.Column):
        if not column.table:
            column.set("table", exp.to_identifier(table))
    return tree.sql(dialect="duckdb")


def _unique_dimensions(
    dimensions: list[dict[str, Any]], unmapped: list[str]
) -> list[dict[str, Any]]:
    """The dimensions, each name once. A name two tables share (Cortex's marketing model has a
    CATEGORY on PRODUCTS and on MARKETING_CAMPAIGN_METRICS) is kept on each, told apart by its
    table: named ``TABLE_NAME``, with the shared name and "table name" as synonyms, so a word
    only one of them answers picks it and one that cannot tell is asked back (an outside tryout
    saw the second dropped as a duplicate, and "revenue for Footwear" abstained). A name said
    twice of one table keeps the first; each later one is reported unmapped."""
    tables: dict[str, set[str]] = {}
    for d in dimensions:
        tables.setdefault(str(d["name"]), set()).add(str(d["column"]).split(".")[0])
    seen: set[str] = set()
    unique = []
    for d in dimensions:
        if len(tables[str(d["name"])]) > 1:
            d = _by_table(d)
        if d["name"] in seen:
            unmapped.append(f"dimension {d['name']} ({d['column']}): a duplicate name")
            continue
        seen.add(str(d["name"]))
        unique.append(d)
    return unique


def _by_table(dimension: dict[str, Any]) -> dict[str, Any]:
    """``dimension`` named by its table and name (``PRODUCTS_CATEGORY``), its own name and
    "products category" kept as synonyms."""
    name, table = str(dimension["name"]), str(dimension["column"]).split(".")[0]
    words = f"{table} {name}".replace("_", " ").lower()
    synonyms = [s for s in (name, words) if s not in dimension.get("synonyms", [])]
    return {
        **dimension,
        "name": f"{table}_{name}",
        "synonyms": [*synonyms, *dimension.get("synonyms", [])],
    }


def _own_columns(expr: str, table: str) -> str:
    """``expr`` qualified by ``table`` when it is one scalar expression over that table's
    columns (no query, no aggregate, no window, at least one column); else ``""``."""
    qualified = _qualify(expr.strip(), table)
    if qualified is None:
        return ""
    tree = sqlglot.parse_one(qualified, read="duckdb")
    if any(isinstance(n, (exp.Query, exp.AggFunc, exp.Window)) for n in tree.walk()):
        return ""
    columns = list(tree.find_all(exp.Column))
    if not columns or any(c.table != table for c in columns):
        return ""
    return qualified


def _plain_column(expr: str) -> bool:
    return re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", expr.strip()) is not None


def import_metricflow(path: Path) -> ImportResult:
    """Map the MetricFlow project at ``path`` (see the module docstring)."""
    models, metric_defs = read_metricflow(path)
    unmapped: list[str] = []
    undefined: list[str] = []
    primary: dict[str, tuple[str, str]] = {}
    holders: dict[str, list[tuple[str, str]]] = {}  # an entity may be primary in several
    for model in models:
        for entity in model.get("entities") or []:
            if entity.get("type") == "primary":
                key = (_table(model), entity.get("expr") or entity["name"])
                primary.setdefault(entity["name"], key)
                holders.setdefault(entity["name"], []).append(key)
    joins, dimensions, time_of, measures = [], [], {}, {}
    measure_model: dict[str, dict[str, Any]] = {}
    measure_parts: dict[str, tuple[str, str]] = {}
    time_columns: set[str] = set()
    for i, model in enumerate(models):
        table, where = _table(model), f"semantic_models[{i}] ({model.get('name')})"
        dims = {d.get("name"): d for d in model.get("dimensions") or []}
        agg_time = (model.get("defaults") or {}).get("agg_time_dimension")
        if agg_time in dims:
            time_of[model.get("name")] = f"{table}.{dims[agg_time].get('expr') or agg_time}"
        for entity in model.get("entities") or []:
            if entity.get("type") == "foreign" and entity["name"] in primary:
                # one join onto each model holding the entity as primary: MetricFlow reaches
                # a dimension of any of them through it (listing__capacity_latest)
                col = entity.get("expr") or entity["name"]
                for ref_table, ref_col in holders[entity["name"]]:
                    if ref_table != table:
                        joins.append({"left": f"{table}.{col}", "right": f"{ref_table}.{ref_col}"})
            elif entity.get("type") == "foreign":
                unmapped.append(f"{where}.entities.{entity['name']}: no model has it as primary")
        for name, dim in dims.items():
            expr = str(dim.get("expr") or name)
            if dim.get("type") == "time":
                continue
            if _plain_column(expr):
                mapped_dim: dict[str, Any] = {"name": str(name), "column": f"{table}.{expr}"}
                said = _qualified(model, str(name))
                if said:
                    mapped_dim["synonyms"] = said
                dimensions.append(mapped_dim)
            elif dim.get("type") == "categorical" and _own_columns(expr, table):
                # an expression over its own model's columns: grouped by as written
                mapped_dim = {
                    "name": str(name),
                    "column": f"{table}.{name}",
                    "expression": _own_columns(expr, table),
                }
                said = _qualified(model, str(name))
                if said:
                    mapped_dim["synonyms"] = said
                dimensions.append(mapped_dim)
            else:
                unmapped.append(f"{where}.dimensions.{name}: an expression, not a column")
                undefined.append(str(name))
        for measure in model.get("measures") or []:
            agg = str(measure.get("agg", "")).lower()
            qualified = _qualify(str(measure.get("expr") or measure["name"]), table)
            if agg not in _AGG or qualified is None:
                unmapped.append(f"{where}.measures.{measure['name']}: aggregate {agg!r}")
                continue
            if measure.get("non_additive_dimension"):
                unmapped.append(f"{where}.measures.{measure['name']}: {_non_additive(measure)}")
                continue
            own = measure.get("agg_time_dimension")
            if own and own not in dims:
                unmapped.append(
                    f"{where}.measures.{measure['name']}: agg_time_dimension {own!r} is not a "
                    "dimension of its model"
                )
                continue
            timed = (
                f"{table}.{dims[own].get('expr') or own}"
                if own
                else time_of.get(model.get("name"), "")
            )
            if own:
                time_columns.add(timed)
            measures[measure["name"]] = (table, _AGG[agg].format(qualified), timed)
            measure_model[str(measure["name"])] = model
            measure_parts[str(measure["name"])] = (agg, qualified)
    metrics: list[dict[str, Any]] = []
    notes: list[str] = []
    combined: list[tuple[int, dict[str, Any]]] = []
    for i, metric in enumerate(metric_defs):
        where = f"metrics[{i}] ({metric.get('name')})"
        kind = str(metric.get("type", "")).lower()
        if kind in {"ratio", "derived"}:
            combined.append((i, metric))
            continue
        if kind != "simple":
            unmapped.append(f"{where}: {_left_out(metric, _plain_metrics(metric_defs, measures))}")
            undefined.extend(_names(metric))
            continue
        params = metric.get("type_params") or {}
        measure = params.get("measure")
        name = measure.get("name") if isinstance(measure, dict) else measure
        if name not in measures:
            unmapped.append(f"{where}: measure {name!r} was not mapped")
            undefined.extend(_names(metric))
            continue
        table, expression, time_column = measures[name]
        if metric.get("filter"):
            owner = measure_model.get(str(name), {})
            condition = _own_filter(metric["filter"], owner, table, models, joins)
            if condition.startswith("not mapped: "):
                unmapped.append(f"{where}: a metric filter {condition}")
                undefined.extend(_names(metric))
                continue
            agg, arg = measure_parts[str(name)]
            expression = _AGG[agg].format(f"CASE WHEN {condition} THEN {arg} END")
        mapped: dict[str, Any] = {
            "name": str(metric["name"]),
            "label": _label(metric),
            "table": table,
            "expression": expression,
        }
        if metric.get("filter"):
            mapped["filter"] = condition  # also applied as WHERE (MetricFlow's form)
        if time_column:
            mapped["time_column"] = time_column
        else:
            notes.append(
                f"{where}: untimed (no agg_time_dimension for its measure): answered over all "
                "rows; a period asked of it abstains"
            )
        metrics.append(mapped)
    simple = {m["name"]: m for m in metrics}
    for i, metric in combined:
        where = f"metrics[{i}] ({metric.get('name')})"
        mapped_or_why = _combined(metric, simple)
        if isinstance(mapped_or_why, str):
            unmapped.append(f"{where}: {mapped_or_why}")
            undefined.extend(_names(metric))
            continue
        metrics.append(mapped_or_why)
    dimensions += _entity_dimensions(models, primary, metrics, dimensions, notes)
    layer = {
        "name": path.name,
        "description": "Imported from dbt MetricFlow by 'assay semantic import'.",
        "tables": {_table(m): {} for m in sorted(models, key=_table)},
        "joins": sorted(joins, key=lambda j: (j["left"], j["right"])),
        "metrics": metrics,
        "dimensions": sorted(dimensions, key=lambda d: d["name"]),
    }
    return ImportResult(
        layer,
        tuple(sorted(set(time_of.values()) | time_columns)),
        tuple(unmapped),
        tuple(undefined),
        tuple(notes),
    )


def _qualified(model: dict[str, Any], name: str) -> list[str]:
    """A dimension as MetricFlow names it in a query, ``entity__name`` for the model's primary
    entity (``listing__capacity_latest``), written as words ("listing capacity latest")."""
    entities = [str(model["primary_entity"])] if model.get("primary_entity") else []
    entities += [
        str(e.get("name")) for e in model.get("entities") or [] if e.get("type") == "primary"
    ]
    return sorted({f"{e} {name}".replace("_", " ") for e in entities if e})


def _forms(phrase: str) -> set[str]:
    """A phrase, lower case with underscores as spaces, in the singular and the plural."""
    p = phrase.lower().replace("_", " ").strip()
    out = {p, p + "s"}
    if p.endswith("ies"):
        out.add(p[:-3] + "y")
    elif p.endswith("s"):
        out.add(p[:-1])
    return out


def _entity_dimensions(
    models: list[dict[str, Any]],
    primary: dict[str, tuple[str, str]],
    metrics: list[dict[str, Any]],
    dimensions: list[dict[str, Any]],
    notes: list[str],
) -> list[dict[str, Any]]:
    """A primary entity as a dimension over its key column, so a question grouping by it
    (MetricFlow's ``group_by: Entity('customer')``) reads it. Only an entity no other model
    holds as foreign: then no join ends at its table, and only the table's own metrics group
    by it, by the very column MetricFlow groups by (through a join, a row whose key the
    parent lacks would be dropped, where MetricFlow keeps its foreign key). Left out, too,
    when its name in either number is a metric's or a dimension's (the reader would have to
    guess between them)."""
    foreign = {
        str(e.get("name"))
        for m in models
        for e in m.get("entities") or []
        if isinstance(e, dict) and e.get("type") == "foreign"
    }
    taken: set[str] = set()
    for element in (*metrics, *dimensions):
        for phrase in (element.get("name"), element.get("label"), *element.get("synonyms", [])):
            if phrase:
                taken |= _forms(str(phrase))
    out = []
    for name, (table, column) in sorted(primary.items()):
        if name in foreign or not _plain_column(column) or _forms(name) & taken:
            continue
        out.append({"name": name, "column": f"{table}.{column}"})
        notes.append(
            f"entity {name}: a dimension over {table}.{column}, the column MetricFlow groups "
            f"by for Entity('{name}')"
        )
    return out


_DIMENSION = re.compile(
    r"\{\{\s*Dimension\(\s*'([A-Za-z0-9_]+)__([A-Za-z0-9_]+)'"
    r"(?:\s*,\s*entity_path\s*=\s*\[((?:\s*'[A-Za-z0-9_]+'\s*,?)*)\])?\s*\)\s*\}\}"
)


def _primary_of(model: dict[str, Any]) -> set[str]:
    return {str(model.get("primary_entity") or "")} | {
        str(e.get("name")) for e in model.get("entities") or [] if e.get("type") == "primary"
    }


def _categorical(model: dict[str, Any]) -> dict[str, str]:
    return {
        str(d.get("name")): str(d.get("expr") or d.get("name"))
        for d in model.get("dimensions") or []
        if d.get("type") == "categorical"
    }


def _reached(
    model: dict[str, Any],
    path: list[str],
    models: list[dict[str, Any]],
    joins: list[dict[str, str]],
) -> dict[str, Any] | None:
    """The model reached from ``model`` along foreign entities ``path`` (each hop: a foreign
    entity of the current model, primary in exactly one other model, whose table only that
    one join enters, so that the planner's join path is this path), or ``None``."""
    current = model
    for entity in path:
        foreign = {
            str(e.get("name")) for e in current.get("entities") or [] if e.get("type") == "foreign"
        }
        holders = [m for m in models if entity in _primary_of(m) and m is not current]
        if entity not in foreign or len(holders) != 1:
            return None
        target = _table(holders[0])
        entering = [j for j in joins if j["right"].split(".")[0] == target]
        if len(entering) != 1 or entering[0]["left"].split(".")[0] != _table(current):
            return None
        current = holders[0]
    return current


def _column_of(qualified: dict[str, str], match: re.Match[str]) -> str:
    return f"({qualified[match.group(0)]})"


def _own_filter(
    given: Any,
    model: dict[str, Any],
    table: str,
    models: list[dict[str, Any]] | None = None,
    joins: list[dict[str, str]] | None = None,
) -> str:
    """A simple metric's ``filter`` as SQL, or ``"not mapped: "`` and why. Mapped only when
    every reference is ``{{ Dimension('entity__name') }}`` naming a categorical dimension of
    the measure's own model (its primary entity), or of a model reached through the measure
    model's foreign entities (``customer__customer_country``; ``entity_path=['customer']``
    for a second hop) along joins that are the only way into each table: the measure over
    the rows the filter keeps is then ``agg(CASE WHEN filter THEN expr END)`` with the joined
    columns, and the planner joins their tables (MetricFlow's WHERE over its joins; a join
    with unmatched rows is marked at import and taken only under a positive filter on its
    partner, so such a metric alone is not shown). The condition is also kept as the metric's
    ``filter``: asked without an unfiltered metric, the planner applies it as WHERE too.
    An entity, a time dimension or a metric is not mapped."""
    filters = given if isinstance(given, list) else [given]
    parts = []
    for text in filters:
        qualified: dict[str, str] = {}
        for match in _DIMENSION.finditer(str(text)):
            entity, name = match.group(1), match.group(2)
            path = re.findall(r"'([A-Za-z0-9_]+)'", match.group(3) or "")
            holder: dict[str, Any] | None = model
            if path or entity not in _primary_of(model):
                holder = _reached(model, [*path, entity], models or [], joins or [])
            dims = _categorical(holder) if holder is not None else {}
            if holder is None or name not in dims:
                return (
                    f"not mapped: it names {entity}__{name}, not a categorical dimension of "
                    "its own model or of one its joins reach"
                )
            column = _qualify(dims[name], _table(holder) if holder is not model else table)
            if column is None:
                return f"not mapped: {entity}__{name} is not a column"
            qualified[match.group(0)] = column
        sql = _DIMENSION.sub(functools.partial(_column_of, qualified), str(text))
        if "{{" in sql or "{%" in sql:
            return "not mapped: it names an entity, a time dimension or a metric"
        try:
            tree = sqlglot.parse_one(sql, read="duckdb")
        except Exception:  # a filter that does not parse is reported as unmapped
            return "not mapped: it does not parse"
        if any(isinstance(n, exp.Query) for n in tree.walk()):
            return "not mapped: it holds a query"
        allowed = {table} | {c.split(".")[0] for c in qualified.values()}
        if any(c.table not in allowed for c in tree.find_all(exp.Column)):
            return "not mapped: it names a column outside its model's dimensions"
        parts.append(f"({tree.sql(dialect='duckdb')})")
    return " AND ".join(parts)


def _input(ref: Any) -> tuple[str, str] | str:
    """An input metric's (name, the name the expression uses), or why it is not mapped."""
    if isinstance(ref, str):
        return ref, ref
    if not isinstance(ref, dict) or not ref.get("name"):
        return f"an input metric {ref!r} without a name"
    extra = sorted(k for k in ref if k not in {"name", "alias"})
    if extra:
        return f"input metric {ref['name']!r} has {', '.join(extra)} (not mapped)"
    return str(ref["name"]), str(ref.get("alias") or ref["name"])


def _combined(metric: dict[str, Any], simple: dict[str, dict[str, Any]]) -> dict[str, Any] | str:
    """A ``ratio`` or ``derived`` metric over simple metrics of one table with one time as the
    same arithmetic over their aggregates (MetricFlow computes each input over the same
    group, then the expression), or why it is not mapped. A ratio divides as MetricFlow
    renders it: ``CAST(n AS DOUBLE) / CAST(NULLIF(d, 0) AS DOUBLE)``."""
    kind = str(metric.get("type", "")).lower()
    if metric.get("filter"):
        return "a metric filter over dimensions is not mapped"
    params = metric.get("type_params") or {}
    if kind == "ratio":
        refs = [params.get("numerator"), params.get("denominator")]
        expr = "CAST(numerator__ AS DOUBLE) / CAST(NULLIF(denominator__, 0) AS DOUBLE)"
        used = ["numerator__", "denominator__"]
    else:
        refs = list(params.get("metrics") or [])
        expr = str(params.get("expr") or "")
        used = []
    inputs: dict[str, dict[str, Any]] = {}
    for j, ref in enumerate(refs):
        got = _input(ref)
        if isinstance(got, str):
            return got
        name, alias = got
        if name not in simple:
            return f"input metric {name!r} is not a mapped simple metric"
        inputs[used[j] if kind == "ratio" else alias] = simple[name]
    if not inputs or not expr:
        return f"a {kind} metric without inputs or an expression"
    if len({m["table"] for m in inputs.values()}) != 1:
        return "its input metrics are over different tables (Assay computes one table)"
    if len({m.get("time_column", "") for m in inputs.values()}) != 1:
        return "its input metrics have different time columns"
    try:
        tree = sqlglot.parse_one(expr, read="duckdb")
    except Exception:  # an expression that does not parse is reported as unmapped
        return f"its expression {expr!r} does not parse"
    for column in tree.find_all(exp.Column):
        if column.table or column.name not in inputs:
            return f"its expression names {column.sql()!r}, not one of its input metrics"

    def aggregate(node: exp.Expression) -> exp.Expression:
        if not isinstance(node, exp.Column):
            return node
        return exp.Paren(this=sqlglot.parse_one(inputs[node.name]["expression"], read="duckdb"))

    tree = tree.transform(aggregate, copy=True)
    first = next(iter(inputs.values()))
    out: dict[str, Any] = {
        "name": str(metric["name"]),
        "label": _label(metric),
        "table": first["table"],
        "expression": tree.sql(dialect="duckdb"),
    }
    if first.get("time_column"):
        out["time_column"] = first["time_column"]
    return out


def _non_additive(measure: dict[str, Any]) -> str:
    """Why a measure with ``non_additive_dimension`` (an account balance: MetricFlow takes the
    first or last date's rows, never a total over dates) is left out: Assay would sum it over
    every date asked (outside recheck 41: a first-day balance of 51,455 answered 105,167)."""
    spec = measure.get("non_additive_dimension") or {}
    if not isinstance(spec, dict):
        spec = {"name": spec}
    dimension = str(spec.get("name") or "its date")
    choice = str(spec.get("window_choice") or "").lower()
    which = {"min": "first", "max": "last"}.get(choice, "one")
    per = spec.get("window_groupings") or []
    each = f" for each {', '.join(str(g) for g in per)}" if per else ""
    return (
        f"a balance-like measure (only the {which} {dimension!r} value{each} may be taken, "
        f"never a total over {dimension!r}): Assay would add it up over every date, so it is "
        "not imported, nor any metric built on it; a question naming it is not answered. "
        "To ask for it, add a view holding only that date's rows and a plain measure over it"
    )


def _measure_name(params: dict[str, Any], key: str = "measure") -> str:
    measure = params.get(key)
    return str(measure.get("name") if isinstance(measure, dict) else measure or "")


def _plain_metrics(
    metric_defs: list[dict[str, Any]], measures: dict[str, Any]
) -> dict[str, list[str]]:
    """Each mapped measure's simple metrics without a filter, by measure name: what a question
    can ask instead of a metric left out."""
    out: dict[str, list[str]] = {}
    for metric in metric_defs:
        name = _measure_name(metric.get("type_params") or {})
        simple = str(metric.get("type", "")).lower() == "simple" and not metric.get("filter")
        if simple and name in measures:
            out.setdefault(name, []).append(str(metric.get("name")))
    return out


def _left_out(metric: dict[str, Any], plain: dict[str, list[str]]) -> str:
    """Why a cumulative, conversion or other non-simple metric is left out, and what to do
    instead, said to the person importing (outside tester, import 38: "cumulative metrics are
    not in Assay's format" said neither what the metric was nor what to ask instead)."""
    kind = str(metric.get("type", "")).lower()
    params = metric.get("type_params") or {}
    label = f" ('{metric['label']}')" if metric.get("label") else ""
    after = (
        "; not imported: a question naming it"
        + label
        + " is asked back, never answered with another metric"
    )
    if kind == "cumulative":
        measure = _measure_name(params)
        more = params.get("cumulative_type_params") or {}
        window = more.get("window") or params.get("window")
        to_date = more.get("grain_to_date") or params.get("grain_to_date")
        if window:
            what = f"{measure} over a moving window of {window} before each date"
        elif to_date:
            what = f"{measure} from the start of each {to_date} to each date"
        else:
            what = f"{measure} over all dates up to each date"
        instead = plain.get(measure, [])
        fix = (
            f"; instead ask for {instead[0].replace('_', ' ')!r} over the dates you mean (a "
            "total over those dates, not a running total)"
            if instead
            else f"; add a simple metric over measure {measure!r} to ask for its totals"
        )
        return (
            f"a cumulative metric (a running total of {what}): Assay has no running totals"
            f"{after}{fix}"
        )
    if kind == "conversion":
        more = params.get("conversion_type_params") or {}
        base = _measure_name(more, "base_measure")
        conversion = _measure_name(more, "conversion_measure")
        apart = [plain[m][0].replace("_", " ") for m in (base, conversion) if plain.get(m)]
        fix = (
            "; ask for " + " and ".join(repr(m) for m in apart) + " apart"
            if apart
            else f"; add simple metrics over measures {base!r} and {conversion!r} to ask for them"
        )
        return (
            f"a conversion metric ({conversion} that follow {base} within a window, per "
            f"entity): Assay does not match one table's rows to another's in time{after}{fix}"
        )
    return (
        f"a {kind or 'typeless'} metric: only simple, ratio and derived metrics are mapped{after}"
    )


def _label(metric: dict[str, Any]) -> str:
    """The metric's ``label``, or its name as words ("booking value" for ``booking_value``):
    the label is what answers and readings say to people."""
    return str(metric.get("label") or str(metric["name"]).replace("_", " "))


def _names(definition: dict[str, Any]) -> list[str]:
    """A definition's name and label, as a reader would type them."""
    return [str(n) for n in (definition.get("name"), definition.get("label")) if n]


def with_dates(result: ImportResult, start: dt.date | None, end: dt.date | None) -> dict[str, Any]:
    """The layer with its clock and coverage from the data's first and last dates; without
    them (every metric untimed) the layer has no time."""
    if start is None or end is None:
        return dict(result.layer)
    return {**result.layer, "clock": end, "coverage": {"start": start, "end": end}}
