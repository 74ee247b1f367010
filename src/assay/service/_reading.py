"""The reading as the page shows it: the restatement, clarifying choices, follow-ups.

``restatement`` shows whatever restatement the verdict carries (the reader's own, when the
verdict's provenance has one), else one composed from the provenance's metric definition,
period and grouping. ``choices_for`` turns an ask-back into one question per reading.
Follow-ups are composed in ``semantic/_follow_up.py``.
"""

from __future__ import annotations

import re
from typing import Any

from assay.semantic import Lexicon, SemanticLayer, ask_back_choices, phrase_span, read

__all__ = ["choices_for", "restatement"]

# The ask-backs whose choices are not metric readings (the reasons the agent records).
_NAMED_CHOICES = frozenset({"behaviour.did_you_mean", "behaviour.ambiguous_name"})


def restatement(record: dict[str, Any]) -> str:
    """How Assay read the question, in plain words.

    Example:
        >>> restatement({"provenance": {"definition": "orders = COUNT(*) over orders.day",
        ...     "period": "2023", "group_by": "country"}})
        'orders = COUNT(*) over orders.day; in 2023; by country'
    """
    provenance = record.get("provenance") or {}
    reading = provenance.get("reading")
    if isinstance(reading, dict):
        for key in ("restatement", "text", "plain"):
            if isinstance(reading.get(key), str) and reading[key]:
                return str(reading[key])
    if isinstance(reading, str) and reading:
        return reading
    if isinstance(provenance.get("restatement"), str) and provenance["restatement"]:
        return str(provenance["restatement"])
    parts = []
    if provenance.get("definition"):
        parts.append(str(provenance["definition"]))
    if provenance.get("period"):
        parts.append(f"in {provenance['period']}")
    if provenance.get("group_by"):
        parts.append(f"by {provenance['group_by']}")
    if provenance.get("grain"):
        parts.append(f"per {provenance['grain']}")
    return "; ".join(parts)


def choices_for(
    record: dict[str, Any], layer: SemanticLayer, lexicon: Lexicon | None = None
) -> list[dict[str, str]]:
    """For an ask-back: one whole question per reading, to re-ask with the choice made (a
    did-you-mean offers the question corrected; a name of several dimensions, one question per
    dimension: ``semantic.ask_back_choices``)."""
    provenance = record.get("provenance") or {}
    question = str(provenance.get("question", ""))
    if lexicon is not None and set(record.get("reasons") or ()) & _NAMED_CHOICES:
        return [
            {"kind": c.kind, "name": c.name, "label": c.label, "question": c.question}
            for c in ask_back_choices(question, layer, lexicon)
        ]
    out = []
    phrases: list[Any] | None = None  # the question's metric phrases, read once for all choices
    for reading in provenance.get("readings") or []:
        name = str(reading.get("metric", ""))
        try:
            label = layer.metric(name).label
        except Exception:  # a reading that names no metric of the layer is not offered
            continue
        chosen = None
        if lexicon is not None:
            if phrases is None:
                phrases = [m for m in read(question, layer, lexicon).matches if m.kind == "metric"]
            chosen = _in_place(question, name, label, layer, lexicon, phrases)
        out.append(
            {"metric": name, "label": label, "question": chosen or _with_label(question, label)}
        )
    return out


def _in_place(
    question: str,
    name: str,
    label: str,
    layer: SemanticLayer,
    lexicon: Lexicon,
    phrases: list[Any],
) -> str | None:
    """The question with the metric's label where its one ambiguous metric phrase stood
    ("sales by channel last month": "gross revenue by channel last month"), when that reads as
    the metric; else ``None`` (the label is then put in by ``_with_label``)."""
    if len(phrases) == 1 and name in phrases[0].targets:
        span = phrase_span(question, phrases[0])
        if span is not None:
            chosen = question[: span[0]] + label + question[span[1] :]
            if read(chosen, layer, lexicon).metrics == (name,):
                return chosen
    return None


def _with_label(question: str, label: str) -> str:
    """Put the metric's full label where the question used part of it.

    Example:
        >>> _with_label("What was revenue in 2023?", "gross revenue")
        'What was gross revenue in 2023?'
    """
    words = label.split()
    for start in range(len(words)):
        tail = " ".join(words[start:])
        pattern = re.compile(rf"\b{re.escape(tail)}\b", re.IGNORECASE)
        if pattern.search(question):
            return pattern.sub(label, question, count=1)
    return f"{question.rstrip('?. ')} (meaning {label})?"
