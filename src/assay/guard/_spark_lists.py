"""The Spark guard's lists, kept as data: Spark's additions to the allowlists, and Spark's
dangers, each with the reason a refusal names.

As for every dialect, what keeps a statement out is that it is not on an allowlist; the refused
lists only make the reason precise.
"""

from __future__ import annotations

__all__ = [
    "SPARK_ALLOWED_ANONYMOUS",
    "SPARK_BOUNDED_FUNCTIONS",
    "SPARK_EXTRA_FUNCTION_TYPES",
    "SPARK_EXTRA_NODE_TYPES",
    "SPARK_FILE_FORMATS",
    "SPARK_FORMAT_FUNCTIONS",
    "SPARK_MAX_FORMAT_WIDTH",
    "SPARK_REFUSED_FUNCTIONS",
    "SPARK_REFUSED_STATEMENTS",
    "SPARK_SEQUENCE_MAX",
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
