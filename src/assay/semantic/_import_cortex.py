"""Import a Snowflake Cortex Analyst semantic model (YAML) into Assay's layer format.

Mapped: each logical table to its ``base_table.table`` (the physical name, read from the schema
``base_table.schema`` names: ``assay semantic import`` stops when the bare name would read
another schema's table; ``base_table.database`` is not checked); a measure (or fact)
with ``default_aggregation`` (sum, avg, min, max, count, count_distinct) to a metric over
``table.column``, timed by the table's first time dimension (untimed when the table has none:
answered over all rows, a period asked of it abstains); a dimension over a plain column to a
dimension; a ``relationships`` entry with one column pair to a join. A fact (or measure) over a
plain column without a ``default_aggregation`` (a semantic view's facts are row-level values
its metrics aggregate) is handed to ``assay semantic import``, which sums it only when the
column's values allow it (numeric, never negative, no stand-in codes, not an identifier) and
marks that metric unconfirmed (tier PATTERN_CONFIRMED: answers resting on it are
confirm-first); otherwise it is reported. Reported, not mapped: dimensions over expressions,
filters and multi-column relationships.

Each ``verified_queries`` entry becomes a trusted example: its question, and its SQL rewritten
from the model's logical names to the physical tables. Cortex SQL names logical tables and
logical columns (``daily_cogs``, not the physical ``cogs``); each logical table the SQL reads
is given as a CTE that selects every declared ``expr AS name`` from its base table, the way
Cortex Analyst reads it. The caller runs every example through the guard on the data and keeps
only those that pass (``assay semantic import`` reports the others).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlglot
import yaml
from sqlglot import exp

from assay.errors import SemanticError
from assay.semantic._import_metricflow import (
    ImportResult,
    _plain_column,
    _qualify,
    _unique_dimensions,
)

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


def _spaced(synonyms: list[Any]) -> list[str]:
    """A dimension's synonyms as words: Cortex writes them as identifiers (``product_category``)
    that a question says with spaces ("revenue by product category")."""
    out: list[str] = []
    for synonym in synonyms:
        words = str(synonym).replace("_", " ")
        if words not in out:
            out.append(words)
    return out


def import_cortex(path: Path) -> ImportResult:
    """Map the Cortex Analyst model at ``path`` (see the module docstring)."""
    raw = _load(path)
    unmapped: list[str] = []
    notes: list[str] = []
    undefined: list[str] = []
    physical: dict[str, str] = {}
    schemas: dict[str, str] = {}
    guesses: list[dict[str, Any]] = []
    metrics: list[dict[str, Any]] = []
    dimensions: list[dict[str, Any]] = []
    times: set[str] = set()
    for i, table in enumerate(t for t in raw["tables"] if isinstance(t, dict)):
        name = str(table.get("name"))
        base = table.get("base_table") or {}
        phys = str(base.get("table") or name)
        physical[name] = phys
        if base.get("schema"):
            schemas[phys] = str(base["schema"])
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
                        "synonyms": _spaced(dim.get("synonyms") or []),
                    }
                )
            else:
                unmapped.append(f"{where}.dimensions.{dim.get('name')}: an expression")
                undefined.append(str(dim.get("name")))
        for kind in ("measures", "facts", "metrics"):
            for measure in table.get(kind) or []:
                label = f"{where}.{kind}.{measure.get('name')}"
                synonyms = measure.get("synonyms") or []
                agg = str(measure.get("default_aggregation", "")).lower()
                qualified = _qualify(str(measure.get("expr") or measure.get("name")), phys)
                expr = str(measure.get("expr") or measure.get("name"))
                if not agg and _plain_column(expr):
                    # A semantic view's fact: a row-level value its metrics aggregate. The
                    # import guesses the aggregate from the column's values, or reports it.
                    guesses.append(
                        {
                            "name": str(measure["name"]),
                            "synonyms": [str(s) for s in synonyms],
                            "table": phys,
                            "column": f"{phys}.{expr}",
                            "time_column": time_col,
                            "where": label,
                        }
                    )
                    continue
                if agg not in _AGG or qualified is None:
                    unmapped.append(f"{label}: no aggregation Assay can apply ({agg or 'none'})")
                    undefined.extend([str(measure.get("name")), *map(str, synonyms)])
                    continue
                metric: dict[str, Any] = {
                    "name": str(measure["name"]),
                    "synonyms": [str(s) for s in measure.get("synonyms") or []],
                    "table": phys,
                    "expression": _AGG[agg].format(qualified),
                }
                if time_col:
                    times.add(time_col)
                    metric["time_column"] = time_col
                else:
                    notes.append(
                        f"{label}: untimed (its table has no time dimension): answered over "
                        "all rows; a period asked of it abstains"
                    )
                metrics.append(metric)
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
    examples = []
    for i, query in enumerate(raw.get("verified_queries") or []):
        where = f"verified_queries[{i}] ({query.get('name') if isinstance(query, dict) else ''})"
        if not isinstance(query, dict) or not query.get("question") or not query.get("sql"):
            unmapped.append(f"{where}: no question or no sql")
            continue
        try:
            sql = physical_sql(str(query["sql"]), raw["tables"])
        except ValueError as exc:
            unmapped.append(f"{where}: {exc}")
            continue
        examples.append(
            {
                "name": str(query.get("name") or ""),
                "question": " ".join(str(query["question"]).split()),
                "sql": sql,
                "source": f"Cortex Analyst verified_queries[{i}]",
            }
        )
    unique_dims = _unique_dimensions(dimensions, unmapped)
    layer = {
        "name": str(raw.get("name") or path.stem),
        "description": "Imported from Cortex Analyst by 'assay semantic import'.",
        "tables": {t: {} for t in sorted(set(physical.values()))},
        "joins": joins,
        "metrics": metrics,
        "dimensions": unique_dims,
    }
    if examples:
        layer["trusted_examples"] = examples
    return ImportResult(
        layer,
        tuple(sorted(times)),
        tuple(unmapped),
        tuple(undefined),
        tuple(notes),
        tuple(sorted(schemas.items())),
        tuple(guesses),
    )


def _logical_columns(table: dict[str, Any]) -> list[tuple[str, str]]:
    """Each declared column of a logical table as (name, expr), in the file's order."""
    out: list[tuple[str, str]] = []
    for kind in ("time_dimensions", "dimensions", "facts", "measures"):
        for col in table.get(kind) or []:
            if isinstance(col, dict) and col.get("name"):
                out.append((str(col["name"]), str(col.get("expr") or col["name"])))
    return out


def physical_sql(sql: str, tables: list[Any]) -> str:
    """Cortex SQL over logical names, rewritten to run on the physical tables (DuckDB).

    Raises:
        ValueError: the SQL does not parse, or is not one SELECT.
    """
    try:
        parsed = sqlglot.parse(sql.strip().rstrip(";"), read="snowflake")
    except Exception as exc:  # any parse failure is reported as not mapped
        raise ValueError(f"the SQL does not parse ({type(exc).__name__})") from None
    if len(parsed) != 1 or not isinstance(parsed[0], exp.Query):
        raise ValueError("the SQL is not one query")
    tree = parsed[0]
    logical = {
        str(t.get("name")).lower(): t for t in tables if isinstance(t, dict) and t.get("name")
    }
    own = {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE)}
    used: dict[str, str] = {}
    for node in list(tree.find_all(exp.Table)):
        key = node.name.lower()
        if node.args.get("db") or key not in logical or key in own:
            continue
        cte = used.setdefault(key, f"_logical_{key}")
        if not node.alias:
            node.set("alias", exp.TableAlias(this=exp.to_identifier(node.name)))
        node.set("this", exp.to_identifier(cte))
    ctes = []
    for key, cte in sorted(used.items()):
        table = logical[key]
        base = table.get("base_table") or {}
        columns = _logical_columns(table)
        if not columns:
            raise ValueError(f"logical table {key!r} declares no columns")
        try:
            select = exp.select(
                *[
                    exp.alias_(sqlglot.parse_one(expr, read="snowflake"), name, quoted=False)
                    for name, expr in columns
                ]
            ).from_(exp.to_table(str(base.get("table") or table["name"])))
        except Exception as exc:  # an expr that does not parse
            raise ValueError(f"a column of {key!r} does not parse ({type(exc).__name__})") from None
        ctes.append(exp.CTE(this=select, alias=exp.TableAlias(this=exp.to_identifier(cte))))
    if ctes:
        key = "with_" if "with_" in tree.arg_types else "with"
        existing = tree.args.get(key)
        if existing is not None:
            existing.set("expressions", [*ctes, *existing.expressions])
        else:
            tree.set(key, exp.With(expressions=ctes))
    return tree.sql(dialect="duckdb")
