"""The semantic layer's model, as far as the guard needs it: retired columns, forbidden joins.

Loaded from YAML by later stages; here it is plain frozen data so the guard can read it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ForbiddenJoin", "RetiredColumn", "SemanticLayer"]


@dataclass(frozen=True)
class RetiredColumn:
    """A column no longer to be used, and what replaces it (empty when nothing does)."""

    table: str
    column: str
    replacement: str = ""
    reason: str = ""


@dataclass(frozen=True)
class ForbiddenJoin:
    """Two tables that must not be joined directly (a join that fans out or means nothing)."""

    left: str
    right: str
    reason: str = ""


@dataclass(frozen=True)
class SemanticLayer:
    """The governed definitions of one warehouse."""

    name: str = ""
    retired_columns: tuple[RetiredColumn, ...] = ()
    forbidden_joins: tuple[ForbiddenJoin, ...] = ()
