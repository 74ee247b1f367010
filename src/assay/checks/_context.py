"""The one object every check reads, and what checks return."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from assay.catalog import Catalog, Profiles
from assay.semantic import Metric, Period, Reading, SemanticLayer
from assay.types import Candidate, Finding

__all__ = ["CheckContext", "CheckOutcome", "Claim", "JudgeIssue", "JudgeReport"]


@dataclass(frozen=True)
class Claim:
    """One claim in the written answer as the judge read it."""

    text: str
    supported: bool
    about: Literal["answer", "commentary"] = "answer"


@dataclass(frozen=True)
class JudgeIssue:
    """Another problem the judge named (intent mismatch, wrong formula, ...)."""

    kind: str
    about: Literal["answer", "commentary"] = "answer"
    message: str = ""


@dataclass(frozen=True)
class JudgeReport:
    """What a judge model said about one answer; it never saw a reference answer."""

    complete: float | None
    claims: tuple[Claim, ...] = ()
    issues: tuple[JudgeIssue, ...] = ()
    source: str = "sample"

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any], source: str = "sample") -> JudgeReport:
        complete = raw.get("complete")
        claims = tuple(
            Claim(
                str(c.get("text", "")),
                bool(c.get("supported", True)),
                "commentary" if c.get("about") == "commentary" else "answer",
            )
            for c in raw.get("claims") or []
        )
        issues = tuple(
            JudgeIssue(
                str(i.get("kind", "issue")),
                "commentary" if i.get("about") == "commentary" else "answer",
                str(i.get("message", "")),
            )
            for i in raw.get("issues") or []
        )
        value = None if complete is None else min(1.0, max(0.0, float(complete)))
        return cls(value, claims, issues, source)


@dataclass(frozen=True)
class CheckContext:
    """Sample 0 and everything the checks may read about it: the one context of ``CHECKS``.

    ``profiles`` is ``None`` when no database is reachable (results given in the samples file);
    checks that need the engine then measure nothing. ``recorded_stand_ins`` maps a result
    column's index to codes recorded as that column's stand-ins (how a planted stand-in is
    simulated where the data has none).

    An answer planned from a semantic layer also carries the question's ``reading``, the
    ``layer``, the planned ``metric``, its ``period`` and the layer's ``coverage``; the checks
    that read them (the plan's fit to the reading, required filters, period, impossible values,
    stand-ins in the aggregate) measure nothing without them. ``measures`` holds the shares
    measured by the checks before this one (set by ``run_checks``).
    """

    question: str
    candidate: Candidate
    dialect: str
    catalog: Catalog | None = None
    profiles: Profiles | None = None
    hint: str = ""
    judge: JudgeReport | None = None
    recorded_stand_ins: Mapping[int, frozenset[Any]] = field(default_factory=dict)
    reading: Reading | None = None
    layer: SemanticLayer | None = None
    metric: Metric | None = None
    period: Period | None = None
    coverage: tuple[dt.date, dt.date] | None = None
    measures: Mapping[str, float | None] = field(default_factory=dict)
    # The governed expressions of the metrics the question named ("SUM(order_lines.quantity *
    # order_lines.unit_price)" for "gross revenue"): the question asks for their aggregates
    # by naming them, though it says no "total" (empty for SQL from anywhere else).
    definitions: tuple[str, ...] = ()
    # Compared periods, each to be applied on its own (a change query has one subquery per
    # period), and whether the last column is a difference between them (it may be negative).
    periods: tuple[Period, ...] = ()
    difference: bool = False


@dataclass(frozen=True)
class CheckOutcome:
    """Findings, the measured shares (``None`` when a share is undefined), and ``details`` a
    check records for the verdict's provenance (the fit's clauses checked, even when all match).
    """

    findings: tuple[Finding, ...] = ()
    measures: Mapping[str, float | None] = field(default_factory=dict)
    details: Mapping[str, Any] = field(default_factory=dict)
