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

__all__ = ["flagged"]

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


def flagged(reading: Reading, layer: SemanticLayer) -> Reading:
    """``reading`` with each modifier that names a true/false dimension read as a filter on it
    being true (taken off the modifiers and the unread words); unchanged otherwise.

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
    if not reading.modifiers or not reading.metrics:
        return reading
    filters = list(reading.filters)
    taken: set[str] = set()
    for word in reading.modifiers:
        dim = _flag(word, layer)
        if dim is None or any(f.dimension == dim.name for f in filters):
            continue
        if _negated(word, reading.question):
            continue  # "non large": never read as large; left unread, so not answered

        filters.append(Filter(dim.name, ("true",), False, word))
        taken.add(word)
    if not taken:
        return reading
    return dataclasses.replace(
        reading,
        filters=tuple(filters),
        modifiers=tuple(m for m in reading.modifiers if m not in taken),
        unread=tuple(u for u in reading.unread if u not in taken),
        value_like=tuple(v for v in reading.value_like if v not in taken),
    )
