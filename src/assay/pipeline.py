"""The one place that knows the order of the stages.

``run_sql`` is the guarded path for one statement: validate (first wall), then execute
read-only in a worker (second wall). Later stages (resolve, decide, generate, check, agree,
score, gate) are added here in the order ARCHITECTURE.md draws.
"""

from __future__ import annotations

from dataclasses import dataclass

from assay.connectors import Connector
from assay.guard import GuardReport, validate
from assay.semantic import SemanticLayer
from assay.settings import Settings
from assay.types import Result

__all__ = ["GuardedRun", "run_sql"]


@dataclass(frozen=True)
class GuardedRun:
    """One statement's guard report and, when it passed, its result."""

    report: GuardReport
    result: Result | None


def run_sql(
    sql: str,
    connector: Connector,
    settings: Settings,
    *,
    semantic: SemanticLayer | None = None,
) -> GuardedRun:
    """Validate ``sql`` against the connector's catalogue; execute the regenerated SQL if it
    passed. A refused statement never reaches the engine.

    Raises:
        ExecutionError: the engine failed, timed out or hit a resource limit.
    """
    report = validate(
        sql,
        catalog=connector.catalog(),
        dialect=connector.dialect,
        semantic=semantic,
        max_sql_bytes=settings.max_sql_bytes,
    )
    if not report.ok or report.sql is None:
        return GuardedRun(report, None)
    result = connector.execute(
        report.sql, time_limit_ms=settings.time_limit_ms, max_rows=settings.max_rows
    )
    return GuardedRun(report, result)
