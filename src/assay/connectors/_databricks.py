"""Databricks SQL warehouses through the Databricks SQL connector (the ``[databricks]`` extra).

The same contract as ``SparkConnector``: a connection per request, the statement sent only
inside ``SELECT * FROM (...)`` so that a command fails to parse, ``fetchmany(max_rows + 1)``
for the row cap, and at the time limit the cursor cancelled in the warehouse and the connection
closed. Tested here for URL parsing and error mapping only (no warehouse is reachable).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from assay.catalog import Catalog, ColumnInfo, TableInfo
from assay.connectors._connector import LogsStatements, StatementLog
from assay.connectors._spark import EXECUTION_ERRORS
from assay.connectors._spark_errors import classify_spark, databricks_errors
from assay.errors import ConnectionFailed, ExecutionError, ExecutionFailed, ExecutionTimeout
from assay.settings import DEFAULTS
from assay.types import Result

__all__ = ["DatabricksConnector", "DatabricksTarget", "parse_databricks_url"]

_WRAPPED = "SELECT * FROM (\n{sql}\n) AS assay_query"


@dataclass(frozen=True)
class DatabricksTarget:
    """A ``databricks://token:<TOKEN>@<host>/<http path>?catalog=..&schema=..`` URL, parsed."""

    host: str
    http_path: str
    token: str
    catalog: str = ""
    schema: str = "default"


def parse_databricks_url(url: str) -> DatabricksTarget:
    """Parse a Databricks SQL URL, or raise ``ConnectionFailed`` naming what is missing.

    Example:
        >>> t = parse_databricks_url(
        ...     "databricks://token:dapi1@adb-1.azuredatabricks.net/sql/1.0/warehouses/ab?schema=s"
        ... )
        >>> t.host, t.http_path, t.schema
        ('adb-1.azuredatabricks.net', '/sql/1.0/warehouses/ab', 's')
    """
    parts = urlsplit(url)
    hint = (
        "Use databricks://token:<TOKEN>@<host>/<http path>?catalog=<catalog>&schema=<schema> "
        "(the host and HTTP path are on the warehouse's Connection details tab)."
    )
    if parts.scheme.lower() != "databricks":
        raise ConnectionFailed(f"{url!r} is not a databricks:// URL.", hint=hint)
    if not parts.hostname:
        raise ConnectionFailed("The Databricks URL names no host.", hint=hint)
    if not parts.password:
        raise ConnectionFailed("The Databricks URL carries no access token.", hint=hint)
    if not parts.path or parts.path == "/":
        raise ConnectionFailed(
            f"The Databricks URL for {parts.hostname!r} names no HTTP path.", hint=hint
        )
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    unknown = sorted(set(query) - {"catalog", "schema"})
    if unknown:
        raise ConnectionFailed(
            f"Unknown Databricks URL parameter(s): {', '.join(unknown)}.", hint=hint
        )
    return DatabricksTarget(
        host=parts.hostname,
        http_path=unquote(parts.path),
        token=unquote(parts.password),
        catalog=query.get("catalog", ""),
        schema=query.get("schema", "default"),
    )


class DatabricksConnector(LogsStatements):
    """A read-only ``Connector`` over a Databricks SQL warehouse."""

    dialect = "spark"

    def __init__(self, target: DatabricksTarget, *, log_limit: int = DEFAULTS.statement_log_limit):
        try:
            from databricks import sql as dbsql
        except ImportError as exc:
            raise ConnectionFailed(
                "Databricks needs the Databricks SQL connector, which is not installed.",
                hint="Install it with: pip install 'assay[databricks]'.",
            ) from exc
        self._dbsql = dbsql
        self.target = target
        self._tables = [databricks_errors()]
        self._log = StatementLog(log_limit)
        self._catalog: Catalog | None = None
        self.execute("SELECT 1", time_limit_ms=30_000, max_rows=1)

    def _error(self, exc: BaseException) -> ExecutionError:
        code = classify_spark(exc, self._tables)
        text = str(exc).strip().splitlines()
        message = (text[0] if text else type(exc).__name__)[:500]
        return EXECUTION_ERRORS.get(code, ExecutionFailed)(
            f"Databricks refused or could not run the statement: {message}",
            hint="Check the warehouse URL and token, or fix the query.",
        )

    def _connect(self) -> Any:
        t = self.target
        return self._dbsql.connect(
            server_hostname=t.host,
            http_path=t.http_path,
            access_token=t.token,
            catalog=t.catalog or None,
            schema=t.schema,
        )

    def _run(
        self, sql: str, purpose: str, time_limit_ms: int, max_rows: int, *, wrap: bool = True
    ) -> Result:
        self._log.record([sql], purpose)
        started = time.perf_counter()
        try:
            con = self._connect()
        except Exception as exc:
            raise self._error(exc) from None
        cursor = con.cursor()
        timer = threading.Timer(time_limit_ms / 1000.0, cursor.cancel)
        timer.start()
        try:
            cursor.execute(_WRAPPED.format(sql=sql) if wrap else sql)
            columns = [d[0] for d in cursor.description or []]
            rows = [tuple(r) for r in cursor.fetchmany(max_rows + 1)]
        except Exception as exc:
            if not timer.is_alive():
                raise ExecutionTimeout(
                    f"Query exceeded the time limit of {time_limit_ms} ms and was cancelled.",
                    hint="Raise it with --time-limit-ms or ASSAY_TIME_LIMIT_MS.",
                ) from None
            raise self._error(exc) from None
        finally:
            timer.cancel()
            try:
                cursor.close()
                con.close()
            except Exception:  # the warehouse may already have dropped it
                pass
        truncated = len(rows) > max_rows
        return Result(
            columns=tuple(columns),
            rows=tuple(rows[:max_rows]),
            row_count=None if truncated else len(rows),
            truncated=truncated,
            elapsed_ms=(time.perf_counter() - started) * 1000.0,
        )

    def execute(
        self,
        sql: str,
        *,
        time_limit_ms: int = DEFAULTS.time_limit_ms,
        max_rows: int = DEFAULTS.max_rows,
    ) -> Result:
        return self._run(sql, "query", time_limit_ms, max_rows)

    def catalog(self) -> Catalog:
        if self._catalog is None:
            found = self._run(
                "SELECT table_name, column_name, data_type FROM information_schema.columns "
                "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position",
                "catalog",
                60_000,
                1_000_000,
            )
            tables: dict[str, list[ColumnInfo]] = {}
            for table, column, type_ in found.rows:
                tables.setdefault(str(table), []).append(ColumnInfo(str(column), str(type_)))
            infos = tuple(TableInfo(n, tuple(c)) for n, c in sorted(tables.items()))
            self._catalog = Catalog(
                infos, (), "spark", (self.target.schema,), self.target.catalog or "main"
            )
        return self._catalog

    def close(self) -> None:
        return None
