"""Import a Cube data model (YAML ``cubes:``) into Assay's layer format.

Read: every ``.yml``/``.yaml`` file under a directory (or one file) holding ``cubes:``. A cube
that ``extends`` another inherits its table, measures, dimensions, segments and joins (its own
members of the same name replace the parent's). Mapped:

- a cube's ``sql_table`` to its table, read from the schema it names (``tpch.orders``: a DuckDB
  database holding ``orders`` only in schema ``tpch`` reads it there by its bare name;
  ``assay semantic import`` stops when the bare name would read another schema's table);
- a ``count``, ``count_distinct``, ``sum``, ``avg``, ``min`` or ``max`` measure to a metric named
  ``<cube>_<measure>``, timed by the cube's first ``time`` dimension (untimed when the cube has
  none: answered over all rows, a period asked of it abstains); a ``number`` measure built
  only from this cube's mapped measures (``{CUBE.total_discount} / {total_sales}``) to the same
  arithmetic over their aggregates;
- a ``string``, ``number`` or ``boolean`` dimension over one column to a dimension named
  ``<cube>_<dimension>``; a time dimension over a column or a column cast to ``DATE``
  (``o_orderdate::DATE``) to the time column of the cube's metrics;
- a join whose ``sql`` is one column equality between this cube and the joined one to a join,
  written in its many-to-one direction.

Assay joins tables, not roles: when several cubes read one table (``customer_nations`` and
``supplier_nations`` both extend ``nations``), only the first cube that takes part in a join
is mapped and the other roles are reported, so that no join path can silently take the wrong
role. Everything else (segments, measure filters, rolling windows, approximate counts, members
over other cubes, sub-query dimensions, cubes over SQL, views) is reported with its path and
reason. Pre-aggregations are a cache, not a definition: they are ignored, with a note.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from assay.errors import SemanticError
from assay.semantic._import_metricflow import ImportResult, _qualify

__all__ = ["import_cube", "read_cubes"]

_AGG = {
    "count": "count({})",
    "count_distinct": "count(DISTINCT {})",
    "sum": "sum({})",
    "avg": "avg({})",
    "min": "min({})",
    "max": "max({})",
}
_JOIN = re.compile(r"\s*\{(\w+)\}\.(\w+)\s*=\s*\{(\w+)\}\.(\w+)\s*")
_MEMBER = re.compile(r"\{(?:CUBE\.)?(\w+)\}")
_COLUMN = re.compile(r"\s*(?:\{CUBE\}\.)?([A-Za-z_][A-Za-z0-9_]*)(\s*::\s*DATE)?\s*", re.I)
_MANY_TO_ONE = {"many_to_one", "belongs_to", "one_to_one", "has_one"}
_ONE_TO_MANY = {"one_to_many", "has_many"}


def read_cubes(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """Every cube under ``path``, in file order, and the notes on what was skipped."""
    if path.is_dir():
        files = sorted([*path.rglob("*.yml"), *path.rglob("*.yaml")])
        scripts = sorted([*path.rglob("*.js"), *path.rglob("*.ts")])
    else:
        files, scripts = ([], [path]) if path.suffix in {".js", ".ts"} else ([path], [])
    notes = [f"{f}: JavaScript data model files are not read" for f in scripts]
    cubes: list[dict[str, Any]] = []
    for file in files:
        try:
            docs = list(yaml.safe_load_all(file.read_text(encoding="utf-8")))
        except (OSError, yaml.YAMLError) as exc:
            raise SemanticError(
                f"Cannot read {str(file)!r} as YAML: {exc}.",
                hint="Fix the YAML syntax, or give the folder of the Cube model's YAML files.",
            ) from exc
        for doc in docs:
            if not isinstance(doc, dict):
                continue
            if doc.get("views"):
                notes.append(f"{file.name}: views are not mapped (their cubes are)")
            for cube in doc.get("cubes") or []:
                if not isinstance(cube, dict) or not isinstance(cube.get("name"), str):
                    raise SemanticError(
                        f"{str(file)!r} has a cube without a name.",
                        hint="Each entry of 'cubes:' needs 'name:'.",
                    )
                cubes.append(cube)
    if not cubes:
        found = "only JavaScript files" if scripts and not files else "no 'cubes:' list"
        raise SemanticError(
            f"{str(path)!r} is not a Cube data model in YAML ({found}).",
            hint="Give the Cube model's YAML folder (model/cubes) or one file with 'cubes:'; "
            "JavaScript models must be written as YAML first.",
        )
    return cubes, notes


def _members(parent: list[Any] | None, own: list[Any] | None) -> list[dict[str, Any]]:
    merged: dict[str, dict[str, Any]] = {}
    for member in [*(parent or []), *(own or [])]:
        if isinstance(member, dict) and member.get("name"):
            merged[str(member["name"])] = member
    return list(merged.values())


def _resolve(cubes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each cube with what it inherits through ``extends`` (a cycle or unknown parent raises)."""
    by_name = {str(c["name"]): c for c in cubes}
    done: dict[str, dict[str, Any]] = {}

    def full(name: str, seen: tuple[str, ...]) -> dict[str, Any]:
        if name in done:
            return done[name]
        cube = by_name[name]
        parent_name = cube.get("extends")
        if parent_name is None:
            done[name] = cube
            return cube
        parent_name = str(parent_name).strip("{} ")
        if parent_name not in by_name or parent_name in seen:
            raise SemanticError(
                f"Cube {name!r} extends {parent_name!r}, which is "
                + ("part of a cycle." if parent_name in seen else "not in the model."),
                hint="Give the whole model folder, so that every parent cube is read.",
            )
        parent = full(parent_name, (*seen, name))
        merged = {**parent, **cube}
        for key in ("measures", "dimensions", "segments", "joins"):
            merged[key] = _members(parent.get(key), cube.get(key))
        done[name] = merged
        return merged

    return [full(str(c["name"]), ()) for c in cubes]


def _bare_names(dimensions: list[dict[str, Any]], metrics: list[dict[str, Any]]) -> None:
    """A dimension's own name without its cube's ("segment" for ``customers_segment``) as a
    synonym, when no other dimension has that name and no metric is called by it: the
    reader would otherwise have to guess between them ("name" is every cube's)."""
    owners: dict[str, int] = {}
    for d in dimensions:
        owners[d["_bare"]] = owners.get(d["_bare"], 0) + 1
    metric_words = {
        str(p).replace("_", " ").lower()
        for m in metrics
        for p in (m["name"], m.get("label"), *m.get("synonyms", []))
        if p
    }
    for d in dimensions:
        bare = d.pop("_bare")
        if owners[bare] == 1 and bare not in metric_words and bare not in d["synonyms"]:
            d["synonyms"].append(bare)


def _table(cube: dict[str, Any], notes: list[str], schemas: dict[str, str]) -> str | None:
    table = cube.get("sql_table")
    if not isinstance(table, str) or not re.fullmatch(r"[\w.]+", table.strip()):
        return None
    parts = table.strip().split(".")
    if len(parts) > 1 and schemas.setdefault(parts[-1], parts[-2]) != parts[-2]:
        note = (
            f"sql_table {table.strip()!r}: table {parts[-1]!r} is also read from schema "
            f"{schemas[parts[-1]]!r}; one name reads one table"
        )
        if note not in notes:
            notes.append(note)
    return parts[-1]


def _column(sql: str, cube: str) -> tuple[str, bool] | None:
    """The column a member reads and whether it was cast to DATE, or ``None``."""
    text = sql.replace(f"{{{cube}}}.", "{CUBE}.")
    m = _COLUMN.fullmatch(text)
    return (m.group(1), bool(m.group(2))) if m else None


def _roles(cubes: list[dict[str, Any]], tables: dict[str, str]) -> dict[str, str]:
    """The cube mapped for each table: the first that takes part in a join, else the first."""
    joined = set()
    for cube in cubes:
        if cube.get("joins"):
            joined.add(cube["name"])
            joined.update(str(j.get("name")) for j in cube["joins"] if isinstance(j, dict))
    owner: dict[str, str] = {}
    for cube in cubes:
        table = tables.get(cube["name"])
        if table is None:
            continue
        if table not in owner or (owner[table] not in joined and cube["name"] in joined):
            owner[table] = cube["name"]
    return owner


def _templates(raw: list[dict[str, Any]], cubes: list[dict[str, Any]]) -> set[str]:
    """The cubes other cubes extend that join nothing and that nothing joins (the workshop's
    base ``regions``, extended by ``customer_regions`` and ``supplier_regions``): no measure of
    another cube can reach them, so their dimensions name no third meaning of a word beside
    their extensions' (an outside tryout saw "customers count by region" asked back between
    customer_regions_name and the base's "regions name")."""
    extended = {str(c.get("extends")) for c in raw if isinstance(c, dict) and c.get("extends")}
    joined: set[str] = set()
    for cube in cubes:
        for join in cube.get("joins") or []:
            if isinstance(join, dict):
                joined.update({str(cube["name"]), str(join.get("name"))})
    return extended - joined


def _substitute(sql: str, expressions: dict[str, str]) -> str:
    """``{CUBE.member}`` and ``{member}`` replaced by the members' aggregate expressions."""
    return _MEMBER.sub(lambda m: f"({expressions[m.group(1)]})", sql)


def import_cube(path: Path) -> ImportResult:
    """Map the Cube data model at ``path`` (see the module docstring)."""
    raw, notes = read_cubes(path)
    cubes = _resolve(raw)
    unmapped: list[str] = list(notes)
    untimed: list[str] = []
    undefined: list[str] = []
    tables: dict[str, str] = {}
    schemas: dict[str, str] = {}  # table -> the schema its sql_table names
    for cube in cubes:
        table = _table(cube, unmapped, schemas)
        if table is None:
            unmapped.append(f"cubes.{cube['name']}: a cube over SQL, not a table")
        else:
            tables[cube["name"]] = table
    owner = _roles(cubes, tables)
    mapped = {c: t for c, t in tables.items() if owner.get(t) == c}
    templates = _templates(raw, cubes)
    metrics: list[dict[str, Any]] = []
    dimensions: list[dict[str, Any]] = []
    joins: dict[tuple[str, str], dict[str, str]] = {}
    times: set[str] = set()
    for cube in cubes:
        name = str(cube["name"])
        where = f"cubes.{name}"
        if name not in mapped:
            if name in tables:
                unmapped.append(
                    f"{where}: a second role of table {tables[name]!r} (mapped as cube "
                    f"{owner[tables[name]]!r}); Assay joins tables, not roles"
                )
            undefined += [f"{name}_{m.get('name')}" for m in cube.get("measures") or []]
            if name not in templates:
                undefined += [f"{name}_{d.get('name')}" for d in cube.get("dimensions") or []]
            continue
        table = mapped[name]
        if cube.get("pre_aggregations"):
            unmapped.append(f"{where}.pre_aggregations: ignored (a cache, not a definition)")
        for segment in cube.get("segments") or []:
            unmapped.append(f"{where}.segments.{segment.get('name')}: segments are not mapped")
            undefined.append(f"{name}_{segment.get('name')}")
        time_column = ""
        for dim in cube.get("dimensions") or []:
            label = f"{where}.dimensions.{dim.get('name')}"
            kind = str(dim.get("type", "")).lower()
            column = _column(str(dim.get("sql") or ""), name)
            if dim.get("sub_query") or dim.get("case") or column is None:
                unmapped.append(f"{label}: not one column of the cube's table")
                undefined.append(f"{name}_{dim.get('name')}")
                continue
            if kind == "time":
                if time_column:
                    unmapped.append(f"{label}: a second time dimension (metrics use the first)")
                else:
                    time_column = f"{table}.{column[0]}"
                continue
            if kind not in {"string", "number", "boolean"} or column[1]:
                unmapped.append(f"{label}: a {kind or 'untyped'} dimension")
                undefined.append(f"{name}_{dim.get('name')}")
                continue
            dim_name = f"{name}_{dim['name']}"
            words = name.split("_")
            singular = " ".join([*words[:-1], words[-1][:-1]]) if words[-1].endswith("s") else ""
            synonyms = [f"{singular} {str(dim['name']).replace('_', ' ')}"] if singular else []
            dimensions.append(
                {
                    "name": dim_name,
                    "column": f"{table}.{column[0]}",
                    "synonyms": synonyms,
                    "_bare": str(dim["name"]).replace("_", " ").lower(),
                }
            )
        expressions: dict[str, str] = {}
        numbers: list[dict[str, Any]] = []
        for measure in cube.get("measures") or []:
            label = f"{where}.measures.{measure.get('name')}"
            kind = str(measure.get("type", "")).lower()
            if measure.get("filters") or measure.get("rolling_window"):
                unmapped.append(f"{label}: a filtered or rolling measure is not mapped")
                undefined.append(f"{name}_{measure.get('name')}")
                continue
            if kind == "number":
                numbers.append(measure)
                continue
            if kind not in _AGG:
                unmapped.append(f"{label}: measure type {kind or 'none'!r} is not mapped")
                undefined.append(f"{name}_{measure.get('name')}")
                continue
            sql = str(measure.get("sql") or "").replace(f"{{{name}}}.", "{CUBE}.")
            sql = sql.replace("{CUBE}.", "")
            if "{" in sql:
                unmapped.append(f"{label}: it reads another cube or member")
                undefined.append(f"{name}_{measure.get('name')}")
                continue
            if not sql:
                if kind != "count":
                    unmapped.append(f"{label}: no sql")
                    undefined.append(f"{name}_{measure.get('name')}")
                    continue
                expressions[str(measure["name"])] = "count(*)"
                continue
            qualified = _qualify(sql, table)
            if qualified is None:
                unmapped.append(f"{label}: its sql does not parse")
                undefined.append(f"{name}_{measure.get('name')}")
                continue
            expressions[str(measure["name"])] = _AGG[kind].format(qualified)
        for measure in numbers:
            label = f"{where}.measures.{measure.get('name')}"
            sql = str(measure.get("sql") or "").replace(f"{{{name}.", "{CUBE.")
            refs = _MEMBER.findall(sql)
            if not refs or any(r not in expressions for r in refs):
                unmapped.append(f"{label}: a number measure over members Assay did not map")
                undefined.append(f"{name}_{measure.get('name')}")
                continue
            expr = _substitute(sql, expressions)
            if "{" in expr or _qualify(expr, table) is None:
                unmapped.append(f"{label}: its sql does not parse")
                undefined.append(f"{name}_{measure.get('name')}")
                continue
            expressions[str(measure["name"])] = str(_qualify(expr, table))
        for measure_name, expression in expressions.items():
            metric_name = f"{name}_{measure_name}"
            synonyms = [f"number of {name.replace('_', ' ')}"] if measure_name == "count" else []
            metric: dict[str, Any] = {
                "name": metric_name,
                "label": metric_name.replace("_", " "),
                "synonyms": synonyms,
                "table": table,
                "expression": expression,
            }
            if time_column:
                times.add(time_column)
                metric["time_column"] = time_column
            else:
                untimed.append(
                    f"{where}.measures.{measure_name}: untimed (its cube has no time "
                    "dimension): answered over all rows; a period asked of it abstains"
                )
            metrics.append(metric)
        for join in cube.get("joins") or []:
            label = f"{where}.joins.{join.get('name')}"
            other = str(join.get("name"))
            m = _JOIN.fullmatch(str(join.get("sql") or ""))
            sides = {}
            if m:
                sides = {m.group(1): m.group(2), m.group(3): m.group(4)}
                sides = {(name if k in ("CUBE", name) else k): v for k, v in sides.items()}
            if set(sides) != {name, other}:
                unmapped.append(f"{label}: not one column equality with the joined cube")
                continue
            if other not in mapped:
                unmapped.append(f"{label}: the joined cube {other!r} is not mapped")
                continue
            relationship = str(join.get("relationship", "")).lower()
            here = f"{table}.{sides[name]}"
            there = f"{mapped[other]}.{sides[other]}"
            if relationship in _MANY_TO_ONE:
                joins.setdefault((here, there), {"left": here, "right": there})
            elif relationship in _ONE_TO_MANY:
                joins.setdefault((there, here), {"left": there, "right": here})
            else:
                unmapped.append(f"{label}: relationship {relationship or 'none'!r}")
    _bare_names(dimensions, metrics)
    layer = {
        "name": path.stem if path.is_file() else path.name,
        "description": "Imported from a Cube data model by 'assay semantic import'.",
        "tables": {t: {} for t in sorted(set(mapped.values()))},
        "joins": sorted(joins.values(), key=lambda j: (j["left"], j["right"])),
        "metrics": metrics,
        "dimensions": sorted(dimensions, key=lambda d: d["name"]),
    }
    return ImportResult(
        layer,
        tuple(sorted(times)),
        tuple(unmapped),
        tuple(undefined),
        tuple(untimed),
        tuple(sorted((t, sch) for t, sch in schemas.items() if t in set(mapped.values()))),
    )
