"""``decide``: the only place a behaviour is chosen, by ordered rules and never by a model.

1. refuse: a write or prohibited action asked for, or an injection payload (found by the guard's
   intent check before any model or query runs, and passed in here);
2. abstain: the period lies outside coverage; a filter value is absent from a closed domain; a
   retired column whose quantity does not survive; a concept with no metric;
3. clarify: a phrase matches two or more defined metrics and nothing pins the choice (the
   clarification lists each reading with the words that tell them apart), or the question
   names only concepts the layer leaves undefined;
4. answer.
"""

from __future__ import annotations

from dataclasses import dataclass

from assay.semantic._model import SemanticLayer
from assay.semantic._resolve import Resolution

__all__ = ["BehaviourDecision", "decide"]


@dataclass(frozen=True)
class BehaviourDecision:
    behaviour: str  # answer | clarify | abstain | refuse
    code: str  # a stable reason code, e.g. behaviour.period_outside_coverage
    message: str
    readings: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (metric, distinguishing words)


def _distinguishing(
    layer: SemanticLayer, names: tuple[str, ...]
) -> list[tuple[str, tuple[str, ...]]]:
    words = {n: set(layer.metric(n).label.lower().split()) for n in names}
    out = []
    for name in names:
        others = set().union(*(w for k, w in words.items() if k != name))
        own = tuple(sorted(words[name] - others)) or (layer.metric(name).label,)
        out.append((name, own))
    return out


def decide(
    resolution: Resolution, layer: SemanticLayer, refusal: tuple[str, ...] = ()
) -> BehaviourDecision:
    if refusal:
        return BehaviourDecision(
            "refuse",
            refusal[0],
            "I can't do that: Assay only reads data "
            "and never changes it, reads files, or follows instructions "
            f"embedded in a question ({', '.join(refusal)}).",
        )
    period = resolution.period
    if period is not None and layer.coverage is not None:
        start, end = layer.coverage
        if period.start < start or period.start > end:
            return BehaviourDecision(
                "abstain",
                "behaviour.period_outside_coverage",
                f"The warehouse covers {start} to {end}; {period.label} is outside it, so "
                "there is no data to answer from.",
            )
    closed = {d.name for d in layer.dimensions if d.closed}
    if resolution.unknown_values and closed:
        value = resolution.unknown_values[0]
        return BehaviourDecision(
            "abstain",
            "behaviour.value_not_in_domain",
            f"'{value}' is not a value the warehouse records (known dimensions: "
            f"{', '.join(sorted(closed))}), so there is nothing to filter on.",
        )
    for retired in resolution.retired:
        if not retired.replacement:
            why = retired.reason or "no reason given"
            return BehaviourDecision(
                "abstain",
                "behaviour.retired_column",
                f"{retired.table}.{retired.column} is retired ({why}) and nothing replaces "
                "it, so that breakdown is no longer available.",
            )
    if resolution.ambiguous:
        match = resolution.ambiguous[0]
        readings = _distinguishing(layer, match.targets)
        options = "; or ".join(
            f"{layer.metric(name).label} ({', '.join(words)})" for name, words in readings
        )
        return BehaviourDecision(
            "clarify",
            "behaviour.ambiguous_metric",
            f"'{match.phrase}' has more than one definition here. Do you mean {options}?",
            tuple(readings),
        )
    if not resolution.metrics:
        if resolution.undefined:
            defined = ", ".join(m.label for m in layer.metrics)
            return BehaviourDecision(
                "clarify",
                "behaviour.undefined_concept",
                f"'{resolution.undefined[0]}' is not defined in this warehouse. Which measure "
                f"do you mean: {defined}?",
            )
        return BehaviourDecision(
            "abstain",
            "behaviour.concept_missing",
            "The question asks for something the warehouse has no metric, dimension or column "
            "for, so it cannot be answered from this data.",
        )
    return BehaviourDecision("answer", "behaviour.answer", "")
