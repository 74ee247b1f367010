"""The guard's rules over a parsed statement: an ordered registry of small functions.

Each rule reads a ``GuardContext`` and returns violations; none raises for bad SQL. Text rules
run before parsing, tree rules after.

Why one module of about 920 lines, over the house aim of 400: the registries at the end
(``TEXT_RULES``, ``TREE_RULES``, ``RECHECK_RULES``) are the first wall, and their order is part
of it (a statement refused for its shape is never resolved against the catalogue; the layer's
join rules run last, on names already resolved). Each rule is a short function kept beside the
private helpers it shares with its neighbours (``_at``, ``_conjuncts``, ``_aliases_in``,
``_source_has``: the cartesian-product, retired-column and join rules read sources the same
way). The parts that are not rules already live apart: allowlists (``_allowlists``), size bounds
(``_bounds``), name resolution (``_context``, ``_analysis``) and the report (``_report``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.optimizer.scope import Scope

from assay.guard._allowlists import (
    ALLOWED_ANONYMOUS,
    ALLOWED_CATALOGUE_VIEWS,
    ALLOWED_FUNCTION_TYPES,
    ALLOWED_NODE_TYPES,
    BOUNDED_FUNCTIONS,
    DEFAULT_SCHEMAS,
    REFUSED_FUNCTIONS,
)
from assay.guard._bounds import MAX_VALUE_BYTES, recursion_problem, string_growth, value_bytes
from assay.guard._changes import FILE_LIKE as _FILE_LIKE
from assay.guard._changes import tree_change
from assay.guard._context import GuardContext, did_you_mean, location
from assay.guard._key_joins import unrelated_key_joins
from assay.guard._report import Violation

__all__ = ["RECHECK_RULES", "TEXT_RULES", "TREE_RULES", "Rule"]

Rule = Callable[[GuardContext], list[Violation]]

MAX_FORMAT_WIDTH = 1_000
MAX_SERIES_STEPS = 10_000_000


def _at(ctx: GuardContext, node: exp.Expr, code: str, message: str) -> Violation:
    line, col = location(node, ctx.sql)
    return Violation(code, message, line, col)


def size_limit(ctx: GuardContext) -> list[Violation]:
    size = len(ctx.sql.encode("utf-8", errors="replace"))
    if size > ctx.max_sql_bytes:
        return [
            Violation(
                "guard.too_large",
                f"Statement is {size:,} bytes, over the limit of {ctx.max_sql_bytes:,} bytes; "
                "shorten it or raise --max-sql-bytes (ASSAY_MAX_SQL_BYTES).",
            )
        ]
    if not ctx.sql.strip():
        return [Violation("guard.empty", "Statement is empty; give one SELECT query.")]
    return []


def no_nul_bytes(ctx: GuardContext) -> list[Violation]:
    index = ctx.sql.find("\x00")
    if index < 0:
        return []
    line = ctx.sql.count("\n", 0, index) + 1
    return [
        Violation(
            "guard.nul_byte",
            "Statement contains a NUL byte, which engines treat differently; remove it.",
            line,
            index - (ctx.sql.rfind("\n", 0, index) + 1) + 1,
        )
    ]


def one_query(ctx: GuardContext) -> list[Violation]:
    if ctx.n_statements != 1:
        return [
            Violation(
                "guard.multiple_statements",
                f"Found {ctx.n_statements} statements; send exactly one SELECT query.",
            )
        ]
    tree = ctx.tree
    if ctx.dialect == "duckdb" and _duckdb_table_statement(tree):
        return []
    if not isinstance(tree, (exp.Query, exp.Values)):
        kind = type(tree).__name__.upper() if tree is not None else "nothing"
        if isinstance(tree, exp.Command):
            kind = str(tree.this).upper()
        change = tree_change(tree) if tree is not None else None
        if change is not None:  # what it would do, not sqlglot's class ("TRUNCATETABLE")
            kind = f"{change.statement}, which {change.does}"
        return [
            Violation(
                "guard.forbidden_statement",
                f"Only read-only queries may run; this statement is {kind}, not a query. "
                "Rewrite it as a SELECT.",
            )
        ]
    return []


def _duckdb_table_statement(tree: exp.Expr | None) -> bool:
    """DuckDB's ``DESCRIBE t``, ``SUMMARIZE t`` and ``PIVOT t ON c IN (...) USING ...`` of a
    table are queries too (the engine reads them as SELECT)."""
    if isinstance(tree, (exp.Describe, exp.Summarize)):
        target = tree.this
        extra = {k for k, v in tree.args.items() if v and k not in {"this", "table"}}
        return (
            isinstance(target, exp.Table)
            and isinstance(target.this, exp.Identifier)
            and not extra - {"as_json"}
            and not tree.args.get("as_json")
        )
    if isinstance(tree, exp.Pivot):
        fields = tree.args.get("fields") or tree.expressions
        return (
            isinstance(tree.this, exp.Table)
            and bool(fields)
            and all(isinstance(f, exp.In) and f.expressions for f in fields)
        )
    return False


def _describe_node(node: exp.Expr) -> str:
    if isinstance(node, exp.Command):
        return f"the command {str(node.this).upper()}"
    if isinstance(node, exp.Into):
        return "SELECT ... INTO (creates a table)"
    if isinstance(node, exp.Lock):
        return "a locking read (FOR UPDATE / FOR SHARE)"
    if isinstance(node, (exp.Insert, exp.Update, exp.Delete, exp.Merge)):
        return f"a data change ({type(node).__name__.upper()})"
    if isinstance(node, (exp.Create, exp.Drop, exp.Alter)):
        return f"a schema change ({type(node).__name__.upper()})"
    return f"{type(node).__name__}"


def node_allowlist(ctx: GuardContext) -> list[Violation]:
    found: list[Violation] = []
    assert ctx.tree is not None
    for node in ctx.nodes:
        name = type(node).__name__
        if name in ALLOWED_NODE_TYPES or isinstance(node, exp.Func):
            continue
        found.append(
            _at(
                ctx,
                node,
                "guard.forbidden_node",
                f"{_describe_node(node)} is not allowed in a read-only query.",
            )
        )
    return found


def _function_name(node: exp.Func) -> str:
    if isinstance(node, exp.Anonymous):
        return str(node.name).lower()
    return node.sql_name().lower()


def function_allowlist(ctx: GuardContext) -> list[Violation]:
    found: list[Violation] = []
    assert ctx.tree is not None
    allowed = ALLOWED_ANONYMOUS.get(ctx.dialect, frozenset())
    for node in ctx.of_type(exp.Func):
        assert isinstance(node, exp.Func)
        if isinstance(node, exp.Anonymous):
            name = str(node.name).lower()
            if name in allowed and name not in REFUSED_FUNCTIONS:
                continue
        elif type(node).__name__ in ALLOWED_FUNCTION_TYPES or type(node).__name__ in (
            ALLOWED_NODE_TYPES
        ):
            continue
        else:
            name = _function_name(node)
        written = _written_name(node, ctx.sql, ctx.dialect) or name
        engine = DIALECT_NAMES.get(ctx.dialect, ctx.dialect)
        reason = REFUSED_FUNCTIONS.get(written) or REFUSED_FUNCTIONS.get(name)
        reason = reason or f"is unknown to {engine} or not on the list of allowed functions"
        message = (
            f"Function {written}() {reason}{_elsewhere(written, ctx.dialect)}; it may not run "
            f"in a read-only {engine} query."
        )
        found.append(_at(ctx, node, "guard.forbidden_function", message))
    return found


DIALECT_NAMES = {"duckdb": "DuckDB", "sqlite": "SQLite", "postgres": "PostgreSQL"}
# Functions of one engine often written against another, and what each engine calls them.
_OTHER_DIALECT: dict[str, tuple[str, dict[str, str]]] = {
    "sqlite_version": ("SQLite's", {"duckdb": "version()", "postgres": "version()"}),
    "version": ("DuckDB's and PostgreSQL's", {"sqlite": "sqlite_version()"}),
    "getdate": ("SQL Server's", {"*": "current_date"}),
    "sysdate": ("Oracle's", {"*": "current_date"}),
    "nvl": ("Oracle's", {"*": "coalesce()"}),
    "isnull": ("SQL Server's", {"*": "coalesce()"}),
    "len": ("SQL Server's", {"*": "length()"}),
    "datepart": ("SQL Server's", {"*": "extract()"}),
    "charindex": ("SQL Server's", {"*": "strpos()", "sqlite": "instr()"}),
}


def _elsewhere(written: str, dialect: str) -> str:
    """Where a function comes from and what this engine calls it, when it is another's.

    Example:
        >>> _elsewhere("sqlite_version", "duckdb")
        " (sqlite_version() is SQLite's; DuckDB's is version(), also refused)"
    """
    known = _OTHER_DIALECT.get(written)
    if known is None:
        return ""
    owner, names = known
    engine = DIALECT_NAMES.get(dialect, dialect)
    if dialect in DIALECT_NAMES and DIALECT_NAMES[dialect] + "'s" in owner:
        return ""  # the engine's own function, refused for its reason alone
    right = names.get(dialect) or names.get("*")
    if right is None:
        return f" ({written}() is {owner}; {engine} has no such function)"
    refused = right.rstrip("()") in REFUSED_FUNCTIONS
    return f" ({written}() is {owner}; {engine}'s is {right}{', also refused' if refused else ''})"


_CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def _written_name(node: exp.Func, sql: str, dialect: str) -> str | None:
    """The function's name as the query writes it (sqlglot names ``sqlite_version()`` and
    ``version()`` alike ``current_version``): the call in the text that parses to this node."""
    name = _function_name(node)
    calls = [m.group(1) for m in _CALL.finditer(sql)]
    if any(c.lower() == name for c in calls):
        return name
    for call in dict.fromkeys(c.lower() for c in calls):
        try:
            parsed = sqlglot.parse_one(f"SELECT {call}()", read=dialect)
        except sqlglot.errors.SqlglotError:
            continue
        first = parsed.expressions[0] if isinstance(parsed, exp.Select) else None
        if type(first) is type(node):
            return call
    return None


def _int_literal(node: exp.Expr | None) -> int | None:
    if isinstance(node, exp.Neg):
        inner = _int_literal(node.this)
        return None if inner is None else -inner
    if isinstance(node, (exp.Paren, exp.Cast)):
        return _int_literal(node.this)
    if isinstance(node, exp.Literal) and not node.is_string:
        try:
            return int(float(node.name))
        except ValueError:
            return None
    return None


_PRINTF_SPEC = re.compile(r"%(?:\d+\$)?[-+ 0#',]*(\*(?:\d+\$)?|\d+)?(?:\.(\*(?:\d+\$)?|\d+))?")
_FMT_SPEC = re.compile(r"\{[^{}]*\}")


def _format_violation(fmt: exp.Expr | None) -> str | None:
    if not (isinstance(fmt, exp.Literal) and fmt.is_string):
        return "its format is not a literal string"
    text = fmt.name
    widths: list[str] = []
    for match in _PRINTF_SPEC.finditer(text):
        widths.extend(g for g in match.groups() if g)
    for match in _FMT_SPEC.finditer(text):
        widths.extend(re.findall(r"\*|\d+", match.group(0)))
    for width in widths:
        if width.startswith("*") or int(width) > MAX_FORMAT_WIDTH:
            return f"its format asks for a width of {width} (at most {MAX_FORMAT_WIDTH})"
    return None


def _series_violation(node: exp.Func) -> str | None:
    if isinstance(node, exp.Anonymous):
        args = list(node.expressions)
        start, end, step = [*args, None, None, None][:3] if len(args) > 1 else (None, *args, None)
        start = start if start is not None else exp.Literal.number(0)
    else:
        start, end, step = node.args.get("start"), node.args.get("end"), node.args.get("step")
    bounds = [_int_literal(start), _int_literal(end)]
    if all(isinstance(b, exp.Cast) and isinstance(b.this, exp.Literal) for b in (start, end)):
        if step is None or isinstance(step, exp.Interval):
            return None
    if None in bounds:
        return "its bounds are not literal numbers"
    step_value = abs(_int_literal(step) or 1) if step is not None else 1
    lo, hi = bounds
    assert lo is not None and hi is not None
    steps = abs(hi - lo) // max(step_value, 1)
    if steps > MAX_SERIES_STEPS:
        return f"it would make {steps:,} rows (at most {MAX_SERIES_STEPS:,})"
    return None


def bounded_functions(ctx: GuardContext) -> list[Violation]:
    found: list[Violation] = []
    assert ctx.tree is not None
    for node in ctx.of_type(exp.Func, exp.DPipe):
        name = _function_name(node) if isinstance(node, exp.Func) else "||"
        problem: str | None = None
        if isinstance(node, exp.Repeat):
            problem = _size_problem(node.args.get("times"), BOUNDED_FUNCTIONS["repeat"][1])
        elif isinstance(node, exp.Space):
            problem = _size_problem(node.this, BOUNDED_FUNCTIONS["repeat"][1])
        elif isinstance(node, exp.Pad):
            problem = _size_problem(node.args.get("expression"), BOUNDED_FUNCTIONS["pad"][1])
        elif isinstance(node, exp.Anonymous) and name in BOUNDED_FUNCTIONS:
            index, cap = BOUNDED_FUNCTIONS[name]
            args = list(node.expressions)
            problem = _size_problem(args[index] if len(args) > index else None, cap)
        elif name in {"printf", "format"} or isinstance(node, exp.Format):
            first = node.this if isinstance(node, exp.Format) else (node.expressions or [None])[0]
            problem = _format_violation(first)
        elif isinstance(node, (exp.GenerateSeries, exp.ExplodingGenerateSeries)) or name in {
            "range",
            "generate_series",
        }:
            assert isinstance(node, exp.Func)
            problem = _series_violation(node)
        if problem is None:
            problem = string_growth(node)
        if problem is None and value_bytes(node) > MAX_VALUE_BYTES:
            problem = f"the value it builds can exceed {MAX_VALUE_BYTES:,} bytes"
        if problem:
            found.append(
                _at(
                    ctx,
                    node,
                    "guard.unbounded_allocation",
                    f"Function {name}() may allocate without bound: {problem}.",
                )
            )
    return found


def _size_problem(arg: exp.Expr | None, cap: int) -> str | None:
    value = _int_literal(arg)
    if value is None:
        return "its size is not a literal number"
    if value > cap:
        return f"its size {value:,} is over {cap:,}"
    return None


def bounded_recursion(ctx: GuardContext) -> list[Violation]:
    found: list[Violation] = []
    assert ctx.tree is not None
    for with_ in ctx.of_type(exp.With):
        if not with_.args.get("recursive"):
            continue
        for cte in with_.expressions:
            problem = recursion_problem(cte)
            if problem:
                found.append(
                    _at(
                        ctx,
                        cte,
                        "guard.unbounded_recursion",
                        f"Recursive CTE {cte.alias} is not bounded: {problem}.",
                    )
                )
    return found


def file_scans(ctx: GuardContext) -> list[Violation]:
    """Refuse a FROM item that names a file or URL (DuckDB reads ``FROM 'data.csv'``)."""
    assert ctx.tree is not None
    found: list[Violation] = []
    for table in ctx.of_type(exp.Table):
        if isinstance(table.this, exp.Identifier) and _FILE_LIKE.search(table.name):
            found.append(
                _at(
                    ctx,
                    table,
                    "guard.file_scan",
                    f"{table.name!r} names a file or URL; only the database's tables may be read.",
                )
            )
    return found


def known_tables(ctx: GuardContext) -> list[Violation]:
    if ctx.catalog is None:
        return []
    assert ctx.tree is not None
    found: list[Violation] = []
    own_schemas = DEFAULT_SCHEMAS.get(ctx.dialect, frozenset()) | {
        s.lower() for s in ctx.catalog.schemas
    }
    for table in ctx.of_type(exp.Table):
        assert isinstance(table, exp.Table)
        if not isinstance(table.this, exp.Identifier):
            continue
        if isinstance(table.parent, exp.Into):
            continue  # the table SELECT ... INTO would create, refused as such, not read
        ref = ctx.analysis.table_ref(table)
        if ref.kind != "base":
            continue
        catalog_name = table.catalog.lower()
        if (table.db and table.db.lower() not in own_schemas) or (
            catalog_name and catalog_name != ctx.catalog.database.lower()
        ):
            found.append(
                _at(
                    ctx,
                    table,
                    "guard.qualified_name",
                    f"Table {table.sql(dialect=ctx.dialect)} is qualified with another catalog "
                    "or schema; only the connected database's own tables may be read.",
                )
            )
            continue
        name = ref.name
        info = ctx.catalog.table(name)
        home = (info.schema or next(iter(ctx.catalog.schemas), "")) if info is not None else ""
        if info is not None and table.db and home and table.db.lower() != home.lower():
            # Another schema's table of the same name: the catalogue describes the one in
            # ``home`` (DuckDB reads a second schema's tables by bare name when unambiguous).
            found.append(
                _at(
                    ctx,
                    table,
                    "guard.qualified_name",
                    f"Table {table.sql(dialect=ctx.dialect)} is in schema {table.db!r}; the "
                    f"table {name!r} this database reads is {home}.{name}.",
                )
            )
            continue
        if info is not None or _FILE_LIKE.search(name):
            continue
        ctes = [c.alias for c in ctx.of_type(exp.CTE) if isinstance(c, exp.CTE)]
        if not table.db and name.lower() in {c.lower() for c in ctes}:
            # A CTE the scope analysis could not resolve (its body is a DELETE or other
            # statement, refused by its own rule): not an unknown table ("Unknown table 'x'.
            # Did you mean 'x'?", outside tryout 22).
            continue
        hint = did_you_mean(name, list(ctx.catalog.table_names) + ctes)
        suffix = f" Did you mean {hint[0]!r}?" if hint else ""
        found.append(_at(ctx, table, "guard.unknown_table", f"Unknown table {name!r}.{suffix}"))
    return found


def catalogue_views(ctx: GuardContext) -> list[Violation]:
    """Refuse the engine's catalogue views beyond the allowed ones (the user tables' schema)."""
    found: list[Violation] = []
    allowed = ALLOWED_CATALOGUE_VIEWS.get(ctx.dialect, frozenset())
    for ref in ctx.analysis.tables:
        if ref.kind != "catalogue":
            continue
        key = f"{ref.schema}.{ref.name}".lower() if ref.schema else ref.name.lower()
        if key in allowed:
            continue
        shown = ", ".join(sorted(allowed)) or "none"
        found.append(
            _at(
                ctx,
                ref.node,
                "guard.catalogue_view",
                f"{key} is the engine's own catalogue, which a question may not read "
                f"(allowed here: {shown}).",
            )
        )
    return found


def known_columns(ctx: GuardContext) -> list[Violation]:
    if ctx.catalog is None:
        return []
    found: list[Violation] = []
    for ref in ctx.column_refs:
        if ref.status == "ok":
            continue
        hint = f" Did you mean {ref.suggestions[0]!r}?" if ref.suggestions else ""
        if ref.status == "unknown_alias":
            message = f"Undefined table alias {ref.node.table!r} in {ref.node.sql()}.{hint}"
            code = "guard.unknown_alias"
        else:
            where = f" in table {ref.node.table!r}" if ref.node.table else ""
            message = f"Unknown column {ref.node.name!r}{where}.{hint}"
            code = "guard.unknown_column"
        found.append(_at(ctx, ref.node, code, message))
    return found


def _conjuncts(condition: exp.Expr | None) -> Iterator[exp.Expr]:
    if condition is None:
        return
    if isinstance(condition, exp.And):
        yield from _conjuncts(condition.left)
        yield from _conjuncts(condition.right)
    else:
        yield condition


def no_cartesian_product(ctx: GuardContext) -> list[Violation]:
    """Refuse a FROM whose base tables are not all connected by a join or WHERE predicate."""
    found: list[Violation] = []
    refs_by_scope: dict[int, list[tuple[exp.Column, str | None]]] = {}
    for ref in ctx.column_refs:
        refs_by_scope.setdefault(id(ref.scope), []).append((ref.node, ref.table))
    for scope in ctx.scopes:
        select = scope.expression
        if not isinstance(select, exp.Select):
            continue
        sources = scope.selected_sources
        bases = [a for a, (_n, s) in sources.items() if _is_large_source(ctx, s)]
        if len(bases) < 2:
            continue
        components = _Components(list(sources))
        conditions = [j.args.get("on") for j in select.args.get("joins") or []]
        conditions += list(_conjuncts(select.args.get("where")))
        for join in select.args.get("joins") or []:
            if join.args.get("using"):
                right = join.this.alias_or_name
                others = [a for a in sources if a != right]
                if others:
                    components.union(others[0], right)
        for condition in conditions:
            for cond in _conjuncts(condition):
                touched = _aliases_in(cond, sources, ctx)
                for a, b in itertools.pairwise(touched):
                    components.union(a, b)
        groups = sorted({components.find(a) for a in bases})
        if len(groups) > 1:
            names = ", ".join(sorted(bases))
            found.append(
                _at(
                    ctx,
                    select,
                    "guard.cartesian_product",
                    f"Tables {names} are combined with no join condition between them "
                    "(a cartesian product); join them on a key.",
                )
            )
    return found


class _Components:
    """Union-find over the FROM items of one SELECT."""

    def __init__(self, names: list[str]):
        self.parent = {name: name for name in names}

    def find(self, name: str) -> str:
        while self.parent[name] != name:
            name = self.parent[name]
        return name

    def union(self, a: str, b: str) -> None:
        self.parent[self.find(a)] = self.find(b)


def _is_large_source(ctx: GuardContext, source: object) -> bool:
    if isinstance(source, exp.Table):
        if isinstance(source.this, (exp.GenerateSeries, exp.ExplodingGenerateSeries)):
            return True
        if isinstance(source.this, exp.Anonymous) and source.this.name.lower() in {
            "range",
            "generate_series",
            "unnest",
        }:
            return True
        return ctx.base_table(source) is not None
    if isinstance(source, Scope):
        expression = source.expression
        if isinstance(expression, (exp.Unnest, exp.Explode)) or source.is_udtf:
            return expression.find(exp.Column) is None  # a correlated unnest is per row
        if isinstance(expression, exp.Select) and _one_row(expression):
            return False
        return bool(ctx.analysis.reach(source)) or any(
            isinstance(n, (exp.GenerateSeries, exp.Unnest)) for n in expression.walk()
        )
    return False


def _one_row(select: exp.Select) -> bool:
    """Whether a derived table summarises its rows (one row, or grouped) rather than passing
    them through; a product with a summary is how analysts compare a row with a total."""
    limit = select.args.get("limit")
    if limit is not None and _int_literal(limit.expression) in (0, 1):
        return True
    if select.args.get("from_") is None or select.args.get("group") is not None:
        return True
    return any(e.find(exp.AggFunc) is not None for e in select.expressions)


def _aliases_in(
    cond: exp.Expr, sources: Mapping[str, tuple[Any, Any]], ctx: GuardContext
) -> list[str]:
    touched: list[str] = []
    lowered = {a.lower(): a for a in sources}
    for column in cond.find_all(exp.Column):
        alias: str | None = None
        if column.table and column.table.lower() in lowered:
            alias = lowered[column.table.lower()]
        elif not column.table:
            owners = [a for a, (_n, s) in sources.items() if _source_has(ctx, s, column.name)]
            alias = owners[0] if len(owners) == 1 else None
        if alias is not None and alias not in touched:
            touched.append(alias)
    return touched


def _source_has(ctx: GuardContext, source: object, column: str) -> bool:
    if not isinstance(source, (exp.Table, Scope)):
        return False
    outputs = ctx.analysis.outputs(source)
    return outputs is not None and column.lower() in outputs


def retired_columns(ctx: GuardContext) -> list[Violation]:
    """Refuse a retired column read anywhere: directly, through a CTE or derived table, or in
    the columns a star returns."""
    if ctx.semantic is None or not ctx.semantic.retired_columns:
        return []
    retired = {(r.table.lower(), r.column.lower()): r for r in ctx.semantic.retired_columns}
    found: list[Violation] = []
    seen: set[tuple[str, str]] = set()
    located: list[tuple[tuple[str, str], exp.Expr]] = []
    for ref in ctx.column_refs:
        reads = list(ref.reads)
        if ref.table is not None:
            reads.append((ref.table, ref.node.name))
        for table, column in reads:
            located.append(((table.lower(), column.lower()), ref.node))
    assert ctx.tree is not None
    for table, column in sorted(ctx.analysis.base_reads):
        located.append(((table.lower(), column.lower()), ctx.tree))
    for key, node in located:
        rule = retired.get(key)
        if rule is None or key in seen:
            continue
        seen.add(key)
        fix = (
            f" Use {rule.replacement!r} instead."
            if rule.replacement
            else " Nothing replaces it; the quantity is no longer available."
        )
        found.append(
            _at(
                ctx,
                node,
                "guard.retired_column",
                f"Column {rule.table}.{rule.column} is retired.{fix}",
            )
        )
    return found


def forbidden_joins(ctx: GuardContext) -> list[Violation]:
    """Refuse a scope combining the two sides of a forbidden join, directly or through CTEs
    and derived tables."""
    if ctx.semantic is None or not ctx.semantic.forbidden_joins:
        return []
    found: list[Violation] = []
    reported: set[tuple[str, str]] = set()
    for scope in ctx.scopes:
        reaches = [ctx.analysis.reach(s) for _a, (_n, s) in scope.selected_sources.items()]
        for rule in ctx.semantic.forbidden_joins:
            left, right = rule.left.lower(), rule.right.lower()
            joined = any(
                (left in a and right in b) or (right in a and left in b)
                for i, a in enumerate(reaches)
                for b in reaches[i + 1 :]
            )
            if not joined or (left, right) in reported:
                continue
            reported.add((left, right))
            reason = f" ({rule.reason})" if rule.reason else ""
            found.append(
                _at(
                    ctx,
                    scope.expression,
                    "guard.forbidden_join",
                    f"Joining {rule.left} with {rule.right} is forbidden by the semantic "
                    f"layer{reason}; join through the governed path instead.",
                )
            )
    return found


_KEEPS = (exp.EQ, exp.In, exp.GT, exp.GTE, exp.LT, exp.LTE)


def _value(node: exp.Expr) -> bool:
    """A literal that is not NULL: a string or a number, signed or cast."""
    while isinstance(node, (exp.Cast, exp.Neg, exp.Paren)):
        node = node.this
    return isinstance(node, exp.Literal)


def _kept_to_values(ctx: GuardContext, scope: Scope, alias: str) -> bool:
    """The scope's WHERE holds, as one of its top-level ANDs, ``column = value``, ``column IN
    (values)`` or a numeric bound on a plain column of source ``alias``: a row where the
    source matched nothing (NULL in every column) cannot pass it."""
    where = scope.expression.args.get("where")
    return where is not None and _keeps(ctx, scope, where.this, alias)


def _keeps(ctx: GuardContext, scope: Scope, condition: exp.Expr, alias: str) -> bool:
    """``_kept_to_values`` of one condition: one of its top-level ANDs keeps ``alias`` to
    values, or is an OR each of whose sides does (two compared periods, "2023 vs 2024")."""
    stack, parts = [condition], []
    while stack:
        node = stack.pop()
        if isinstance(node, exp.Paren):
            stack.append(node.this)
        elif isinstance(node, exp.And):
            stack += [node.left, node.right]
        else:
            parts.append(node)
    sources = scope.selected_sources
    for part in parts:
        if isinstance(part, exp.Or):
            if _keeps(ctx, scope, part.left, alias) and _keeps(ctx, scope, part.right, alias):
                return True
            continue
        if not isinstance(part, _KEEPS):
            continue
        if isinstance(part, exp.In):
            sides = [(part.this, part.expressions)]
        else:
            sides = [(part.this, [part.expression]), (part.expression, [part.this])]
        for column, values in sides:
            if not isinstance(column, exp.Column) or not values:
                continue
            if not all(_value(v) for v in values) or part.args.get("query") is not None:
                continue
            if column.table:
                owner = column.table
            else:
                owners = [
                    a for a, (_n, src) in sources.items() if _source_has(ctx, src, column.name)
                ]
                owner = owners[0] if len(owners) == 1 else ""
            if owner == alias:
                return True
    return False


def _left_joined_keeping_rows(ctx: GuardContext, scope: Any, alias: str) -> bool:
    """The source ``alias`` is a table LEFT joined in ``scope`` and its columns are read only
    by its join condition, inside aggregates (``SUM(s.s_number_employees)``), or, where the
    unmatched rows are grouped apart (``_unmatched_apart``), as GROUP BY keys
    (``YEAR(date_dim.d_date)``, ``store.s_state``) and in a projection or ordering by those
    keys (the planner's "(no store)" label), or by the condition of another LEFT JOIN (a
    chain of them: the next table's key): every row of the other side stays in the answer,
    none filtered by the right table's (NULL) columns, so none is lost. An unqualified column
    it may own is not proof."""
    select = scope.expression
    if not isinstance(select, exp.Select):
        return False
    joins = [
        j
        for j in select.args.get("joins") or []
        if isinstance(j.this, exp.Table) and (j.this.alias_or_name or "").lower() == alias.lower()
    ]
    if (
        len(joins) != 1
        or joins[0].side.upper() != "LEFT"
        or joins[0].kind.upper() not in ("", "OUTER")
    ):
        return False
    on = joins[0].args.get("on")
    if on is None:
        return False
    source = scope.selected_sources[alias][1]
    # A LEFT JOIN's condition filters none of the rows on its left: a column read there (the
    # next table of a chain, ``LEFT JOIN dim_users ON dim_listings.user_id = ...``) loses no
    # row (outside tryout 40, F-5: "bookings by home state latest" was refused so).
    in_on = {
        id(c)
        for j in select.args.get("joins") or []
        if j is joins[0] or (j.side.upper() == "LEFT" and j.kind.upper() in ("", "OUTER"))
        for c in (j.args.get("on") or exp.Null()).find_all(exp.Column)
    }
    keys = _group_keys(select) if _unmatched_apart(select, on, alias) else set()
    for column in select.find_all(exp.Column):
        if id(column) in in_on:
            continue
        if column.find_ancestor(exp.Select) is not select:
            return False  # a subquery reads it: not followed
        owned = (
            column.table.lower() == alias.lower()
            if column.table
            else _source_has(ctx, source, column.name)
        )
        if owned and column.find_ancestor(exp.AggFunc) is None and not _in_key(column, keys):
            return False
    return True


def _unparen(node: exp.Expr) -> exp.Expr:
    while isinstance(node, exp.Paren):
        node = node.this
    return node


def _group_keys(select: exp.Select) -> set[str]:
    """The SQL of each GROUP BY key, parentheses aside."""
    group = select.args.get("group")
    if group is None:
        return set()
    return {_unparen(k).sql(dialect="duckdb") for k in group.expressions}


def _unmatched_apart(select: exp.Select, on: exp.Expr, alias: str) -> bool:
    """A GROUP BY key is ``alias.key IS NULL`` on a column of the join's own condition: the
    rows the LEFT JOIN matched to nothing are a group of their own, never merged with the
    rows whose grouped value is NULL (the planner's "(no store)" group)."""
    group = select.args.get("group")
    ons = {c.name.lower() for c in on.find_all(exp.Column) if c.table.lower() == alias.lower()}
    for key in group.expressions if group is not None else ():
        key = _unparen(key)
        if isinstance(key, exp.Is) and isinstance(key.expression, exp.Null):
            column = key.this
            if (
                isinstance(column, exp.Column)
                and column.table.lower() == alias.lower()
                and column.name.lower() in ons
            ):
                return True
    return False


def _in_key(column: exp.Column, keys: set[str]) -> bool:
    """The column is read as (part of) a GROUP BY key: in the GROUP BY clause itself, or in
    a projection or ordering where it or an expression around it is one of the keys. A
    WHERE, HAVING or another join's condition reading it is no key."""
    if not keys or column.find_ancestor(exp.Where, exp.Having, exp.Join, exp.Qualify):
        return False
    if column.find_ancestor(exp.Group) is not None:
        return True
    node: exp.Expr | None = column
    while node is not None and not isinstance(node, exp.Select):
        if _unparen(node).sql(dialect="duckdb") in keys:
            return True
        node = node.parent
    return False


def unmatched_joins(ctx: GuardContext) -> list[Violation]:
    """Refuse a scope joining the two tables of a join that leaves rows of its left table
    without a partner (``unmatched`` in the layer), unless the right table is a source of the
    scope itself and its WHERE keeps that source to values (``=``, ``IN``, a numeric bound on a
    plain column, a period on its date): then no unmatched row could be in the answer, joined
    inner or not; or unless it is LEFT joined and read only in aggregates and group keys, which
    keeps every row. A total, an inner grouping or a negated filter through the join would lose
    those rows silently."""
    if ctx.semantic is None:
        return []
    partial = [j for j in ctx.semantic.joins if j.unmatched]
    if not partial:
        return []
    found: list[Violation] = []
    reported: set[tuple[str, str]] = set()
    for scope in ctx.scopes:
        reaches = {a: ctx.analysis.reach(src) for a, (_n, src) in scope.selected_sources.items()}
        for join in partial:
            left, right = (t.lower() for t in join.tables)
            holders = [a for a, r in reaches.items() if right in r]
            joined = any(left in reaches[a] for a in reaches for b in holders if a != b)
            if not joined or (left, right) in reported:
                continue
            direct = [
                a
                for a in holders
                if isinstance(scope.selected_sources[a][1], exp.Table) and reaches[a] == {right}
            ]
            if any(_kept_to_values(ctx, scope, a) for a in direct):
                continue
            if direct and all(_left_joined_keeping_rows(ctx, scope, a) for a in holders):
                continue
            reported.add((left, right))
            found.append(
                _at(
                    ctx,
                    scope.expression,
                    "guard.forbidden_join",
                    f"Joining {join.tables[0]} with {join.tables[1]} is forbidden by the "
                    f"semantic layer here: {join.unmatched} rows of {join.tables[0]} have no "
                    f"match in {join.tables[1]}, and the answer would leave them out; only a "
                    f"filter keeping {join.tables[1]} to given values may join it.",
                )
            )
    return found


TEXT_RULES: tuple[Rule, ...] = (size_limit, no_nul_bytes)
TREE_RULES: tuple[Rule, ...] = (
    one_query,
    node_allowlist,
    function_allowlist,
    bounded_functions,
    bounded_recursion,
    file_scans,
    catalogue_views,
    known_tables,
    known_columns,
    no_cartesian_product,
    retired_columns,
    forbidden_joins,
    unmatched_joins,
    unrelated_key_joins,
)
# Run again on the regenerated tree, which is what executes.
RECHECK_RULES: tuple[Rule, ...] = (
    one_query,
    node_allowlist,
    function_allowlist,
    bounded_functions,
    bounded_recursion,
    file_scans,
)
