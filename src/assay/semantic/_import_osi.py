"""Import an Open Semantic Interchange (OSI) semantic model (YAML) into Assay's layer format.

Read: the first ``semantic_model`` entry of the file (others are reported). Mapped:

- each dataset to the last part of its ``source`` (``tpcds.public.store_sales`` is
  ``store_sales``; the prefix is reported);
- a field whose ``ANSI_SQL`` expression is one column and that has ``dimension`` (not
  ``is_time``) to a dimension of that name, with its ``ai_context`` synonyms;
- a relationship with one column pair to a join (``from`` is the many side);
- a model-level metric whose ``ANSI_SQL`` expression aggregates columns of one dataset to a
  metric over that table, timed by the dataset's first ``is_time`` field over a column, or else
  by the first such field of a dataset it is related to (``store_sales`` -> ``date_dim.d_date``),
  or else untimed (answered over all rows; a period asked of it abstains). ``assay semantic
  import`` makes a metric untimed too when its time would go through a join that leaves rows of
  its table without a date (TPC-DS ``store_sales`` rows with no ``ss_sold_date_sk``).

- a metric over columns of two or more datasets when one of them relates to each other one
  directly, many to one: over that one's table, the planner joining the others
  (``store_productivity``: ``store_sales`` joined to ``store``); where it aggregates a column
  of the one side (``SUM(store.s_number_employees)``, each store once per sale) the import
  notes the fan-out the definition holds and every answer is warned
  (``cap.fan_out_in_metric``), never shown plain.

Reported, not mapped: a dataset's time fields after its first (``d_year``, ``d_quarter_name``
beside ``d_date``: periods and grains are read on the first, never a silent drop), a metric
over columns of datasets no one of them joins many to one,
fields without ``dimension`` (facts: OSI's
measures are its model-level metrics), expressions that are not one column, relationships
over several columns, other dialects, and ``custom_extensions``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlglot
import yaml
from sqlglot import exp

from assay.errors import SemanticError
from assay.semantic._import_metricflow import ImportResult, _plain_column, _unique_dimensions

__all__ = ["import_osi"]


def _load(path: Path) -> dict[str, Any]:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise SemanticError(
            f"Cannot read {str(path)!r} as YAML: {exc}.", hint="Give an OSI semantic model file."
        ) from exc
    models = raw.get("semantic_model") if isinstance(raw, dict) else None
    if not isinstance(models, list) or not models or not isinstance(models[0], dict):
        raise SemanticError(
            f"{str(path)!r} is not an OSI semantic model (no 'semantic_model:' list).",
            hint="Give the OSI YAML file whose top level is 'semantic_model:'.",
        )
    if not isinstance(models[0].get("datasets"), list):
        raise SemanticError(
            f"{str(path)!r}: semantic_model[0] has no 'datasets:' list.",
            hint="Each OSI semantic model lists its datasets.",
        )
    out: dict[str, Any] = raw
    return out


def _ansi(item: dict[str, Any]) -> str | None:
    """The item's ANSI_SQL expression, or ``None``."""
    dialects = (item.get("expression") or {}).get("dialects") or []
    for d in dialects:
        if isinstance(d, dict) and str(d.get("dialect", "")).upper() == "ANSI_SQL":
            return str(d.get("expression") or "") or None
    return None


def _synonyms(item: dict[str, Any]) -> list[str]:
    return [str(s) for s in (item.get("ai_context") or {}).get("synonyms") or []]


def import_osi(path: Path) -> ImportResult:
    """Map the OSI model at ``path`` (see the module docstring)."""
    raw = _load(path)
    models = raw["semantic_model"]
    model = models[0]
    unmapped = [f"semantic_model[{i}]: only the first model is read" for i in range(1, len(models))]
    undefined: list[str] = []
    notes: list[str] = []
    tables: dict[str, str] = {}
    time_of: dict[str, str] = {}
    dimensions: list[dict[str, Any]] = []
    reported: list[tuple[str, str]] = []
    for i, ds in enumerate(d for d in model["datasets"] if isinstance(d, dict)):
        name = str(ds.get("name"))
        source = str(ds.get("source") or name)
        table = source.split(".")[-1]
        tables[name] = table
        if "." in source:
            unmapped.append(f"datasets[{i}] ({name}).source: prefix of {source!r} dropped")
        for field in ds.get("fields") or []:
            where = f"datasets[{i}] ({name}).fields.{field.get('name')}"
            expr = _ansi(field)
            dim = field.get("dimension")
            if expr is None or not _plain_column(expr):
                unmapped.append(f"{where}: not one column in ANSI_SQL")
                undefined.append(str(field.get("name")))
                continue
            if not isinstance(dim, dict):
                unmapped.append(f"{where}: a fact (OSI's measures are its metrics)")
                continue
            if dim.get("is_time"):
                time_of.setdefault(name, f"{table}.{expr}")
                if time_of[name] != f"{table}.{expr}":
                    reported.append((where, f"{table}.{expr}"))
                    unmapped.append(
                        f"{where}: a time field beside {time_of[name]}, the dataset's first: "
                        "periods and time grains ('in 2001', 'by quarter') are read on that one"
                    )
                continue
            dimensions.append(
                {
                    "name": str(field["name"]),
                    "column": f"{table}.{expr}",
                    "synonyms": _synonyms(field),
                }
            )
    joins: list[dict[str, str]] = []
    related: dict[str, list[str]] = {}
    for i, rel in enumerate(model.get("relationships") or []):
        left, right = rel.get("from_columns") or [], rel.get("to_columns") or []
        frm, to = rel.get("from"), rel.get("to")
        if len(left) != 1 or len(right) != 1 or frm not in tables or to not in tables:
            unmapped.append(f"relationships[{i}] ({rel.get('name')}): not one column pair")
            continue
        joins.append({"left": f"{tables[frm]}.{left[0]}", "right": f"{tables[to]}.{right[0]}"})
        related.setdefault(str(frm), []).append(str(to))
    metrics: list[dict[str, Any]] = []
    times: set[str] = set()
    for i, metric in enumerate(model.get("metrics") or []):
        where = f"metrics[{i}] ({metric.get('name')})"
        expr = _ansi(metric)
        try:
            tree = sqlglot.parse_one(expr or "", read="duckdb")
        except Exception:  # reported as not mapped
            tree = None
        if tree is None or not expr:
            unmapped.append(f"{where}: no ANSI_SQL expression Assay can parse")
            undefined += [str(metric.get("name")), *_synonyms(metric)]
            continue
        used = {c.table for c in tree.find_all(exp.Column)}
        bases = _bases(used, tables, related)
        if len(bases) != 1:
            unmapped.append(
                f"{where}: it reads {', '.join(sorted(used)) or 'no dataset'}; Assay computes "
                "a metric over one table, joined only many to one from it"
            )
            undefined += [str(metric.get("name")), *_synonyms(metric)]
            continue
        dataset = bases[0]
        if len(used) > 1:
            notes.append(
                f"{where}: it reads {', '.join(sorted(used))}; imported over {tables[dataset]} "
                "joined many to one to "
                + ", ".join(tables[u] for u in sorted(used - {dataset}))
                + _fan_out(tree, related)
            )
        if "_by_" in f"_{metric.get('name')}_":
            unmapped.append(
                f"{where}: named as a breakdown; Assay reads 'by' as a grouping, so the "
                "total alone would answer it"
            )
            continue
        time_column = time_of.get(dataset) or next(
            (time_of[d] for d in related.get(dataset, []) if d in time_of), ""
        )
        for column in tree.find_all(exp.Column):
            column.set("table", exp.to_identifier(tables[column.table]))
        mapped: dict[str, Any] = {
            "name": str(metric["name"]),
            "synonyms": _synonyms(metric),
            "table": tables[dataset],
            "expression": tree.sql(dialect="duckdb"),
        }
        if time_column:
            times.add(time_column)
            mapped["time_column"] = time_column
        else:
            notes.append(
                f"{where}: untimed (no time field on {dataset} or a dataset it relates to): "
                "answered over all rows; a period asked of it abstains"
            )
        metrics.append(mapped)
    for ext in model.get("custom_extensions") or []:
        unmapped.append(f"custom_extensions ({ext.get('vendor_name')}): not read")
    unique = _unique_dimensions(dimensions, unmapped)
    layer = {
        "name": str(model.get("name") or path.stem),
        "description": "Imported from an OSI semantic model by 'assay semantic import'.",
        "tables": {t: {} for t in sorted(set(tables.values()))},
        "joins": joins,
        "metrics": metrics,
        "dimensions": unique,
    }
    return ImportResult(
        layer,
        tuple(sorted(times)),
        tuple(unmapped),
        tuple(undefined),
        tuple(notes),
        reported_columns=tuple(reported),
    )


def _bases(used: set[str], tables: dict[str, str], related: dict[str, list[str]]) -> list[str]:
    """The datasets a metric reading ``used`` can be computed over: one of them that every
    other one is related to directly, many to one (its ``relationships`` entry goes ``from``
    it). Empty (not mapped) when a name is not a dataset or is unqualified."""
    if not used or "" in used or not used <= set(tables):
        return []
    return [b for b in sorted(used) if all(u in related.get(b, []) for u in used - {b})]


def _fan_out(tree: exp.Expr, related: dict[str, list[str]]) -> str:
    """What the source's own number is: an aggregate (not DISTINCT) over a column of a dataset
    that another used dataset joins many to one counts each of its rows once per row of the
    many side (``SUM(store.s_number_employees)`` beside ``SUM(store_sales.ss_ext_sales_price)``:
    each store's employees once per sale). Answered as defined, with a warning
    (``cap.fan_out_in_metric``)."""
    used = {c.table for c in tree.find_all(exp.Column)}
    said = []
    for agg in tree.find_all(exp.Sum, exp.Avg, exp.Count):
        if agg.find(exp.Distinct) is not None:
            continue
        for table in sorted({c.table for c in agg.find_all(exp.Column)}):
            many = sorted(f for f in used if table in related.get(f, []))
            if many:
                said.append(
                    f"{agg.sql(dialect='duckdb')} over {many[0]} rows joined to {table} (many "
                    f"to one) counts each {table} row once per {many[0]} row, a fan-out of the "
                    "source's own SQL"
                )
    if not said:
        return ""
    return (
        "; "
        + "; ".join(dict.fromkeys(said))
        + ": answered as it defines it, always with a warning (cap.fan_out_in_metric)"
    )
