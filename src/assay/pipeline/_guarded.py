"""``run_sql``: the guarded path for one statement: validate (first wall), then execute
read-only in a worker (second wall). A refused statement never reaches the engine."""

from __future__ import annotations

from dataclasses import dataclass, replace

from assay.catalog import Catalog
from assay.connectors import Connector, QueryCache
from assay.errors import ExecutionError
from assay.guard import GuardReport, validate
from assay.semantic import SemanticLayer
from assay.settings import Settings
from assay.types import Result

__all__ = ["EVIDENCE_ROWS", "GuardedRun", "run_sql"]

# Results are kept up to 100 rows as evidence (the governed-score paper's storage policy).
EVIDENCE_ROWS = 100


@dataclass(frozen=True)
class GuardedRun:
    """One statement's guard report and, when it passed, its result."""

    report: GuardReport
    result: Result | None


def run_sql(
    sql: str,
    connector: Connector | QueryCache,
    settings: Settings,
    *,
    semantic: SemanticLayer | None = None,
    catalog: Catalog | None = None,
    max_rows: int | None = None,
) -> GuardedRun:
    """Validate ``sql`` against the catalogue; execute the regenerated SQL if it passed. A
    refused statement never reaches the engine.

    Raises:
        ExecutionError: the engine failed, timed out or hit a resource limit.
    """
    if catalog is None:
        catalog = connector.catalog()
    report = validate(
        sql,
        catalog=catalog,
        dialect=connector.dialect,
        semantic=semantic,
        max_sql_bytes=settings.max_sql_bytes,
    )
    if not report.ok or report.sql is None:
        return GuardedRun(report, None)
    result = connector.execute(
        report.sql, time_limit_ms=settings.time_limit_ms, max_rows=max_rows or settings.max_rows
    )
    if result.truncated and result.row_count is None:
        result = replace(result, row_count=_count_rows(report.sql, connector, settings))
    return GuardedRun(report, result)


def _count_rows(sql: str, connector: Connector | QueryCache, settings: Settings) -> int | None:
    """How many rows a truncated result has in all, counted by the engine (the statement passed
    the guard, so it is one read-only SELECT; wrapped, it stays one). Two results cut at the same
    row are the same answer only if their counts are equal too (the governed-score paper: a
    pair is undetermined only "when either result is truncated and the row counts are equal").
    ``None`` when the count could not be had (over the time limit, refused by the engine): the
    pair then stays undetermined, as before."""
    try:
        counted = connector.execute(
            f"SELECT count(*) FROM (\n{sql}\n) AS assay_row_count",
            time_limit_ms=settings.time_limit_ms,
            max_rows=1,
        )
    except ExecutionError:
        return None
    value = counted.rows[0][0] if counted.rows and counted.rows[0] else None
    return int(value) if isinstance(value, int) and value >= 0 else None
