"""Import a Snowflake Cortex Analyst semantic model (YAML) into Assay's layer format.

Mapped: each logical table to its ``base_table.table`` (the physical name); a measure (or fact)
with ``default_aggregation`` (sum, avg, min, max, count, count_distinct) to a metric over
``table.column``, timed by the table's first time dimension; a dimension over a plain column to
a dimension; a ``relationships`` entry with one column pair to a join. Reported, not mapped: a
measure without an aggregation or in a table without a time dimension, dimensions over
expressions, filters, multi-column relationships, and verified queries (Assay's layer format
has no trusted examples yet; each is listed by name).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from assay.errors import SemanticError
from assay.semantic._import_metricflow import ImportResult, _plain_column, _qualify

__all__ = ["import_cortex"]

_AGG = {
    "sum": "sum({})",
    "avg": "avg({})",
    "average": "avg({})",
    "min": "min({})",
    "max": "max({})",
    "count": "count({})",
    "count_distinct": "count(DISTINCT {})",
}


def _load(path: Path) -> dict[str, Any]:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise SemanticError(
            f"Cannot read {str(path)!r} as YAML: {exc}.", hint="Give a Cortex Analyst YAML file."
        ) from exc
    if not isinstance(raw, dict) or not isinstance(raw.get("tables"), list):
        raise SemanticError(
            f"{str(path)!r} is not a Cortex Analyst semantic model (no 'tables:' list).",
            hint="Give the semantic model YAML that Cortex Analyst reads.",
        )
    return raw


def import_cortex(path: Path) -> ImportResult:
    """Map the Cortex Analyst model at ``path`` (see the module docstring)."""
    raw = _load(path)
    unmapped: list[str] = []
    physical: dict[str, str] = {}
    metrics: list[dict[str, Any]] = []
    dimensions: list[dict[str, Any]] = []
    times: set[str] = set()
    for i, table in enumerate(t for t in raw["tables"] if isinstance(t, dict)):
        name = str(table.get("name"))
        phys = str((table.get("base_table") or {}).get("table") or name)
        physical[name] = phys
        where = f"tables[{i}] ({name})"
        time_dims = [
            d for d in table.get("time_dimensions") or [] if _plain_column(str(d.get("expr", "")))
        ]
        time_col = f"{phys}.{time_dims[0]['expr']}" if time_dims else ""
        for dim in table.get("dimensions") or []:
            expr = str(dim.get("expr") or dim.get("name"))
            if _plain_column(expr):
                dimensions.append(
                    {
                        "name": str(dim["name"]),
                        "column": f"{phys}.{expr}",
                        "synonyms": [str(s) for s in dim.get("synonyms") or []],
                    }
                )
            else:
                unmapped.append(f"{where}.dimensions.{dim.get('name')}: an expression")
        for kind in ("measures", "facts", "metrics"):
            for measure in table.get(kind) or []:
                label = f"{where}.{kind}.{measure.get('name')}"
                agg = str(measure.get("default_aggregation", "")).lower()
                qualified = _qualify(str(measure.get("expr") or measure.get("name")), phys)
                if agg not in _AGG or qualified is None:
                    unmapped.append(f"{label}: no aggregation Assay can apply ({agg or 'none'})")
                    continue
                if not time_col:
                    unmapped.append(f"{label}: its table has no time dimension")
                    continue
                times.add(time_col)
                metrics.append(
                    {
                        "name": str(measure["name"]),
                        "synonyms": [str(s) for s in measure.get("synonyms") or []],
                        "table": phys,
                        "expression": _AGG[agg].format(qualified),
                        "time_column": time_col,
                    }
                )
        for f in table.get("filters") or []:
            unmapped.append(f"{where}.filters.{f.get('name')}: named filters are not mapped")
    joins = []
    for i, rel in enumerate(raw.get("relationships") or []):
        cols = rel.get("relationship_columns") or []
        left, right = physical.get(rel.get("left_table")), physical.get(rel.get("right_table"))
        if len(cols) != 1 or not left or not right:
            unmapped.append(f"relationships[{i}] ({rel.get('name')}): not one column pair")
            continue
        joins.append(
            {
                "left": f"{left}.{cols[0]['left_column']}",
                "right": f"{right}.{cols[0]['right_column']}",
            }
        )
    for i, query in enumerate(raw.get("verified_queries") or []):
        unmapped.append(f"verified_queries[{i}] ({query.get('name')}): no examples in the format")
    seen: set[str] = set()
    unique_dims = []
    for d in dimensions:
        if d["name"] in seen:
            unmapped.append(f"dimension {d['name']} ({d['column']}): a duplicate name")
            continue
        seen.add(str(d["name"]))
        unique_dims.append(d)
    layer = {
        "name": str(raw.get("name") or path.stem),
        "description": "Imported from Cortex Analyst by 'assay semantic import'.",
        "tables": {t: {} for t in sorted(set(physical.values()))},
        "joins": joins,
        "metrics": metrics,
        "dimensions": unique_dims,
    }
    return ImportResult(layer, tuple(sorted(times)), tuple(unmapped))
