"""The one object every guard rule reads, and the name resolution the rules share."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from functools import cached_property

from sqlglot import exp
from sqlglot.optimizer.scope import Scope, traverse_scope

from assay.catalog import Catalog
from assay.guard._allowlists import CATALOGUE_SCHEMAS
from assay.semantic import SemanticLayer

__all__ = ["ColumnRef", "GuardContext", "did_you_mean", "location"]

_SQLITE_CATALOGUE = frozenset({"sqlite_master", "sqlite_schema"})


@dataclass(frozen=True)
class ColumnRef:
    """A column reference resolved within its scope.

    ``table`` is the base table it reads (``None`` when it reads a derived table, a select
    alias or cannot be told); ``status`` is ``ok``, ``unknown_alias`` or ``unknown_column``.
    """

    node: exp.Column
    scope: Scope
    table: str | None
    status: str
    suggestions: tuple[str, ...] = ()


@dataclass(frozen=True)
class GuardContext:
    """The statement under review and what it is checked against."""

    sql: str
    dialect: str
    catalog: Catalog | None
    semantic: SemanticLayer | None
    max_sql_bytes: int
    tree: exp.Expr | None = None
    explain: bool = False
    n_statements: int = 0
    cte_names: frozenset[str] = field(default_factory=frozenset)

    @cached_property
    def nodes(self) -> list[exp.Expr]:
        """Every node of the tree, walked once and shared by the rules."""
        return list(self.tree.walk()) if self.tree is not None else []

    def of_type(self, *types: type[exp.Expr]) -> list[exp.Expr]:
        return [n for n in self.nodes if isinstance(n, types)]

    @cached_property
    def scopes(self) -> list[Scope]:
        if self.tree is None:
            return []
        try:
            return list(traverse_scope(self.tree))
        except Exception:  # sqlglot raises plain errors on odd trees; rules then fail closed
            return []

    def is_catalogue_view(self, table: exp.Table) -> bool:
        db = table.db.lower()
        if db and db in CATALOGUE_SCHEMAS.get(self.dialect, frozenset()):
            return True
        return self.dialect == "sqlite" and not db and table.name.lower() in _SQLITE_CATALOGUE

    def base_table(self, table: exp.Table) -> str | None:
        """The catalogue name a FROM item reads, or ``None`` for CTEs, functions and views."""
        if not isinstance(table.this, exp.Identifier):
            return None
        if table.name.lower() in self.cte_names and not table.db:
            return None
        if self.is_catalogue_view(table):
            return None
        return table.name

    @cached_property
    def column_refs(self) -> list[ColumnRef]:
        refs: list[ColumnRef] = []
        for scope in self.scopes:
            for node in scope.walk():
                if isinstance(node, exp.Column) and not isinstance(node.this, exp.Star):
                    refs.append(self._resolve(scope, node))
        return refs

    def _resolve(self, scope: Scope, column: exp.Column) -> ColumnRef:
        name = column.name
        qualifier = column.table
        current: Scope | None = scope
        known_columns: list[str] = []
        known_aliases: list[str] = []
        while current is not None:
            select_aliases = self._aliases(current)
            for alias, (_node, source) in current.selected_sources.items():
                known_aliases.append(alias)
                if qualifier and alias.lower() != qualifier.lower():
                    continue
                outputs = self._outputs(source)
                if outputs is None:
                    return ColumnRef(column, scope, None, "ok")
                if name.lower() in outputs:
                    table = self.base_table(source) if isinstance(source, exp.Table) else None
                    return ColumnRef(column, scope, table, "ok")
                known_columns.extend(outputs)
                if qualifier:
                    return ColumnRef(
                        column, scope, None, "unknown_column", did_you_mean(name, outputs)
                    )
            if not qualifier and name.lower() in select_aliases:
                return ColumnRef(column, scope, None, "ok")
            current = current.parent
        if qualifier:
            return ColumnRef(
                column, scope, None, "unknown_alias", did_you_mean(qualifier, known_aliases)
            )
        return ColumnRef(column, scope, None, "unknown_column", did_you_mean(name, known_columns))

    def _aliases(self, scope: Scope) -> set[str]:
        cache: dict[int, set[str]] = self.__dict__.setdefault("_alias_cache", {})
        key = id(scope)
        if key not in cache:
            cache[key] = _select_aliases(scope)
        return cache[key]

    def _outputs(self, source: exp.Expr | Scope) -> list[str] | None:
        """Lower-case output columns of a source, or ``None`` when they cannot be told."""
        cache: dict[int, list[str] | None] = self.__dict__.setdefault("_output_cache", {})
        key = id(source)
        if key not in cache:
            cache[key] = self._compute_outputs(source)
        return cache[key]

    def _compute_outputs(self, source: exp.Expr | Scope) -> list[str] | None:
        if isinstance(source, Scope):
            expression = source.expression
            if isinstance(expression, exp.Query) and not _has_star(expression):
                outputs = [n.lower() for n in expression.named_selects]
                alias_columns = _alias_columns(source)
                return outputs + alias_columns
            return None
        if not isinstance(source, exp.Table):
            return None
        alias_columns = [c.name.lower() for c in source.args.get("alias", exp.TableAlias()).columns]
        if alias_columns:
            return alias_columns
        name = self.base_table(source)
        if name is None or self.catalog is None:
            return None
        info = self.catalog.table(name)
        if info is None:
            return None
        return info.column_names


def _alias_columns(scope: Scope) -> list[str]:
    parent = scope.expression.parent
    alias = parent.args.get("alias") if parent is not None else None
    if isinstance(alias, exp.TableAlias):
        return [c.name.lower() for c in alias.columns]
    return []


def _has_star(query: exp.Query) -> bool:
    if isinstance(query, exp.Select):
        return any(
            isinstance(e, exp.Star) or (isinstance(e, exp.Column) and isinstance(e.this, exp.Star))
            for e in query.expressions
        )
    if isinstance(query, exp.SetOperation):
        left = query.this
        return isinstance(left, exp.Query) and _has_star(left)
    return True


def _select_aliases(scope: Scope) -> set[str]:
    expression = scope.expression
    if isinstance(expression, exp.Select):
        return {e.alias.lower() for e in expression.expressions if e.alias}
    return set()


def did_you_mean(name: str, candidates: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Close spellings of ``name`` among ``candidates``, best first.

    Example:
        >>> did_you_mean("ordr_date", ["order_date", "ship_date"])
        ('order_date',)
    """
    unique = sorted({c for c in candidates})
    return tuple(difflib.get_close_matches(name, unique, n=3, cutoff=0.6))


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
