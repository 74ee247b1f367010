"""The guard in Spark's dialect: the same allowlist design, with Spark's own dangers as data.

``validate_spark`` parses with sqlglot's ``spark`` dialect and refuses anything that is not one
query made only of allowed node types and allowed functions (``ALLOWED_NODE_TYPES`` and
``ALLOWED_FUNCTION_TYPES`` of the guard, plus the Spark additions below). Spark's dangers are
listed with a reason each, so a refusal names what the statement tried: file and path reads in
``FROM`` (``parquet.`/path```, ``read_files``), JVM reflection (``reflect``, ``java_method``),
``input_file_name``, function creation, ``ADD JAR``, ``SET``/``RESET``, ``CACHE``, temporary
views, writes, ``OPTIMIZE``/``VACUUM``, unbounded generators (``explode(sequence(...))``,
``range(n)``) and cross joins. As for every dialect, the lists of refusals only make the reason
precise: what keeps a statement out is that it is not on the allowlist.

The engine's parser cross-checks without executing: ``plan`` (a connector's ``plan`` method)
asks Spark to plan the regenerated text inside ``SELECT * FROM (...)``, which Spark parses only
for a query, and nothing runs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.errors import ErrorLevel, ParseError

from assay.catalog import Catalog
from assay.guard._allowlists import ALLOWED_FUNCTION_TYPES, ALLOWED_NODE_TYPES
from assay.guard._report import GuardReport, Violation
from assay.guard._spark_joins import disconnected, query_columns
from assay.guard._spark_lists import (
    SPARK_ALLOWED_ANONYMOUS,
    SPARK_BOUNDED_FUNCTIONS,
    SPARK_EXTRA_FUNCTION_TYPES,
    SPARK_EXTRA_NODE_TYPES,
    SPARK_FILE_FORMATS,
    SPARK_FORMAT_FUNCTIONS,
    SPARK_MAX_FORMAT_WIDTH,
    SPARK_REFUSED_FUNCTIONS,
    SPARK_REFUSED_STATEMENTS,
    SPARK_SEQUENCE_MAX,
)
from assay.settings import DEFAULTS

__all__ = [
    "SPARK_ALLOWED_ANONYMOUS",
    "SPARK_BOUNDED_FUNCTIONS",
    "SPARK_EXTRA_FUNCTION_TYPES",
    "SPARK_EXTRA_NODE_TYPES",
    "SPARK_FILE_FORMATS",
    "SPARK_FORMAT_FUNCTIONS",
    "SPARK_REFUSED_FUNCTIONS",
    "SPARK_REFUSED_STATEMENTS",
    "SPARK_SEQUENCE_MAX",
    "validate_spark",
]

_QUERY_ROOTS = (exp.Select, exp.Union, exp.Intersect, exp.Except, exp.Subquery, exp.Values)
_LEADING = re.compile(r"\s*(?:(?:--[^\n]*(?:\n|$)|/\*.*?\*/)\s*)*([A-Za-z][A-Za-z ]{0,40})", re.S)

Plan = Callable[[str], Any]


def validate_spark(
    sql: str,
    *,
    catalog: Catalog | None,
    plan: Plan | None = None,
    max_sql_bytes: int = DEFAULTS.max_sql_bytes,
) -> GuardReport:
    """Check one statement in Spark's dialect.

    Args:
        sql: the statement as written.
        catalog: the database's tables; ``None`` skips the table and cross-join column rules.
        plan: a callable asking the engine to plan (not run) a query; it raises when the
            engine refuses. ``None`` skips the engine's cross-check.
        max_sql_bytes: the size limit.

    Returns:
        A report whose ``sql`` is the regenerated statement when no rule was broken.

    Example:
        >>> validate_spark("SELECT reflect('java.lang.Runtime', 'getRuntime')", catalog=None).codes
        ('guard.forbidden_function',)
        >>> validate_spark("SELECT 1 AS x", catalog=None).sql
        'SELECT 1 AS x'
    """
    violations = _text(sql, max_sql_bytes)
    if violations:
        return GuardReport(sql, "spark", tuple(violations), None)
    try:
        parsed = [s for s in sqlglot.parse(sql, read="spark", error_level=ErrorLevel.RAISE) if s]
    except ParseError as exc:
        first = exc.errors[0] if exc.errors else {}
        message = str(first.get("description") or exc).split("\n")[0]
        violation = Violation(
            "guard.parse_error",
            f"SQL does not parse as spark: {message}. Fix the syntax.",
            first.get("line"),
            first.get("col"),
        )
        return GuardReport(sql, "spark", (violation,), None)
    except Exception as exc:  # sqlglot can fail on odd text: refuse, never raise
        violation = Violation(
            "guard.parse_error", f"SQL does not parse as spark: {type(exc).__name__}."
        )
        return GuardReport(sql, "spark", (violation,), None)
    if len(parsed) != 1:
        violation = Violation(
            "guard.multiple_statements",
            f"{len(parsed)} statements given; send exactly one query.",
        )
        return GuardReport(sql, "spark", (violation,), None)
    tree = parsed[0]
    try:
        violations = _tree(tree, catalog)
    except Exception as exc:  # fail closed: a rule that breaks refuses the statement
        violations = [
            Violation(
                "guard.internal_error",
                f"The Spark rules could not check this statement ({type(exc).__name__}); it is "
                "refused. Simplify the query.",
            )
        ]
    if violations:
        return GuardReport(sql, "spark", tuple(violations), None)
    regenerated = tree.sql(dialect="spark", comments=False)
    if plan is not None:
        try:
            plan(regenerated)
        except Exception as exc:
            text = str(exc).strip().splitlines()
            violation = Violation(
                "guard.engine_disagrees",
                f"Spark's own parser and planner refuse the checked query: "
                f"{text[0] if text else type(exc).__name__}",
            )
            return GuardReport(sql, "spark", (violation,), None)
    return GuardReport(sql, "spark", (), regenerated)


def _text(sql: str, max_sql_bytes: int) -> list[Violation]:
    size = len(sql.encode("utf-8", errors="replace"))
    if size > max_sql_bytes:
        return [
            Violation(
                "guard.too_large",
                f"The statement is {size} bytes, over the limit of {max_sql_bytes}; shorten it.",
            )
        ]
    if "\x00" in sql:
        return [Violation("guard.control_character", "The statement holds a NUL byte.")]
    match = _LEADING.match(sql)
    if match:
        words = " ".join(match.group(1).lower().split())
        for prefix in sorted(SPARK_REFUSED_STATEMENTS, key=len, reverse=True):
            if words == prefix or words.startswith(prefix + " "):
                return [
                    Violation(
                        "guard.forbidden_statement",
                        f"{prefix.upper()} {SPARK_REFUSED_STATEMENTS[prefix]}; only one "
                        "read-only query is allowed.",
                    )
                ]
    return []


def _tree(tree: exp.Expr, catalog: Catalog | None) -> list[Violation]:
    if not isinstance(tree, _QUERY_ROOTS):
        return [
            Violation(
                "guard.forbidden_statement",
                f"A {type(tree).__name__} statement is not a query; only one read-only query "
                "is allowed.",
            )
        ]
    found: list[Violation] = []
    ctes = {c.alias_or_name.lower() for c in tree.find_all(exp.CTE)}
    allowed_nodes = ALLOWED_NODE_TYPES | SPARK_EXTRA_NODE_TYPES
    for node in tree.walk():
        if isinstance(node, exp.Func) and type(node).__name__ not in allowed_nodes:
            found.extend(_function(node))
        elif isinstance(node, exp.Table):
            found.extend(_table(node, catalog, ctes))
        elif isinstance(node, exp.Join):
            found.extend(_cross_join(node))
        elif isinstance(node, exp.With) and node.args.get("recursive"):
            found.append(
                Violation(
                    "guard.recursive_cte",
                    "WITH RECURSIVE can run without bound in Spark; rewrite without recursion.",
                )
            )
        elif type(node).__name__ not in allowed_nodes:
            found.append(
                Violation(
                    "guard.forbidden_node",
                    f"{type(node).__name__} is not allowed in a read-only query.",
                )
            )
    cte_columns = {
        c.alias_or_name.lower(): query_columns(c.this, c.args.get("alias"))
        for c in tree.find_all(exp.CTE)
    }
    for select in tree.find_all(exp.Select):
        found.extend(disconnected(select, catalog, cte_columns))
    return _unique(found)


def _unique(found: list[Violation]) -> list[Violation]:
    seen: dict[tuple[str, str], Violation] = {}
    for v in found:
        seen.setdefault((v.code, v.message), v)
    return list(seen.values())


def _function_name(node: exp.Func) -> str:
    if isinstance(node, exp.Anonymous):
        return str(node.this).lower()
    return node.sql_name().lower()


def _function(node: exp.Func) -> list[Violation]:
    name = _function_name(node)
    if name in SPARK_REFUSED_FUNCTIONS:
        return [
            Violation(
                "guard.forbidden_function",
                f"Function {name}() {SPARK_REFUSED_FUNCTIONS[name]}; it is not allowed.",
            )
        ]
    kind = type(node).__name__
    allowed = (
        name in SPARK_ALLOWED_ANONYMOUS
        if isinstance(node, exp.Anonymous)
        else kind in ALLOWED_FUNCTION_TYPES | SPARK_EXTRA_FUNCTION_TYPES
    )
    if not allowed:
        return [
            Violation(
                "guard.forbidden_function",
                f"Function {name}() is not on Spark's allowlist; rewrite the query without it.",
            )
        ]
    return _bounds(node, name)


def _literal_int(node: Any) -> int | None:
    if isinstance(node, exp.Neg) and isinstance(node.this, exp.Literal):
        inner = _literal_int(node.this)
        return -inner if inner is not None else None
    if isinstance(node, exp.Literal) and not node.is_string:
        try:
            return int(node.this)
        except ValueError:
            return None
    return None


def _arguments(node: exp.Func) -> list[Any]:
    if isinstance(node, exp.Anonymous):
        return list(node.expressions)
    args = [node.this, node.args.get("expression")]
    args += [node.args.get(k) for k in ("end", "step", "length", "times")]
    return [a for a in args if a is not None]


def _bounds(node: exp.Func, name: str) -> list[Violation]:
    args = _arguments(node)
    if isinstance(node, exp.GenerateSeries | exp.ExplodingGenerateSeries) or name in {
        "sequence",
        "range",
        "generate_series",
    }:
        numbers = [_literal_int(a) for a in args]
        if isinstance(node, exp.GenerateSeries | exp.ExplodingGenerateSeries):
            numbers = [_literal_int(node.args.get(k)) for k in ("start", "end")]
            step = node.args.get("step")
            numbers.append(_literal_int(step) if step is not None else 1)
        if name == "range" and len(numbers) == 1:
            numbers = [0, numbers[0]]
        if len(numbers) < 2 or any(n is None for n in numbers):
            return [_bomb(name, "its bounds must be literal integers")]
        start, end = numbers[0], numbers[1]
        step = numbers[2] if len(numbers) > 2 else 1
        assert start is not None and end is not None and step is not None
        count = abs(end - start) // max(1, abs(step)) + 1
        if step == 0 or count > SPARK_SEQUENCE_MAX:
            return [_bomb(name, f"it would generate {count} elements, over {SPARK_SEQUENCE_MAX}")]
        return []
    if name in SPARK_FORMAT_FUNCTIONS:
        form = args[0] if args else None
        text = str(form.this) if form is not None and _is_string(form) else None
        widths = re.findall(r"%[-+ #0]*(\d+|\*)", text) if text is not None else ["*"]
        if any(w == "*" or int(w) > SPARK_MAX_FORMAT_WIDTH for w in widths):
            return [_bomb(name, "its format must be a literal with widths of at most 10000")]
        return []
    if name in SPARK_BOUNDED_FUNCTIONS:
        index, cap = SPARK_BOUNDED_FUNCTIONS[name]
        value = _literal_int(args[index]) if len(args) > index else None
        if value is None or value > cap:
            return [_bomb(name, f"its size argument must be a literal of at most {cap}")]
    return []


def _is_string(node: Any) -> bool:
    return isinstance(node, exp.Literal) and node.is_string


def _bomb(name: str, why: str) -> Violation:
    return Violation(
        "guard.resource_bomb", f"{name}() can allocate without bound: {why}. Bound it."
    )


def _table(node: exp.Table, catalog: Catalog | None, ctes: set[str]) -> list[Violation]:
    if isinstance(node.this, exp.Func):
        return []  # a table-valued function: the function rule decides (range, read_files)
    name, db = node.name, node.db
    if (
        db.lower() in SPARK_FILE_FORMATS
        or any(ch in name for ch in "/\\:")
        or (node.this is not None and node.this.args.get("quoted") and "." in name)
    ):
        return [
            Violation(
                "guard.file_access",
                f"FROM {node.sql(dialect='spark')} reads files by path; query a catalog table.",
            )
        ]
    if node.catalog and node.catalog.lower() not in {"spark_catalog"}:
        return [
            Violation(
                "guard.forbidden_schema",
                f"Table {node.sql(dialect='spark')} is in another catalog; use the current one.",
            )
        ]
    if catalog is None or (not db and name.lower() in ctes):
        return []
    if db and db.lower() not in {s.lower() for s in catalog.schemas}:
        return [
            Violation(
                "guard.forbidden_schema",
                f"Schema {db!r} is not the database's schema ({', '.join(catalog.schemas)}).",
            )
        ]
    if catalog.table(name) is None:
        return [Violation("guard.unknown_table", f"Unknown table {name!r}; check the table name.")]
    return []


def _cross_join(join: exp.Join) -> list[Violation]:
    if str(join.args.get("method") or "").upper() == "NATURAL":
        return [
            Violation(
                "guard.natural_join",
                "A NATURAL JOIN hides its keys (and crosses every row when none match); "
                "join ON named keys.",
            )
        ]
    return []  # CROSS and comma joins: _disconnected decides from the ON and WHERE equalities
