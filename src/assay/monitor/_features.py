"""The ten trajectory features of Sentinel Appendix I, computable from a prefix.

Token telemetry (``lp_mean``, ``lp_min``, ``ent_mean``, ``ent_max``) comes from the steps'
token log-probabilities and entropies and is NaN (absent) when the endpoint returned none, never
zero. Execution aggregates (``empty_rate``, ``error_rate``, ``n_steps``) count executed steps.
Schema grounding: ``failed_refs`` counts table and column references the guard's alias-aware
resolver reports unknown (names it cannot resolve with confidence are not counted);
``bad_joins`` counts equality join predicates between two resolved columns not backed by a
declared foreign key; ``ungrounded_frac`` is the share of literals of the committed SQL found
neither in the question nor in an earlier observation. A quantity not yet observable at ``t``
(a rate with no executed step, the committed SQL before the end) is NaN, which the
gradient-boosted trees treat as missing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from assay.catalog import Catalog
from assay.guard import DIALECTS, validate
from assay.monitor._trajectory import Run

__all__ = ["FEATURE_NAMES", "FeatureExtractor"]

FEATURE_NAMES: tuple[str, ...] = (
    "lp_mean",
    "lp_min",
    "ent_mean",
    "ent_max",
    "empty_rate",
    "error_rate",
    "n_steps",
    "failed_refs",
    "bad_joins",
    "ungrounded_frac",
)
_FAILED = frozenset({"guard.unknown_table", "guard.unknown_column"})
NAN = float("nan")


def _parse_dialect(dialect: str) -> str:
    return dialect if dialect in {"mysql", "sqlite", "duckdb", "postgres"} else "sqlite"


@dataclass
class FeatureExtractor:
    """Computes feature vectors against the databases' catalogues, caching per statement."""

    catalogs: dict[str, Catalog]
    _refs: dict[tuple[str, str], float] = field(default_factory=dict, repr=False)
    _joins: dict[tuple[str, str], float] = field(default_factory=dict, repr=False)

    def features(self, run: Run, t: int) -> np.ndarray:
        """The vector of ``FEATURE_NAMES`` for the state after ``t`` steps."""
        steps = run.steps[:t]
        lps = [s.token_logprobs for s in steps if s.token_logprobs]
        ents = [s.token_entropies for s in steps if s.token_entropies]
        executed = [s for s in steps if s.executed]
        catalog = self.catalogs.get(run.database)
        sqls = [s.sql for s in steps if s.sql]
        terminal = t >= len(run.steps) and run.final == "answer" and run.final_sql is not None
        if catalog is None:
            failed, joins = NAN, NAN
        else:
            failed = sum(self._failed_refs(run, sql, catalog) for sql in sqls)
            joins = sum(self._bad_joins(run, sql, catalog) for sql in sqls)
        return np.array(
            [
                float(np.mean([np.mean(x) for x in lps])) if lps else NAN,
                float(min(min(x) for x in lps)) if lps else NAN,
                float(np.mean([np.mean(x) for x in ents])) if ents else NAN,
                float(max(max(x) for x in ents)) if ents else NAN,
                _rate([s.row_count == 0 for s in executed]),
                _rate([s.error is not None for s in executed]),
                float(t),
                float(failed),
                float(joins),
                _ungrounded(run) if terminal else NAN,
            ],
            dtype=float,
        )

    def _failed_refs(self, run: Run, sql: str, catalog: Catalog) -> float:
        key = (run.database, sql)
        if key not in self._refs:
            dialect = run.dialect if run.dialect in DIALECTS else "sqlite"
            report = validate(sql, catalog=catalog, dialect=dialect)
            self._refs[key] = float(sum(1 for c in report.codes if c in _FAILED))
        return self._refs[key]

    def _bad_joins(self, run: Run, sql: str, catalog: Catalog) -> float:
        key = (run.database, sql)
        if key not in self._joins:
            self._joins[key] = float(_count_bad_joins(sql, run.dialect, catalog))
        return self._joins[key]


def _rate(flags: list[bool]) -> float:
    return sum(flags) / len(flags) if flags else NAN


def _count_bad_joins(sql: str, dialect: str, catalog: Catalog) -> int:
    try:
        tree = sqlglot.parse_one(sql, read=_parse_dialect(dialect))
    except (SqlglotError, ValueError):
        return 0
    if tree is None:
        return 0
    aliases = {t.alias_or_name.lower(): t.name.lower() for t in tree.find_all(exp.Table) if t.name}
    backed = {
        frozenset({(fk.table.lower(), c.lower()), (fk.ref_table.lower(), r.lower())})
        for fk in catalog.foreign_keys
        for c, r in zip(fk.columns, fk.ref_columns, strict=False)
    }
    bad = 0
    for join in tree.find_all(exp.Join):
        on = join.args.get("on")
        if on is None:
            continue
        for eq in on.find_all(exp.EQ):
            left, right = eq.this, eq.expression
            if not isinstance(left, exp.Column) or not isinstance(right, exp.Column):
                continue
            lt, rt = aliases.get(left.table.lower()), aliases.get(right.table.lower())
            if lt is None or rt is None:  # not confidently resolved: not counted
                continue
            pair = frozenset({(lt, left.name.lower()), (rt, right.name.lower())})
            if pair not in backed:
                bad += 1
    return bad


def _ungrounded(run: Run) -> float:
    """Share of the committed SQL's literals traceable to neither the question nor an earlier
    observation (LIMIT counts are not literals of the answer)."""
    assert run.final_sql is not None
    try:
        tree = sqlglot.parse_one(run.final_sql, read=_parse_dialect(run.dialect))
    except (SqlglotError, ValueError):
        return NAN
    if tree is None:
        return NAN
    literals = [
        lit.this.lower()
        for lit in tree.find_all(exp.Literal)
        if lit.find_ancestor(exp.Limit) is None and lit.this.strip()
    ]
    if not literals:
        return NAN
    steps = run.steps[:-1] if run.steps and run.steps[-1].sql == run.final_sql else run.steps
    seen = " ".join([run.question, *(s.observation for s in steps)]).lower()
    ungrounded = sum(1 for lit in literals if not _grounded(lit, seen))
    return ungrounded / len(literals)


def _grounded(literal: str, seen: str) -> bool:
    if literal.strip("%") in seen:
        return True
    try:
        number = float(literal)
    except ValueError:
        return False
    if math.isfinite(number) and number == int(number):
        return str(int(number)) in seen
    return False
