"""The schema mangler (Rosetta 5.1): opaque names, no declared keys or comments, same data.

At severity ``s`` in [0, 1] the first ``round(s * N)`` of the database's ``N`` identifiers
(tables and columns), in an order drawn once from ``seed``, are renamed: tables to ``t<i>``,
columns to ``c<j>``. The order depends only on the seed and the sorted names, so a higher
severity renames a strict superset of what a lower one renames (severity-monotone), and the
same seed gives the same map (deterministic). The copy never carries declared keys,
constraints or comments (at severity 0 too: severity measures how opaque the names are); the
rows are copied unchanged. The map from original to
mangled names is returned and written next to the output.

DuckDB and SQLite files are supported (the output uses the same engine as the input).
"""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assay.errors import InputError

__all__ = ["NameMap", "engine_of", "mangle", "read_name_map"]


@dataclass(frozen=True)
class NameMap:
    """Original to mangled names: ``tables[t]`` and ``columns[(t, c)]`` (mangled column)."""

    severity: float
    seed: int
    tables: dict[str, str] = field(default_factory=dict)
    columns: dict[tuple[str, str], str] = field(default_factory=dict)

    def column(self, table: str, column: str) -> tuple[str, str]:
        """The mangled ``(table, column)`` of an original one."""
        return self.tables.get(table, table), self.columns.get((table, column), column)

    def to_dict(self) -> dict[str, Any]:
        return {
            "severity": self.severity,
            "seed": self.seed,
            "tables": dict(sorted(self.tables.items())),
            "columns": {f"{t}.{c}": self.column(t, c)[1] for t, c in sorted(self.columns)},
            "column_pairs": [[t, c, self.column(t, c)[1]] for t, c in sorted(self.columns)],
        }


def read_name_map(path: Path) -> NameMap:
    """Read a map written by ``mangle``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return NameMap(
            float(data["severity"]),
            int(data["seed"]),
            {str(k): str(v) for k, v in data["tables"].items()},
            {(str(t), str(c)): str(m) for t, c, m in data["column_pairs"]},
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(
            f"Cannot read the name map {str(path)!r}: {exc}.",
            hint="Pass the .names.json file that 'assay catalog mangle' wrote.",
        ) from exc


def engine_of(path: Path) -> str:
    """``sqlite`` or ``duckdb`` from the file's header."""
    try:
        with path.open("rb") as handle:
            head = handle.read(16)
    except OSError as exc:
        raise InputError(f"Cannot read {str(path)!r}: {exc}.", hint="Check the path.") from exc
    if head.startswith(b"SQLite format 3"):
        return "sqlite"
    return "duckdb"


def _schema(path: Path, engine: str) -> list[tuple[str, list[tuple[str, str]]]]:
    if engine == "sqlite":
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            names = [
                r[0]
                for r in con.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' "
                    "AND name NOT LIKE 'sqlite_%' ORDER BY name"
                )
            ]
            return [
                (t, [(r[1], r[2]) for r in con.execute(f"PRAGMA table_info({_q(t)})")])
                for t in names
            ]
        finally:
            con.close()
    import duckdb

    duck = duckdb.connect(str(path), read_only=True)
    try:
        rows = duck.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = 'main' ORDER BY table_name, ordinal_position"
        ).fetchall()
    finally:
        duck.close()
    tables: dict[str, list[tuple[str, str]]] = {}
    for t, c, ty in rows:
        tables.setdefault(t, []).append((c, ty))
    return sorted(tables.items())


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _plan(schema: list[tuple[str, list[tuple[str, str]]]], severity: float, seed: int) -> NameMap:
    identifiers: list[tuple[str, str]] = []
    for table, columns in schema:
        identifiers.append((table, ""))
        identifiers.extend((table, c) for c, _ in columns)
    order = sorted(identifiers)
    random.Random(seed).shuffle(order)
    chosen = set(order[: round(severity * len(order))])
    taken = {t for t, _ in schema}
    tables: dict[str, str] = {}
    table_order = sorted(t for t, _ in schema)
    random.Random(seed + 1).shuffle(table_order)
    for i, table in enumerate(table_order):
        if (table, "") in chosen:
            name = f"t{i}"
            while name in taken:
                name += "_"
            tables[table] = name
    renamed: dict[tuple[str, str], str] = {}
    for table, cols in schema:
        existing = {c for c, _ in cols}
        for j, (column, _) in enumerate(cols):
            if (table, column) in chosen:
                name = f"c{j}"
                while name in existing:
                    name += "_"
                renamed[(table, column)] = name
    return NameMap(severity, seed, tables, renamed)


def mangle(source: Path, out: Path, *, severity: float, seed: int) -> NameMap:
    """Write a mangled copy of ``source`` at ``out`` and its name map at ``out``.names.json."""
    if not 0.0 <= severity <= 1.0:
        raise InputError(
            f"Severity {severity} is outside [0, 1].", hint="Use 0 (names kept) to 1 (all opaque)."
        )
    if not source.exists():
        raise InputError(f"No database at {str(source)!r}.", hint="Check the --db path.")
    if out.exists():
        raise InputError(f"{str(out)!r} already exists.", hint="Choose a new --out path.")
    engine = engine_of(source)
    schema = _schema(source, engine)
    names = _plan(schema, severity, seed)
    partial = out.with_name(f".{out.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        (_copy_sqlite if engine == "sqlite" else _copy_duckdb)(source, partial, schema, names)
        partial.replace(out)
    finally:
        partial.unlink(missing_ok=True)
    map_path = out.with_name(out.name + ".names.json")
    map_path.write_text(json.dumps(names.to_dict(), indent=1, sort_keys=True) + "\n", "utf-8")
    return names


def _copy_sqlite(
    source: Path, out: Path, schema: list[tuple[str, list[tuple[str, str]]]], names: NameMap
) -> None:
    con = sqlite3.connect(str(out))
    try:
        con.execute("ATTACH DATABASE ? AS src", (f"file:{source}?mode=ro",))
        for table, cols in schema:
            new_table = names.tables.get(table, table)
            defs = ", ".join(f"{_q(names.column(table, c)[1])} {ty}".strip() for c, ty in cols)
            con.execute(f"CREATE TABLE {_q(new_table)} ({defs})")
            old = ", ".join(_q(c) for c, _ in cols)
            con.execute(f"INSERT INTO {_q(new_table)} SELECT {old} FROM src.{_q(table)}")
        con.commit()
        con.execute("DETACH DATABASE src")
    finally:
        con.close()


def _copy_duckdb(
    source: Path, out: Path, schema: list[tuple[str, list[tuple[str, str]]]], names: NameMap
) -> None:
    import duckdb

    con = duckdb.connect(str(out))
    try:
        con.execute(f"ATTACH '{str(source).replace(chr(39), chr(39) * 2)}' AS src (READ_ONLY)")
        for table, cols in schema:
            new_table = names.tables.get(table, table)
            select = ", ".join(f"{_q(c)} AS {_q(names.column(table, c)[1])}" for c, _ in cols)
            con.execute(
                f"CREATE TABLE main.{_q(new_table)} AS SELECT {select} FROM src.{_q(table)}"
            )
        con.execute("DETACH src")
        con.execute("CHECKPOINT")
    finally:
        con.close()
