"""The catalogue a connector reads from its engine: tables, columns with types, foreign keys."""

from __future__ import annotations

from dataclasses import dataclass, field
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
    """One table (or view) of the user's schema."""

    name: str
    columns: tuple[ColumnInfo, ...]

    def column(self, name: str) -> ColumnInfo | None:
        low = name.lower()
        for col in self.columns:
            if col.name.lower() == low:
                return col
        return None


@dataclass(frozen=True)
class Catalog:
    """The user's tables as the engine reports them. Names compare case-insensitively."""

    tables: tuple[TableInfo, ...]
    foreign_keys: tuple[ForeignKey, ...] = ()
    dialect: str = "duckdb"
    schemas: tuple[str, ...] = field(default=("main",))
    database: str = ""

    def table(self, name: str) -> TableInfo | None:
        low = name.lower()
        for table in self.tables:
            if table.name.lower() == low:
                return table
        return None

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
