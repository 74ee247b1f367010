"""The deep profiler (Rosetta 4.2): Tier A fingerprint, Tier B patterns, Tier C when configured.

Per table, one aggregate query (in chunks of ``CHUNK_COLUMNS`` columns where a table is wider)
computes every column's exact counts, distinct values, min, max and text lengths in the
engine; one more query draws the stated sample: every row when the table has at most
``sample_rows`` rows, otherwise ``sample_rows`` rows chosen by a seeded hash of the row
identifier (DuckDB ``hash(rowid + seed)``, SQLite a multiplicative hash of ``rowid``,
PostgreSQL ``md5(ctid || seed)``), ordered so the same seed draws the same rows.

Tier C (a model-proposed regex) runs only for columns no Tier B pattern matched and only when a
``namer`` is given; the proposal is accepted only when it compiles, is not trivial and fully
matches at least 90% of the sampled values (``verify_proposal``).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from assay.catalog._fingerprint import SAMPLE_ROWS, ColumnFingerprint, EngineStats, fingerprint
from assay.catalog._patterns import HEURISTIC_CONFIDENCE, PatternMatch, match_patterns
from assay.catalog._profile import SqlRunner
from assay.catalog._schema import Catalog, TableInfo
from assay.catalog._tiers import Tier

__all__ = [
    "CHUNK_COLUMNS",
    "NAMER_MIN_MATCH",
    "CatalogProfile",
    "ColumnReport",
    "Namer",
    "NamerProposal",
    "TableProfile",
    "deep_profile",
    "profile_table",
    "quote",
    "text_cast",
    "verify_proposal",
]

CHUNK_COLUMNS = 100
NAMER_MIN_MATCH = 0.90
TIME_LIMIT_MS = 600_000
TRIVIAL_REGEXES = frozenset({".*", ".+", r"\S+", r"\S*", r"[\s\S]*", r"[\s\S]+", r"\w+", r"\w*"})


@dataclass(frozen=True)
class NamerProposal:
    """A model's hypothesis about a cryptic column: a name, a type and a regex to verify."""

    pattern_name: str
    semantic_type: str
    regex: str


Namer = Callable[[ColumnFingerprint, list[str]], NamerProposal | None]


@dataclass(frozen=True)
class ColumnReport:
    """One column: its fingerprint, the patterns that matched (best first)."""

    fingerprint: ColumnFingerprint
    patterns: tuple[PatternMatch, ...] = ()

    @property
    def best(self) -> PatternMatch | None:
        return self.patterns[0] if self.patterns else None

    @property
    def pii(self) -> str | None:
        """The PII class proved by the values (the strongest matching pattern that carries one)."""
        for match in self.patterns:
            if match.pii and match.kind != "heuristic":
                return match.pii
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "fingerprint": self.fingerprint.to_dict(),
            "patterns": [{**m.__dict__, "tier": m.tier.name} for m in self.patterns],
            "pii": self.pii,
        }


@dataclass(frozen=True)
class TableProfile:
    """One table: row count, how it was sampled, and its columns."""

    name: str
    n_rows: int
    sample_rows: int
    sampled: bool
    seed: int
    columns: tuple[ColumnReport, ...] = ()
    error: str = ""

    def column(self, name: str) -> ColumnReport | None:
        return next((c for c in self.columns if c.fingerprint.column == name), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "n_rows": self.n_rows,
            "sampling": {
                "method": "seeded-hash" if self.sampled else "all-rows",
                "sample_rows": self.sample_rows,
                "seed": self.seed,
            },
            "columns": [c.to_dict() for c in self.columns],
            "error": self.error,
        }


@dataclass(frozen=True)
class CatalogProfile:
    """Every table's profile, in the catalogue's order."""

    tables: tuple[TableProfile, ...]
    dialect: str = "duckdb"
    seed: int = 0
    notes: tuple[str, ...] = field(default=())

    def table(self, name: str) -> TableProfile | None:
        return next((t for t in self.tables if t.name == name), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "dialect": self.dialect,
            "seed": self.seed,
            "tables": [t.to_dict() for t in self.tables],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False, indent=1)

    def digest(self, subject: str) -> str:
        """A short digest of the data statistics a fact about ``subject`` rests on."""
        table, _, column = subject.partition(".")
        profile = self.table(table)
        if profile is None:
            return ""
        parts: list[Any] = [profile.n_rows]
        for report in profile.columns:
            fp = report.fingerprint
            if column and fp.column not in column.split(","):
                continue
            parts.append(
                [fp.column, fp.n_null, fp.n_distinct, str(fp.min_value), str(fp.max_value)]
            )
        return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()[:16]


def quote(name: str, dialect: str) -> str:
    """A quoted identifier (names with spaces, quotes or non-ASCII characters are safe)."""
    from sqlglot import exp

    return exp.to_identifier(name, quoted=True).sql(dialect=dialect)


def text_cast(expr: str, dialect: str) -> str:
    return f"CAST({expr} AS VARCHAR)" if dialect == "duckdb" else f"CAST({expr} AS TEXT)"


def _aggregates(columns: list[tuple[str, str]], dialect: str) -> list[str]:
    parts = []
    for name, type_ in columns:
        c = quote(name, dialect)
        value = c
        if dialect == "postgres" and type_.lower().startswith("bool"):
            value = f"CAST({c} AS INT)"
        if dialect == "postgres" and type_.lower() in ("json", "xml"):
            value = text_cast(c, dialect)
        t = text_cast(c, dialect)
        parts += [
            f"count({c})",
            f"count(DISTINCT {value})",
            f"min({value})",
            f"max({value})",
            f"min(length({t}))",
            f"max(length({t}))",
        ]
    return parts


def _stats(runner: SqlRunner, table: TableInfo) -> tuple[int, dict[str, EngineStats]]:
    """Row count and every column's statistics: one aggregate query per chunk of columns."""
    d = runner.dialect
    t = quote(table.name, d)
    cols = [(c.name, c.type) for c in table.columns]
    n_rows: int | None = None
    stats: dict[str, EngineStats] = {}
    for start in range(0, len(cols), CHUNK_COLUMNS):
        chunk = cols[start : start + CHUNK_COLUMNS]
        try:
            row = runner.execute(
                f"SELECT count(*), {', '.join(_aggregates(chunk, d))} FROM {t}",
                time_limit_ms=TIME_LIMIT_MS,
                max_rows=1,
            ).rows[0]
            n_rows = int(row[0] or 0)
            for i, (name, _) in enumerate(chunk):
                stats[name] = _engine_stats(n_rows, row[1 + i * 6 : 1 + i * 6 + 6])
        except Exception:  # one bad column must not sink the table: retry column by column
            n_rows = _count(runner, t) if n_rows is None else n_rows
            for name, type_ in chunk:
                stats[name] = _one_column(runner, t, name, type_, n_rows)
    return (_count(runner, t) if n_rows is None else n_rows), stats


def _count(runner: SqlRunner, t: str) -> int:
    rows = runner.execute(f"SELECT count(*) FROM {t}", time_limit_ms=TIME_LIMIT_MS, max_rows=1)
    return int(rows.rows[0][0] or 0)


def _engine_stats(n_rows: int, values: tuple[Any, ...] | list[Any]) -> EngineStats:
    n_nonnull, n_distinct, lo, hi, min_len, max_len = values
    return EngineStats(
        n_rows,
        n_rows - int(n_nonnull or 0),
        int(n_distinct or 0),
        lo,
        hi,
        None if min_len is None else int(min_len),
        None if max_len is None else int(max_len),
    )


def _one_column(runner: SqlRunner, t: str, name: str, type_: str, n_rows: int) -> EngineStats:
    try:
        row = runner.execute(
            f"SELECT {', '.join(_aggregates([(name, type_)], runner.dialect))} FROM {t}",
            time_limit_ms=TIME_LIMIT_MS,
            max_rows=1,
        ).rows[0]
        return _engine_stats(n_rows, row)
    except Exception as exc:  # recorded as undetermined, never a crash
        return EngineStats(n_rows, 0, 0, error=f"{type(exc).__name__}: {str(exc)[:200]}")


def _sample_sql(table: TableInfo, dialect: str, n_rows: int, sample_rows: int, seed: int) -> str:
    t = quote(table.name, dialect)
    cols = ", ".join(quote(c.name, dialect) for c in table.columns)
    if n_rows <= sample_rows:
        return f"SELECT {cols} FROM {t}"
    if dialect == "duckdb":
        order = f"hash(rowid + {int(seed)})"
    elif dialect == "sqlite":
        order = f"((rowid * 2654435761 + {int(seed)}) % 4294967296)"
    else:
        order = f"md5(CAST(ctid AS TEXT) || '{int(seed)}')"
    return f"SELECT {cols} FROM {t} ORDER BY {order} LIMIT {int(sample_rows)}"


def verify_proposal(proposal: NamerProposal, values: list[str]) -> float | None:
    """The full-match fraction of a model's regex, or ``None`` when it must be rejected.

    Rejected: a regex that does not compile, a trivial one, or one that fully matches fewer
    than 90% of the sampled values.
    """
    regex = proposal.regex.strip()
    if not regex or regex in TRIVIAL_REGEXES or regex.strip("^$") in TRIVIAL_REGEXES:
        return None
    try:
        compiled = re.compile(regex)
    except (re.error, RecursionError, ValueError):
        return None
    if not values or (compiled.fullmatch("") is not None and compiled.fullmatch("x" * 7)):
        return None
    fraction = sum(1 for v in values if compiled.fullmatch(v)) / len(values)
    return round(fraction, 6) if fraction >= NAMER_MIN_MATCH else None


def _tier_c(fp: ColumnFingerprint, sample: list[Any], namer: Namer) -> PatternMatch | None:
    texts = sorted(str(v) for v in sample if v is not None and not isinstance(v, bytes))
    if not texts:
        return None
    try:
        proposal = namer(fp, texts[:50])
    except Exception:  # a model failure is no evidence: nothing is proposed
        return None
    if proposal is None:
        return None
    fraction = verify_proposal(proposal, texts)
    if fraction is None:
        return None
    return PatternMatch(
        f"model:{proposal.pattern_name}"[:80],
        proposal.semantic_type[:80],
        "heuristic",
        HEURISTIC_CONFIDENCE,
        fraction,
        False,
        None,
        Tier.INTERPRETER_ONLY,
    )


def profile_table(
    runner: SqlRunner,
    table: TableInfo,
    *,
    rng: int = 0,
    sample_rows: int = SAMPLE_ROWS,
    namer: Namer | None = None,
) -> TableProfile:
    """Profile one table: engine statistics, a seeded sample, fingerprints and patterns."""
    try:
        n_rows, stats = _stats(runner, table)
        rows = (
            runner.execute(
                _sample_sql(table, runner.dialect, n_rows, sample_rows, rng),
                time_limit_ms=TIME_LIMIT_MS,
                max_rows=sample_rows,
            ).rows
            if table.columns
            else ()
        )
    except Exception as exc:  # an unreadable table is recorded, never a crash
        return TableProfile(
            table.name, 0, sample_rows, False, rng, error=f"{type(exc).__name__}: {str(exc)[:200]}"
        )
    reports = []
    for i, col in enumerate(table.columns):
        sample = [r[i] for r in rows]
        fp = fingerprint(table.name, col.name, col.type, stats[col.name], sample)
        patterns = match_patterns(fp, sample)
        if namer is not None and not patterns and fp.family == "text":
            proposed = _tier_c(fp, sample, namer)
            patterns = (proposed,) if proposed else ()
        reports.append(ColumnReport(fp, patterns))
    return TableProfile(table.name, n_rows, sample_rows, n_rows > sample_rows, rng, tuple(reports))


def deep_profile(
    runner: SqlRunner,
    catalog: Catalog,
    *,
    rng: int = 0,
    sample_rows: int = SAMPLE_ROWS,
    namer: Namer | None = None,
) -> CatalogProfile:
    """Profile every table of ``catalog`` through ``runner`` (see the module docstring)."""
    tables = tuple(
        profile_table(runner, t, rng=rng, sample_rows=sample_rows, namer=namer)
        for t in sorted(catalog.tables, key=lambda t: t.name)
    )
    return CatalogProfile(tables, runner.dialect, rng)
