"""The schemas the schema-grounding features resolve against, read from DDL files.

``load_schemas`` reads a MySQL dump (InterCode's ``schema.mysql.sql``: ``USE `db`;`` then
``CREATE TABLE`` blocks with foreign keys) or a plain DDL file named after its database, and
returns one ``Catalog`` per database.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from assay.catalog import Catalog, ColumnInfo, ForeignKey, TableInfo
from assay.errors import InputError

__all__ = ["load_schemas", "parse_ddl"]

_USE = re.compile(r"^\s*USE\s+`?(?P<db>[\w$]+)`?\s*;", re.IGNORECASE)
_CREATE = re.compile(r"^\s*CREATE\s+TABLE", re.IGNORECASE)


def _table(block: str) -> tuple[TableInfo, list[ForeignKey]]:
    try:
        tree = sqlglot.parse_one(block, read="mysql")
    except SqlglotError as exc:
        raise InputError(f"Cannot parse a CREATE TABLE block: {exc}.") from exc
    target = tree.find(exp.Table)
    if target is None:
        raise InputError(f"No table name in {block[:60]!r}.")
    name = target.name
    columns = tuple(
        ColumnInfo(c.name, c.args["kind"].sql() if c.args.get("kind") else "")
        for c in tree.find_all(exp.ColumnDef)
    )
    keys: list[ForeignKey] = []
    for fk in tree.find_all(exp.ForeignKey):
        ref = fk.args.get("reference")
        schema = ref.this if isinstance(ref, exp.Reference) else None
        if not isinstance(schema, exp.Schema) or not isinstance(schema.this, exp.Table):
            continue
        keys.append(
            ForeignKey(
                name,
                tuple(i.name for i in fk.expressions),
                schema.this.name,
                tuple(i.name for i in schema.expressions),
            )
        )
    return TableInfo(name, columns), keys


def parse_ddl(text: str, *, default_database: str = "") -> dict[str, Catalog]:
    """One catalogue per database of a DDL text (``USE db;`` switches the database)."""
    tables: dict[str, list[TableInfo]] = {}
    keys: dict[str, list[ForeignKey]] = {}
    database = default_database
    block: list[str] = []
    for line in text.splitlines():
        use = _USE.match(line)
        if use and not block:
            database = use.group("db")
            continue
        if not block and not _CREATE.match(line):
            continue
        block.append(line)
        if line.rstrip().endswith(";"):
            table, fks = _table("\n".join(block).rstrip().rstrip(";"))
            tables.setdefault(database, []).append(table)
            keys.setdefault(database, []).extend(fks)
            block = []
    return {
        db: Catalog(tuple(ts), tuple(keys.get(db, ())), dialect="mysql", database=db)
        for db, ts in tables.items()
    }


def load_schemas(paths: Iterable[Path]) -> dict[str, Catalog]:
    """The catalogues of the DDL files; a file without ``USE`` is named by its stem."""
    out: dict[str, Catalog] = {}
    for path in paths:
        try:
            text = path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"Cannot read schema file {str(path)!r} as UTF-8: {exc}.") from exc
        found = parse_ddl(text, default_database=path.name.split(".")[0])
        if not found:
            raise InputError(
                f"Schema file {str(path)!r} has no CREATE TABLE statement.",
                hint="Give the database's DDL (e.g. InterCode's schema.mysql.sql).",
            )
        out.update(found)
    return out
