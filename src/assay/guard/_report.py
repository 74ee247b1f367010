"""What the guard returns: every violation with its code, message and location."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["GuardReport", "Violation"]


@dataclass(frozen=True)
class Violation:
    """One broken rule. ``line`` and ``col`` are 1-based when known."""

    code: str
    message: str
    line: int | None = None
    col: int | None = None
    severity: Literal["error", "warning"] = "error"

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "line": self.line,
            "col": self.col,
            "severity": self.severity,
        }


@dataclass(frozen=True)
class GuardReport:
    """The guard's verdict on one statement.

    ``sql`` is what may execute: the statement regenerated from the checked tree, comments
    dropped; it is ``None`` whenever any error-level violation was found.
    """

    original: str
    dialect: str
    violations: tuple[Violation, ...]
    sql: str | None

    @property
    def ok(self) -> bool:
        return self.sql is not None and not any(v.severity == "error" for v in self.violations)

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(v.code for v in self.violations)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "dialect": self.dialect,
            "sql": self.sql,
            "violations": [v.to_dict() for v in self.violations],
        }
