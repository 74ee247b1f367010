"""The ``Connector`` protocol and the pooled connector behind every engine.

``connect(target)`` takes a DuckDB or SQLite file path, or an SQLAlchemy URL (PostgreSQL), and
returns a connector whose ``execute`` runs one statement read-only, under a time limit and a
row cap, in a warm worker process. It executes what it is given: the guard is the first wall,
and the engine settings and the worker are the second.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from assay.catalog import Catalog
from assay.connectors._engines import EngineSpec
from assay.connectors._worker import WorkerPool
from assay.errors import AssayError, ConnectionFailed, ExecutionError, ExecutionTimeout
from assay.settings import DEFAULTS, Settings, load_settings
from assay.types import Result

__all__ = [
    "Connector",
    "LoggedStatement",
    "PooledConnector",
    "QueryCache",
    "StatementLog",
    "connect",
    "deadline",
    "detect",
]

# The monotonic time by which every query run in this context must end (a served request's time
# limit), or None: see ``deadline``.
_DEADLINE: ContextVar[float | None] = ContextVar("assay_query_deadline", default=None)


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Every query a pooled connector runs in this thread within the block ends by ``seconds``
    from now: its time limit is cut to what is left, and a query started after that fails at
    once (``ExecutionTimeout``).

    A server answering in its own threads stops waiting for a request at its time limit, but
    the thread would run on, and its query would hold the engine's worker until the engine's
    own limit: the next ask, however trivial, waited for it (outside tryout 25: 504s for 7 s
    after one slow question). Under a deadline the worker is killed at the request's limit.

    Example:
        >>> with deadline(30.0):
        ...     pass
    """
    token = _DEADLINE.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def _within_deadline(time_limit_ms: int) -> int:
    """``time_limit_ms``, cut to what is left of the context's deadline.

    Raises:
        ExecutionTimeout: the deadline has passed.
    """
    ends = _DEADLINE.get()
    if ends is None:
        return time_limit_ms
    left_ms = int((ends - time.monotonic()) * 1000)
    if left_ms <= 0:
        raise ExecutionTimeout(
            "The request's time limit ran out before this query could start; it was not run.",
            hint="Ask a narrower question; the operator sets limits.request_time_limit_s.",
            details={"time_limit_ms": time_limit_ms},
        )
    return min(time_limit_ms, left_ms)


@dataclass(frozen=True)
class LoggedStatement:
    """One statement actually sent to the engine, and why."""

    sql: str
    purpose: str  # "query", "catalog" or "setup"


@runtime_checkable
class Connector(Protocol):
    """Read-only execution and introspection for one database."""

    dialect: str

    def execute(self, sql: str, *, time_limit_ms: int, max_rows: int) -> Result: ...

    def catalog(self) -> Catalog: ...

    @property
    def statement_log(self) -> tuple[LoggedStatement, ...]: ...

    def close(self) -> None: ...


class StatementLog:
    """A bounded log of the statements a connector sent, shared by every connector.

    It keeps the latest ``limit`` statements (a server that runs for weeks holds a bounded
    log); ``count`` counts every statement ever logged, and ``since`` reads what was logged
    after a count, or raises when part of it was already dropped (never a silently short list).

    Example:
        >>> log = StatementLog(2)
        >>> log.record(["SELECT 1", "SELECT 2", "SELECT 3"], "query")
        >>> [s.sql for s in log.latest()], log.count
        (['SELECT 2', 'SELECT 3'], 3)
        >>> [s.sql for s in log.since(2)]
        ['SELECT 3']
    """

    def __init__(self, limit: int = DEFAULTS.statement_log_limit) -> None:
        if limit < 1:
            raise ValueError(f"statement_log_limit must be at least 1, not {limit}.")
        self._log: deque[LoggedStatement] = deque(maxlen=limit)
        self._logged = 0
        self._lock = threading.Lock()

    def record(self, sent: list[str], purpose: str) -> None:
        with self._lock:
            self._log.extend(LoggedStatement(s, purpose) for s in sent)
            self._logged += len(sent)

    def latest(self) -> tuple[LoggedStatement, ...]:
        """The latest statements sent (at most the limit), oldest first."""
        with self._lock:
            return tuple(self._log)

    @property
    def count(self) -> int:
        """Statements logged since the log was made, dropped ones included."""
        with self._lock:
            return self._logged

    def since(self, count: int) -> tuple[LoggedStatement, ...]:
        """The statements logged after ``count`` was ``count``.

        Raises:
            AssayError: some of them were already dropped from the bounded log.
        """
        with self._lock:
            new = self._logged - count
            if new > len(self._log):
                raise AssayError(
                    f"{new - len(self._log)} of the {new} statements logged since then were "
                    f"dropped (the log keeps {self._log.maxlen}).",
                    hint="Raise --statement-log-limit or ASSAY_STATEMENT_LOG_LIMIT.",
                )
            return tuple(self._log)[len(self._log) - new :] if new > 0 else ()


class LogsStatements:
    """The statement log's reading side, one for every connector that holds a ``_log``."""

    _log: StatementLog

    @property
    def statement_log(self) -> tuple[LoggedStatement, ...]:
        """The latest statements sent (at most ``log_limit``), oldest first."""
        return self._log.latest()

    @property
    def statement_count(self) -> int:
        """Statements logged since the connector opened, dropped ones included."""
        return self._log.count

    def statements_since(self, count: int) -> tuple[LoggedStatement, ...]:
        """The statements logged after ``statement_count`` was ``count``.

        Raises:
            AssayError: some of them were already dropped from the bounded log.
        """
        return self._log.since(count)


class PooledConnector(LogsStatements):
    """A connector running every statement in a warm worker process.

    Its statement log keeps the latest ``log_limit`` statements (a server that runs for weeks
    holds a bounded log); ``statement_count`` counts every statement ever logged, and
    ``statements_since`` reads what was logged after a count, or raises when part of it was
    already dropped (never a silently short list).
    """

    def __init__(
        self,
        spec: EngineSpec,
        *,
        dialect: str,
        n_workers: int = DEFAULTS.n_workers,
        log_limit: int = DEFAULTS.statement_log_limit,
    ):
        self.spec = spec
        self.dialect = dialect
        self._pool = WorkerPool(spec, n_workers)
        self._log = StatementLog(log_limit)
        self._catalog: Catalog | None = None
        self._pool.start()
        self._record(self._pool.startup_sent, "setup")

    def _record(self, sent: list[str], purpose: str) -> None:
        self._log.record(sent, purpose)

    def execute(
        self,
        sql: str,
        *,
        time_limit_ms: int = DEFAULTS.time_limit_ms,
        max_rows: int = DEFAULTS.max_rows,
    ) -> Result:
        """Run one statement read-only; at most ``max_rows`` rows come back.

        Raises:
            ExecutionTimeout: past ``time_limit_ms`` (the worker is killed at most
                ``KILL_GRACE_S`` later).
            ResourceLimit: over the memory or CPU limit.
            ExecutionFailed: the engine refused the statement.

        Under a ``deadline``, the time limit is cut to what is left of it.
        """
        time_limit_ms = _within_deadline(time_limit_ms)
        self._record([sql], "query")
        try:
            payload, sent = self._pool.call(
                ("execute", sql, max_rows, time_limit_ms), time_limit_ms
            )
        except ExecutionError as exc:
            self._record(exc.details.get("sent", []), "setup")
            if isinstance(exc, ExecutionTimeout):
                raise ExecutionTimeout(
                    f"Query exceeded the time limit of {time_limit_ms} ms and was stopped.",
                    hint="Raise it with --time-limit-ms or ASSAY_TIME_LIMIT_MS, or simplify "
                    "the query.",
                    details={"time_limit_ms": time_limit_ms},
                ) from None
            raise
        self._record(sent, "setup")
        return Result(
            columns=tuple(payload["columns"]),
            rows=tuple(payload["rows"]),
            row_count=payload["row_count"],
            truncated=payload["truncated"],
            elapsed_ms=payload["elapsed_ms"],
        )

    def catalog(self) -> Catalog:
        """Tables, columns with types and declared foreign keys (read once, then kept)."""
        if self._catalog is None:
            catalog, sent = self._pool.catalog(time_limit_ms=60_000)
            self._record(sent, "catalog")
            self._catalog = catalog
        return self._catalog

    def close(self) -> None:
        self._pool.close()

    def __enter__(self) -> PooledConnector:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class QueryCache:
    """Runs identical SQL once within one question; errors are remembered too."""

    def __init__(self, connector: Connector):
        self.connector = connector
        self.dialect = connector.dialect
        self._seen: dict[tuple[str, int], Result | ExecutionError] = {}

    def catalog(self) -> Catalog:
        return self.connector.catalog()

    def execute(self, sql: str, *, time_limit_ms: int, max_rows: int) -> Result:
        key = (sql, max_rows)
        if key not in self._seen:
            try:
                self._seen[key] = self.connector.execute(
                    sql, time_limit_ms=time_limit_ms, max_rows=max_rows
                )
            except ExecutionError as exc:
                self._seen[key] = exc
        found = self._seen[key]
        if isinstance(found, ExecutionError):
            raise found
        return found


_SQLITE_MAGIC = b"SQLite format 3\x00"


def detect(target: str) -> tuple[str, str]:
    """Return ``(kind, target)`` for a path or URL, or raise ``ConnectionFailed``.

    Example:
        >>> detect("postgresql://u@localhost/db")[0]
        'postgres'
    """
    if "://" in target:
        scheme = target.split("://", 1)[0].lower()
        if scheme in {"duckdb", "sqlite"}:
            rest = target.split("://", 1)[1]
            return detect(rest[1:] if rest.startswith("/") else rest)
        if scheme.split("+")[0] in {"postgresql", "postgres"}:
            return "postgres", _postgres_url(target)
        raise ConnectionFailed(
            f"Database URL scheme {scheme!r} is not supported.",
            hint="Use a DuckDB or SQLite file path, or a postgresql:// URL.",
        )
    path = Path(target).expanduser()
    if not path.exists():
        raise ConnectionFailed(
            f"Database file {str(path)!r} does not exist.",
            hint="Check the path given with --db, or build the demo warehouse with 'assay demo'.",
        )
    if path.is_dir():
        raise ConnectionFailed(
            f"Database path {str(path)!r} is a folder, not a file.",
            hint="Give the .duckdb or .sqlite file inside it.",
        )
    try:
        with path.open("rb") as handle:
            head = handle.read(16)
    except OSError as exc:
        raise ConnectionFailed(
            f"Database file {str(path)!r} cannot be read: {exc.strerror}.",
            hint="Check its permissions.",
        ) from exc
    if head.startswith(_SQLITE_MAGIC):
        return "sqlite", str(path)
    if head[8:12] == b"DUCK":
        return "duckdb", str(path)
    raise ConnectionFailed(
        f"File {str(path)!r} is neither a DuckDB nor a SQLite database.",
        hint="Give a .duckdb or .sqlite file, or a postgresql:// URL.",
    )


def _postgres_url(url: str) -> str:
    try:
        from sqlalchemy.engine import make_url
    except ImportError as exc:
        raise ConnectionFailed(
            "PostgreSQL needs SQLAlchemy and psycopg, which are not installed.",
            hint="Install them with: pip install 'assay[postgres]'.",
        ) from exc
    parsed = make_url(url)
    if parsed.drivername in {"postgresql", "postgres"}:
        parsed = parsed.set(drivername="postgresql+psycopg")
    try:
        parsed.get_dialect().import_dbapi()
    except ImportError as exc:
        raise ConnectionFailed(
            f"The driver for {parsed.drivername!r} is not installed.",
            hint="Install it with: pip install 'assay[postgres]' (psycopg 3), or use "
            "postgresql+psycopg://.",
        ) from exc
    rendered: str = parsed.render_as_string(hide_password=False)
    return rendered


def connect(target: str, settings: Settings | None = None, **overrides: Any) -> PooledConnector:
    """Open a read-only connector for a file path or URL.

    Raises:
        ConnectionFailed: the file is missing or not a database, the URL's driver is not
            installed, or the worker could not open it.
    """
    settings = (settings or load_settings()).with_values(**overrides)
    if str(target).split("://", 1)[0].lower() in {"sc", "databricks"}:
        from assay.connectors._spark import connect_spark  # Spark Connect and Databricks

        return connect_spark(  # type: ignore[no-any-return]
            str(target), n_workers=settings.n_workers, log_limit=settings.statement_log_limit
        )
    kind, resolved = detect(str(target))
    spec = EngineSpec(
        kind,
        resolved,
        memory_limit_mb=settings.memory_limit_mb,
        max_result_bytes=settings.max_result_bytes,
        max_cell_bytes=settings.max_cell_bytes,
        temp_limit_mb=settings.temp_limit_mb,
    )
    return PooledConnector(
        spec,
        dialect=kind,
        n_workers=settings.n_workers,
        log_limit=settings.statement_log_limit,
    )
