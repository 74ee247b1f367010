"""Plain-text rendering for the terminal: tables of rows, violations, catalogues."""

from __future__ import annotations

from typing import Any

import click

from assay.catalog import Catalog
from assay.guard import GuardReport
from assay.types import Result, jsonable

__all__ = ["render_catalog", "render_result", "render_verdict", "render_violations"]


def _cell(value: Any, width: int = 40) -> str:
    text = "NULL" if value is None else str(jsonable(value))
    text = text.replace("\n", " ")
    return text if len(text) <= width else text[: width - 1] + "…"


def render_result(result: Result, limit: int = 20) -> str:
    """An aligned text table of the first ``limit`` rows, with the row count under it."""
    header = [str(c) for c in result.columns]
    body = [[_cell(v) for v in row] for row in result.rows[:limit]]
    widths = [len(h) for h in header]
    for row in body:
        widths = [max(w, len(c)) for w, c in zip(widths, row, strict=False)]
    lines = [" | ".join(h.ljust(w) for h, w in zip(header, widths, strict=False))]
    lines.append("-+-".join("-" * w for w in widths))
    lines += [" | ".join(c.ljust(w) for c, w in zip(row, widths, strict=False)) for row in body]
    shown = min(limit, len(result.rows))
    total = result.row_count if result.row_count is not None else f"at least {len(result.rows)}"
    note = f"({shown} of {total} rows"
    # tryout 37: the table said it was truncated, not how to see the rest
    note += (
        ", truncated at the row cap; raise --max-rows or ASSAY_MAX_ROWS to get them all)"
        if result.truncated
        else ")"
    )
    lines.append(note)
    return "\n".join(lines)


def render_violations(report: GuardReport) -> str:
    lines = []
    for v in report.violations:
        where = f" (line {v.line}, column {v.col})" if v.line else ""
        lines.append(f"  {click.style(v.code, fg='red')}{where}: {v.message}")
    return "\n".join(lines)


def render_catalog(catalog: Catalog) -> str:
    lines = []
    for table in catalog.tables:
        cols = ", ".join(f"{c.name} {c.type}" for c in table.columns)
        lines.append(f"{click.style(table.name, bold=True)}: {cols}")
    if catalog.foreign_keys:
        lines.append("")
        lines.append("foreign keys:")
        for fk in catalog.foreign_keys:
            lines.append(
                f"  {fk.table}({', '.join(fk.columns)}) -> "
                f"{fk.ref_table}({', '.join(fk.ref_columns)})"
            )
    return "\n".join(lines)


BADGES = {
    "show": ("SHOW", "green"),
    "warn": ("WARN", "yellow"),
    "withhold": ("WITHHOLD", "red"),
    None: ("FAILED", "magenta"),
}


def render_verdict(record: dict[str, Any]) -> str:
    """A verdict record for a person: badge, score, reasons, SQL and the first rows."""
    label, colour = BADGES.get(record.get("action"), ("?", "white"))
    if record.get("route") == "confirm_first" and record.get("action") != "withhold":
        label, colour = "CONFIRM FIRST", "yellow"
    badge = click.style(f" {label} ", bg=colour, fg="black", bold=True)
    score = record.get("score")
    rule = record.get("rule", {})
    head = f"{badge} {record['id']}"
    if score is not None:
        head += f"  score {score:.2f} ({rule.get('name')} {rule.get('version')})"
    lines = [head]
    if record.get("failure"):
        lines.append(f"  failure {record['failure']['code']}: {record['failure']['message']}")
    for reason in record.get("reasons", []):
        lines.append(f"  because {click.style(reason, bold=True)}")
    agreement = record.get("agreement") or {}
    terms = agreement.get("terms") or {}
    if terms:
        shown = ", ".join(
            f"{k} {'unmeasured' if v is None else format(float(v), '.3g')}"
            for k, v in terms.items()
        )
        lines.append(f"  terms: {shown}")
    if agreement.get("capped_by"):
        lines.append(
            f"  capped by: {', '.join(agreement['capped_by'])} (before caps "
            f"{float(agreement.get('raw', 0.0)):.2f})"
        )
    # Every finding, of every kind, is printed: nothing that fired is hidden.
    for finding in record.get("findings", []):
        lines.append(f"  [{finding['kind']}] {finding['code']}: {finding['message']}")
    for failure in record.get("failures", []):
        lines.append(
            f"  sample {failure.get('sample')} failed {failure.get('code')}: "
            f"{failure.get('message')}"
        )
    if record.get("sql"):
        lines.append(f"  SQL: {record['sql']}")
    result = record.get("result")
    if result:
        rows = tuple(tuple(r) for r in result["rows"])
        table = render_result(
            Result(
                tuple(result["columns"]),
                rows,
                result.get("row_count"),
                result.get("truncated", False),
            ),
            limit=5,
        )
        lines.extend("  " + line for line in table.splitlines())
    return "\n".join(lines)
