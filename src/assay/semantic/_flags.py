"""``flagged``: an adjective said of a metric's rows that names a true/false dimension is a filter
on it being true ("how many large transactions" with a dimension ``is_large``).

Outside tryout 13 was told the MetricFlow tutorial "does not define 'large'" although its
layer has ``is_large`` (``CASE WHEN transaction_amount_usd >= 30 THEN TRUE ELSE FALSE END``).
The word must be the dimension's whole name, or its name after ``is``/``has`` (``is_large``,
``has_discount``), and the dimension must be true/false: an expression that is TRUE or FALSE,
or a closed domain of exactly true and false. The filter is on the reading, so the reading line
says it ("where is_large = true") and the plan's fit check holds the SQL to it; any other
adjective stays a modifier nothing defines (abstained on, named).
"""

from __future__ import annotations

import dataclasses
import re

from assay.semantic._model import Dimension, SemanticLayer
from assay.semantic._names import split_name
from assay.semantic._reading import Filter, Reading
from assay.semantic._resolve import canonical

__all__ = ["flag_said", "flagged"]

_BOOLEAN = re.compile(r"\bTHEN\s+(?:TRUE|FALSE)\s+ELSE\s+(?:TRUE|FALSE)\s+END\s*$", re.I)


def _true_false(dim: Dimension) -> bool:
    if dim.expression:
        return bool(_BOOLEAN.search(dim.expression.strip()))
    return {v.lower() for v in dim.values} == {"true", "false"}


def _flag(word: str, layer: SemanticLayer) -> Dimension | None:
    """The one true/false dimension ``word`` names, or ``None``."""
    said = canonical(word.lower())
    found = [
        dim
        for dim in layer.dimensions
        if _true_false(dim)
        and [canonical(w) for w in split_name(dim.name)] in ([said], ["is", said], ["has", said])
    ]
    return found[0] if len(found) == 1 else None


def _negated(word: str, question: str) -> bool:
    """Whether ``word`` is said negated ("non large", "non-large", "not large", "no large")."""
    pattern = (
        rf"\b(?:not|non|no|without|excluding|except|never)(?:\s+|-)(?:\w+\s+)?{re.escape(word)}\b"
    )
    return re.search(pattern, question, re.IGNORECASE) is not None


def _negation(word: str, reading: Reading) -> str | None:
    """The dangling negation said right before ``word`` ("non large", "non-large", "not
    large"), or None: only that word is negated, so only then is the negation applied."""
    found = re.search(rf"\b(not|non)(?:\s+|-){re.escape(word)}\b", reading.question, re.I)
    if found is None:
        return None
    return next((d for d in reading.dangling if d.lower() == found.group(1).lower()), None)


_OUTCOMES = re.compile(
    r"^\s*CASE\s+WHEN\b.*?\bTHEN\s+'([^']+)'\s+ELSE\s+'([^']+)'\s+END\s*$", re.I | re.S
)


def _said(text: str) -> str:
    return " ".join(re.split(r"[\s_-]+", text.lower())).strip()


def _outcome(reading: Reading, layer: SemanticLayer) -> tuple[Filter, str, list[str]] | None:
    """ "transactions that are not quick buy": a dimension whose expression has exactly two
    outcomes ("CASE WHEN ... THEN 'Quick Buy' ELSE 'Not Quick Buy' END"), one said right after
    a dangling "not": the rows kept from that value (the filter, the negation, the words)."""
    found = []
    for dim in layer.dimensions:
        outcomes = _OUTCOMES.match(dim.expression or "")
        if outcomes is None:
            continue
        for value in outcomes.groups():
            words = _said(value)
            spaced = r"[\s-]+".join(re.escape(w) for w in words.split())
            pattern = rf"\b(not|non)(?:\s+|-){spaced}\b"
            said = re.search(pattern, reading.question, re.I)
            if said is None:
                continue
            negation = next(
                (d for d in reading.dangling if d.lower() == said.group(1).lower()), None
            )
            if negation is not None:
                found.append((Filter(dim.name, (value,), True, said.group(0)), negation, words))
    if len(found) != 1:
        return None
    kept, negation, words = found[0]
    return kept, negation, words.split()


# The value meaning "yes" in a closed domain of exactly two values, yes and no.
_YES_NO = {
    frozenset({"y", "n"}): "y",
    frozenset({"yes", "no"}): "yes",
    frozenset({"true", "false"}): "true",
}
# "on weekends", "during holidays": the rows of the flag, said as a noun after a preposition
_ON = re.compile(r"\b(?:on|during|over|for|at|in)\s+(?:the\s+)?$", re.I)
_DENIED = re.compile(r"\b(?:not|non|no|without|excluding|except|outside|never)\b", re.I)


def _yes(dim: Dimension) -> str | None:
    """The value of ``dim`` meaning yes (as the layer spells it), when its closed domain is
    exactly a yes and a no ("Y"/"N", "yes"/"no", "true"/"false"); else ``None``."""
    yes = _YES_NO.get(frozenset(v.lower() for v in dim.values))
    if yes is None or len(dim.values) != 2:
        return None
    return next(v for v in dim.values if v.lower() == yes)


def flag_said(dim: Dimension, before: str, word: str) -> Filter | str | None:
    """A yes/no dimension named by a word without "by" ("on weekends" for ``d_weekend``).

    Outside tryout 23 saw "total store sales net paid on weekends in 2001" answered as a
    breakdown (N first, the Y asked for second and unlabelled): a flag said in words asks for
    its rows, never one row per value. Said right after "on"/"during"/"for"/... with no
    negation before it, it is a filter on the yes value; said any other way it is a dangling
    word (returned as the text to ask back), since which rows are meant is unsure. ``None``
    for any dimension that is not a yes/no flag (read as before).
    """
    yes = _yes(dim)
    if yes is None:
        return None
    if _ON.search(before) and not _DENIED.search(" ".join(before.split()[-3:])):
        return Filter(dim.name, (yes,), False, word, (word,))
    return f"{word} (only the rows where {dim.name} is {yes}, or one row for each value?)"


def flagged(reading: Reading, layer: SemanticLayer) -> Reading:
    """``reading`` with each modifier that names a true/false dimension read as a filter on it
    being true (taken off the modifiers and the unread words); said right after a "not" or
    "non" ("non large transactions", "transactions that are not large"), kept from true.
    A dimension of two outcomes said after "not" ("not quick buy") keeps its rows from that
    outcome. Unchanged otherwise (a negation not placed stays dangling: asked back).

    Example:
        >>> from assay.semantic._model import Metric
        >>> layer = SemanticLayer(metrics=(Metric("n", "transactions", (), "t", "COUNT(*)"),),
        ...     dimensions=(Dimension("is_large", "t.is_large", (),
        ...         expression="CASE WHEN t.amount >= 30 THEN TRUE ELSE FALSE END"),))
        >>> r = flagged(Reading("large transactions", metrics=("n",), unread=("large",),
        ...     modifiers=("large",)), layer)
        >>> [(f.dimension, f.values) for f in r.filters], r.unread, r.modifiers
        ([('is_large', ('true',))], (), ())
    """
    if not reading.metrics or not (reading.modifiers or reading.dangling):
        return reading
    filters = list(reading.filters)
    taken: set[str] = set()
    dangling = list(reading.dangling)
    negatable = [u for u in reading.unread if len(u.split()) == 1 and reading.dangling]
    for word in dict.fromkeys((*reading.modifiers, *negatable)):
        dim = _flag(word, layer)
        if dim is None or any(f.dimension == dim.name for f in filters):
            continue
        negation = _negation(word, reading)
        if negation is not None and negation in dangling:
            # "non large", "not large": the rows kept from the flag's true (outside tryout 16:
            # not answered)
            dangling.remove(negation)
            filters.append(Filter(dim.name, ("true",), True, f"{negation} {word}"))
            taken.add(word)
            continue
        if _negated(word, reading.question) or word not in reading.modifiers:
            continue  # "not very large": never read as large; left unread, so not answered

        filters.append(Filter(dim.name, ("true",), False, word))
        taken.add(word)
    outcome = _outcome(reading, layer) if dangling else None
    if outcome is not None and outcome[1] in dangling:
        kept, negation, words = outcome
        if kept.dimension not in {f.dimension for f in filters}:
            dangling.remove(negation)
            filters.append(kept)
            taken |= {u for u in reading.unread if canonical(u.lower()) in map(canonical, words)}
            taken |= {m for m in reading.modifiers if canonical(m.lower()) in map(canonical, words)}
    if not taken and dangling == list(reading.dangling):
        return reading
    return dataclasses.replace(
        reading,
        filters=tuple(filters),
        modifiers=tuple(m for m in reading.modifiers if m not in taken),
        unread=tuple(u for u in reading.unread if u not in taken),
        value_like=tuple(v for v in reading.value_like if v not in taken),
        dangling=tuple(dangling),
    )
