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

# Structural nodes Spark queries need beyond the guard's list (lambdas of higher-order
# functions, TABLESAMPLE, interval units).
SPARK_EXTRA_NODE_TYPES: frozenset[str] = frozenset("Lambda TableSample Interval Unit Var".split())

# Typed sqlglot functions Spark queries use that compute from their arguments only.
SPARK_EXTRA_FUNCTION_TYPES: frozenset[str] = frozenset(
    """
    Transform ArrayAll ArrayAny Posexplode ExplodeOuter PosexplodeOuter Inline ArraySort
    SortArray ArrayDistinct ArrayIntersect ArrayUnion ArrayExcept ArrayJoin ArrayPosition
    ArrayRemove ArraySlice ArrayMin ArrayMax Flatten MapFromArrays MapKeys MapValues VarMap Map
    ToMap StructExtract DateFromUnixDate UnixDate UnixSeconds FromUnixtime MonthsBetween AddMonths
    NextDay Nvl2 Coalesce ArrayFirst ArrayLast Xor BitCount ApproxTopK CountIf MaxBy MinBy ArgMax
    ArgMin Boolor Booland Ceil Collate JSONFormat ParseJSON Trim StrToTime UnixToTime
    """.split()
)

# Functions sqlglot keeps anonymous in Spark, allowed by name.
SPARK_ALLOWED_ANONYMOUS: frozenset[str] = frozenset(
    """
    abs round bround coalesce nullif nvl ifnull lower upper lcase ucase length char_length
    character_length octet_length substr substring trim ltrim rtrim replace concat concat_ws instr
    locate left right lpad rpad initcap reverse format_number format_string printf split
    split_part regexp_extract regexp_extract_all regexp_replace regexp_like rlike regexp_count
    date_part datepart date_trunc trunc last_day make_date make_timestamp to_date to_timestamp
    date_format datediff date_diff date_add date_sub add_months months_between dayofweek
    dayofmonth dayofyear weekofyear weekday year quarter month day hour minute second
    current_date current_timestamp now unix_timestamp to_unix_timestamp from_unixtime
    stddev stddev_samp stddev_pop variance var_samp var_pop median mode percentile
    percentile_approx approx_percentile approx_count_distinct count_if bool_and bool_or every
    some any any_value first last first_value last_value collect_list collect_set array_agg
    max_by min_by corr covar_pop covar_samp kurtosis skewness
    sign signum floor ceil ceiling ln log log10 log2 exp expm1 log1p sqrt cbrt power pow pmod mod
    greatest least nanvl isnan isnull isnotnull typeof hex unhex ascii chr char md5 sha1 sha2 crc32
    hash xxhash64 levenshtein soundex space repeat translate overlay position startswith endswith
    contains array array_contains array_distinct array_except array_intersect array_join
    array_max array_min array_position array_remove array_sort array_union arrays_overlap
    arrays_zip cardinality size element_at slice sort_array struct named_struct map map_keys
    map_values map_from_arrays get_json_object json_tuple from_json to_json schema_of_json
    explode explode_outer posexplode posexplode_outer inline inline_outer stack try_cast
    try_add try_divide try_subtract try_multiply try_element_at try_to_number to_number to_char
    decimal int bigint double float string boolean date timestamp cast row_number rank dense_rank
    percent_rank cume_dist ntile lag lead nth_value grouping grouping_id degrees radians pi sin
    cos tan asin acos atan atan2 sinh cosh tanh cot e factorial bit_length bit_count
    sequence range transform filter aggregate exists forall zip_with timestampadd timestampdiff
    array_repeat
    dateadd extract weekofyear
    """.split()
)

# name -> (argument index holding a size, largest size allowed): literal under the cap only.
SPARK_BOUNDED_FUNCTIONS: dict[str, tuple[int, int]] = {
    "repeat": (1, 10_000),
    "lpad": (1, 10_000),
    "rpad": (1, 10_000),
    "array_repeat": (1, 10_000),
    "space": (0, 10_000),
    "pad": (1, 10_000),
}
# Functions whose format string can ask for any width: the format must be a literal and every
# width in it at most this.
SPARK_FORMAT_FUNCTIONS: frozenset[str] = frozenset({"printf", "format_string"})
SPARK_MAX_FORMAT_WIDTH = 10_000
# The most elements a literal sequence(...) or range(...) may generate.
SPARK_SEQUENCE_MAX = 100_000

_REFUSED: list[tuple[str, str]] = [
    ("read_files", "reads files by path"),
    ("input_file_name", "leaks the paths of the files behind a table"),
    ("input_file_block_start", "leaks the layout of the files behind a table"),
    ("input_file_block_length", "leaks the layout of the files behind a table"),
    ("reflect", "calls any Java method through reflection"),
    ("java_method", "calls any Java method through reflection"),
    ("try_reflect", "calls any Java method through reflection"),
    ("current_user", "reads the session's identity"),
    ("session_user", "reads the session's identity"),
    ("user", "reads the session's identity"),
    ("spark_partition_id", "depends on the engine's partitioning (not deterministic)"),
    ("monotonically_increasing_id", "depends on the engine's partitioning (not deterministic)"),
    ("rand", "is not deterministic"),
    ("randn", "is not deterministic"),
    ("random", "is not deterministic"),
    ("uniform", "is not deterministic"),
    ("randstr", "is not deterministic"),
    ("shuffle", "is not deterministic"),
    ("uuid", "is not deterministic"),
    ("assert_true", "raises on purpose (an error channel)"),
    ("raise_error", "raises on purpose (an error channel)"),
    ("java_version", "reads the engine's environment"),
    ("version", "reads the engine's environment"),
    ("current_catalog", "reads the session's settings"),
    ("secret", "reads a secret"),
    ("url_decode", "parses URLs (not needed by analytics)"),
    ("parse_url", "parses URLs (not needed by analytics)"),
    ("xpath", "parses XML with a full XML parser"),
    ("from_xml", "parses XML with a full XML parser"),
    ("http_request", "reaches the network"),
    ("ai_query", "calls a model endpoint"),
    ("read_kafka", "reads an external stream"),
    ("read_pubsub", "reads an external stream"),
    ("cloud_files_state", "reads file ingestion state"),
    ("sql_keywords", "reads the engine's metadata"),
]
SPARK_REFUSED_FUNCTIONS: dict[str, str] = dict(_REFUSED)

# Formats whose name before a backquoted path reads files: parquet.`/data/x`.
SPARK_FILE_FORMATS: frozenset[str] = frozenset(
    "parquet csv json orc text avro delta binaryfile iceberg hudi jdbc xml image".split()
)

# Statements by their leading words, refused with the reason (all are outside the allowlist).
SPARK_REFUSED_STATEMENTS: dict[str, str] = {
    "add jar": "loads code into the engine",
    "add file": "ships a file to the engine",
    "add archive": "ships an archive to the engine",
    "list": "lists the engine's files and jars",
    "set": "changes the session's settings",
    "reset": "changes the session's settings",
    "cache": "caches a table (engine state)",
    "uncache": "drops a cached table (engine state)",
    "clear cache": "drops every cached table (engine state)",
    "refresh": "changes cached metadata (engine state)",
    "create temporary": "creates a temporary view or function",
    "create or replace temporary": "creates a temporary view or function",
    "create function": "creates a function",
    "create or replace function": "creates a function",
    "create temporary function": "creates a function",
    "create table": "creates a table",
    "create or replace table": "creates a table",
    "create view": "creates a view",
    "create or replace view": "creates a view",
    "create": "creates an object",
    "insert": "writes rows",
    "merge": "writes rows",
    "update": "writes rows",
    "delete": "writes rows",
    "truncate": "writes rows",
    "copy into": "writes rows from files",
    "load data": "writes rows from files",
    "drop": "drops an object",
    "alter": "changes an object",
    "optimize": "rewrites a table's files",
    "vacuum": "deletes a table's files",
    "msck": "changes a table's partitions",
    "analyze": "writes table statistics",
    "use": "changes the session's current database",
    "grant": "changes permissions",
    "revoke": "changes permissions",
    "restore": "rewrites a table to an old version",
    "fsck": "changes a table's metadata",
    "convert to delta": "rewrites files as a table",
    "describe": "reads metadata outside the query allowlist",
    "show": "reads metadata outside the query allowlist",
    "explain": "plain EXPLAIN is not offered for Spark",
}

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
        c.alias_or_name.lower(): _query_columns(c.this, c.args.get("alias"))
        for c in tree.find_all(exp.CTE)
    }
    for select in tree.find_all(exp.Select):
        found.extend(_disconnected(select, catalog, cte_columns))
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


def _query_columns(query: Any, alias: Any) -> set[str]:
    if isinstance(alias, exp.TableAlias) and alias.columns:
        return {c.name.lower() for c in alias.columns}
    if isinstance(query, exp.Query):
        return {name.lower() for name in query.named_selects}
    return set()


def _source_names(select: exp.Select) -> list[str]:
    sources = []
    from_ = select.args.get("from") or select.args.get("from_")
    items = [from_.this] if from_ is not None else []
    items += [j.this for j in select.args.get("joins") or []]
    for item in items:
        sources.append(item.alias_or_name.lower())
    return sources


def _disconnected(
    select: exp.Select, catalog: Catalog | None, cte_columns: dict[str, set[str]]
) -> list[Violation]:
    """Refuse comma joins whose tables no equality in ON or WHERE connects (a cross join)."""
    joins = select.args.get("joins") or []
    if not joins:
        return []
    sources = _source_names(select)
    owner = _owners(select, catalog, cte_columns)
    parent = {s: s for s in sources}

    def find(x: str) -> str:
        while parent[x] != x:
            x = parent[x]
        return x

    conditions = [j.args.get("on") for j in joins] + [select.args.get("where")]
    for join in joins:
        if join.args.get("using"):
            parent[find(join.this.alias_or_name.lower())] = find(sources[0])
    for condition in conditions:
        if condition is None:
            continue
        for eq in condition.find_all(exp.EQ):
            left, right = eq.this, eq.expression
            if not (isinstance(left, exp.Column) and isinstance(right, exp.Column)):
                continue
            a, b = owner(left), owner(right)
            if a in parent and b in parent:
                parent[find(a)] = find(b)
    for single in _one_row_sources(select):
        parent[find(single)] = find(sources[0])  # a one-row aggregate multiplies nothing
    roots = {find(s) for s in sources}
    if len(roots) > 1:
        return [
            Violation(
                "guard.cross_join",
                f"Tables {', '.join(sorted(sources))} are joined without a key equality "
                "connecting them all (a cross join); join on keys.",
            )
        ]
    return []


def _one_row_sources(select: exp.Select) -> list[str]:
    from_ = select.args.get("from") or select.args.get("from_")
    items = [from_.this] if from_ is not None else []
    items += [j.this for j in select.args.get("joins") or []]
    found = []
    for item in items:
        query = item.this if isinstance(item, exp.Subquery) else None
        if (
            isinstance(query, exp.Select)
            and not query.args.get("group")
            and query.expressions
            and all(isinstance(e.unalias(), exp.AggFunc) for e in query.expressions)
        ):
            found.append(item.alias_or_name.lower())
    return found


def _owners(
    select: exp.Select, catalog: Catalog | None, cte_columns: dict[str, set[str]]
) -> Callable[[exp.Column], str | None]:
    from_ = select.args.get("from") or select.args.get("from_")
    items = [from_.this] if from_ is not None else []
    items += [j.this for j in select.args.get("joins") or []]
    columns_of: dict[str, set[str]] = {}
    for item in items:
        alias = item.alias_or_name.lower()
        cols: set[str] = set()
        if isinstance(item, exp.Table) and not item.db and item.name.lower() in cte_columns:
            cols = cte_columns[item.name.lower()]
        elif isinstance(item, exp.Table) and catalog is not None:
            info = catalog.table(item.name)
            cols = {c.name.lower() for c in info.columns} if info else set()
        elif isinstance(item, exp.Subquery):
            cols = _query_columns(item.this, item.args.get("alias"))
        columns_of[alias] = cols

    def owner(column: exp.Column) -> str | None:
        if column.table:
            return column.table.lower()
        holders = [a for a, cols in columns_of.items() if column.name.lower() in cols]
        return holders[0] if len(holders) == 1 else None

    return owner
