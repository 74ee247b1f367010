"""Foreign keys by inclusion dependency, computed in the engine (Rosetta 5.2.10).

A child column references a parent column when at least 95% of the child's distinct non-null
values occur in the parent and the parent is at least 95% unique. Before any join runs, pairs
are pruned by the profile alone: value family (integers with integers, text with text), the
parent's uniqueness, cardinality (the child cannot have more distinct values than the parent
allows), a child on a grid (every value a multiple of some g > 1 while the parent's are not), a
column that only copies its own table's key, and sketch bounds (the child's sampled values
must fall inside the parent's min/max, or for text inside its length range). Names prune
nothing (a mangled schema keeps its value evidence); they decide which keys may join.

Among the parents that contain a child, one is kept, by rank:

1. a child whose contained values are small natural numbers (between 0 and ``GENERIC_MAX``:
   counters, sizes and codes that any dense sequence contains), or that start at 0 or 1, must
   pass a randomness test and, with fewer than ``GENERIC_LARGE_K`` values (too few for the
   test to have power), cover at least ``GENERIC_MIN_COVERAGE`` of the parent: the chance that
   ``k`` distinct values drawn from the parent's ``N`` all fall in the ``m`` parent values
   between the child's min and max, ``C(m, k) / C(N, k)``, must be at least ``WINDOW_ALPHA``;
2. a parent whose names agree with the child's (below), then higher containment, then a
   parent that is its table's leading key, then the tightest parent (fewest distinct values),
   then the name stem, then the names.

A table's leading key (its first column, when unique and never null) references another
table's leading key only when both hold the same values and at least ``ONE_TO_ONE_MIN`` of
them: identical surrogate ranges (1..N in two small tables) are the commonest coincidental
inclusion, while two large tables of exactly equal, identical keys are a one-to-one split.
A unique text column must cover at least ``ONE_TO_ONE_MIN_COVERAGE`` of its parent: business
codes drawn from one encoding (``AAAAAAAAB...``) are contained in each other without meaning it.
Columns whose best pattern is a year, flag, amount, date or free text are never keys.
Two other unique columns contained in each other are one one-to-one edge: the parent is the
side that is its table's leading key, then the table more others reference, then the one with
fewer columns.

Containment alone never makes a join: two columns of business codes drawn from one generator
(TPC-DS ``i_item_id`` in ``ca_address_id``) or small integers (``i_manufact_id`` in
``c_customer_sk``) are contained by chance. Each key records whether its names agree
(``names_agree``): the referencing column names the referenced column's own words (less the
table's shared prefix and a key word: ``ss_item_sk`` -> ``i_item_sk``, ``c_current_addr_sk`` ->
``ca_address_sk`` by abbreviation, ``ss_hdemo_sk`` -> household_demographics ``hd_demo_sk``
by its initial), or the referenced table's head noun when the referenced column is only a key
word (``Maker`` -> ``car_makers.Id``). Among the parents that contain a child, one whose names
agree is kept first; a key whose names do not agree stays value evidence only (the drafter
never proposes it as a join, and its catalog fact sits at the lowest tier).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from assay.catalog._deep import CatalogProfile, ColumnReport, quote, text_cast
from assay.catalog._profile import SqlRunner

__all__ = [
    "MIN_CONTAINMENT",
    "MIN_PARENT_UNIQUE",
    "WINDOW_ALPHA",
    "InferredKey",
    "KeyDiscovery",
    "column_prefix",
    "discover_foreign_keys",
    "name_stem",
    "names_agree",
    "table_prefixes",
]

MIN_CONTAINMENT = 0.95
MIN_PARENT_UNIQUE = 0.95
WINDOW_ALPHA = 1e-4
GENERIC_MAX = 1000
GENERIC_MIN_COVERAGE = 0.5
GENERIC_LARGE_K = 30
ONE_TO_ONE_MIN = 100
MAX_KEY_TEXT_LENGTH = 64
ONE_TO_ONE_MIN_COVERAGE = 0.95
NOT_KEYS = frozenset({"year", "boolean_flag", "free_text", "amount", "iso_date", "iso_datetime"})
TIME_LIMIT_MS = 600_000
_NUMERIC_TYPES = ("INT", "DEC", "NUM", "REAL", "FLOAT", "DOUBLE", "SERIAL")
_FLOAT_TYPES = ("REAL", "FLOAT", "DOUBLE")


@dataclass(frozen=True)
class InferredKey:
    """A foreign key proved by inclusion: ``table.column`` -> ``ref_table.ref_column``."""

    table: str
    column: str
    ref_table: str
    ref_column: str
    containment: float
    parent_unique: float
    n_child: int
    n_parent: int
    window_p: float
    name_rank: float
    generic: bool = False
    leading: bool = False
    named: bool = False

    @property
    def coverage(self) -> float:
        """The share of the parent's values the child uses."""
        return round(self.n_child * self.containment / self.n_parent, 6) if self.n_parent else 0.0

    @property
    def subject(self) -> str:
        return f"{self.table}.{self.column}"

    @property
    def target(self) -> str:
        return f"{self.ref_table}.{self.ref_column}"


@dataclass(frozen=True)
class KeyDiscovery:
    """The kept keys, every contained candidate, and how much pruning saved."""

    keys: tuple[InferredKey, ...]
    candidates: tuple[InferredKey, ...]
    n_pairs: int
    n_pruned: int
    n_joins: int


def name_stem(name: str) -> str:
    """A name folded for ranking: camelCase split, separators dropped, key suffixes removed.

    Example:
        >>> name_stem("CustomerId"), name_stem("c_custkey"), name_stem("Stadium_ID")
        ('customer', 'c_cust', 'stadium')
    """
    words = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()
    words = re.sub(r"[^a-z0-9]+", "_", words).strip("_")
    for suffix in ("_id", "_key", "_sk", "key", "id", "_no", "_code"):
        if words.endswith(suffix) and len(words) > len(suffix):
            words = words[: -len(suffix)].rstrip("_")
            break
    return words[:-1] if words.endswith("s") and len(words) > 3 else words


_KEY_WORDS = frozenset({"id", "key", "sk", "pk", "fk", "no", "num", "nbr", "number", "code", "ref"})
_MIN_ABBREVIATION = 3
_MIN_SUFFIX = 4


def _words(name: str) -> list[str]:
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    spaced = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", spaced)
    return [w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w]


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("ses") and len(word) > 4:
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def _core(column: str, prefix: str) -> list[str]:
    """A column's own words: less its table's shared prefix and a trailing key word. A word with
    a digit names nothing (a mangled ``c2`` beside another table's ``c2`` is a position)."""
    words = _words(column)
    if prefix and len(words) > 1 and words[0] == prefix:
        words = words[1:]
    while words and words[-1] in _KEY_WORDS:
        words = words[:-1]
    return [_singular(w) for w in words if not any(ch.isdigit() for ch in w)]


def _matches(child: str, parent: str, parent_prefix: str) -> bool:
    """One child word names one parent word: the same word, an abbreviation of it either way
    (``addr``/``address``, ``cont``/``continent``), or the word behind the parent table's
    prefix letters (``hdemo`` for ``demo`` of ``hd_``)."""
    if child == parent:
        return True
    short, long_ = sorted((child, parent), key=len)
    if len(short) >= _MIN_ABBREVIATION and long_.startswith(short):
        return True
    if len(parent) >= _MIN_SUFFIX and child.endswith(parent) and len(child) > len(parent):
        head = child[: -len(parent)]
        return bool(parent_prefix) and parent_prefix.startswith(head)
    return False


def names_agree(
    child_column: str,
    parent_table: str,
    parent_column: str,
    child_prefix: str = "",
    parent_prefix: str = "",
) -> bool:
    """Whether a referencing column's name names the referenced column (see the module
    docstring): every one of the parent column's own words is named by a word of the child's,
    or, when the parent column is only a key word (``Id``), the parent table's head noun is.

    Example:
        >>> names_agree("ss_item_sk", "item", "i_item_sk", "ss", "i")
        True
        >>> names_agree("c_current_addr_sk", "customer_address", "ca_address_sk", "c", "ca")
        True
        >>> names_agree("i_item_id", "customer_address", "ca_address_id", "i", "ca")
        False
        >>> names_agree("Maker", "car_makers", "Id")
        True
    """
    child = _core(child_column, child_prefix)
    if not child:
        return False
    wanted = _core(parent_column, parent_prefix)
    if not wanted:
        table = [_singular(w) for w in _words(parent_table)]
        wanted = table[-1:]
    if not wanted:
        return False
    return all(any(_matches(c, w, parent_prefix) for c in child) for w in wanted)


def column_prefix(columns: list[str]) -> str:
    """The short word (at most four letters) every one of a table's columns starts with
    (``ss`` of TPC-DS store_sales, ``web`` of web_site), or ``""``.

    Example:
        >>> column_prefix(["ss_item_sk", "ss_net_profit"]), column_prefix(["id", "name"])
        ('ss', '')
    """
    split = [_words(c) for c in columns]
    if len(split) < 2 or any(len(w) < 2 for w in split):
        return ""
    heads = {w[0] for w in split}
    head = heads.pop() if len(heads) == 1 else ""
    return head if head.isalpha() and len(head) <= 4 else ""


def table_prefixes(profile: CatalogProfile) -> dict[str, str]:
    """Per profiled table, its ``column_prefix`` where it has one."""
    out = {}
    for table in profile.tables:
        prefix = column_prefix([r.fingerprint.column for r in table.columns])
        if prefix:
            out[table.name] = prefix
    return out


def _name_rank(child: ColumnReport, parent: ColumnReport) -> float:
    c = name_stem(child.fingerprint.column)
    targets = {name_stem(parent.fingerprint.column), name_stem(parent.fingerprint.table)}
    if c in targets:
        return 1.0
    if c and any(t and (t.endswith(c) or c.endswith(t)) for t in targets):
        return 0.5
    return 0.0


def _keyish(report: ColumnReport) -> bool:
    fp = report.fingerprint
    if fp.error or fp.family not in ("integer", "text") or fp.n_nonnull == 0:
        return False
    if fp.family == "text" and (fp.max_length or 0) > MAX_KEY_TEXT_LENGTH:
        return False
    return report.best is None or report.best.name not in NOT_KEYS


def _common_step(report: ColumnReport) -> int:
    """The greatest common divisor of the sampled integer values (1 when there is none)."""
    return report.fingerprint.integer_gcd or 1


def _num(value: object) -> float | None:
    try:
        return float(str(value))
    except (TypeError, ValueError):
        return None


def _bounds_ok(child: ColumnReport, parent: ColumnReport) -> bool:
    c, p = child.fingerprint, parent.fingerprint
    if c.family == "integer":
        lo, hi = _num(p.min_value), _num(p.max_value)
        clo, chi = _num(c.min_value), _num(c.max_value)
        if None in (lo, hi, clo, chi):
            return True
        assert lo is not None and hi is not None and clo is not None and chi is not None
        if chi < lo or clo > hi:
            return False
        numeric = c.numeric
        if numeric:
            inside = [q for q in (numeric.get("p05"), numeric.get("p95")) if q is not None]
            return all(lo <= q <= hi for q in inside)
        return True
    if None in (c.min_length, c.max_length, p.min_length, p.max_length):
        return True
    assert c.min_length is not None and p.max_length is not None
    assert c.max_length is not None and p.min_length is not None
    return c.min_length <= p.max_length and c.max_length >= p.min_length


def _plausible(child: ColumnReport, parent: ColumnReport) -> bool:
    c, p = child.fingerprint, parent.fingerprint
    if (c.table, c.column) == (p.table, p.column) or c.family != p.family:
        return False
    if c.table == p.table and c.unique_ratio >= MIN_PARENT_UNIQUE:
        return False  # a unique copy of its own table's key is an alias, not a reference
    if _common_step(child) > 1 and _common_step(parent) == 1:
        return False  # a child on a grid (all multiples of g) is not a sample of the parent
    if c.n_distinct < 2 or p.unique_ratio < MIN_PARENT_UNIQUE:
        return False
    if c.n_distinct * MIN_CONTAINMENT > p.n_distinct:
        return False
    return _bounds_ok(child, parent)


def _expr(report: ColumnReport, dialect: str) -> str:
    fp = report.fingerprint
    c = quote(fp.column, dialect)
    if fp.family == "integer" and any(k in fp.type.upper() for k in _FLOAT_TYPES):
        c = f"CAST({c} AS BIGINT)"
    return text_cast(c, dialect)


def _containment(
    runner: SqlRunner, child: ColumnReport, parent: ColumnReport
) -> tuple[int, int, int, int]:
    """Child distinct, contained, parent values in the contained window, parent distinct."""
    d = runner.dialect
    c, p = child.fingerprint, parent.fingerprint
    numeric_parent = c.family == "integer" and any(k in p.type.upper() for k in _NUMERIC_TYPES)
    n = quote(p.column, d) if numeric_parent else "NULL"
    sql = (
        f"WITH c AS (SELECT DISTINCT {_expr(child, d)} AS v FROM {quote(c.table, d)} "
        f"WHERE {quote(c.column, d)} IS NOT NULL), "
        f"p AS (SELECT DISTINCT {_expr(parent, d)} AS v, {n} AS n FROM {quote(p.table, d)} "
        f"WHERE {quote(p.column, d)} IS NOT NULL), "
        "j AS (SELECT p.n AS n FROM c JOIN p ON c.v = p.v) "
        "SELECT (SELECT count(*) FROM c), (SELECT count(*) FROM j), "
        "(SELECT count(*) FROM p WHERE n BETWEEN (SELECT min(n) FROM j) AND "
        "(SELECT max(n) FROM j)), (SELECT count(*) FROM p), (SELECT min(n) FROM j), "
        "(SELECT max(n) FROM j)"
    )
    row = runner.execute(sql, time_limit_ms=TIME_LIMIT_MS, max_rows=1).rows[0]
    n_child, n_both, window, n_parent, low, high = (v for v in row)
    lo, hi = _num(low), _num(high)
    generic = (
        lo is not None and hi is not None and (lo in (0.0, 1.0) or 0 <= lo <= hi <= GENERIC_MAX)
    )
    return (
        int(n_child or 0),
        int(n_both or 0),
        int(window or 0) if generic else -1,
        int(n_parent or 0),
    )


def _window_p(k: int, m: int, n: int) -> float:
    """``C(m, k) / C(n, k)``: all ``k`` random draws from ``n`` values fall in ``m`` of them."""
    if m < 0 or k == 0 or m >= n:
        return 1.0
    if k > m:
        return 0.0
    log_p = (
        math.lgamma(m + 1)
        - math.lgamma(k + 1)
        - math.lgamma(m - k + 1)
        - (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1))
    )
    return round(math.exp(log_p), 12)


def _choose(candidates: list[InferredKey]) -> InferredKey | None:
    passing = [
        k
        for k in candidates
        if not k.generic
        or (
            k.window_p >= WINDOW_ALPHA
            and (k.coverage >= GENERIC_MIN_COVERAGE or k.n_child >= GENERIC_LARGE_K)
        )
    ]
    if not passing:
        return None
    return min(
        passing,
        key=lambda k: (
            not k.named,
            -k.containment,
            not k.leading,
            k.n_parent,
            -k.name_rank,
            k.ref_table,
            k.ref_column,
        ),
    )


def _one_to_one(
    keys: list[InferredKey], widths: dict[str, int], table_keys: set[tuple[str, str]]
) -> list[InferredKey]:
    index = {(k.subject, k.target): k for k in keys}
    kept = []
    for k in keys:
        back = index.get((k.target, k.subject))
        if back is None:
            kept.append(k)
            continue
        indegree = {
            t: sum(1 for o in keys if o.ref_table == t and o not in (k, back))
            for t in (k.table, k.ref_table)
        }
        parent_rank = (
            (k.ref_table, k.ref_column) not in table_keys,
            -indegree[k.ref_table],
            widths[k.ref_table],
            k.ref_table,
        )
        child_rank = (
            (k.table, k.column) not in table_keys,
            -indegree[k.table],
            widths[k.table],
            k.table,
        )
        if parent_rank < child_rank:
            kept.append(k)
    return kept


def _table_keys(profile: CatalogProfile) -> set[tuple[str, str]]:
    """Each table's leading key: its first column, when key-like, unique and never null."""
    keys = set()
    for table in profile.tables:
        if not table.columns:
            continue
        report = table.columns[0]
        fp = report.fingerprint
        if _keyish(report) and fp.n_null == 0 and fp.unique_ratio >= MIN_PARENT_UNIQUE:
            keys.add((fp.table, fp.column))
    return keys


def discover_foreign_keys(runner: SqlRunner, profile: CatalogProfile) -> KeyDiscovery:
    """Single-column foreign keys of the profiled database (see the module docstring)."""
    reports = [c for t in profile.tables for c in t.columns if _keyish(c)]
    table_keys = _table_keys(profile)
    prefixes = table_prefixes(profile)
    parents = [r for r in reports if r.fingerprint.unique_ratio >= MIN_PARENT_UNIQUE]
    n_pairs = n_pruned = n_joins = 0
    candidates: list[InferredKey] = []
    chosen: list[InferredKey] = []
    for child in reports:
        found: list[InferredKey] = []
        for parent in parents:
            n_pairs += 1
            pair = {(child.fingerprint.table, child.fingerprint.column)}
            pair.add((parent.fingerprint.table, parent.fingerprint.column))
            if not _plausible(child, parent):
                n_pruned += 1
                continue
            n_joins += 1
            try:
                n_child, n_both, window, n_parent = _containment(runner, child, parent)
            except Exception:  # a pair the engine cannot compare proves nothing
                continue
            if not n_child or n_both / n_child < MIN_CONTAINMENT:
                continue
            identical = n_child == n_both == n_parent
            if pair <= table_keys and not (identical and n_parent >= ONE_TO_ONE_MIN):
                continue
            unique_text = (
                child.fingerprint.family == "text"
                and child.fingerprint.unique_ratio >= MIN_PARENT_UNIQUE
            )
            if unique_text and n_both / max(n_parent, 1) < ONE_TO_ONE_MIN_COVERAGE:
                continue
            c, p = child.fingerprint, parent.fingerprint
            found.append(
                InferredKey(
                    c.table,
                    c.column,
                    p.table,
                    p.column,
                    round(n_both / n_child, 6),
                    round(p.unique_ratio, 6),
                    n_child,
                    n_parent,
                    _window_p(n_both, window, n_parent),
                    _name_rank(child, parent),
                    window >= 0,
                    (p.table, p.column) in table_keys,
                    names_agree(
                        c.column,
                        p.table,
                        p.column,
                        prefixes.get(c.table, ""),
                        prefixes.get(p.table, ""),
                    ),
                )
            )
        candidates.extend(found)
        best = _choose(found)
        if best is not None:
            chosen.append(best)
    widths = {t.name: len(t.columns) for t in profile.tables}
    keys = sorted(_one_to_one(chosen, widths, table_keys), key=lambda k: (k.table, k.column))
    return KeyDiscovery(tuple(keys), tuple(candidates), n_pairs, n_pruned, n_joins)
