"""The one object every guard rule reads: the statement, and its one analysis."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from assay.catalog import Catalog
from assay.guard._analysis import ColumnRef, QueryAnalysis, TableRef, analyse, did_you_mean
from assay.semantic import SemanticLayer

__all__ = ["ColumnRef", "GuardContext", "TableRef", "did_you_mean", "location"]


@dataclass(frozen=True)
class GuardContext:
    """The statement under review, what it is checked against, and its analysis."""

    sql: str
    dialect: str
    catalog: Catalog | None
    semantic: SemanticLayer | None
    max_sql_bytes: int
    tree: exp.Expr | None = None
    explain: bool = False
    n_statements: int = 0

    @cached_property
    def analysis(self) -> QueryAnalysis:
        """The one analysis of the tree (scopes, tables and columns resolved by scope)."""
        return analyse(self.tree, self.dialect, self.catalog)

    @cached_property
    def nodes(self) -> list[exp.Expr]:
        """Every node of the tree, walked once and shared by the rules."""
        return list(self.tree.walk()) if self.tree is not None else []

    def of_type(self, *types: type[exp.Expr]) -> list[exp.Expr]:
        return [n for n in self.nodes if isinstance(n, types)]

    @property
    def scopes(self) -> list[Scope]:
        return self.analysis.scopes

    def is_catalogue_view(self, table: exp.Table) -> bool:
        return self.analysis.is_catalogue(table)

    def base_table(self, table: exp.Table) -> str | None:
        """The catalogue name a FROM item reads, or ``None`` for CTEs, functions and views."""
        return self.analysis.base_table(table)

    @property
    def column_refs(self) -> list[ColumnRef]:
        return self.analysis.column_refs


def location(node: exp.Expr, sql: str) -> tuple[int | None, int | None]:
    """1-based line and column of a node, from sqlglot's token metadata or a text search."""
    for candidate in (node, *(node.find_all(exp.Identifier))):
        meta = getattr(candidate, "meta", None) or {}
        if "line" in meta and "col" in meta:
            return int(meta["line"]), max(1, int(meta["col"]) - len(candidate.name) + 1)
    text = node.sql() if not isinstance(node, exp.Identifier) else node.name
    index = sql.lower().find(text.lower()) if text else -1
    if index < 0:
        return None, None
    line = sql.count("\n", 0, index) + 1
    col = index - (sql.rfind("\n", 0, index) + 1) + 1
    return line, col
