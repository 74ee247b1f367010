"""The semantic layer as frozen data: metrics, dimensions, joins, forbidden joins, retired
columns, coverage and clock, and the concepts deliberately left undefined.

Loaded and validated from YAML by ``load_semantic``; the guard reads only the retired columns
and forbidden joins.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

__all__ = [
    "Dimension",
    "ForbiddenJoin",
    "JoinPath",
    "Metric",
    "RetiredColumn",
    "SemanticLayer",
    "TrustedExample",
]


@dataclass(frozen=True)
class RetiredColumn:
    """A column no longer to be used, and what replaces it (empty when nothing does)."""

    table: str
    column: str
    replacement: str = ""
    reason: str = ""
    synonyms: tuple[str, ...] = ()


@dataclass(frozen=True)
class ForbiddenJoin:
    """Two tables that must not be joined directly (a join that fans out or means nothing)."""

    left: str
    right: str
    reason: str = ""


@dataclass(frozen=True)
class JoinPath:
    """An allowed join: ``left`` and ``right`` are ``table.column``; the relationship is read
    from left to right (``many_to_one``: many left rows per right row)."""

    left: str
    right: str
    relationship: str = "many_to_one"

    @property
    def tables(self) -> tuple[str, str]:
        return self.left.split(".")[0], self.right.split(".")[0]


@dataclass(frozen=True)
class Metric:
    name: str
    label: str
    synonyms: tuple[str, ...]
    table: str
    expression: str
    time_column: str
    required_filters: tuple[str, ...] = ()


@dataclass(frozen=True)
class Dimension:
    name: str
    column: str
    synonyms: tuple[str, ...]
    values: tuple[str, ...] = ()  # a closed domain when not empty
    value_synonyms: tuple[tuple[str, str], ...] = ()

    @property
    def closed(self) -> bool:
        return bool(self.values)


@dataclass(frozen=True)
class TrustedExample:
    """A question with SQL its source project verified (a Cortex Analyst verified query).

    The agent may answer a question that matches ``question`` from ``sql``; the SQL still
    passes the guard and the checks, and the verdict names the example it used.
    """

    question: str
    sql: str
    name: str = ""
    source: str = ""


@dataclass(frozen=True)
class SemanticLayer:
    """The governed definitions of one warehouse."""

    name: str = ""
    retired_columns: tuple[RetiredColumn, ...] = ()
    forbidden_joins: tuple[ForbiddenJoin, ...] = ()
    metrics: tuple[Metric, ...] = ()
    dimensions: tuple[Dimension, ...] = ()
    joins: tuple[JoinPath, ...] = ()
    coverage: tuple[dt.date, dt.date] | None = None
    clock: dt.date | None = None
    fiscal_year_start_month: int = 1
    undefined_concepts: tuple[str, ...] = ()
    description: str = ""
    tables: tuple[str, ...] = field(default=())
    trusted_examples: tuple[TrustedExample, ...] = ()

    def metric(self, name: str) -> Metric:
        return next(m for m in self.metrics if m.name == name)

    def dimension(self, name: str) -> Dimension:
        return next(d for d in self.dimensions if d.name == name)
