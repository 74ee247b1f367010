"""Tier B of the deep profiler (Rosetta 4.2): the pattern library, gated by the fingerprint.

Each ``PatternSpec`` matches structure, never names. Confidence follows the kind of proof:

- a checksum pattern (python-stdnum: Luhn, ISBN-10/13, EAN-13, UPC-A, IBAN mod-97, NHS mod-11)
  matches only when at least 95% of the sampled values pass the arithmetic, and then at 0.95
  with ``checksum`` set (tier PATTERN_VALIDATED);
- a regex pattern (phonenumbers for phones) matches at a 95% full-match fraction, capped 0.85;
- a fingerprint heuristic matches at 0.70.

Regex and heuristic matches sit at tier PATTERN_CONFIRMED. The library is ordered: on equal
confidence the earlier spec wins, so a dense sequence is a surrogate key before it can be read
as a Social Security number (Rosetta 5.2.6).
"""

from __future__ import annotations

import functools
import importlib
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from assay.catalog._fingerprint import ColumnFingerprint
from assay.catalog._tiers import Tier

__all__ = [
    "CHECKSUM_CONFIDENCE",
    "FORCING_PII",
    "HEURISTIC_CONFIDENCE",
    "PASS_FRACTION",
    "PATTERNS",
    "REGEX_CONFIDENCE",
    "PatternMatch",
    "PatternSpec",
    "match_patterns",
]

PASS_FRACTION = 0.95
CHECKSUM_CONFIDENCE = 0.95
REGEX_CONFIDENCE = 0.85
HEURISTIC_CONFIDENCE = 0.70
PiiClass = Literal["payment_card", "ssn", "medical_record", "email", "phone", "iban", "ip"]
FORCING_PII: frozenset[str] = frozenset({"payment_card", "ssn", "medical_record"})
Kind = Literal["checksum", "regex", "heuristic"]


@dataclass(frozen=True)
class PatternSpec:
    """One structural pattern: a gate on the fingerprint and a test on each value."""

    name: str
    semantic_type: str
    kind: Kind
    gate: Callable[[ColumnFingerprint], bool]
    test: Callable[[str], bool] | None = None
    pii: PiiClass | None = None


@dataclass(frozen=True)
class PatternMatch:
    """A pattern that matched a column, with the fraction of sampled values that passed."""

    name: str
    semantic_type: str
    kind: Kind
    confidence: float
    pass_fraction: float
    checksum: bool
    pii: str | None
    tier: Tier


def _digits(value: str) -> str:
    return re.sub(r"[\s-]", "", value)


@functools.cache
def _validator(module: str) -> Any:
    return importlib.import_module(f"stdnum.{module}")


def _stdnum(module: str) -> Callable[[str], bool]:
    def test(value: str) -> bool:
        validator = _validator(module)
        try:
            return bool(validator.is_valid(value))
        except Exception:  # stdnum raises its own errors on odd input: not a match
            return False

    return test


def _all(*tests: Callable[[str], bool]) -> Callable[[str], bool]:
    return lambda v: all(t(v) for t in tests)


def _regex(pattern: str, flags: int = 0) -> Callable[[str], bool]:
    compiled = re.compile(pattern, flags)
    return lambda v: compiled.fullmatch(v) is not None


def _card(value: str) -> bool:
    d = _digits(value)
    return 13 <= len(d) <= 19 and d.isdigit() and d[0] in "3456" and _stdnum("luhn")(d)


def _ssn(value: str) -> bool:
    m = re.fullmatch(r"(\d{3})-?(\d{2})-?(\d{4})", value)
    if not m:
        return False
    area, group, serial = m.groups()
    return not (area in ("000", "666") or area >= "900" or group == "00" or serial == "0000")


def _phone(value: str) -> bool:
    if not re.fullmatch(r"\+?[\d\s().-]{7,20}", value) or sum(c.isdigit() for c in value) < 7:
        return False
    import phonenumbers

    try:
        number = phonenumbers.parse(value, None if value.startswith("+") else "US")
    except phonenumbers.NumberParseException:
        return False
    return bool(phonenumbers.is_valid_number(number))


def _textual(fp: ColumnFingerprint) -> bool:
    return fp.family in ("text", "integer")


def _length(lo: int, hi: int) -> Callable[[ColumnFingerprint], bool]:
    return lambda fp: (
        fp.family in ("text", "integer")
        and fp.min_length is not None
        and fp.max_length is not None
        and fp.max_length >= lo
        and fp.min_length <= hi
    )


def _enum(fp: ColumnFingerprint) -> bool:
    return 1 < fp.n_distinct <= 20 and fp.distinct_ratio <= 0.5 and fp.family != "boolean"


def _flag(fp: ColumnFingerprint) -> bool:
    return fp.family == "boolean" or (
        fp.n_distinct == 2
        and str(fp.min_value).lower() in ("0", "f", "false", "n", "no")
        and str(fp.max_value).lower() in ("1", "t", "true", "y", "yes")
    )


PATTERNS: tuple[PatternSpec, ...] = (
    PatternSpec(
        "surrogate_key",
        "identifier:surrogate_key",
        "heuristic",
        lambda fp: fp.family == "integer" and fp.auto_increment and fp.unique_ratio >= 0.95,
    ),
    PatternSpec(
        "payment_card",
        "identifier:payment_card",
        "checksum",
        _length(13, 23),
        _card,
        "payment_card",
    ),
    PatternSpec(
        "isbn13",
        "identifier:isbn13",
        "checksum",
        _length(13, 17),
        _all(_regex(r"97[89][\d-]{10,14}"), _stdnum("isbn")),
    ),
    PatternSpec(
        "isbn10",
        "identifier:isbn10",
        "checksum",
        _length(10, 13),
        _all(_regex(r"[\d-]{9,12}[\dXx]"), _stdnum("isbn")),
    ),
    PatternSpec(
        "ean13",
        "identifier:ean13",
        "checksum",
        _length(13, 13),
        _all(_regex(r"\d{13}"), _stdnum("ean")),
    ),
    PatternSpec(
        "upc_a",
        "identifier:upc_a",
        "checksum",
        _length(12, 12),
        _all(_regex(r"\d{12}"), _stdnum("ean")),
    ),
    PatternSpec(
        "iban",
        "identifier:iban",
        "checksum",
        _length(15, 42),
        _all(_regex(r"[A-Z]{2}\d{2}[A-Z0-9 ]{11,38}"), _stdnum("iban")),
        "iban",
    ),
    PatternSpec(
        "nhs_number",
        "identifier:medical_record",
        "checksum",
        _length(10, 12),
        _all(_regex(r"\d{3} ?\d{3} ?\d{4}"), _stdnum("gb.nhs")),
        "medical_record",
    ),
    PatternSpec(
        "medical_record",
        "identifier:medical_record",
        "regex",
        _textual,
        _regex(r"MRN[-: #]?\d{5,12}", re.I),
        "medical_record",
    ),
    PatternSpec("ssn", "identifier:ssn", "regex", _length(9, 11), _ssn, "ssn"),
    PatternSpec(
        "email",
        "contact:email",
        "regex",
        _textual,
        _regex(r"[A-Za-z0-9._%+'-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}"),
        "email",
    ),
    PatternSpec("phone", "contact:phone", "regex", _length(7, 25), _phone, "phone"),
    PatternSpec("url", "web:url", "regex", _textual, _regex(r"https?://[^\s/$.?#][^\s]*", re.I)),
    PatternSpec(
        "uuid",
        "identifier:uuid",
        "regex",
        _length(32, 36),
        _regex(r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}", re.I),
    ),
    PatternSpec(
        "ipv4",
        "web:ipv4",
        "regex",
        _length(7, 15),
        _regex(r"((25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(25[0-5]|2[0-4]\d|1?\d?\d)"),
        "ip",
    ),
    PatternSpec(
        "hex_digest",
        "identifier:hex_digest",
        "regex",
        _length(32, 64),
        _regex(r"[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{64}", re.I),
    ),
    PatternSpec(
        "iso_date",
        "time:date",
        "regex",
        lambda fp: fp.family in ("date", "text"),
        _regex(r"\d{4}-\d{2}-\d{2}"),
    ),
    PatternSpec(
        "iso_datetime",
        "time:timestamp",
        "regex",
        lambda fp: fp.family in ("date", "text"),
        _regex(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}:?\d{2}|Z)?"),
    ),
    PatternSpec(
        "clock_time",
        "time:time_of_day",
        "regex",
        _length(4, 8),
        _regex(r"([01]?\d|2[0-3]):[0-5]\d(:[0-5]\d)?"),
    ),
    PatternSpec("us_zip", "geo:postal_code", "regex", _length(5, 10), _regex(r"\d{5}(-\d{4})?")),
    PatternSpec(
        "alpha3_code",
        "code:alpha3",
        "regex",
        lambda fp: _length(3, 3)(fp) and fp.n_distinct <= 200,
        _regex(r"[A-Z]{3}"),
    ),
    PatternSpec(
        "alpha2_code",
        "code:alpha2",
        "regex",
        lambda fp: _length(2, 2)(fp) and fp.n_distinct <= 260,
        _regex(r"[A-Z]{2}"),
    ),
    PatternSpec(
        "prefixed_code",
        "identifier:composite_code",
        "regex",
        lambda fp: fp.family == "text" and bool(fp.segments),
        _regex(r"[A-Za-z]{1,10}[:#_/-][A-Za-z0-9.]+"),
    ),
    PatternSpec(
        "year",
        "time:year",
        "heuristic",
        lambda fp: (
            fp.family == "integer" and 1800 <= _num(fp.min_value) and _num(fp.max_value) <= 2100
        ),
    ),
    PatternSpec("boolean_flag", "categorical:flag", "heuristic", _flag),
    PatternSpec("categorical_enum", "categorical:enum", "heuristic", _enum),
    PatternSpec(
        "free_text",
        "text:free",
        "heuristic",
        lambda fp: (
            fp.family == "text"
            and (fp.mean_length or 0) >= 20
            and fp.char_classes.get("space", 0) >= 0.05
        ),
    ),
    PatternSpec(
        "amount",
        "measure:amount",
        "heuristic",
        lambda fp: fp.family == "decimal" and not fp.auto_increment,
    ),
)


def _num(value: object) -> float:
    try:
        return float(str(value))
    except ValueError:
        return float("nan")


def _confidence(kind: Kind) -> float:
    return {
        "checksum": CHECKSUM_CONFIDENCE,
        "regex": REGEX_CONFIDENCE,
        "heuristic": HEURISTIC_CONFIDENCE,
    }[kind]


def match_patterns(fp: ColumnFingerprint, sample: list[object]) -> tuple[PatternMatch, ...]:
    """Every spec that matches ``fp``, best first (confidence, then library order).

    ``sample`` is the column's sampled values; a value-testing spec passes when at least
    ``PASS_FRACTION`` of the non-null sampled values pass its test.
    """
    texts = Counter(str(v).strip() for v in sample if v is not None and not isinstance(v, bytes))
    total = sum(texts.values())
    distinct = sorted(texts)
    found: list[tuple[float, int, PatternMatch]] = []
    if fp.family in ("empty", "binary") or fp.error:
        return ()
    for order, spec in enumerate(PATTERNS):
        if not spec.gate(fp):
            continue
        fraction = 1.0
        if spec.test is not None:
            if not texts:
                continue
            fraction = sum(texts[t] for t in distinct if spec.test(t)) / total
            if fraction < PASS_FRACTION:
                continue
        checksum = spec.kind == "checksum"
        tier = Tier.PATTERN_VALIDATED if checksum else Tier.PATTERN_CONFIRMED
        match = PatternMatch(
            spec.name,
            spec.semantic_type,
            spec.kind,
            _confidence(spec.kind),
            round(fraction, 6),
            checksum,
            spec.pii,
            tier,
        )
        found.append((-match.confidence, order, match))
    return tuple(m for _, _, m in sorted(found, key=lambda f: (f[0], f[1])))
