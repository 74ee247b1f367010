"""Spark through Spark Connect (``sc://host:port``), and Databricks SQL (``databricks://``).

Spark runs out of process already, so a connector needs no worker of its own: each request opens
a fresh Spark Connect session (its temporary views, settings and functions die with it), runs the
statement on a client thread under a tag, and at the time limit asks the server to interrupt the
tag (the query is cancelled in the engine), then releases the session. A client thread that does
not come back within the grace period is abandoned with its channel closed, so a dead server
never hangs the caller.

Spark has no read-only session. The second wall here is structural: the statement is sent only
inside ``SELECT * FROM (<statement>)``, which Spark's parser accepts only for a query, so a
command (``INSERT``, ``SET``, ``CREATE``, ``ADD JAR``, ``CACHE``) fails to parse instead of
running; the grants of docs/spark.md are the third. The row cap is a ``LIMIT max_rows + 1`` on
the plan, so the engine never produces more rows than that.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
import uuid
from decimal import Decimal
from typing import Any
from urllib.parse import urlsplit

from assay.catalog import Catalog, ColumnInfo, ForeignKey, TableInfo
from assay.connectors._connector import LogsStatements, StatementLog
from assay.connectors._spark_errors import classify_spark, spark_errors
from assay.errors import (
    ConnectionFailed,
    ExecutionError,
    ExecutionFailed,
    ExecutionTimeout,
    ResourceLimit,
)
from assay.settings import DEFAULTS
from assay.types import Result

__all__ = [
    "EXECUTION_ERRORS",
    "SPARK_GRACE_S",
    "SparkConnector",
    "close_channel",
    "connect_spark",
    "is_spark_target",
]

# After the interrupt, how long the client thread may take to come back before it is abandoned.
SPARK_GRACE_S = 2.0
# How long opening a session and a probe may take before the server counts as unreachable.
CONNECT_TIMEOUT_S = 20.0
# Values a result may hold; anything else (a variant, a geometry) is a named error.
_KNOWN_VALUES = (
    bool,
    int,
    float,
    str,
    Decimal,
    dt.date,
    dt.datetime,
    dt.timedelta,
    bytes,
    bytearray,
    type(None),
)
EXECUTION_ERRORS: dict[str, type[ExecutionError]] = {
    c.code: c for c in (ExecutionFailed, ExecutionTimeout, ConnectionFailed, ResourceLimit)
}
_WRAPPED = "SELECT * FROM (\n{sql}\n) AS assay_query"


def is_spark_target(target: str) -> bool:
    """Whether ``--db`` names a Spark Connect or Databricks warehouse.

    Example:
        >>> is_spark_target("sc://localhost:15002"), is_spark_target("tpch.duckdb")
        (True, False)
    """
    return target.split("://", 1)[0].lower() in {"sc", "databricks"} and "://" in target


def _quiet_pyspark() -> None:
    # The client logs every server error (with the JVM stack) before raising it; Assay reports
    # the raised error itself.
    for name in ("pyspark", "pyspark.sql.connect", "py4j", "SQLQueryContextLogger"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


class SparkConnector(LogsStatements):
    """A read-only ``Connector`` over Spark Connect: a fresh session per request."""

    dialect = "spark"

    def __init__(
        self,
        url: str,
        *,
        n_workers: int = DEFAULTS.n_workers,
        log_limit: int = DEFAULTS.statement_log_limit,
    ):
        try:
            from pyspark.sql.connect.session import SparkSession  # noqa: F401
        except ImportError as exc:
            raise ConnectionFailed(
                "Spark needs the pyspark client (with pandas, pyarrow and grpcio), which is "
                f"not installed ({exc.name}).",
                hint="Install it with: pip install 'assay[spark]'.",
            ) from exc
        _quiet_pyspark()
        self.url = url
        self._tables = [spark_errors()]
        self._log = StatementLog(log_limit)
        self._slots = threading.Semaphore(max(1, n_workers))
        self._catalog: Catalog | None = None
        self._closed = False
        self._run("SELECT 1", purpose="setup", time_limit_ms=int(CONNECT_TIMEOUT_S * 1000))

    # -- the statement log (bounded, as PooledConnector's) -----------------------------------

    def _record(self, sql: str, purpose: str) -> None:
        self._log.record([sql], purpose)

    # -- sessions ----------------------------------------------------------------------------

    def _session(self) -> Any:
        from pyspark.sql.connect.client.retries import DefaultPolicy
        from pyspark.sql.connect.session import SparkSession

        session = SparkSession.builder.remote(self.url).create()
        # The default policy retries an unreachable server for ten minutes; a few tries here.
        session.client.set_retry_policies(
            [DefaultPolicy(max_retries=3, initial_backoff=100, max_backoff=1000)]
        )
        return session

    def _error(self, exc: BaseException) -> ExecutionError:
        code = classify_spark(exc, self._tables)
        text = str(exc).strip().splitlines()
        message = (text[0] if text else type(exc).__name__)[:500]
        if code == ConnectionFailed.code:
            return ConnectionFailed(
                f"Spark Connect at {self.url!r} cannot be reached or dropped the session: "
                f"{message}",
                hint="Check that the server is running (scripts/spark start) and the URL's "
                "host and port.",
            )
        if code == ExecutionTimeout.code:
            return ExecutionTimeout(
                f"Spark cancelled the query: {message}",
                hint="Raise it with --time-limit-ms or ASSAY_TIME_LIMIT_MS, or simplify the query.",
            )
        return EXECUTION_ERRORS.get(code, ExecutionFailed)(
            f"Spark refused the statement: {message}", hint="Fix the query and try again."
        )

    def _run(
        self,
        sql: str,
        *,
        purpose: str,
        time_limit_ms: int,
        max_rows: int = 1,
        wrap: bool = True,
        analyse_only: bool = False,
    ) -> Result:
        """Send one statement in a fresh session, on a client thread, under the time limit."""
        if self._closed:
            raise ConnectionFailed("This connector is closed.", hint="Open a new connector.")
        self._record(sql, purpose)
        text = _WRAPPED.format(sql=sql) if wrap else sql
        box: dict[str, Any] = {}
        done = threading.Event()
        tag = f"assay-{uuid.uuid4().hex}"
        started = time.perf_counter()

        def work() -> None:
            try:
                box["session"] = session = self._session()
                session.addTag(tag)
                if analyse_only:
                    box["columns"] = ["schema"]
                    box["rows"] = [(session.sql(text).schema.simpleString(),)]
                    return
                frame = session.sql(text).limit(max_rows + 1)
                box["columns"] = list(frame.columns)
                box["rows"] = [tuple(row) for row in frame.collect()]
            except BaseException as exc:  # handed to the caller's thread
                box["error"] = exc
            finally:
                done.set()

        with self._slots:
            worker = threading.Thread(target=work, name="assay-spark", daemon=True)
            worker.start()
            finished = done.wait(time_limit_ms / 1000.0)
            if not finished:
                self._interrupt(box.get("session"), tag)
                done.wait(SPARK_GRACE_S)
            self._release(box.get("session"), abandon=not done.is_set())
        if not finished:
            raise ExecutionTimeout(
                f"Query exceeded the time limit of {time_limit_ms} ms and was cancelled in "
                f"Spark after {time.perf_counter() - started:.1f} s.",
                hint="Raise it with --time-limit-ms or ASSAY_TIME_LIMIT_MS, or simplify the query.",
            )
        if "error" in box:
            raise self._error(box["error"]) from None
        rows: list[tuple[Any, ...]] = box["rows"]
        _check_values(rows)
        truncated = len(rows) > max_rows
        return Result(
            columns=tuple(box["columns"]),
            rows=tuple(rows[:max_rows]),
            row_count=None if truncated else len(rows),
            truncated=truncated,
            elapsed_ms=(time.perf_counter() - started) * 1000.0,
        )

    def _interrupt(self, session: Any, tag: str) -> None:
        if session is None:
            return
        self._record(f"-- interrupt operations tagged {tag}", "setup")
        stopper = threading.Thread(target=_quietly, args=(session.interruptTag, tag), daemon=True)
        stopper.start()
        stopper.join(SPARK_GRACE_S)

    def _release(self, session: Any, *, abandon: bool) -> None:
        if session is None:
            return
        if not abandon:  # a stuck client thread: do not wait on the server again
            releaser = threading.Thread(
                target=_quietly, args=(session.client.release_session,), daemon=True
            )
            releaser.start()
            releaser.join(SPARK_GRACE_S)
        close_channel(session)

    # -- the Connector protocol --------------------------------------------------------------

    def execute(
        self,
        sql: str,
        *,
        time_limit_ms: int = DEFAULTS.time_limit_ms,
        max_rows: int = DEFAULTS.max_rows,
    ) -> Result:
        """Run one query; at most ``max_rows`` rows come back (``max_rows + 1`` are computed).

        Raises:
            ExecutionTimeout: past ``time_limit_ms`` (cancelled in Spark, the session released).
            ConnectionFailed: the server cannot be reached or died.
            ExecutionFailed: Spark refused the statement (a command is refused by its parser).
        """
        return self._run(sql, purpose="query", time_limit_ms=time_limit_ms, max_rows=max_rows)

    def plan(self, sql: str, *, time_limit_ms: int = 30_000) -> str:
        """Ask Spark to parse and analyse a query without running it; return its schema.

        The query goes inside ``SELECT * FROM (...)`` (a command does not parse there) and only
        its schema is requested (an analysis request: no job runs).

        Raises:
            ExecutionFailed: Spark's parser or analyser refuses the query.
        """
        result = self._run(sql, purpose="plan", time_limit_ms=time_limit_ms, analyse_only=True)
        return str(result.rows[0][0])

    def catalog(self) -> Catalog:
        """Tables and columns of the current database; declared foreign keys where the catalog
        keeps them (Unity Catalog's information_schema; plain Spark declares none)."""
        if self._catalog is None:
            limit = 60_000
            tables = self._run(
                "SHOW TABLES", purpose="catalog", time_limit_ms=limit, max_rows=10_000, wrap=False
            )
            database = self._run(
                "SELECT current_database()", purpose="catalog", time_limit_ms=limit
            ).rows[0][0]
            infos: list[TableInfo] = []
            names = sorted(str(r[1]) for r in tables.rows if not r[2])  # skip temporary views
            for name in names:
                quoted = "`" + name.replace("`", "``") + "`"
                described = self._run(
                    f"DESCRIBE TABLE {quoted}",
                    purpose="catalog",
                    time_limit_ms=limit,
                    max_rows=10_000,
                    wrap=False,
                )
                columns: list[ColumnInfo] = []
                for col_name, col_type, *_ in described.rows:
                    if not col_name or str(col_name).startswith("#"):
                        break  # partition and detail sections follow the columns
                    columns.append(ColumnInfo(str(col_name), str(col_type)))
                infos.append(TableInfo(name, tuple(columns)))
            self._catalog = Catalog(
                tuple(infos), self._foreign_keys(), "spark", (str(database),), str(database)
            )
        return self._catalog

    def _foreign_keys(self) -> tuple[ForeignKey, ...]:
        sql = (
            "SELECT kc.table_name, kc.column_name, rk.table_name, rk.column_name "
            "FROM information_schema.referential_constraints rc "
            "JOIN information_schema.key_column_usage kc "
            "ON kc.constraint_name = rc.constraint_name "
            "JOIN information_schema.key_column_usage rk "
            "ON rk.constraint_name = rc.unique_constraint_name "
            "AND rk.ordinal_position = kc.ordinal_position "
            "WHERE kc.table_schema = current_database() ORDER BY 1, kc.ordinal_position"
        )
        try:
            found = self._run(sql, purpose="catalog", time_limit_ms=60_000, max_rows=100_000)
        except ExecutionFailed:
            return ()  # plain Spark has no information_schema and no declared keys
        keys: dict[tuple[str, str], tuple[list[str], list[str]]] = {}
        for table, column, ref_table, ref_column in found.rows:
            cols, refs = keys.setdefault((str(table), str(ref_table)), ([], []))
            cols.append(str(column))
            refs.append(str(ref_column))
        return tuple(
            ForeignKey(t, tuple(c), rt, tuple(rc)) for (t, rt), (c, rc) in sorted(keys.items())
        )

    def close(self) -> None:
        self._closed = True

    def __enter__(self) -> SparkConnector:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def close_channel(session: Any) -> None:
    """Close one Spark Connect session's channel, and only that.

    Not ``session.stop()`` or ``client.close()``, which also shut down a thread pool that every
    client in the process shares and so fail other requests in flight ("cannot schedule new
    futures after shutdown"); the session's ``__del__`` would call the latter, so it is
    disarmed here.
    """
    client = session.client
    _quietly(client._channel.close)
    client.close = lambda: None


def _quietly(call: Any, *args: Any) -> None:
    try:
        call(*args)
    except Exception:  # best effort: the server may already be gone
        return


def _check_values(rows: list[tuple[Any, ...]]) -> None:
    for row in rows:
        for value in row:
            if isinstance(value, _KNOWN_VALUES):
                continue
            if isinstance(value, list | tuple | dict):
                inner = tuple(value.values()) if isinstance(value, dict) else tuple(value)
                _check_values([inner])
                continue
            raise ExecutionFailed(
                f"Spark returned a value of type {type(value).__name__!r}, which Assay cannot "
                "read.",
                hint="Cast the column to a string or a number in the query.",
            )


def connect_spark(
    target: str,
    *,
    n_workers: int = DEFAULTS.n_workers,
    log_limit: int = DEFAULTS.statement_log_limit,
) -> Any:
    """Open a connector for ``sc://host:port`` or a ``databricks://`` URL.

    Raises:
        ConnectionFailed: the URL is malformed, the client is not installed, or nothing answers.
    """
    scheme = target.split("://", 1)[0].lower()
    if scheme == "databricks":
        from assay.connectors._databricks import DatabricksConnector, parse_databricks_url

        return DatabricksConnector(parse_databricks_url(target), log_limit=log_limit)
    parts = urlsplit(target)
    if parts.scheme.lower() != "sc" or not parts.hostname:
        raise ConnectionFailed(
            f"{target!r} is not a Spark Connect URL.",
            hint="Use sc://<host>:<port> (15002 is Spark Connect's default port).",
        )
    return SparkConnector(target, n_workers=n_workers, log_limit=log_limit)
