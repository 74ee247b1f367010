"""The guard's lists, kept as data: node types, functions per dialect, and functions refused.

Everything not listed is refused (fail closed). A typed sqlglot function is allowed by its class
name; a function sqlglot does not know (``exp.Anonymous``) by its lower-case name for the
dialect. The refused list exists only to give a precise reason; it is not what keeps anything
out.
"""

from __future__ import annotations

__all__ = [
    "ALLOWED_ANONYMOUS",
    "ALLOWED_CATALOGUE_VIEWS",
    "ALLOWED_FUNCTION_TYPES",
    "ALLOWED_NODE_TYPES",
    "BOUNDED_FUNCTIONS",
    "CATALOGUE_FUNCTIONS",
    "CATALOGUE_PREFIXES",
    "CATALOGUE_SCHEMAS",
    "DEFAULT_SCHEMAS",
    "REFUSED_FUNCTIONS",
]

# Structural nodes a read-only query may contain. No Command, Into, Lock, DML, DDL, Set, Pragma,
# Copy, Attach, Install, Placeholder, Parameter or SessionParameter.
ALLOWED_NODE_TYPES: frozenset[str] = frozenset(
    """
    Select Union Intersect Except Values Tuple From Join Where Group Having Order Ordered Limit
    Offset Fetch Qualify Window WindowSpec With CTE Subquery Table TableAlias Alias Column
    Identifier Star Literal Null Boolean Var Paren Add Sub Mul Div IntDiv Mod Neg Not And Or Xor
    EQ NEQ GT GTE LT LTE NullSafeEQ NullSafeNEQ Is In Between Like ILike Glob SimilarTo Case If
    Cast TryCast DataType DataTypeParam Interval Extract Exists Any All Distinct Bracket Dot
    Filter WithinGroup Rollup Cube GroupingSets Lateral Unnest DPipe BitwiseAnd BitwiseOr
    BitwiseXor BitwiseNot BitwiseLeftShift BitwiseRightShift Escape Collate Slice Kwarg
    PropertyEQ Array Struct Pow ColumnDef Sort Cluster Distribute LikeAny ILikeAny
    RegexpILike IgnoreNulls RespectNulls CurrentDate CurrentTimestamp CurrentTime
    Comprehension Lambda AtTimeZone LimitOptions TableSample Pivot PivotAlias Columns
    JSONPath JSONPathRoot JSONPathKey JSONPathSubscript JSONPathWildcard JSONPathSlice
    JSONPathUnion JSONPathSelector JSONPathFilter JSONPathRecursive JSONPathScript
    Describe Summarize
    """.split()
)

# Typed sqlglot functions that compute a value from their arguments and touch nothing else.
ALLOWED_FUNCTION_TYPES: frozenset[str] = frozenset(
    """
    Abs Avg Count CountIf Sum Min Max Round Floor Ceil Coalesce Nullif Greatest Least Lower Upper
    Length Substring Trim Replace Concat ConcatWs StrPosition Left Right Pad Repeat Initcap
    Reverse Split SplitPart RegexpLike RegexpReplace RegexpExtract RegexpSplit StartsWith EndsWith
    Contains Extract DateTrunc TimestampTrunc TimeTrunc DateDiff DatetimeDiff TimestampDiff
    DateAdd DateSub DatetimeAdd DatetimeSub TimestampAdd TimestampSub TsOrDsAdd TsOrDsDiff
    TsOrDsToDate TsOrDsToTimestamp TsOrDsToTime StrToDate StrToTime StrToUnix TimeToStr
    TimeStrToTime TimeStrToDate TimeToUnix UnixToTime UnixToStr TimeToTimeStr DateToDateStr
    DateStrToDate DiToDate DateToDi Date DateFromParts TimestampFromParts Year Quarter Month Week
    WeekOfYear Day DayOfWeek DayOfWeekIso DayOfMonth DayOfYear Hour Minute Second LastDay
    CurrentDate CurrentTimestamp CurrentTime CurrentDatetime Stddev StddevSamp StddevPop Variance
    VariancePop Median Quantile ApproxQuantile PercentileCont PercentileDisc Corr CovarPop
    CovarSamp GroupConcat ArrayAgg ArrayConcat ArraySize ArrayContains ArrayFilter LogicalAnd
    LogicalOr AnyValue First Last FirstValue LastValue NthValue ApproxDistinct RowNumber Rank
    DenseRank PercentRank CumeDist Ntile Lag Lead Sqrt Cbrt Pow Exp Ln Log Log2 Log10 Sign Mod
    Trunc If Case Cast TryCast Grouping Typeof Chr Ascii Hex Unhex MD5 SHA SHA2 Unicode Mode
    Explode Array Struct ToChar ToNumber Div SafeDivide Bracket StrToMap ParseJSON JSONExtract
    JSONExtractScalar Lower Upper Levenshtein Space Stuff Encode Decode Translate IsNan IsInf
    Radians Degrees Pi Sin Cos Tan Asin Acos Atan Atan2 BitLength Overlay Substr Left Right
    GenerateSeries ExplodingGenerateSeries Unnest Abs Count Cot Sinh Cosh Tanh Factorial
    DateFormat DateToString StrToDate Ceil
    Transform ArrayFilter StructExtract ArgMax ArgMin Format WidthBucket Columns ArrayDistinct
    ArraySort ArrayReverse ArraySlice ArrayFirst ArrayLast ArrayMin ArrayMax ArraySum ArrayAll
    ArrayAny ArrayUniqueAgg JSONBExtract JSONBExtractScalar JSONArrayLength JSONFormat
    JSONObject JSONArray JSONType JSONExists JSONValueArray ToDays ToMonths ToYears
    MakeInterval GenerateDateArray Reduce Filter MapFromEntries Map VarMap Coalesce
    Dayname Monthname Datetime Time Flatten JSONKeys JustifyDays JustifyHours Kurtosis MapKeys
    Skewness
    """.split()
)
# The last two lines: names allowed below that sqlglot 30 parses as typed functions
# (``dayname(d_date)`` is ``exp.Dayname``): refused as unknown before (agreed20).

_COMMON_ANONYMOUS = """
    abs round coalesce nullif ifnull lower upper length substr substring trim ltrim rtrim replace
    concat concat_ws instr left right char_length character_length octet_length
    date_part datepart strftime date_trunc now today current_date last_day make_date make_timestamp
    stddev variance var_samp var_pop string_agg median mode bool_and bool_or every any_value
    arbitrary count_if countif regexp_matches regexp_full_match regexp_extract_all contains
    starts_with ends_with prefix suffix split_part str_split string_split list_sort
    epoch epoch_ms isodow isoyear yearweek dayname monthname weekofyear weekday
    round_even floor ceil ceiling sign trunc ln log log10 log2 exp sqrt power pow mod
    greatest least nanvl typeof age julianday date time datetime unixepoch total char hex
    unicode quote likely unlikely iif printf format lpad rpad repeat
    to_char to_date to_timestamp to_number date_diff datediff date_add date_sub
    generate_series range unnest list array_length cardinality list_value struct_pack
    fsum sumkahan favg product kurtosis skewness entropy arg_max arg_min argmax argmin
    max_by min_by approx_count_distinct approx_quantile quantile quantile_cont quantile_disc
    reservoir_quantile histogram list_aggregate array_to_string strpos position
    initcap reverse md5 sha256 hash levenshtein jaccard jaro_winkler_similarity damerau_levenshtein
    gcd lcm cot degrees radians pi sin cos tan asin acos atan atan2 bit_length bit_count
    isnan isinf isfinite century decade millennium era justify_days justify_hours date_bin
    extract dayofmonth dayofweek dayofyear hour minute second millisecond microsecond quarter
    week year month day yearweek timezone strptime try_strptime try_cast row_number
    nullifzero
    list_sum list_avg list_min list_max list_count list_reduce list_apply list_transform
    list_filter list_distinct list_unique list_has list_contains list_position list_slice
    list_extract list_element list_reverse list_concat list_zip list_has_any list_has_all
    array_transform array_filter array_reduce flatten struct_extract struct_insert map_extract
    element_at map_keys map_values map_entries cardinality list_grade_up array_distinct
    json_extract json_extract_string json_extract_path json_extract_path_text json_type
    json_valid json_array_length json_object json_array json_keys json_quote json
    jsonb_extract_path jsonb_extract_path_text to_json row_to_json width_bucket
    arg_max_null arg_min_null first last fsum list_value list_pack
"""

# Functions sqlglot keeps anonymous, allowed by name per dialect.
ALLOWED_ANONYMOUS: dict[str, frozenset[str]] = {
    "duckdb": frozenset(_COMMON_ANONYMOUS.split()),
    "sqlite": frozenset([*_COMMON_ANONYMOUS.split(), "pragma_table_info"]),
    "postgres": frozenset([*_COMMON_ANONYMOUS.split(), "array_agg", "percentile_cont"]),
}

# Functions that can allocate without bound: argument positions that must be literals under a cap.
# name -> (argument index holding the size, largest size allowed)
BOUNDED_FUNCTIONS: dict[str, tuple[int, int]] = {
    "repeat": (1, 10_000),
    "lpad": (1, 10_000),
    "rpad": (1, 10_000),
    "pad": (1, 10_000),
}

# Table-valued functions that read the engine's catalogue; refused with that reason (the
# allowlist keeps out every function not listed anyway). ``pragma_table_info`` is allowed on
# SQLite (see ALLOWED_ANONYMOUS): it describes one table's columns.
CATALOGUE_FUNCTIONS: frozenset[str] = frozenset(
    """
    duckdb_settings duckdb_databases duckdb_logs duckdb_log_contexts duckdb_secrets
    duckdb_extensions duckdb_functions duckdb_views duckdb_tables duckdb_columns
    duckdb_schemas duckdb_indexes duckdb_constraints duckdb_dependencies duckdb_keywords
    duckdb_memory duckdb_temporary_files duckdb_types duckdb_sequences duckdb_optimizers
    duckdb_variables duckdb_prepared_statements duckdb_approx_database_count
    duckdb_external_file_cache pragma_database_list pragma_database_size pragma_storage_info
    pragma_metadata_info pragma_version pragma_platform pragma_user_agent pragma_collations
    pragma_show pg_stat_activity pg_get_functiondef pg_get_viewdef pg_get_userbyid
    pg_ls_dir pg_stat_get_activity pg_backend_pid pg_postmaster_start_time pg_conf_load_time
    current_user session_user current_database current_schema current_schemas
    inet_server_addr inet_server_port inet_client_addr version pg_current_xact_id
    pg_current_snapshot txid_current_snapshot pg_get_keywords pg_settings_get_flags
    pg_table_size pg_relation_size pg_total_relation_size pg_database_size
    """.split()
)

# Refused with a named reason; the allowlist already keeps them out.
REFUSED_FUNCTIONS: dict[str, str] = {
    **{
        name: "reads files"
        for name in (
            "read_csv read_csv_auto read_parquet parquet_scan read_json read_json_auto "
            "read_json_objects read_ndjson read_ndjson_auto read_ndjson_objects read_text "
            "read_blob glob sniff_csv parquet_metadata parquet_schema parquet_file_metadata "
            "parquet_kv_metadata iceberg_scan delta_scan read_xlsx st_read readfile "
            "pg_read_file pg_read_binary_file pg_ls_dir pg_stat_file pg_ls_logdir "
            "pg_ls_waldir lo_import lo_get lo_open loread"
        ).split()
    },
    **{
        name: "writes files or large objects"
        for name in "writefile lo_export lo_create lo_unlink lo_put lowrite lo_from_bytea".split()
    },
    **{
        name: "reaches another database or the network"
        for name in (
            "dblink dblink_exec dblink_connect dblink_send_query postgres_scan sqlite_scan "
            "mysql_scan postgres_query http_get http_post"
        ).split()
    },
    **{name: "reads the engine's catalogue or server state" for name in CATALOGUE_FUNCTIONS},
    **{
        name: "reads the environment or the session's settings"
        for name in "getenv current_setting getvariable pg_settings".split()
    },
    **{
        name: "changes the session or its settings"
        for name in "set_config setseed pg_reload_conf pg_rotate_logfile".split()
    },
    **{
        name: "takes locks or sleeps"
        for name in (
            "pg_sleep pg_sleep_for pg_sleep_until pg_advisory_lock pg_advisory_xact_lock "
            "pg_try_advisory_lock pg_try_advisory_xact_lock pg_advisory_lock_shared "
            "pg_advisory_unlock pg_advisory_unlock_all sleep sleep_ms"
        ).split()
    },
    **{
        name: "changes sequences or server state"
        for name in (
            "nextval setval currval pg_terminate_backend pg_cancel_backend txid_current"
        ).split()
    },
    **{
        name: "runs a query given as text"
        for name in "query query_table query_to_xml table_to_xml cursor_to_xml".split()
    },
    "load_extension": "loads native code",
    "random": "is not deterministic",
    "rand": "is not deterministic",
    "uuid": "is not deterministic",
    "gen_random_uuid": "is not deterministic",
}

# Schemas that hold the engine's own catalogue views (read-only metadata, not user tables).
CATALOGUE_SCHEMAS: dict[str, frozenset[str]] = {
    "duckdb": frozenset({"information_schema", "pg_catalog"}),
    "sqlite": frozenset(),
    "postgres": frozenset({"information_schema", "pg_catalog", "pg_toast"}),
}

# Unqualified names with these prefixes are the engine's catalogue views (unless, outside
# PostgreSQL, the database has a table of that name: pg_catalog is searched first there).
CATALOGUE_PREFIXES: dict[str, tuple[str, ...]] = {
    "duckdb": ("duckdb_", "pg_", "sqlite_", "pragma_"),
    "sqlite": ("sqlite_", "pragma_"),
    "postgres": ("pg_",),
}

# The catalogue views a question may legitimately read: the schema of the tables the user
# may query, and nothing about the server, its sessions, roles, settings, logs, view sources or
# other databases. ``schema.view`` for a qualified view, a bare name for an unqualified one.
# On PostgreSQL ``information_schema`` lists the columns of the relations the connected role
# holds a privilege on (the ``assay pg-role`` role: its SELECT tables; ``tables`` also names
# the system catalogues every role may read, which are public knowledge); DuckDB and SQLite
# open one database file read-only, so their tables and columns views list the user's tables
# only. ``information_schema.views`` is refused: on both engines it holds the system views'
# definitions.
ALLOWED_CATALOGUE_VIEWS: dict[str, frozenset[str]] = {
    "duckdb": frozenset({"information_schema.tables", "information_schema.columns"}),
    "sqlite": frozenset({"sqlite_master", "sqlite_schema"}),
    "postgres": frozenset({"information_schema.tables", "information_schema.columns"}),
}

# Schema qualifiers that name the user's own default schema.
DEFAULT_SCHEMAS: dict[str, frozenset[str]] = {
    "duckdb": frozenset({"main"}),
    "sqlite": frozenset({"main"}),
    "postgres": frozenset({"public"}),
}
