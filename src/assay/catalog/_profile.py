"""Column profiles and key overlap, computed in the engine as SQL aggregates.

The catalog does not import the connectors: it takes anything with ``dialect`` and
``execute(sql, *, time_limit_ms, max_rows)`` (a ``SqlRunner``), so the heavy work runs where
the data is, in DuckDB on one machine or PostgreSQL beyond it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from assay.types import Result

__all__ = [
    "STAND_IN_MIN_SHARE",
    "ColumnProfile",
    "KeyOverlap",
    "SqlRunner",
    "StandIn",
    "key_overlap",
    "profile_column",
]

# A code counts as a stand-in when it covers at least this share of the column's rows.
STAND_IN_MIN_SHARE = 0.005
# A positive code is "much larger" than the real values when they stay below code / 10.
MUCH_LARGER = 10.0
NUMERIC_CODES = (-1, -9, -99, -999, -9999, 999, 9999, 99999, 999999, 9999999, 99999999, 999999999)
DATE_CODES = ("9999-12-31", "9999-01-01", "2999-12-31", "1900-01-01", "0001-01-01")
_NUMERIC = ("INT", "DEC", "NUM", "REAL", "FLOAT", "DOUBLE", "BIGINT", "SMALLINT", "HUGEINT")
_DATES = ("DATE", "TIMESTAMP")
TIME_LIMIT_MS = 30_000


class SqlRunner(Protocol):
    """What the catalog needs from a connector."""

    dialect: str

    def execute(self, sql: str, *, time_limit_ms: int, max_rows: int) -> Result: ...


@dataclass(frozen=True)
class StandIn:
    """A code standing in for a missing value: how many rows carry it, and their share."""

    value: Any
    count: int
    share: float


@dataclass(frozen=True)
class ColumnProfile:
    table: str
    column: str
    type: str
    n_rows: int
    n_null: int
    n_distinct: int
    stand_ins: tuple[StandIn, ...] = ()

    @property
    def stand_in_values(self) -> frozenset[Any]:
        return frozenset(s.value for s in self.stand_ins)


@dataclass(frozen=True)
class KeyOverlap:
    """Distinct non-null keys on each side and in both; ``rho`` takes the better direction."""

    left: tuple[str, str]
    right: tuple[str, str]
    n_left: int
    n_right: int
    n_both: int

    @property
    def rho(self) -> float:
        """``max(|Ka & Kb| / |Ka|, |Ka & Kb| / |Kb|)`` (Appendix C: the better direction).

        Example:
            >>> KeyOverlap(("a", "x"), ("b", "y"), n_left=10, n_right=100, n_both=9).rho
            0.9
        """
        shares = [self.n_both / n for n in (self.n_left, self.n_right) if n]
        return max(shares) if shares else 0.0


def _q(name: str, dialect: str) -> str:
    from sqlglot import exp  # imported here: worker processes import the catalog at start

    return exp.to_identifier(name, quoted=True).sql(dialect=dialect)


def _one(runner: SqlRunner, sql: str) -> tuple[Any, ...]:
    result = runner.execute(sql, time_limit_ms=TIME_LIMIT_MS, max_rows=1)
    return tuple(result.rows[0]) if result.rows else ()


def profile_column(runner: SqlRunner, table: str, column: str, type_: str = "") -> ColumnProfile:
    """Counts, distinct values and stand-in codes of one column, in one aggregate query.

    A numeric code is a stand-in when it covers at least 0.5% of the rows and the column is
    otherwise non-negative (for a negative code) or much smaller (for a large one); a date code
    such as 9999-12-31 when it covers at least 0.5% of the rows.
    """
    d = runner.dialect
    t, c = _q(table, d), _q(column, d)
    upper = type_.upper()
    codes: tuple[Any, ...] = ()
    if any(k in upper for k in _NUMERIC):
        codes = NUMERIC_CODES
    elif any(k in upper for k in _DATES):
        codes = DATE_CODES
    parts = ["count(*)", f"count({c})", f"count(DISTINCT {c})"]
    for code in codes:
        literal = f"'{code}'" if isinstance(code, str) else str(code)
        cast = f"CAST({c} AS VARCHAR)" if isinstance(code, str) and d != "sqlite" else c
        if isinstance(code, str) and d in {"postgres", "spark"}:
            cast = f"CAST({c} AS {'TEXT' if d == 'postgres' else 'STRING'})"
        if isinstance(code, str):
            parts.append(f"sum(CASE WHEN substr({cast}, 1, 10) = {literal} THEN 1 ELSE 0 END)")
        else:
            parts.append(f"sum(CASE WHEN {c} = {literal} THEN 1 ELSE 0 END)")
    if codes and not isinstance(codes[0], str):
        listed = ", ".join(str(code) for code in codes)
        parts.append(f"min(CASE WHEN {c} NOT IN ({listed}) THEN {c} END)")
        parts.append(f"max(CASE WHEN {c} NOT IN ({listed}) THEN {c} END)")
    row = _one(runner, f"SELECT {', '.join(parts)} FROM {t}")
    n_rows, n_nonnull, n_distinct = (int(v or 0) for v in row[:3])
    stand_ins = _stand_ins(codes, row[3 : 3 + len(codes)], row[3 + len(codes) :], n_rows)
    return ColumnProfile(table, column, type_, n_rows, n_rows - n_nonnull, n_distinct, stand_ins)


def _stand_ins(
    codes: tuple[Any, ...], counts: tuple[Any, ...], bounds: tuple[Any, ...], n_rows: int
) -> tuple[StandIn, ...]:
    if not n_rows:
        return ()
    low, high = (
        (float(bounds[0]), float(bounds[1]))
        if len(bounds) == 2 and (bounds[0] is not None)
        else (None, None)
    )
    found = []
    for code, count in zip(codes, counts, strict=True):
        count = int(count or 0)
        share = count / n_rows
        if share < STAND_IN_MIN_SHARE:
            continue
        if isinstance(code, str):
            found.append(StandIn(code, count, share))
        elif code < 0 and (low is None or low >= 0):
            found.append(StandIn(code, count, share))
        elif code > 0 and (high is None or high <= code / MUCH_LARGER):
            found.append(StandIn(code, count, share))
    return tuple(found)


def key_overlap(runner: SqlRunner, left: tuple[str, str], right: tuple[str, str]) -> KeyOverlap:
    """Distinct non-null key counts of two columns and of their intersection, in the engine."""
    d = runner.dialect
    lt, lc = _q(left[0], d), _q(left[1], d)
    rt, rc = _q(right[0], d), _q(right[1], d)
    sql = (
        f"WITH a AS (SELECT DISTINCT {lc} AS k FROM {lt} WHERE {lc} IS NOT NULL), "
        f"b AS (SELECT DISTINCT {rc} AS k FROM {rt} WHERE {rc} IS NOT NULL) "
        "SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b), "
        "(SELECT count(*) FROM a JOIN b ON a.k = b.k)"
    )
    n_left, n_right, n_both = (int(v or 0) for v in _one(runner, sql))
    return KeyOverlap(left, right, n_left, n_right, n_both)
