"""One analysis of a query: its tree, scopes, tables and columns resolved as the engine would.

Built once per statement and read by every guard rule and every check. Names are resolved
through sqlglot's scopes on a copy whose identifiers are normalised the way the engine folds
them, so a CTE name hides a real table only inside the scope where that CTE is visible
(lexical scoping), never statement-wide. Stars are expanded against the catalogue, and every
column carries its lineage: the base-table columns it finally reads. Columns are also resolved
by sqlglot's ``qualify`` against a schema built from the catalogue; the base columns either way
are read. Nothing here raises: a tree sqlglot cannot scope makes ``error`` say why, and the
guard refuses it.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from sqlglot import exp
from sqlglot.optimizer.normalize_identifiers import normalize_identifiers
from sqlglot.optimizer.qualify import qualify
from sqlglot.optimizer.scope import Scope, traverse_scope
from sqlglot.schema import MappingSchema

from assay.catalog import Catalog
from assay.guard._allowlists import CATALOGUE_PREFIXES, CATALOGUE_SCHEMAS

__all__ = [
    "ColumnKey",
    "ColumnRef",
    "QueryAnalysis",
    "TableKind",
    "TableRef",
    "analyse",
    "did_you_mean",
]

ColumnKey = tuple[str, str]
TableKind = Literal["base", "cte", "catalogue", "function"]
_MAX_DEPTH = 64
# Columns every table has without declaring them.
_PSEUDO_COLUMNS: dict[str, tuple[str, ...]] = {
    "duckdb": ("rowid",),
    "sqlite": ("rowid", "oid", "_rowid_"),
}


@dataclass(frozen=True)
class TableRef:
    """One FROM item naming a table, resolved in its scope.

    ``kind`` is ``base`` (a table or view of the database, or an unknown name, which the guard
    refuses), ``cte`` (a CTE visible where it is read), ``catalogue`` (an engine catalogue view)
    or ``function`` (a table-valued function).
    """

    node: exp.Table
    name: str
    kind: TableKind
    schema: str


@dataclass(frozen=True)
class ColumnRef:
    """A column reference resolved within its scope.

    ``table`` is the base table it reads directly (``None`` when it reads a CTE, a derived
    table, a select alias or cannot be told); ``reads`` is its lineage, the base-table columns
    it finally reads through any number of CTEs and derived tables; ``status`` is ``ok``,
    ``unknown_alias`` or ``unknown_column``.
    """

    node: exp.Column
    scope: Scope
    table: str | None
    status: str
    suggestions: tuple[str, ...] = ()
    reads: tuple[ColumnKey, ...] = ()


class QueryAnalysis:
    """The analysis of one parsed statement (see the module docstring).

    ``tree`` is the statement as parsed (rules may rewrite it before regeneration); the scopes
    are built on a normalised copy, and every node they hold is mapped back to ``tree``.
    """

    def __init__(self, tree: exp.Expr | None, dialect: str | None, catalog: Catalog | None):
        self.tree = tree
        self.dialect = dialect
        self.catalog = catalog
        self.error: str | None = None
        self._back: dict[int, exp.Expr] = {}
        self._forward: dict[int, exp.Expr] = {}
        self._scopes: list[Scope] = []
        self._output_cache: dict[int, list[str] | None] = {}
        self._alias_cache: dict[int, set[str]] = {}
        if tree is not None:
            self._build(tree)

    def _build(self, tree: exp.Expr) -> None:
        try:
            copy = tree
            if _needs_normalising(tree, self.dialect):
                copy = tree.copy()
                normalize_identifiers(copy, dialect=self.dialect)
                for original, mirrored in zip(tree.walk(), copy.walk(), strict=True):
                    self._back[id(mirrored)] = original
                    self._forward[id(original)] = mirrored
            self._copy = copy
            scopes = list(traverse_scope(copy))
            for scope in scopes:  # sources are built lazily; a clash of names raises here
                _ = scope.selected_sources
            self._scopes = scopes
        except Exception as exc:  # sqlglot raises plain errors on odd trees: say why
            self.error = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
            self._scopes = []

    # -- nodes ---------------------------------------------------------------------------

    def original(self, node: exp.Expr) -> exp.Expr:
        """The node of ``tree`` that a scope's (normalised) node stands for."""
        return self._back.get(id(node), node)

    @property
    def scopes(self) -> list[Scope]:
        """sqlglot's scopes of the statement, innermost first (empty when they failed)."""
        return self._scopes

    # -- tables --------------------------------------------------------------------------

    @cached_property
    def _table_kinds(self) -> dict[int, TableKind]:
        kinds: dict[int, TableKind] = {}
        for scope in self._scopes:
            for _alias, (node, source) in scope.selected_sources.items():
                if isinstance(node, exp.Table) and isinstance(source, Scope):
                    kinds[id(node)] = "cte"
        return kinds

    @cached_property
    def _table_sources(self) -> dict[int, Scope]:
        found: dict[int, Scope] = {}
        for scope in self._scopes:
            for _alias, (node, source) in scope.selected_sources.items():
                if isinstance(node, exp.Table) and isinstance(source, Scope):
                    found[id(self.original(node))] = source
        return found

    def cte_scope(self, table: exp.Table) -> Scope | None:
        """The scope of the CTE a FROM item of ``tree`` reads, or ``None`` for anything else."""
        return self._table_sources.get(id(table))

    @cached_property
    def tables(self) -> list[TableRef]:
        """Every table reference in the statement, each resolved in its own scope."""
        if self.tree is None:
            return []
        return [self.table_ref(t) for t in self.tree.find_all(exp.Table)]

    def table_ref(self, table: exp.Table) -> TableRef:
        """Resolve one FROM item of ``tree`` (or of the normalised copy)."""
        mirrored = self._forward.get(id(table), table)
        original = self._back.get(id(table), table)
        assert isinstance(original, exp.Table)
        name = mirrored.name if isinstance(mirrored, exp.Table) else table.name
        schema = table.db.lower()
        if not isinstance(table.this, exp.Identifier):
            return TableRef(original, name, "function", schema)
        if self._table_kinds.get(id(mirrored)) == "cte" and not table.db:
            return TableRef(original, name, "cte", schema)
        if self.is_catalogue(table):
            return TableRef(original, name, "catalogue", schema)
        return TableRef(original, name, "base", schema)

    def is_catalogue(self, table: exp.Table) -> bool:
        """Whether a table reference reads the engine's own catalogue.

        A schema-qualified name in a catalogue schema always does. An unqualified name does
        when it carries an engine prefix (``pg_``, ``duckdb_``, ``sqlite_``) and is not one of
        the database's own tables; on PostgreSQL ``pg_catalog`` is searched first, so a
        ``pg_`` name is the catalogue's even when a user table shares it.
        """
        db = table.db.lower()
        dialects = [self.dialect] if self.dialect else sorted(CATALOGUE_SCHEMAS)
        if db:
            return any(db in CATALOGUE_SCHEMAS.get(d, frozenset()) for d in dialects)
        name = table.name.lower()
        for dialect in dialects:
            prefixes = CATALOGUE_PREFIXES.get(dialect, ())
            if not name.startswith(prefixes):
                continue
            if dialect == "postgres" and name.startswith("pg_"):
                return True
            if self.catalog is None or self.catalog.table(table.name) is None:
                return True
        return False

    def base_table(self, table: exp.Table) -> str | None:
        """The database table a FROM item reads, or ``None`` for CTEs, functions, catalogues."""
        ref = self.table_ref(table)
        return ref.name if ref.kind == "base" else None

    @cached_property
    def base_tables(self) -> list[str]:
        """Names of the database tables the statement reads, sorted, each once."""
        names = {r.name for r in self.tables if r.kind == "base"}
        return sorted(names, key=lambda n: (n.lower(), n))

    def reach(self, source: exp.Expr | Scope, depth: int = 0) -> set[str]:
        """Lower-case base tables a FROM source reads, through CTEs, derived tables and unions."""
        if depth > _MAX_DEPTH:
            return set()
        if isinstance(source, exp.Table):
            name = self.base_table(source)
            return {name.lower()} if name else set()
        if not isinstance(source, Scope):
            return set()
        found: set[str] = set()
        for child in source.set_operation_scopes:
            found |= self.reach(child, depth + 1)
        for _alias, (_node, inner) in source.selected_sources.items():
            if inner is not source:
                found |= self.reach(inner, depth + 1)
        return found

    # -- columns -------------------------------------------------------------------------

    @cached_property
    def column_refs(self) -> list[ColumnRef]:
        """Every column reference, resolved in its scope, with its lineage."""
        refs: list[ColumnRef] = []
        for scope in self._scopes:
            for node in scope.walk():
                if isinstance(node, exp.Column) and not isinstance(node.this, exp.Star):
                    if not _bound_variable(node):
                        refs.append(self._resolve(scope, node))
        return refs

    def resolve(self, scope: Scope, column: exp.Column) -> ColumnRef:
        """Resolve one column of one of ``scopes`` (a node of the normalised copy)."""
        return self._resolve(scope, column)

    def _resolve(self, scope: Scope, column: exp.Column, depth: int = 0) -> ColumnRef:
        original = self.original(column)
        assert isinstance(original, exp.Column)
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
                outputs = self.outputs(source)
                if outputs is None:
                    return ColumnRef(original, scope, None, "ok")
                if name.lower() in outputs:
                    table = self.base_table(source) if isinstance(source, exp.Table) else None
                    reads = self._lineage(source, name.lower(), depth + 1)
                    return ColumnRef(original, scope, table, "ok", (), tuple(sorted(reads)))
                known_columns.extend(outputs)
                if qualifier:
                    return ColumnRef(
                        original, scope, None, "unknown_column", did_you_mean(name, outputs)
                    )
            if not qualifier and name.lower() in select_aliases:
                return ColumnRef(original, scope, None, "ok")
            current = current.parent
        if qualifier and self._is_struct_column(scope, qualifier):
            return ColumnRef(original, scope, None, "ok")  # DuckDB: s.a is field a of column s
        if qualifier:
            return ColumnRef(
                original, scope, None, "unknown_alias", did_you_mean(qualifier, known_aliases)
            )
        return ColumnRef(original, scope, None, "unknown_column", did_you_mean(name, known_columns))

    def _is_struct_column(self, scope: Scope, name: str) -> bool:
        if self.dialect not in {"duckdb", "postgres"}:
            return False
        current: Scope | None = scope
        while current is not None:
            for _alias, (_node, source) in current.selected_sources.items():
                outputs = self.outputs(source)
                if outputs is not None and name.lower() in outputs:
                    return True
            current = current.parent
        return False

    def _aliases(self, scope: Scope) -> set[str]:
        key = id(scope)
        if key not in self._alias_cache:
            expression = scope.expression
            self._alias_cache[key] = (
                {e.alias.lower() for e in expression.expressions if e.alias}
                if isinstance(expression, exp.Select)
                else set()
            )
        return self._alias_cache[key]

    def outputs(self, source: exp.Expr | Scope, depth: int = 0) -> list[str] | None:
        """Lower-case output columns of a FROM source, stars expanded, or ``None`` when they
        cannot be told (a table function, an unknown table)."""
        key = id(source)
        if key not in self._output_cache:
            self._output_cache[key] = None  # a cycle reads as "cannot be told"
            self._output_cache[key] = self._compute_outputs(source, depth)
        return self._output_cache[key]

    def _compute_outputs(self, source: exp.Expr | Scope, depth: int) -> list[str] | None:
        if depth > _MAX_DEPTH:
            return None
        if isinstance(source, Scope):
            aliased = _alias_columns(source)
            expression = source.expression
            if isinstance(expression, exp.SetOperation):
                left = source.set_operation_scopes[0] if source.set_operation_scopes else None
                base = self.outputs(left, depth + 1) if left is not None else None
            elif isinstance(expression, exp.Select):
                base = self._select_outputs(source, depth)
            else:
                base = None
            if aliased:
                return aliased + (base or [])[len(aliased) :]
            return base
        if not isinstance(source, exp.Table):
            return None
        alias = source.args.get("alias")
        alias_columns = [c.name.lower() for c in alias.columns] if alias is not None else []
        if alias_columns:
            return alias_columns
        name = self.base_table(source)
        if name is None or self.catalog is None:
            return None
        info = self.catalog.table(name)
        if info is None:
            return None
        pseudo = _PSEUDO_COLUMNS.get(self.dialect or "", ())
        return [c.lower() for c in info.column_names] + list(pseudo)

    def _select_outputs(self, scope: Scope, depth: int) -> list[str] | None:
        select = scope.expression
        assert isinstance(select, exp.Select)
        names: list[str] = []
        for projection in select.expressions:
            star = _star_of(projection)
            if star is None:
                names.append(projection.alias_or_name.lower())
                continue
            for alias, (_node, source) in scope.selected_sources.items():
                if star and alias.lower() != star:
                    continue
                inner = self.outputs(source, depth + 1)
                if inner is None:
                    return None
                names.extend(self._star_columns(source, inner))
        return names

    def _star_columns(self, source: exp.Expr | Scope, outputs: list[str]) -> list[str]:
        """The columns a star returns: a table's pseudo-columns (``rowid``) are not among them."""
        if not isinstance(source, exp.Table):
            return outputs
        pseudo = set(_PSEUDO_COLUMNS.get(self.dialect or "", ()))
        return [c for c in outputs if c not in pseudo]

    def _lineage(self, source: exp.Expr | Scope, name: str, depth: int) -> set[ColumnKey]:
        """Base columns that output ``name`` of ``source`` reads."""
        if depth > _MAX_DEPTH:
            return set()
        if isinstance(source, exp.Table):
            table = self.base_table(source)
            if table is None or self.catalog is None:
                return set()
            info = self.catalog.table(table)
            column = info.column(name) if info is not None else None
            if info is None or column is None:
                return set()
            return {(info.name, column.name)}
        if not isinstance(source, Scope):
            return set()
        if source.set_operation_scopes:
            reads: set[ColumnKey] = set()
            position = self._position(source, name)
            for branch in source.set_operation_scopes:
                reads |= self._lineage_at(branch, position, name, depth + 1)
            return reads
        return self._lineage_at(source, self._position(source, name), name, depth + 1)

    def _position(self, scope: Scope, name: str) -> int | None:
        outputs = self.outputs(scope)
        if outputs is None or name not in outputs:
            return None
        return outputs.index(name)

    def _lineage_at(
        self, scope: Scope, position: int | None, name: str, depth: int
    ) -> set[ColumnKey]:
        if scope.set_operation_scopes:
            reads: set[ColumnKey] = set()
            for branch in scope.set_operation_scopes:
                reads |= self._lineage_at(branch, position, name, depth + 1)
            return reads
        select = scope.expression
        if not isinstance(select, exp.Select):
            return set()
        projection = self._projection_at(scope, position, name, depth)
        if projection is None:
            return set()
        if isinstance(projection, tuple):
            inner_source, inner_name = projection
            return self._lineage(inner_source, inner_name, depth + 1)
        reads = set()
        for column in projection.find_all(exp.Column):
            if not isinstance(column.this, exp.Star):
                reads |= set(self._resolve(scope, column, depth + 1).reads)
        return reads

    def _projection_at(
        self, scope: Scope, position: int | None, name: str, depth: int
    ) -> exp.Expr | tuple[exp.Expr | Scope, str] | None:
        select = scope.expression
        assert isinstance(select, exp.Select)
        index = 0
        for projection in select.expressions:
            star = _star_of(projection)
            if star is None:
                if (position is not None and index == position) or (
                    position is None and projection.alias_or_name.lower() == name
                ):
                    found: exp.Expr = projection
                    return found
                index += 1
                continue
            for alias, (_node, source) in scope.selected_sources.items():
                if star and alias.lower() != star:
                    continue
                inner = self._star_columns(source, self.outputs(source, depth + 1) or [])
                for inner_name in inner:
                    if (position is not None and index == position) or (
                        position is None and inner_name == name
                    ):
                        return source, inner_name
                    index += 1
        return None

    @cached_property
    def output_reads(self) -> list[set[ColumnKey]]:
        """For each output column of the statement (stars expanded), the base columns it reads."""
        root = self.root
        if root is None:
            return []
        outputs = self.outputs(root) or []
        return [self._lineage(root, name, 0) for name in outputs]

    @cached_property
    def root(self) -> Scope | None:
        """The outermost scope."""
        copy = getattr(self, "_copy", None)
        return next((s for s in self._scopes if s.expression is copy), None)

    @cached_property
    def base_reads(self) -> set[ColumnKey]:
        """Every base-table column the statement reads: column lineage, the statement's
        expanded output, and every column sqlglot's ``qualify`` resolves to a table."""
        reads: set[ColumnKey] = set()
        for ref in self.column_refs:
            reads |= set(ref.reads)
        for output in self.output_reads:
            reads |= output
        reads |= self.qualified_reads
        return reads

    @cached_property
    def qualified_reads(self) -> set[ColumnKey]:
        """Base columns sqlglot's ``qualify`` finds, stars expanded against the catalogue."""
        if self.catalog is None or self.tree is None or self.error is not None:
            return set()
        try:
            schema = MappingSchema(
                {
                    t.name: {c.name: "TEXT" for c in t.columns}
                    for t in self.catalog.tables
                    if t.columns
                },
                dialect=self.dialect,
                normalize=True,
            )
            qualified = qualify(
                self._copy.copy(),
                schema=schema,
                dialect=self.dialect,
                validate_qualify_columns=False,
                quote_identifiers=False,
                identify=False,
            )
            scopes = list(traverse_scope(qualified))
        except Exception:  # qualify refuses what it cannot read; the own lineage stands
            return set()
        reads: set[ColumnKey] = set()
        for scope in scopes:
            for column in scope.columns:
                found = scope.selected_sources.get(column.table)
                source = found[1] if found else None
                if not isinstance(source, exp.Table) or self.catalog is None:
                    continue
                if self.is_catalogue(source) or not isinstance(source.this, exp.Identifier):
                    continue
                info = self.catalog.table(source.name)
                col = info.column(column.name) if info is not None else None
                if info is not None and col is not None:
                    reads.add((info.name, col.name))
        return reads


def analyse(tree: exp.Expr | None, dialect: str | None, catalog: Catalog | None) -> QueryAnalysis:
    """The one analysis of a parsed statement.

    Example:
        >>> import sqlglot
        >>> tree = sqlglot.parse_one(
        ...     "SELECT * FROM (WITH t AS (SELECT 1 AS a) SELECT a FROM t) s, t", read="duckdb")
        >>> [(r.name, r.kind) for r in analyse(tree, "duckdb", None).tables]
        [('t', 'base'), ('t', 'cte')]
    """
    return QueryAnalysis(tree, dialect, catalog)


def _bound_variable(column: exp.Column) -> bool:
    """Whether a column is a list comprehension's or lambda's own variable."""
    if column.table:
        return False
    name = column.name.lower()
    parent = column.parent
    while parent is not None:
        if isinstance(parent, exp.Comprehension):
            bound = parent.args.get("expression")
            position = parent.args.get("position")
            names = {n.name.lower() for n in (bound, position) if n is not None}
            if name in names:
                return True
        if isinstance(parent, exp.Lambda) and name in {e.name.lower() for e in parent.expressions}:
            return True
        parent = parent.parent
    return False


def _needs_normalising(tree: exp.Expr, dialect: str | None) -> bool:
    """Whether folding identifiers the engine's way would change any (else the tree is
    analysed as it is, without a copy)."""
    folds_quoted = dialect in {"duckdb", "sqlite"}
    for node in tree.find_all(exp.Identifier):
        text = node.this
        if isinstance(text, str) and text != text.lower():
            if folds_quoted or not node.quoted:
                return True
    return False


def _star_of(projection: exp.Expr) -> str | None:
    """``""`` for ``*``, the lower-case qualifier for ``t.*``, ``None`` for anything else."""
    if isinstance(projection, exp.Star):
        return ""
    if isinstance(projection, exp.Column) and isinstance(projection.this, exp.Star):
        return projection.table.lower()
    return None


def _alias_columns(scope: Scope) -> list[str]:
    parent = scope.expression.parent
    child = scope.expression
    while isinstance(parent, exp.SetOperation) and parent.this is child:
        child, parent = parent, parent.parent  # a recursive CTE's first arm names its columns
    alias = parent.args.get("alias") if parent is not None else None
    if isinstance(alias, exp.TableAlias):
        return [c.name.lower() for c in alias.columns]
    if isinstance(parent, exp.CTE):
        return [c.lower() for c in parent.alias_column_names]
    return []


def did_you_mean(name: str, candidates: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Close spellings of ``name`` among ``candidates``, best first.

    Example:
        >>> did_you_mean("ordr_date", ["order_date", "ship_date"])
        ('order_date',)
    """
    unique = sorted({c for c in candidates})
    return tuple(difflib.get_close_matches(name, unique, n=3, cutoff=0.6))
