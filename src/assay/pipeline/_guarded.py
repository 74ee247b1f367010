"""``run_sql``: the guarded path for one statement: validate (first wall), then execute
read-only in a worker (second wall). A refused statement never reaches the engine."""

from __future__ import annotations

from dataclasses import dataclass

from assay.catalog import Catalog
from assay.connectors import Connector, QueryCache
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
    return GuardedRun(report, result)
