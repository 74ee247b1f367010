"""Shared by the reading tests: a question read and decided on one layer."""

from __future__ import annotations

from assay.semantic import BehaviourDecision, Lexicon, Reading, SemanticLayer, decide, read


def read_and_decide(
    question: str, layer: SemanticLayer, lexicon: Lexicon | None = None
) -> tuple[Reading, BehaviourDecision]:
    """The reading of ``question`` and the behaviour decided from it."""
    reading = read(question, layer, lexicon or Lexicon(layer))
    return reading, decide(reading, layer)
