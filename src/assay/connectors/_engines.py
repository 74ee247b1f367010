"""Engine sessions, run inside a worker process: open read-only, execute one query, introspect.

Each ``run`` gets a fresh connection (for DuckDB a cursor: a new connection on the same open
database instance), so nothing one query leaves behind (a TEMP object, a variable, a prepared
statement, a lock) reaches the next. The parent logs each query before sending it to the worker;
every other statement a session sends (settings, introspection) is returned in ``sent`` so the
parent's statement log is complete.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass
from typing import Any, Protocol

from assay.catalog import Catalog, ColumnInfo, ForeignKey, TableInfo
from assay.settings import DEFAULTS

__all__ = ["CellTooLarge", "EngineSession", "EngineSpec", "open_session", "value_size"]


@dataclass(frozen=True)
class EngineSpec:
    """How a worker opens its engine (picklable: it crosses the process boundary)."""

    kind: str  # duckdb | sqlite | postgres
    target: str  # a file path or an SQLAlchemy URL
    memory_limit_mb: int = DEFAULTS.memory_limit_mb
    threads: int = 2
    max_result_bytes: int = 64_000_000
    max_cell_bytes: int = 8_000_000
    temp_limit_mb: int = 512
    # DuckDB's spill folder, made (and removed) by the parent that starts the worker, so a
    # killed worker leaves nothing behind; empty: the session makes its own.
    temp_directory: str = ""


class EngineSession(Protocol):
    sent: list[str]

    def run(self, sql: str, max_rows: int, time_limit_ms: int) -> dict[str, Any]: ...

    def catalog(self) -> Catalog: ...

    def dirty(self) -> bool: ...


# DuckDB settings, applied at open; lock_configuration comes last so none can change after.
DUCKDB_CONFIG: dict[str, Any] = {
    "enable_external_access": False,
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "allow_community_extensions": False,
    "allow_unsigned_extensions": False,
    "allow_persistent_secrets": False,
    "python_enable_replacements": False,
}


# Bytes a value is counted as beyond its own length (the reply's per-value overhead).
VALUE_OVERHEAD_BYTES = 16
_BATCH = 256


def value_size(value: Any) -> int:
    """Bytes one value is counted as against the result and cell caps."""
    if isinstance(value, str):
        return len(value) * (1 if value.isascii() else 4) + VALUE_OVERHEAD_BYTES
    if isinstance(value, (bytes, bytearray, memoryview)):
        return len(value) + VALUE_OVERHEAD_BYTES
    if isinstance(value, (list, tuple)):
        return sum(value_size(v) for v in value) + VALUE_OVERHEAD_BYTES
    if isinstance(value, dict):
        return sum(value_size(k) + value_size(v) for k, v in value.items()) + 16
    return VALUE_OVERHEAD_BYTES + 8


class CellTooLarge(Exception):
    """One value of a result is over the cell cap (the worker reports a resource limit)."""


def _fetch(
    cursor: Any, max_rows: int, spec: EngineSpec | None = None
) -> tuple[list[str], list[tuple[Any, ...]], bool]:
    """At most ``max_rows`` rows and ``spec.max_result_bytes`` bytes; a value over
    ``spec.max_cell_bytes`` fails the query."""
    max_bytes = spec.max_result_bytes if spec is not None else EngineSpec.max_result_bytes
    max_cell = spec.max_cell_bytes if spec is not None else EngineSpec.max_cell_bytes
    columns = [d[0] for d in (cursor.description or [])]
    rows: list[tuple[Any, ...]] = []
    used = 0
    while len(rows) <= max_rows:
        batch = cursor.fetchmany(min(_BATCH, max_rows + 1 - len(rows)))
        if not batch:
            return columns, rows, False
        for raw in batch:
            row = tuple(raw)
            sizes = [value_size(v) for v in row]
            if sizes and max(sizes) > max_cell:
                raise CellTooLarge(
                    f"A value of {max(sizes):,} bytes is over the cell cap of {max_cell:,} bytes."
                )
            used += sum(sizes) + VALUE_OVERHEAD_BYTES
            if used > max_bytes or len(rows) == max_rows:
                return columns, rows, True
            rows.append(row)
    return columns, rows[:max_rows], True


def _payload(
    columns: list[str], rows: list[tuple[Any, ...]], truncated: bool, started: float
) -> dict[str, Any]:
    return {
        "columns": columns,
        "rows": rows,
        "row_count": None if truncated else len(rows),
        "truncated": truncated,
        "elapsed_ms": (time.perf_counter() - started) * 1000.0,
    }


# Instance-wide settings a statement could change past lock_configuration (CALL
# enable_logging does); a changed value retires the worker.
_WATCHED_SETTINGS = (
    "SELECT name, value FROM duckdb_settings() WHERE name IN ('enable_logging', "
    "'enabled_log_types', 'logging_mode', 'logging_level', 'logging_storage', 'temp_directory', "
    "'max_temp_directory_size', 'memory_limit', 'threads') ORDER BY 1"
)


class DuckDBSession:
    """One open read-only DuckDB database; a cursor per query."""

    def __init__(self, spec: EngineSpec):
        import tempfile

        import duckdb

        self.sent: list[str] = []
        self.spec = spec
        config = dict(DUCKDB_CONFIG)
        config["memory_limit"] = f"{spec.memory_limit_mb}MB"
        config["threads"] = spec.threads
        # Spills go to a private folder under the system's temp (never beside the database,
        # DuckDB's default), bounded by temp_limit_mb. A worker is given the folder its parent
        # made and removes (a killed worker cannot clean up); used in-process, the session
        # makes its own, removed with it.
        self._temp: tempfile.TemporaryDirectory[str] | None = None
        folder = spec.temp_directory
        if not folder:
            self._temp = tempfile.TemporaryDirectory(prefix="assay-duckdb-")
            folder = self._temp.name
        config["temp_directory"] = folder
        config["max_temp_directory_size"] = f"{spec.temp_limit_mb}MB"
        self.con = duckdb.connect(spec.target, read_only=True, config=config)
        self._send(self.con, "SET lock_configuration = true")
        self.baseline = self._instance_state()
        self.elsewhere: dict[str, str] = {}  # table (lower case) -> its schema, not main
        self.schemas = self._own_schemas()
        # Each cursor is a new client context, which does not inherit the search path.
        self.search_path = "SET search_path = '" + ",".join(self.schemas) + "'"

    def _own_schemas(self) -> tuple[str, ...]:
        """``main`` and each other schema of this database that holds a table whose name no
        other schema holds: those tables are read by their bare names (a Cortex Analyst
        model's ``base_table`` names its schema). A name two schemas hold is read from
        ``main`` only, or not at all: a bare name must never pick one of two tables."""
        rows = self._send(
            self.con,
            "SELECT schema_name, table_name FROM duckdb_tables() "
            "WHERE database_name = current_database() UNION ALL "
            "SELECT schema_name, view_name FROM duckdb_views() "
            "WHERE database_name = current_database() AND NOT internal",
        ).fetchall()
        holders: dict[str, set[str]] = {}
        for schema, table in rows:
            holders.setdefault(str(table).lower(), set()).add(str(schema))
        self.elsewhere = {
            table: next(iter(owners))
            for table, owners in holders.items()
            if len(owners) == 1
            and "main" not in owners
            and not set(next(iter(owners))) & set(",'\"")  # a name the search path can say
        }
        return ("main", *sorted(set(self.elsewhere.values())))

    def _send(self, con: Any, sql: str) -> Any:
        self.sent.append(sql)
        return con.execute(sql)

    def _instance_state(self) -> list[tuple[Any, ...]]:
        cur = self.con.cursor()
        try:
            state: list[tuple[Any, ...]] = []
            for query in (
                "SELECT database_name, path FROM duckdb_databases() ORDER BY 1",
                "SELECT name FROM duckdb_secrets() ORDER BY 1",
                _WATCHED_SETTINGS,
            ):
                state += [tuple(r) for r in cur.execute(query).fetchall()]
            return state
        finally:
            cur.close()

    def dirty(self) -> bool:
        """Whether instance-wide state changed (an attached database, a secret, logging
        switched on, a limit changed)."""
        return self._instance_state() != self.baseline

    def run(self, sql: str, max_rows: int, time_limit_ms: int) -> dict[str, Any]:
        cursor = self.con.cursor()
        if len(self.schemas) > 1:
            cursor.execute(self.search_path)
        timer = threading.Timer(time_limit_ms / 1000.0, cursor.interrupt)
        started = time.perf_counter()
        timer.start()
        try:
            cursor.execute(sql)  # logged by the parent before it was sent here
            columns, rows, truncated = _fetch(cursor, max_rows, self.spec)
        finally:
            timer.cancel()
            cursor.close()
        return _payload(columns, rows, truncated, started)

    def catalog(self) -> Catalog:
        cursor = self.con.cursor()
        try:
            database = self._send(cursor, "SELECT current_database()").fetchone()[0]
            listed = ", ".join("'" + s.replace("'", "''") + "'" for s in self.schemas)
            rows = self._send(
                cursor,
                "SELECT table_schema, table_name, column_name, data_type "
                "FROM information_schema.columns "
                f"WHERE table_schema IN ({listed}) AND table_catalog = current_database() "
                "ORDER BY table_name, ordinal_position",
            ).fetchall()
            keys = self._send(
                cursor,
                "SELECT table_name, constraint_column_names, referenced_table, "
                "referenced_column_names FROM duckdb_constraints() "
                "WHERE constraint_type = 'FOREIGN KEY' AND database_name = current_database() "
                f"AND schema_name IN ({listed}) ORDER BY table_name, constraint_index",
            ).fetchall()
        finally:
            cursor.close()
        fks = tuple(ForeignKey(t, tuple(c), rt, tuple(rc)) for t, c, rt, rc in keys)
        # A table of main shadows a same-named one elsewhere (_own_schemas lists only
        # schemas whose tables main does not hold, so a name appears under one schema).
        rows = [r for r in rows if r[0] in ("main", self.elsewhere.get(str(r[1]).lower()))]
        where = {str(t): str(s) for s, t, _, _ in rows if s != "main"}
        catalog = _catalog([r[1:] for r in rows], fks, "duckdb", self.schemas, str(database))
        if not where:
            return catalog
        tables = tuple(TableInfo(t.name, t.columns, where.get(t.name, "")) for t in catalog.tables)
        return Catalog(tables, fks, "duckdb", self.schemas, str(database))


def _catalog(
    rows: list[tuple[Any, ...]],
    fks: tuple[ForeignKey, ...],
    dialect: str,
    schemas: tuple[str, ...],
    database: str,
) -> Catalog:
    tables: dict[str, list[ColumnInfo]] = {}
    for table, column, type_ in rows:
        tables.setdefault(str(table), []).append(ColumnInfo(str(column), str(type_)))
    infos = tuple(TableInfo(name, tuple(cols)) for name, cols in sorted(tables.items()))
    return Catalog(infos, fks, dialect, schemas, database)


# SQLite authorizer action codes that a read-only query needs; anything else is denied.
_SQLITE_ALLOWED_ACTIONS = frozenset(
    {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_RECURSIVE}
)
SQLITE_FUNCTIONS = frozenset(
    """
    abs avg count max min sum total group_concat coalesce ifnull iif nullif length lower upper
    substr substring trim ltrim rtrim replace instr round typeof date time datetime julianday
    strftime unixepoch printf format char hex unicode quote like glob cast likely unlikely
    row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value
    nth_value sign mod floor ceil ceiling sqrt power pow exp ln log log10 log2 concat concat_ws
    string_agg json json_extract json_type json_valid json_array_length json_object json_array
    json_quote json_group_array json_group_object -> ->> pragma_table_info
    """.split()
)


# Pragmas a query may read as table-valued functions, with a table name as argument.
SQLITE_READ_PRAGMAS = frozenset({"table_info"})


def _sqlite_authorizer(action: int, arg1: str | None, arg2: str | None, *_: Any) -> int:
    if action in _SQLITE_ALLOWED_ACTIONS:
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower() in SQLITE_FUNCTIONS:
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_PRAGMA and (arg1 or "").lower() in SQLITE_READ_PRAGMAS and arg2:
        return sqlite3.SQLITE_OK  # pragma_table_info('t'): one table's columns, read-only
    if action == sqlite3.SQLITE_UPDATE and arg1 == "sqlite_master":
        # A table-valued pragma declares its virtual table, which SQLite reports as an update
        # of sqlite_master; the file is open read-only with query_only on, so nothing changes.
        return sqlite3.SQLITE_OK
    return sqlite3.SQLITE_DENY


class SQLiteSession:
    """A read-only SQLite file; a new connection per query with limits and an authorizer."""

    def __init__(self, spec: EngineSpec):
        self.sent: list[str] = []
        self.spec = spec
        self._connect().close()  # fail now, in the worker's start, if the file is unusable

    def _connect(self) -> sqlite3.Connection:
        from pathlib import Path

        uri = Path(self.spec.target).resolve().as_uri() + "?mode=ro"
        con = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
        con.text_factory = lambda b: b.decode("utf-8", errors="replace")
        con.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
        con.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, 50_000_000)
        con.setlimit(sqlite3.SQLITE_LIMIT_SQL_LENGTH, 1_000_000)
        con.setlimit(sqlite3.SQLITE_LIMIT_COLUMN, 2_000)
        con.setlimit(sqlite3.SQLITE_LIMIT_EXPR_DEPTH, 1_000)
        con.setlimit(sqlite3.SQLITE_LIMIT_COMPOUND_SELECT, 500)
        con.setlimit(sqlite3.SQLITE_LIMIT_FUNCTION_ARG, 100)
        con.setlimit(sqlite3.SQLITE_LIMIT_TRIGGER_DEPTH, 1)
        con.execute("PRAGMA query_only = ON")
        self.sent.append("PRAGMA query_only = ON")
        return con

    def dirty(self) -> bool:
        return False  # every query had its own connection

    def run(self, sql: str, max_rows: int, time_limit_ms: int) -> dict[str, Any]:
        con = self._connect()
        deadline = time.monotonic() + time_limit_ms / 1000.0
        # The handler runs every 1,000 virtual-machine instructions (about 10 microseconds here),
        # so a deadline is noticed within milliseconds; a single huge function call is not
        # interruptible and is the worker watchdog's job.
        con.set_progress_handler(lambda: int(time.monotonic() > deadline), 1_000)
        con.set_authorizer(_sqlite_authorizer)
        started = time.perf_counter()
        try:
            cursor = con.execute(sql)
            columns, rows, truncated = _fetch(cursor, max_rows, self.spec)
        finally:
            con.close()
        return _payload(columns, rows, truncated, started)

    def catalog(self) -> Catalog:
        con = self._connect()
        try:
            query = (
                "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') "
                "AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
            self.sent.append(query)
            names = [r[0] for r in con.execute(query).fetchall()]
            rows: list[tuple[Any, ...]] = []
            fks: list[ForeignKey] = []
            for name in names:
                info_sql = "SELECT name, type FROM pragma_table_info(?) ORDER BY cid"
                self.sent.append(info_sql)
                for column, type_ in con.execute(info_sql, (name,)).fetchall():
                    rows.append((name, column, type_ or ""))
                fk_sql = (
                    'SELECT "table", "from", "to" FROM pragma_foreign_key_list(?) ORDER BY id, seq'
                )
                self.sent.append(fk_sql)
                for ref_table, col, ref_col in con.execute(fk_sql, (name,)).fetchall():
                    fks.append(ForeignKey(name, (col,), ref_table, (ref_col or "",)))
        finally:
            con.close()
        return _catalog(rows, tuple(fks), "sqlite", ("main",), "main")


class PostgresSession:
    """PostgreSQL through SQLAlchemy and psycopg: a new connection and read-only transaction
    per query, sent through the extended protocol, a server-side cursor for the row cap, always
    rolled back."""

    def __init__(self, spec: EngineSpec):
        from sqlalchemy import create_engine
        from sqlalchemy.pool import NullPool

        self.sent: list[str] = []
        self.spec = spec
        self.engine = create_engine(spec.target, poolclass=NullPool)
        raw = self.engine.raw_connection()
        raw.close()

    def dirty(self) -> bool:
        return False

    def run(self, sql: str, max_rows: int, time_limit_ms: int) -> dict[str, Any]:
        raw = self.engine.raw_connection()
        pg: Any = raw.driver_connection
        started = time.perf_counter()
        try:
            pg.autocommit = False
            pg.read_only = True
            with pg.cursor() as setup:
                timeout_sql = "SELECT set_config('statement_timeout', %s, true)"
                self.sent.append(timeout_sql)
                setup.execute(timeout_sql, (str(int(time_limit_ms)),), prepare=False)
            if sql.lstrip()[:7].upper() == "EXPLAIN":
                # EXPLAIN cannot be declared as a cursor; prepare=True still forces the
                # extended protocol, which refuses a second statement.
                with pg.cursor() as cursor:
                    cursor.execute(sql, prepare=True)
                    columns, rows, truncated = _fetch(cursor, max_rows, self.spec)
            else:
                with pg.cursor(name="assay_query") as cursor:
                    cursor.execute(sql)
                    columns, rows, truncated = _fetch(cursor, max_rows, self.spec)
        finally:
            try:
                pg.rollback()
            finally:
                raw.close()
        return _payload(columns, rows, truncated, started)

    def catalog(self) -> Catalog:
        from sqlalchemy import inspect

        inspector = inspect(self.engine)
        self.sent.append(
            "-- SQLAlchemy inspector: tables, views, columns, foreign keys of 'public'"
        )
        rows: list[tuple[Any, ...]] = []
        fks: list[ForeignKey] = []
        names = inspector.get_table_names(schema="public")
        names += inspector.get_view_names(schema="public")
        for table in sorted(set(names)):
            for column in inspector.get_columns(table, schema="public"):
                rows.append((table, column["name"], str(column["type"])))
            for fk in inspector.get_foreign_keys(table, schema="public"):
                fks.append(
                    ForeignKey(
                        table,
                        tuple(fk["constrained_columns"]),
                        fk["referred_table"],
                        tuple(fk["referred_columns"]),
                    )
                )
        database = self.engine.url.database or ""
        return _catalog(rows, tuple(fks), "postgres", ("public",), database)


def open_session(spec: EngineSpec) -> EngineSession:
    if spec.kind == "duckdb":
        return DuckDBSession(spec)
    if spec.kind == "sqlite":
        return SQLiteSession(spec)
    return PostgresSession(spec)
