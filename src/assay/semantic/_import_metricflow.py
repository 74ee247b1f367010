"""Import dbt MetricFlow semantic models and metrics into Assay's layer format.

Read: every YAML file under a directory (or one file) holding ``semantic_models:`` and
``metrics:`` (the dbt project layout) or one ``semantic_model:`` / ``metric:`` per document (the
semantic-manifest layout). Mapped:

- a semantic model's table from ``model: ref('x')`` or ``node_relation.alias``;
- a foreign entity to a join onto the model whose primary entity has the same name;
- a measure (``SUM``, ``COUNT``, ``COUNT_DISTINCT``, ``AVERAGE``/``AVG``, ``MIN``, ``MAX``,
  ``SUM_BOOLEAN``) to an aggregate over ``table.column`` (unqualified columns qualified);
- a ``simple`` metric without a filter to a metric over its measure, timed by the model's
  ``agg_time_dimension``;
- a ``categorical`` dimension over a plain column to a dimension.

Everything else (ratio, derived, cumulative and conversion metrics, metric filters, dimensions
over expressions, percentile aggregates) is listed in the report with its path and reason,
never dropped silently. Clock and coverage come from the data (given by the caller).
"""

from __future__ import annotations

import datetime as dt
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


def _plain_column(expr: str) -> bool:
    return re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", expr.strip()) is not None


def import_metricflow(path: Path) -> ImportResult:
    """Map the MetricFlow project at ``path`` (see the module docstring)."""
    models, metric_defs = read_metricflow(path)
    unmapped: list[str] = []
    undefined: list[str] = []
    primary: dict[str, tuple[str, str]] = {}
    for model in models:
        for entity in model.get("entities") or []:
            if entity.get("type") == "primary":
                primary[entity["name"]] = (_table(model), entity.get("expr") or entity["name"])
    joins, dimensions, time_of, measures = [], [], {}, {}
    for i, model in enumerate(models):
        table, where = _table(model), f"semantic_models[{i}] ({model.get('name')})"
        dims = {d.get("name"): d for d in model.get("dimensions") or []}
        agg_time = (model.get("defaults") or {}).get("agg_time_dimension")
        if agg_time in dims:
            time_of[model.get("name")] = f"{table}.{dims[agg_time].get('expr') or agg_time}"
        for entity in model.get("entities") or []:
            if entity.get("type") == "foreign" and entity["name"] in primary:
                ref_table, ref_col = primary[entity["name"]]
                col = entity.get("expr") or entity["name"]
                joins.append({"left": f"{table}.{col}", "right": f"{ref_table}.{ref_col}"})
            elif entity.get("type") == "foreign":
                unmapped.append(f"{where}.entities.{entity['name']}: no model has it as primary")
        for name, dim in dims.items():
            expr = str(dim.get("expr") or name)
            if dim.get("type") == "time":
                continue
            if _plain_column(expr):
                dimensions.append({"name": str(name), "column": f"{table}.{expr}"})
            else:
                unmapped.append(f"{where}.dimensions.{name}: an expression, not a column")
                undefined.append(str(name))
        for measure in model.get("measures") or []:
            agg = str(measure.get("agg", "")).lower()
            qualified = _qualify(str(measure.get("expr") or measure["name"]), table)
            if agg not in _AGG or qualified is None:
                unmapped.append(f"{where}.measures.{measure['name']}: aggregate {agg!r}")
                continue
            measures[measure["name"]] = (table, _AGG[agg].format(qualified), model.get("name"))
    metrics = []
    for i, metric in enumerate(metric_defs):
        where = f"metrics[{i}] ({metric.get('name')})"
        kind = str(metric.get("type", "")).lower()
        if kind != "simple":
            unmapped.append(f"{where}: {kind} metrics are not in Assay's format")
            undefined.extend(_names(metric))
            continue
        if metric.get("filter"):
            unmapped.append(f"{where}: a metric filter over dimensions is not mapped")
            undefined.extend(_names(metric))
            continue
        params = metric.get("type_params") or {}
        measure = params.get("measure")
        name = measure.get("name") if isinstance(measure, dict) else measure
        if name not in measures:
            unmapped.append(f"{where}: measure {name!r} was not mapped")
            undefined.extend(_names(metric))
            continue
        table, expression, model_name = measures[name]
        if model_name not in time_of:
            unmapped.append(f"{where}: its model has no agg_time_dimension")
            undefined.extend(_names(metric))
            continue
        metrics.append(
            {
                "name": str(metric["name"]),
                "label": str(metric.get("label") or metric["name"]),
                "table": table,
                "expression": expression,
                "time_column": time_of[model_name],
            }
        )
    layer = {
        "name": path.name,
        "description": "Imported from dbt MetricFlow by 'assay semantic import'.",
        "tables": {_table(m): {} for m in sorted(models, key=_table)},
        "joins": sorted(joins, key=lambda j: (j["left"], j["right"])),
        "metrics": metrics,
        "dimensions": sorted(dimensions, key=lambda d: d["name"]),
    }
    return ImportResult(
        layer, tuple(sorted(set(time_of.values()))), tuple(unmapped), tuple(undefined)
    )


def _names(definition: dict[str, Any]) -> list[str]:
    """A definition's name and label, as a reader would type them."""
    return [str(n) for n in (definition.get("name"), definition.get("label")) if n]


def with_dates(result: ImportResult, start: dt.date, end: dt.date) -> dict[str, Any]:
    """The layer with its clock and coverage from the data's first and last dates."""
    return {**result.layer, "clock": end, "coverage": {"start": start, "end": end}}
