"""The catalogue a connector reads from its engine: tables, columns with types, foreign keys."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

__all__ = ["Catalog", "ColumnInfo", "ForeignKey", "TableInfo"]


@dataclass(frozen=True)
class ColumnInfo:
    """One column and its engine type."""

    name: str
    type: str


@dataclass(frozen=True)
class ForeignKey:
    """A declared (or reconstructed) reference from child columns to parent columns."""

    table: str
    columns: tuple[str, ...]
    ref_table: str
    ref_columns: tuple[str, ...]


@dataclass(frozen=True)
class TableInfo:
    """One table (or view) of the user's schema; ``schema`` is set when the table sits outside
    the engine's default schema (DuckDB: a schema other than ``main`` that alone holds a table
    of this name, read by its bare name through the session's search path)."""

    name: str
    columns: tuple[ColumnInfo, ...]
    schema: str = ""

    def column(self, name: str) -> ColumnInfo | None:
        return self._index.get(name.lower())

    @cached_property
    def _index(self) -> dict[str, ColumnInfo]:
        index: dict[str, ColumnInfo] = {}
        for col in self.columns:
            index.setdefault(col.name.lower(), col)
        return index

    @cached_property
    def column_names(self) -> list[str]:
        return [c.name.lower() for c in self.columns]


@dataclass(frozen=True)
class Catalog:
    """The user's tables as the engine reports them. Names compare case-insensitively."""

    tables: tuple[TableInfo, ...]
    foreign_keys: tuple[ForeignKey, ...] = ()
    dialect: str = "duckdb"
    schemas: tuple[str, ...] = field(default=("main",))
    database: str = ""

    def table(self, name: str) -> TableInfo | None:
        return self._index.get(name.lower())

    @cached_property
    def _index(self) -> dict[str, TableInfo]:
        index: dict[str, TableInfo] = {}
        for table in self.tables:
            index.setdefault(table.name.lower(), table)
        return index

    @property
    def table_names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.tables)

    def to_dict(self) -> dict[str, Any]:
        return {
            "dialect": self.dialect,
            "tables": [
                {"name": t.name, "columns": [{"name": c.name, "type": c.type} for c in t.columns]}
                for t in self.tables
            ],
            "foreign_keys": [
                {
                    "table": fk.table,
                    "columns": list(fk.columns),
                    "ref_table": fk.ref_table,
                    "ref_columns": list(fk.ref_columns),
                }
                for fk in self.foreign_keys
            ],
        }
