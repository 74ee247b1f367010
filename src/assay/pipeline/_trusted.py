"""Trusted examples: a question that matches a verified question is answered from its SQL.

A question matches an example when the two are the same after normalisation (case, spelling
folds, punctuation and spacing: the lexicon's canonical words), or when the reader reads both
completely (no word left unread, the behaviour rules answer both) to the same reading. A reading
that left a word unread never matches: the words it could not read may be the difference.
The SQL still runs through the guard and the checks; nothing here shows an answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from assay.semantic import (
    Lexicon,
    Reading,
    SemanticLayer,
    TrustedExample,
    canonical,
    read,
    tokenize,
)
from assay.semantic import decide as decide_behaviour

__all__ = ["ExampleMatch", "TrustedIndex", "normalise"]


def normalise(question: str) -> tuple[str, ...]:
    """The question's canonical words, without punctuation.

    Example:
        >>> normalise("Daily cumulative  expenses in 2023 Dec?")
        ('daily', 'cumulative', 'expenses', 'in', '2023', 'dec')
    """
    return tuple(canonical(t.text) for t in tokenize(question) if t.text[0].isalnum())


@dataclass(frozen=True)
class ExampleMatch:
    """The example a question matched, and how (``exact`` or ``reading``)."""

    example: TrustedExample
    how: str

    def record(self) -> dict[str, str]:
        return {
            "name": self.example.name,
            "question": self.example.question,
            "source": self.example.source,
            "match": self.how,
        }


def _key(reading: Reading, layer: SemanticLayer) -> tuple[Any, ...] | None:
    """The reading as a comparable key, or ``None`` when it is not complete."""
    if reading.unread or reading.value_like or reading.aggregates or reading.unknown_groups:
        return None
    if reading.dangling or reading.derived or reading.several or not reading.metrics:
        return None
    if decide_behaviour(reading, layer, ()).behaviour != "answer":
        return None
    return (
        tuple(reading.metrics),
        tuple((f.dimension, tuple(f.values), f.negated) for f in reading.filters),
        tuple((p.start, p.end) for p in reading.periods),
        reading.grain,
        tuple(reading.groups),
        (reading.ranking.n, reading.ranking.descending) if reading.ranking else None,
        reading.compare,
        reading.change,
    )


class TrustedIndex:
    """The layer's trusted examples, indexed by normalised words and by complete reading."""

    def __init__(self, layer: SemanticLayer, lexicon: Lexicon):
        self.layer = layer
        self.exact: dict[tuple[str, ...], TrustedExample] = {}
        self.readings: dict[tuple[Any, ...], TrustedExample] = {}
        ambiguous: set[tuple[Any, ...]] = set()
        clashing: set[tuple[str, ...]] = set()
        for example in layer.trusted_examples:
            words = normalise(example.question)
            if words in self.exact and self.exact[words].sql != example.sql:
                clashing.add(words)  # one question, two SQL: neither is trusted
            self.exact.setdefault(words, example)
            key = _key(read(example.question, layer, lexicon), layer)
            if key is None:
                continue
            if key in self.readings and self.readings[key].sql != example.sql:
                ambiguous.add(key)  # two examples, one reading: neither is chosen
            self.readings.setdefault(key, example)
        for key in ambiguous:
            del self.readings[key]
        for words in clashing:
            del self.exact[words]

    def match(self, question: str, reading: Reading) -> ExampleMatch | None:
        example = self.exact.get(normalise(question))
        if example is not None:
            return ExampleMatch(example, "exact")
        key = _key(reading, self.layer)
        if key is not None and key in self.readings:
            return ExampleMatch(self.readings[key], "reading")
        return None
