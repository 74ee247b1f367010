"""The reading as the page shows it: the restatement, clarifying choices, follow-ups.

``restatement`` shows whatever restatement the verdict carries (the reader's own, when the
verdict's provenance has one), else one composed from the provenance's metric definition,
period and grouping. ``choices_for`` turns an ask-back into one question per reading.
``compose_follow_up`` turns "and in 2023?" or "by country" into a whole question that inherits
the previous question's reading, and says what it inherited.
"""

from __future__ import annotations

import re
from typing import Any

from assay.pipeline import Agent
from assay.semantic import SemanticLayer, read

__all__ = ["choices_for", "compose_follow_up", "restatement"]

_LEAD = re.compile(r"^\s*(and|also|what about|how about|then|now)\b[\s,]*", re.IGNORECASE)


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


def choices_for(record: dict[str, Any], layer: SemanticLayer) -> list[dict[str, str]]:
    """For an ask-back: one whole question per reading, to re-ask with the choice made."""
    provenance = record.get("provenance") or {}
    question = str(provenance.get("question", ""))
    out = []
    for reading in provenance.get("readings") or []:
        name = str(reading.get("metric", ""))
        try:
            label = layer.metric(name).label
        except Exception:  # a reading that names no metric of the layer is not offered
            continue
        out.append({"metric": name, "label": label, "question": _with_label(question, label)})
    return out


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


def compose_follow_up(
    previous: str, fragment: str, layer: SemanticLayer, agent: Agent
) -> dict[str, Any]:
    """A follow-up as a whole question: what the fragment names replaces what the previous
    question said of the same kind (its period, its grouping); the rest is inherited.

    A fragment that names a metric of its own is a new question and is asked as it is.
    """
    cleaned = _LEAD.sub("", fragment.strip()).rstrip("?. ").strip()
    lexicon = agent.lexicon
    said = read(cleaned, layer, lexicon) if cleaned else None
    if said is None or said.metrics:
        return {"question": fragment, "inherited": [], "replaced": [], "previous": previous}
    before = read(previous, layer, lexicon)
    text = previous.strip().rstrip("?. ")
    swapped = _swap_metric_word(before, cleaned, layer, agent)
    if swapped is not None:  # "what about net?" after "gross revenue": the net revenue
        old, new = swapped
        question = re.sub(rf"\b{re.escape(old.phrase)}\b", new, text, count=1)
        labels = [layer.metric(m).label for m in (*old.targets, *read(new, layer, lexicon).metrics)]
        carried = (
            [f"period {' and '.join(p.label for p in before.periods)}"] if before.periods else []
        )
        carried += [f"grouping {', '.join(before.groups)}"] if before.groups else []
        carried += [
            f"filter {f.dimension} {'is not' if f.negated else '='} {' or '.join(f.values)}"
            for f in before.filters
        ]
        return {
            "question": f"{question}?",
            "inherited": carried,
            "replaced": [f"metric {labels[0]} -> {labels[-1]}"],
            "previous": previous,
        }
    inherited, replaced = [], []
    if said.periods and before.periods:
        for period in before.periods:
            text = re.sub(
                rf"\s*\b(in|for|during|of)?\s*{re.escape(period.text)}\b",
                "",
                text,
                count=1,
                flags=re.IGNORECASE,
            )
        old = " and ".join(p.label for p in before.periods)
        new = " and ".join(p.label for p in said.periods)
        replaced.append(f"period {old} -> {new}")
    elif before.periods:
        inherited.append("period " + " and ".join(p.label for p in before.periods))
    if said.groups and before.groups:
        for match in before.matches:
            if match.kind == "dimension" and set(before.groups) & set(match.targets):
                text = re.sub(
                    rf"\s*\b(by|per|for each)?\s*{re.escape(match.phrase)}\b",
                    "",
                    text,
                    count=1,
                    flags=re.IGNORECASE,
                )
        replaced.append(f"grouping {', '.join(before.groups)} -> {', '.join(said.groups)}")
    elif before.groups:
        inherited.append(f"grouping {', '.join(before.groups)}")
    if before.metrics:
        inherited.insert(0, "metric " + ", ".join(layer.metric(m).label for m in before.metrics))
    for kept in before.filters:
        values = " or ".join(kept.values)
        inherited.append(f"filter {kept.dimension} {'is not' if kept.negated else '='} {values}")
    return {
        "question": f"{text} {cleaned}?",
        "inherited": inherited,
        "replaced": replaced,
        "previous": previous,
    }


def _swap_metric_word(
    before: Any, word: str, layer: SemanticLayer, agent: Agent
) -> tuple[Any, str] | None:
    """The previous question's one metric phrase with one of its words replaced by ``word``
    so that it names exactly one other metric ("gross revenue" + "net": "net revenue"), as
    (the metric's match, the new phrase); ``None`` when no single swap does."""
    if len(word.split()) != 1:
        return None
    phrases = [m for m in before.matches if m.kind == "metric" and len(m.targets) == 1]
    if len(phrases) != 1:
        return None
    match = phrases[0]
    words = match.phrase.split()
    found = set()
    for k in range(len(words)):
        phrase = " ".join([*words[:k], word, *words[k + 1 :]])
        metrics = read(phrase, layer, agent.lexicon).metrics
        if len(metrics) == 1 and metrics[0] not in match.targets:
            found.add((phrase, metrics[0]))
    if len(found) != 1:
        return None
    return match, next(iter(found))[0]
