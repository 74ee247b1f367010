"""Tier A of the deep profiler (Rosetta 4.2): a column's structural fingerprint, no model.

Exact counts (rows, nulls, distinct values, min, max, lengths) come from one aggregate query per
table in the engine (``assay.catalog._deep``); the shape statistics below are computed over a
stated, seeded sample of at most ``SAMPLE_ROWS`` rows. Everything is sorted before it is
counted or picked, so the fingerprint is the same under any ``PYTHONHASHSEED``.
"""

from __future__ import annotations

import datetime as _dt
import decimal
import itertools
import math
import re
from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

__all__ = [
    "BENFORD_MIN_N",
    "MONOTONE_MIN_STEP1",
    "SAMPLE_ROWS",
    "ColumnFingerprint",
    "EngineStats",
    "Family",
    "Segment",
    "fingerprint",
]

SAMPLE_ROWS = 5_000
BENFORD_MIN_N = 30
MONOTONE_MIN_STEP1 = 0.70
STAND_IN_MIN_SHARE = 0.005
SEGMENT_MIN_SHARE = 0.95
PREFIX_MIN_SHARE = 0.90
DELIMITERS = tuple(sorted(" #$%&'()*+,-./:;<=>@[\\]^_|~"))
TEXT_STAND_INS = ("", "-", "?", "n/a", "na", "none", "null", "unknown", "tbd", "xxx")
NUMERIC_STAND_INS = (-1, -9, -99, -999, -9999, 0, 999, 9999, 99999, 999999, 9999999)
DATE_STAND_INS = ("0001-01-01", "1900-01-01", "2999-12-31", "9999-01-01", "9999-12-31")
_INT = re.compile(r"[+-]?\d+")
_DEC = re.compile(r"[+-]?(\d+\.\d*|\.\d+)([eE][+-]?\d+)?")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?")

Family = Literal["integer", "decimal", "text", "date", "boolean", "binary", "empty"]


@dataclass(frozen=True)
class EngineStats:
    """Exact statistics of one column, from the engine's aggregate pass."""

    n_rows: int
    n_null: int
    n_distinct: int
    min_value: Any = None
    max_value: Any = None
    min_length: int | None = None
    max_length: int | None = None
    error: str = ""


@dataclass(frozen=True)
class Segment:
    """One part of a composite code split on its dominant delimiter (one level only)."""

    position: int
    family: str
    min_length: int
    max_length: int
    distinct_ratio: float


@dataclass(frozen=True)
class ColumnFingerprint:
    """Tier A: what the values look like, with every statistic named and rounded."""

    table: str
    column: str
    type: str
    n_rows: int
    n_null: int
    n_distinct: int
    family: Family
    distinct_ratio: float
    min_value: Any = None
    max_value: Any = None
    min_length: int | None = None
    max_length: int | None = None
    sample_size: int = 0
    mean_length: float | None = None
    char_classes: dict[str, float] = field(default_factory=dict)
    delimiters: dict[str, float] = field(default_factory=dict)
    case: str = "none"
    prefix: str = ""
    prefix_share: float = 0.0
    suffix: str = ""
    suffix_share: float = 0.0
    entropy_bits: float | None = None
    numeric: dict[str, float] = field(default_factory=dict)
    benford_kl: float | None = None
    monotone_step1: float | None = None
    auto_increment: bool = False
    integer_gcd: int | None = None
    stand_ins: tuple[tuple[str, float], ...] = ()
    segments: tuple[Segment, ...] = ()
    error: str = ""

    @property
    def n_nonnull(self) -> int:
        return self.n_rows - self.n_null

    @property
    def unique_ratio(self) -> float:
        """Distinct values over non-null rows (1.0 for a key; NaN-free: 0.0 when empty)."""
        return self.n_distinct / self.n_nonnull if self.n_nonnull else 0.0

    def to_dict(self) -> dict[str, Any]:
        record = asdict(self)
        record["min_value"] = _jsonable(self.min_value)
        record["max_value"] = _jsonable(self.max_value)
        record["stand_ins"] = [list(s) for s in self.stand_ins]
        return record


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return f"<{len(bytes(value))} bytes>"
    return str(value)


def _text(value: Any) -> str:
    if type(value) is str:
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _family(values: list[Any]) -> Family:
    if not values:
        return "empty"
    kinds = set()
    # Each value's kind depends on the value alone: one look per distinct text suffices (the
    # regular expressions below are the cost on a sample of thousands).
    seen: set[str] = set()
    for v in values:
        if isinstance(v, (bytes, bytearray, memoryview)):
            return "binary"
        if type(v) is str:
            if v in seen:
                continue
            seen.add(v)
        elif type(v) is int:
            kinds.add("integer")
            continue
        elif type(v) is decimal.Decimal:
            kinds.add("decimal")
            continue
        if isinstance(v, bool):
            kinds.add("boolean")
        elif isinstance(v, int):
            kinds.add("integer")
        elif isinstance(v, (float, decimal.Decimal)):
            kinds.add("integer" if float(v).is_integer() and isinstance(v, float) else "decimal")
        elif isinstance(v, (_dt.date, _dt.datetime, _dt.time)):
            kinds.add("date")
        else:
            s = str(v).strip()
            if _INT.fullmatch(s) and not (len(s) > 1 and s.startswith("0")):
                kinds.add("integer")
            elif _DEC.fullmatch(s):
                kinds.add("decimal")
            elif _DATE.fullmatch(s):
                kinds.add("date")
            else:
                kinds.add("text")
    if kinds == {"boolean"}:
        return "boolean"
    if kinds <= {"integer"}:
        return "integer"
    if kinds <= {"integer", "decimal"}:
        return "decimal"
    if kinds == {"date"}:
        return "date"
    return "text"


def _shares(counter: Counter[str], total: int) -> dict[str, float]:
    return {k: round(counter[k] / total, 6) for k in sorted(counter)} if total else {}


def _common_affix(texts: list[str], *, suffix: bool) -> tuple[str, float]:
    """The longest affix (up to 8 characters) shared by at least 90% of the values."""
    best, share = "", 0.0
    for n in range(1, 9):
        counts = Counter((t[-n:] if suffix else t[:n]) for t in texts if len(t) > n)
        if not counts:
            break
        affix, count = min(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        if count / len(texts) < PREFIX_MIN_SHARE:
            break
        best, share = affix, round(count / len(texts), 6)
    return best, share


def _entropy(chars: Counter[str]) -> float | None:
    total = sum(chars.values())
    if not total:
        return None
    return round(-sum(c / total * math.log2(c / total) for c in chars.values()), 6)


def _numeric(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)

    def q(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(p * (len(ordered) - 1) + 0.5))], 6)

    return {
        "mean": round(math.fsum(ordered) / len(ordered), 6),
        "median": q(0.5),
        "p05": q(0.05),
        "p95": q(0.95),
        "negative_share": round(sum(1 for v in ordered if v < 0) / len(ordered), 6),
        "zero_share": round(sum(1 for v in ordered if v == 0) / len(ordered), 6),
    }


def _benford(values: list[float]) -> float | None:
    """KL divergence of the first significant digit from Benford's law (N >= 30)."""
    digits = []
    for v in values:
        a = abs(v)
        if a > 0 and math.isfinite(a):
            digits.append(int(f"{a:e}"[0]))
    if len(digits) < BENFORD_MIN_N:
        return None
    counts = Counter(digits)
    kl = 0.0
    for d in range(1, 10):
        p = counts[d] / len(digits)
        if p > 0:
            kl += p * math.log(p / math.log10(1 + 1 / d))
    return round(kl, 6)


def _monotone(values: list[float]) -> float | None:
    ints = sorted({int(v) for v in values if float(v).is_integer()})
    if len(ints) < 3:
        return None
    steps = sum(1 for a, b in itertools.pairwise(ints) if b - a == 1)
    return round(steps / (len(ints) - 1), 6)


def _gcd(values: list[float]) -> int | None:
    """The greatest common divisor of the distinct non-zero integer values (None if none)."""
    ints = sorted({abs(int(v)) for v in values if v})
    return math.gcd(*ints) if ints else None


def _stand_ins(
    values: list[Any], texts: list[str], family: Family
) -> tuple[tuple[str, float], ...]:
    n = len(values)
    if not n:
        return ()
    found: list[tuple[str, float]] = []
    counts = Counter(t.strip().lower() for t in texts)
    if family in ("integer", "decimal"):
        nums = [float(t) for t in texts]
        tally = Counter(nums)
        for code in NUMERIC_STAND_INS:
            share = tally[code] / n
            if share < STAND_IN_MIN_SHARE:
                continue
            rest = [v for v in nums if v != code]
            if not rest:
                continue
            if (code <= 0 and min(rest) > 0) or (code > 0 and max(rest) <= code / 10):
                found.append((str(code), round(share, 6)))
    else:
        for text_code in (*TEXT_STAND_INS, *DATE_STAND_INS):
            share = sum(c for t, c in counts.items() if text_code in (t, t[:10])) / n
            if share >= STAND_IN_MIN_SHARE and (text_code or family == "text"):
                found.append((text_code, round(share, 6)))
    return tuple(sorted(set(found)))


def _segments(texts: list[str], delimiters: dict[str, float]) -> tuple[Segment, ...]:
    dominant = [d for d, s in delimiters.items() if s >= SEGMENT_MIN_SHARE and d != " "]
    if not dominant:
        return ()
    delim = dominant[0]
    parts = [t.split(delim) for t in texts]
    width = Counter(len(p) for p in parts)
    n_parts, count = min(width.items(), key=lambda kv: (-kv[1], kv[0]))
    if count / len(parts) < SEGMENT_MIN_SHARE:
        return ()
    rows = [p for p in parts if len(p) == n_parts]
    segments = []
    for i in range(n_parts):
        column = [r[i] for r in rows]
        lengths = [len(c) for c in column]
        segments.append(
            Segment(
                i,
                _family(list(column)),
                min(lengths),
                max(lengths),
                round(len(set(column)) / len(column), 6),
            )
        )
    return tuple(segments)


def _case(texts: list[str], chars: Counter[str]) -> str:
    alpha = {ch for ch in chars if ch.isalpha()}
    letters = [t for t in texts if not alpha.isdisjoint(t)]
    if not letters:
        return "none"
    if all(t.upper() == t for t in letters):
        return "upper"
    if all(t.lower() == t for t in letters):
        return "lower"
    if all(t.istitle() for t in letters):
        return "title"
    return "mixed"


def _char_classes(chars: Counter[str]) -> dict[str, float]:
    """Shares of character classes, from the count of each character over all the texts."""
    total = sum(chars.values())
    if not total:
        return {}
    classes: Counter[str] = Counter()
    for ch, n in chars.items():
        if ch.isdigit():
            classes["digit"] += n
        elif ch.isalpha():
            classes["upper" if ch.isupper() else "lower" if ch.islower() else "alpha"] += n
        elif ch.isspace():
            classes["space"] += n
        else:
            classes["punct"] += n
    return _shares(classes, total)


def fingerprint(
    table: str, column: str, type_: str, stats: EngineStats, sample: list[Any]
) -> ColumnFingerprint:
    """The Tier A fingerprint of one column from its engine statistics and sampled values."""
    # Sorted by (type name, text), ties in sample order (the index), each text computed once.
    keyed = sorted(
        ((type(v).__name__, _text(v)), i, v) for i, v in enumerate(sample) if v is not None
    )
    values = [v for _, _, v in keyed]
    family = _family(values)
    base = ColumnFingerprint(
        table=table,
        column=column,
        type=type_,
        n_rows=stats.n_rows,
        n_null=stats.n_null,
        n_distinct=stats.n_distinct,
        family=family,
        distinct_ratio=round(stats.n_distinct / (stats.n_rows - stats.n_null), 6)
        if stats.n_rows - stats.n_null
        else 0.0,
        min_value=stats.min_value if family != "binary" else None,
        max_value=stats.max_value if family != "binary" else None,
        min_length=stats.min_length,
        max_length=stats.max_length,
        sample_size=len(values),
        error=stats.error,
    )
    if family in ("empty", "binary") or stats.error:
        return base
    texts = [key[1] for key, _, _ in keyed]
    chars = Counter("".join(texts))
    delim_counts: Counter[str] = Counter()
    for d in DELIMITERS:
        if d in chars:
            delim_counts[d] = sum(1 for t in texts if d in t)
    delimiters = _shares(delim_counts, len(texts))
    prefix, prefix_share = _common_affix(texts, suffix=False)
    suffix, suffix_share = _common_affix(texts, suffix=True)
    nums = [float(t) for t in texts] if family in ("integer", "decimal") else []
    step1 = _monotone(nums) if family == "integer" else None
    return replace(
        base,
        mean_length=round(sum(len(t) for t in texts) / len(texts), 6),
        char_classes=_char_classes(chars),
        delimiters=delimiters,
        case=_case(texts, chars),
        prefix=prefix,
        prefix_share=prefix_share,
        suffix=suffix,
        suffix_share=suffix_share,
        entropy_bits=_entropy(chars),
        numeric=_numeric(nums),
        benford_kl=_benford(nums),
        monotone_step1=step1,
        integer_gcd=_gcd(nums) if family == "integer" else None,
        auto_increment=bool(step1 is not None and step1 >= MONOTONE_MIN_STEP1),
        stand_ins=_stand_ins(values, texts, family),
        segments=_segments(texts, delimiters) if family == "text" else (),
    )
