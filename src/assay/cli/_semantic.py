"""``assay semantic show``: what can be asked of a warehouse, from its semantic layer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from assay.cli._main import echo_json, handle_errors, resolve_settings, settings_options
from assay.connectors import connect
from assay.errors import InputError
from assay.semantic import SemanticLayer, load_semantic

__all__ = ["semantic_group", "semantic_record"]


@click.group("semantic")
def semantic_group() -> None:
    """The semantic layer: what a warehouse's questions can name."""


def semantic_record(layer: SemanticLayer, covered: dict[str, list[str | None]]) -> dict[str, Any]:
    """Metrics, dimensions with their values, and the periods covered, as one record."""
    return {
        "name": layer.name,
        "clock": str(layer.clock) if layer.clock else None,
        "coverage": [str(d) for d in layer.coverage] if layer.coverage else None,
        "fiscal_year_start_month": layer.fiscal_year_start_month,
        "metrics": [
            {
                "name": m.name,
                "label": m.label,
                "synonyms": list(m.synonyms),
                "time_column": m.time_column,
                "data": covered.get(m.name),
            }
            for m in layer.metrics
        ],
        "dimensions": [
            {
                "name": d.name,
                "synonyms": list(d.synonyms),
                "values": list(d.values),
                "value_synonyms": dict(d.value_synonyms),
            }
            for d in layer.dimensions
        ],
        "retired": [f"{r.table}.{r.column}" for r in layer.retired_columns],
        "undefined": list(layer.undefined_concepts),
    }


def _covered(db: str, layer: SemanticLayer, settings: Any) -> dict[str, list[str | None]]:
    """The first and last date of each metric's rows, by metric name: its declared coverage
    (read from the data by ``semantic init`` and ``import``), else its time column's span.

    A time column on another table (``date_dim.d_date`` through a date key) holds the calendar,
    not the metric's rows: outside tryout 23 saw "data 1900-01-02 to 2100-01-01" for store
    sales that run from 1998 to 2003. Such a metric with no declared coverage shows no span
    (``None``), never the calendar's."""
    out: dict[str, list[str | None]] = {}
    spans: dict[str, list[str | None]] = {}
    with connect(db, settings) as connector:
        for m in layer.metrics:
            if m.coverage is not None:
                out[m.name] = [str(m.coverage[0]), str(m.coverage[1])]
                continue
            table, name = m.time_column.split(".", 1) if m.time_column else ("", "")
            if table != m.table:
                continue
            if m.time_column not in spans:
                sql = f'SELECT MIN("{name}"), MAX("{name}") FROM "{table}"'
                row = connector.execute(sql, time_limit_ms=settings.time_limit_ms, max_rows=1).rows
                low, high = row[0] if row else (None, None)
                spans[m.time_column] = [
                    str(low)[:10] if low else None,
                    str(high)[:10] if high else None,
                ]
            out[m.name] = spans[m.time_column]
    return out


@semantic_group.command("show")
@click.argument(
    "layer_path", required=False, type=click.Path(dir_okay=False, path_type=Path), metavar="[LAYER]"
)
@click.option("--db", help="Warehouse (DuckDB/SQLite path or URL); default: the demo one.")
@click.option(
    "--semantic",
    "semantic_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Its semantic layer (YAML); default: the demo one.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON record.")
@settings_options("time_limit_ms", "cache_dir")
@handle_errors
def show_command(
    layer_path: Path | None,
    db: str | None,
    semantic_path: Path | None,
    as_json: bool,
    **kwargs: Any,
) -> None:
    """List the metrics, dimensions and their values, and the periods the warehouse covers.

    LAYER is the semantic layer, as --semantic gives it (outside tryout 17 typed it bare)."""
    from assay.cli._ask import demo_warehouse

    settings = resolve_settings(kwargs)
    if layer_path is not None and semantic_path is not None and layer_path != semantic_path:
        raise InputError(
            f"Two layers given: {str(layer_path)!r} and --semantic {str(semantic_path)!r}.",
            hint="Give one.",
        )
    semantic_path = semantic_path or layer_path
    if (db is None) != (semantic_path is None):
        raise InputError(
            "--db and --semantic go together.", hint="Give both, or neither for the demo warehouse."
        )
    if db is None or semantic_path is None:
        db_path, semantic_path = demo_warehouse(settings)
        db = str(db_path)
    layer = load_semantic(semantic_path)
    record = semantic_record(layer, _covered(db, layer, settings))
    if as_json:
        echo_json(record)
        return
    when = (
        f"clock {record['clock']}, covers {' to '.join(record['coverage'])}"
        if record["coverage"]
        else "no time (no dates: questions with a period are abstained on)"
    )
    lines = [
        f"{layer.name}: {when}"
        + (
            f", fiscal year starts in month {layer.fiscal_year_start_month}"
            if layer.fiscal_year_start_month != 1
            else ""
        ),
        "metrics:",
    ]
    for m in record["metrics"]:
        data = m["data"] or [None, None]
        also = f" (also: {', '.join(m['synonyms'])})" if m["synonyms"] else ""
        span = f"data {data[0]} to {data[1]}" if data[0] and data[1] else "no time"
        if span == "no time" and m["time_column"]:
            span = f"timed by {m['time_column']} (its span not read)"
        lines.append(f"  {m['label']}{also}; {span}")
    lines.append("dimensions:")
    for d in record["dimensions"]:
        names = {v: [w for w, c in d["value_synonyms"].items() if c == v] for v in d["values"]}
        values = ", ".join(f"{v} ({'/'.join(w)})" if w else v for v, w in names.items())
        lines.append(f"  {d['name']}: {values or 'any value'}")
    if record["retired"]:
        lines.append(f"retired (not available): {', '.join(record['retired'])}")
    if record["undefined"]:
        lines.append(f"not defined here: {', '.join(record['undefined'])}")
    click.echo("\n".join(lines))
