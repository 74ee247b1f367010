"""The lexicon (longest match wins) and ``resolve``: a question read against the layer.

The lexicon holds every synonym of every metric, dimension, dimension value, retired column and
undefined concept. Reading left to right, the longest phrase that matches wins: "gross revenue"
is one metric, "revenue" alone is two. Nothing here decides a behaviour; it only reports what
the question mentions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from assay.semantic._model import RetiredColumn, SemanticLayer
from assay.semantic._periods import Period, parse_period

__all__ = ["Lexicon", "Match", "Resolution", "resolve"]

_WORD = re.compile(r"[A-Za-z0-9]+")
# A metric phrase followed by one of these names a different, derived measure
# ("net revenue retention", "order count growth"), which the layer does not define.
DERIVED = frozenset(
    {
        "retention",
        "rate",
        "ratio",
        "margin",
        "growth",
        "share",
        "churn",
        "lifetime",
        "acquisition",
        "satisfaction",
        "score",
        "forecast",
        "target",
    }
)
GRAINS = {
    "month": ("per month", "by month", "monthly", "each month"),
    "year": ("per year", "by year", "yearly", "annual", "each year"),
}


@dataclass(frozen=True)
class Match:
    phrase: str
    start: int
    end: int
    kind: str  # metric | dimension | value | retired | undefined
    targets: tuple[str, ...]


def _tokens(text: str) -> list[str]:
    return _WORD.findall(text)


class Lexicon:
    """Phrases (as lower-case token tuples) to what they name."""

    def __init__(self, layer: SemanticLayer):
        self.entries: dict[tuple[str, ...], list[tuple[str, str]]] = {}
        self.case_sensitive: dict[tuple[str, ...], list[tuple[str, str]]] = {}
        for metric in layer.metrics:
            for phrase in {metric.label, metric.name.replace("_", " "), *metric.synonyms}:
                self._add(phrase, "metric", metric.name)
        for dim in layer.dimensions:
            for phrase in {dim.name, *dim.synonyms}:
                self._add(phrase, "dimension", dim.name)
            for value in dim.values:
                target = f"{dim.name}={value}"
                if len(value) >= 3 and value.lower() == value:
                    self._add(value, "value", target)
                elif len(value) >= 2:
                    self.case_sensitive.setdefault(tuple(_tokens(value)), []).append(
                        ("value", target)
                    )
            for word, value in dim.value_synonyms:
                self._add(word, "value", f"{dim.name}={value}")
        for retired in layer.retired_columns:
            for phrase in retired.synonyms:
                self._add(phrase, "retired", f"{retired.table}.{retired.column}")
        for concept in layer.undefined_concepts:
            self._add(concept, "undefined", concept)

    def _add(self, phrase: str, kind: str, target: str) -> None:
        key = tuple(t.lower() for t in _tokens(phrase))
        if not key:
            return
        variants = {key}
        if len(key[-1]) > 3:  # a plural or singular of the last word
            last = key[-1]
            variants.add((*key[:-1], last[:-1]) if last.endswith("s") else (*key[:-1], last + "s"))
        for variant in variants:
            bucket = self.entries.setdefault(variant, [])
            if (kind, target) not in bucket:
                bucket.append((kind, target))

    def match(self, question: str) -> list[Match]:
        tokens = _tokens(question)
        lower = [t.lower() for t in tokens]
        longest = max((len(k) for k in self.entries), default=1)
        found: list[Match] = []
        i = 0
        while i < len(tokens):
            hit = None
            for size in range(min(longest, len(tokens) - i), 0, -1):
                key = tuple(lower[i : i + size])
                exact = tuple(tokens[i : i + size])
                entries = self.entries.get(key, []) + self.case_sensitive.get(exact, [])
                if entries:
                    kinds = {k for k, _ in entries}
                    kind = "metric" if "metric" in kinds else sorted(kinds)[0]
                    targets = tuple(sorted(t for k, t in entries if k == kind))
                    hit = Match(" ".join(tokens[i : i + size]), i, i + size, kind, targets)
                    break
            if hit is None:
                i += 1
                continue
            found.append(hit)
            i = hit.end
        return found


@dataclass(frozen=True)
class Resolution:
    """What a question mentions, as the layer names it."""

    question: str
    matches: tuple[Match, ...]
    metrics: tuple[str, ...]
    ambiguous: tuple[Match, ...]
    group_by: str | None
    grain: str | None
    filters: tuple[tuple[str, str], ...]
    unknown_values: tuple[str, ...]
    period: Period | None
    top_n: int | None
    descending: bool
    retired: tuple[RetiredColumn, ...]
    undefined: tuple[str, ...]
    notes: tuple[str, ...] = field(default=())


def _top(text: str) -> tuple[int | None, bool]:
    low = text.lower()
    match = re.search(r"\b(top|bottom)\s+(\d+)\b", low) or re.search(
        r"\bwhich\s+(\d+)\b.*\b(highest|largest|most|lowest|smallest|least)\b", low
    )
    if not match:
        return None, True
    if match.group(1) in {"top", "bottom"}:
        return int(match.group(2)), match.group(1) == "top"
    return int(match.group(1)), match.group(2) in {"highest", "largest", "most"}


def _unknown_values(question: str, matches: list[Match], period: Period | None) -> list[str]:
    """Phrases after "for" that name nothing the layer knows (a filter value it lacks)."""
    text = question.lower()
    if period is not None:
        text = text.replace(period.text, " ")
    known = {m.phrase.lower() for m in matches}
    unknown = []
    for found in re.finditer(r"\bfor (?:the )?([a-z][a-z ]*?)(?= in | for |\?|\.|,|$)", text):
        phrase = found.group(1).strip()
        words = set(_tokens(phrase))
        if not phrase or any(k in phrase for k in known) or words & {"year", "quarter", "month"}:
            continue
        unknown.append(phrase)
    return unknown


def resolve(question: str, layer: SemanticLayer, lexicon: Lexicon | None = None) -> Resolution:
    lexicon = lexicon or Lexicon(layer)
    matches = lexicon.match(question)
    assert layer.clock is not None
    period = parse_period(question, layer.clock, layer.fiscal_year_start_month)
    words = [t.lower() for t in _tokens(question)]
    derived = tuple(
        m.phrase
        for m in matches
        if m.kind == "metric" and m.end < len(words) and words[m.end] in DERIVED
    )
    metric_matches = [m for m in matches if m.kind == "metric" and m.phrase not in derived]
    pinned = [m for m in metric_matches if len(m.targets) == 1]
    ambiguous = tuple(m for m in metric_matches if len(m.targets) > 1) if not pinned else ()
    metrics = tuple(dict.fromkeys(t for m in (pinned or metric_matches) for t in m.targets))
    low = question.lower()
    grain = next((g for g, words in GRAINS.items() if any(w in low for w in words)), None)
    if (
        grain is None
        and re.search(r"\b(compare|per year|by year)\b", low)
        and period
        and (period.end.year - period.start.year > 1)
    ):
        grain = "year"
    top_n, descending = _top(question)
    dims = [m for m in matches if m.kind == "dimension"]
    group_by = None
    for m in dims:
        before = " ".join(_tokens(question)[max(0, m.start - 2) : m.start]).lower()
        if top_n or re.search(r"\b(by|per|each|across)\b", before):
            group_by = m.targets[0]
            break
    filters = tuple(
        tuple(t.split("=", 1)) for m in matches if m.kind == "value" for t in m.targets[:1]
    )
    retired_keys = {t for m in matches if m.kind == "retired" for t in m.targets}
    retired = tuple(r for r in layer.retired_columns if f"{r.table}.{r.column}" in retired_keys)
    return Resolution(
        question=question,
        matches=tuple(matches),
        metrics=metrics,
        ambiguous=ambiguous,
        group_by=group_by,
        grain=grain,
        filters=filters,  # type: ignore[arg-type]
        unknown_values=tuple(_unknown_values(question, matches, period)),
        period=period,
        top_n=top_n,
        descending=descending,
        retired=retired,
        undefined=tuple(t for m in matches if m.kind == "undefined" for t in m.targets),
        notes=tuple(
            f"derived measure: {p} {words[m.end]}"
            for m in matches
            for p in derived
            if m.phrase == p
        ),
    )
