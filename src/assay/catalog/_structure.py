"""Rollups, PII and table descriptions from the profile and the keys (Rosetta 5.2.4-5.2.6).

- A rollup ``fine -> coarse`` inside one table holds when every ``fine`` value sits with exactly
  one ``coarse`` value (a functional dependency, checked in the engine) and ``fine`` has at least
  ``ROLLUP_MIN_AMPLIFICATION`` times as many distinct values; two columns in bijection (same
  distinct count, each determining the other) are an alias, recorded as such, never a rollup.
  Foreign-key columns, keys, measures and columns whose values repeat less than twice on
  average are not rollup levels; only adjacent rungs are kept.
- A column's PII class comes from the pattern its values proved, never from its name; payment
  cards, Social Security numbers and medical record numbers are forcing (raw values refused).
- A table is described by structure: its key (the grain), the keys it holds and the keys that
  point at it (dimension, fact, bridge). When the structure does not say, nothing is claimed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from assay.catalog._deep import CatalogProfile, ColumnReport, TableProfile, profile_table, quote
from assay.catalog._fingerprint import ColumnFingerprint
from assay.catalog._keys import InferredKey
from assay.catalog._patterns import FORCING_PII
from assay.catalog._profile import SqlRunner
from assay.catalog._schema import Catalog, TableInfo

__all__ = [
    "MAX_ROLLUP_COLUMNS",
    "ROLLUP_MIN_AMPLIFICATION",
    "PiiFinding",
    "Rollup",
    "TableDescription",
    "closed_domains",
    "describe_tables",
    "dimension_values",
    "find_pii",
    "find_rollups",
]

ROLLUP_MIN_AMPLIFICATION = 2.0
MAX_ROLLUP_COLUMNS = 24
MAX_LEVEL_DISTINCT = 10_000
MAX_LEVEL_RATIO = 0.5
# A wide closed domain's values fill at least this many rows each on average (closed_domains).
WIDE_REPEATS = 5
TIME_LIMIT_MS = 600_000
Role = Literal["dimension", "fact", "bridge", "entity"]


@dataclass(frozen=True)
class Rollup:
    """``fine`` rolls up to ``coarse`` in ``table`` (or, with ``alias``, they are synonyms)."""

    table: str
    fine: str
    coarse: str
    n_fine: int
    n_coarse: int
    alias: bool = False

    @property
    def amplification(self) -> float:
        return round(self.n_fine / self.n_coarse, 6) if self.n_coarse else 0.0


@dataclass(frozen=True)
class PiiFinding:
    """A PII class proved by a column's values; ``forcing`` refuses raw values."""

    table: str
    column: str
    pii: str
    pattern: str
    forcing: bool
    checksum: bool


@dataclass(frozen=True)
class TableDescription:
    """What a table is, from its structure: role, grain and its neighbourhood."""

    table: str
    role: Role
    grain: tuple[str, ...]
    references: tuple[str, ...]
    referenced_by: tuple[str, ...]
    n_rows: int


def _level(report: ColumnReport, key_columns: set[tuple[str, str]]) -> bool:
    fp = report.fingerprint
    if fp.error or fp.family not in ("text", "integer") or (fp.table, fp.column) in key_columns:
        return False
    if fp.n_distinct < 2 or fp.n_distinct > MAX_LEVEL_DISTINCT:
        return False
    if fp.unique_ratio > MAX_LEVEL_RATIO:
        return False  # a level repeats: most near-unique columns determine anything
    return report.best is None or report.best.name not in ("free_text", "amount", "year")


def _determines(runner: SqlRunner, table: str, a: str, b: str) -> bool:
    d = runner.dialect
    t, ca, cb = quote(table, d), quote(a, d), quote(b, d)
    sql = (
        f"SELECT count(*) FROM (SELECT {ca} FROM {t} WHERE {ca} IS NOT NULL AND {cb} IS NOT NULL "
        f"GROUP BY {ca} HAVING count(DISTINCT {cb}) > 1) v"
    )
    return int(runner.execute(sql, time_limit_ms=TIME_LIMIT_MS, max_rows=1).rows[0][0] or 0) == 0


def find_rollups(
    runner: SqlRunner, profile: CatalogProfile, keys: tuple[InferredKey, ...] = ()
) -> tuple[Rollup, ...]:
    """Rollups and aliases of every table (see the module docstring)."""
    key_columns = {(k.table, k.column) for k in keys} | {(k.ref_table, k.ref_column) for k in keys}
    found: list[Rollup] = []
    for table in profile.tables:
        levels = [c for c in table.columns if _level(c, key_columns)][:MAX_ROLLUP_COLUMNS]
        edges: list[Rollup] = []
        for fine in levels:
            for coarse in levels:
                f, c = fine.fingerprint, coarse.fingerprint
                if f.column == c.column or f.n_distinct < c.n_distinct:
                    continue
                if f.n_distinct == c.n_distinct and f.column > c.column:
                    continue  # an alias pair is tested once
                try:
                    if not _determines(runner, table.name, f.column, c.column):
                        continue
                    if f.n_distinct == c.n_distinct:
                        if _determines(runner, table.name, c.column, f.column):
                            edges.append(
                                Rollup(
                                    table.name,
                                    f.column,
                                    c.column,
                                    f.n_distinct,
                                    c.n_distinct,
                                    alias=True,
                                )
                            )
                        continue
                except Exception:  # an uncheckable pair proves nothing
                    continue
                if f.n_distinct >= ROLLUP_MIN_AMPLIFICATION * c.n_distinct:
                    edges.append(Rollup(table.name, f.column, c.column, f.n_distinct, c.n_distinct))
        found.extend(_adjacent(edges))
    return tuple(sorted(found, key=lambda r: (r.table, r.alias, r.fine, r.coarse)))


def _adjacent(edges: list[Rollup]) -> list[Rollup]:
    """Drop ``a -> c`` when ``a -> b -> c`` is there (only adjacent rungs)."""
    rolls = {(e.fine, e.coarse) for e in edges if not e.alias}
    kept = []
    for e in edges:
        if not e.alias and any(
            (e.fine, mid) in rolls and (mid, e.coarse) in rolls for mid in {m for _, m in rolls}
        ):
            continue
        kept.append(e)
    return kept


def find_pii(profile: CatalogProfile) -> tuple[PiiFinding, ...]:
    """Every column whose values proved a PII class."""
    found = []
    for table in profile.tables:
        for report in table.columns:
            for match in report.patterns:
                if match.pii and match.kind != "heuristic":
                    fp = report.fingerprint
                    found.append(
                        PiiFinding(
                            fp.table,
                            fp.column,
                            match.pii,
                            match.name,
                            match.pii in FORCING_PII,
                            match.checksum,
                        )
                    )
                    break
    return tuple(found)


def describe_tables(
    profile: CatalogProfile, keys: tuple[InferredKey, ...]
) -> tuple[TableDescription | None, ...]:
    """One description per table, in profile order; ``None`` where the structure says nothing."""
    out: list[TableDescription | None] = []
    for table in profile.tables:
        refs = tuple(sorted(k.target for k in keys if k.table == table.name))
        by = tuple(sorted(k.subject for k in keys if k.ref_table == table.name))
        grain = next(
            (
                (c.fingerprint.column,)
                for c in table.columns
                if c.fingerprint.n_null == 0
                and c.fingerprint.n_nonnull > 0
                and c.fingerprint.unique_ratio >= 1.0
                and c.fingerprint.family in ("integer", "text")
            ),
            (),
        )
        if not table.n_rows or (not grain and not refs and not by):
            out.append(None)
            continue
        other = len(table.columns) - len({r.split(".")[0] for r in refs}) - len(grain)
        role: Role
        if len(refs) >= 2 and other <= 1:
            role = "bridge"
        elif len(refs) >= 2:
            role = "fact"
        elif by and grain:
            role = "dimension"
        else:
            role = "entity"
        if not grain and role in ("dimension", "entity"):
            out.append(None)
            continue
        out.append(TableDescription(table.name, role, grain, refs, by, table.n_rows))
    return tuple(out)


def closed_domains(
    runner: SqlRunner,
    profile: CatalogProfile,
    *,
    max_values: int = 20,
    parents: frozenset[str] = frozenset(),
    wide_values: int = 0,
) -> dict[tuple[str, str], tuple[str, ...]]:
    """The exact distinct values of every low-cardinality text column (at most ``max_values``,
    or at most ``wide_values`` when each value fills ``WIDE_REPEATS`` rows or more on average:
    a customer's state, 49 values over 500 addresses, is a category a question groups by).

    A column's values must repeat (at most ``MAX_LEVEL_RATIO`` distinct per row). In a table
    that a key points at (``parents``), a small table, any repetition is enough, and a table's
    only text column counts too: a lookup table's label holds each category once (five
    continents in five rows), which is what makes it the list of them; a unique text column
    beside others (a singer's name, a song's title) is not a category.
    PII columns are left out: their values are not to be listed anywhere.
    """
    pii = {(p.table, p.column) for p in find_pii(profile)}
    out: dict[tuple[str, str], tuple[str, ...]] = {}
    for table in profile.tables:
        texts = sum(1 for r in table.columns if r.fingerprint.family == "text")
        for report in table.columns:
            fp = report.fingerprint
            if (fp.table, fp.column) in pii or fp.family != "text" or fp.error:
                continue
            if not 1 < fp.n_distinct <= max_values and not _wide(fp, max_values, wide_values):
                continue
            label = fp.table in parents and (fp.n_distinct < fp.n_nonnull or texts == 1)
            if fp.unique_ratio > MAX_LEVEL_RATIO and not label:
                continue
            d = runner.dialect
            sql = (
                f"SELECT DISTINCT {quote(fp.column, d)} FROM {quote(fp.table, d)} "
                f"WHERE {quote(fp.column, d)} IS NOT NULL"
            )
            try:
                limit = max(max_values, wide_values) + 1
                rows = runner.execute(sql, time_limit_ms=TIME_LIMIT_MS, max_rows=limit)
            except Exception:  # an unreadable domain is simply not proposed
                continue
            values = sorted(str(r[0]) for r in rows.rows)
            allowed = max_values if fp.n_distinct <= max_values else wide_values
            if len(values) <= allowed and all(v.strip() for v in values):
                out[(fp.table, fp.column)] = tuple(values)
    return out


def _wide(fp: ColumnFingerprint, max_values: int, wide_values: int) -> bool:
    """Whether a text column of more than ``max_values`` values is still a closed domain: at
    most ``wide_values`` values, each filling ``WIDE_REPEATS`` rows or more on average."""
    return max_values < fp.n_distinct <= wide_values and (
        fp.n_nonnull >= WIDE_REPEATS * fp.n_distinct
    )


def dimension_values(
    runner: SqlRunner, catalog: Catalog, columns: list[str], *, max_values: int = 20
) -> tuple[dict[str, tuple[str, ...]], dict[str, str]]:
    """The values of each declared dimension column (``table.column``) whose domain is closed.

    For a layer imported from a project that already declares these columns as dimensions:
    the author's declaration stands in for the drafter's repetition test (a small table's
    country column repeats no value yet is a category). The rest is the drafter's rule: a
    text column, not PII (proved from its values), at most ``max_values`` distinct non-blank
    values, read in the engine with a LIMIT. Returns the values per column and, for every
    other column, why none were read (said in the import report, never guessed).
    """
    wanted: dict[str, list[str]] = {}
    for ref in columns:
        table, _, column = ref.partition(".")
        wanted.setdefault(table, []).append(column)
    values: dict[str, tuple[str, ...]] = {}
    why: dict[str, str] = {}
    profiles: list[TableProfile] = []
    asked: dict[tuple[str, str], str] = {}  # (table, column) as the engine names them -> ref
    for table, names in sorted(wanted.items()):
        info = catalog.table(table)  # names compare case-insensitively, as in the catalogue
        kept = []
        for name in names:
            col = info.column(name) if info is not None else None
            if info is None or col is None:
                why[f"{table}.{name}"] = "not in the database"
            elif (info.name, col.name) not in asked:
                asked[(info.name, col.name)] = f"{table}.{name}"
                kept.append(col)
        if info is None or not kept:
            continue
        profiled = profile_table(runner, TableInfo(info.name, tuple(kept)))
        if profiled.error:
            why.update({asked[(info.name, c.name)]: f"unreadable ({profiled.error})" for c in kept})
            continue
        profiles.append(profiled)
    found_pii = find_pii(CatalogProfile(tuple(profiles), runner.dialect))
    pii = {(p.table, p.column): p.pii for p in found_pii}
    d = runner.dialect
    for report in (r for t in profiles for r in t.columns):
        fp = report.fingerprint
        ref = asked[(fp.table, fp.column)]
        if (fp.table, fp.column) in pii:
            why[ref] = f"PII ({pii[(fp.table, fp.column)]}): values are not listed"
        elif fp.error:
            why[ref] = f"unreadable ({fp.error})"
        elif fp.n_nonnull == 0:
            why[ref] = "every value is NULL"
        elif fp.family != "text":
            why[ref] = f"not text ({fp.family})"
        elif fp.n_distinct > max_values:
            why[ref] = f"more than {max_values} distinct values"
        else:
            quoted = quote(fp.column, d)
            sql = (
                f"SELECT DISTINCT {quoted} FROM {quote(fp.table, d)} WHERE {quoted} IS NOT NULL "
                f"LIMIT {max_values + 1}"
            )
            try:
                rows = runner.execute(sql, time_limit_ms=TIME_LIMIT_MS, max_rows=max_values + 1)
            except Exception as exc:  # an unreadable domain is reported, never guessed
                why[ref] = f"unreadable ({type(exc).__name__})"
                continue
            found = sorted(str(r[0]) for r in rows.rows)
            if len(found) > max_values:
                why[ref] = f"more than {max_values} distinct values"
            elif not all(v.strip() for v in found):
                why[ref] = "a blank value"
            else:
                values[ref] = tuple(found)
    return values, why
