"""A count of one dimension's distinct values: "How many different types of pet are there?",
"the number of distinct type of pets" (``COUNT(DISTINCT Pets.PetType)`` over the dimension's
own table), restated as "the number of distinct PetType values".

The reader reads such a question as a grouping by the dimension with "number of different" left
as a measure the layer lacks. It is taken as the count only when that is all the question says:
exactly one "number of distinct/different/unique", no metric, exactly one dimension (a plain
column, named by a word that names no other thing) and nothing else (no value, period, grain,
ranking, condition, bound, comparison, or word left unread). Anything more is left to the
behaviour rules, which abstain or ask back as before (fail closed).

The count is a metric made for the one question (``with_distinct_count``): the layer it is
read, planned and checked against is the layer plus that metric, so the planner, the fit check
and the written answer treat it as any governed count.
"""

from __future__ import annotations

import dataclasses
import re

from assay.semantic._model import Dimension, Metric, SemanticLayer
from assay.semantic._reading import Reading

__all__ = ["distinct_count"]

_SAID = frozenset({"number of distinct", "number of different", "number of unique"})
# "distinct customers by segment": the dimension said as a grouping of what is counted
_BY = re.compile(
    r"\b(?:distinct|different|unique)\s+[a-z]+\s+(?:by|per|for\s+each|in\s+each|across)\b",
    re.IGNORECASE,
)
# the fields that must be empty: anything the question said beyond the count of one dimension
_NOTHING_ELSE = (
    "metrics",
    "ambiguous",
    "filters",
    "periods",
    "ranking",
    "compare",
    "unread",
    "value_like",
    "suggestions",
    "aggregates",
    "unknown_groups",
    "dangling",
    "retired",
    "undefined",
    "several",
    "change",
    "pairs",
    "background",
    "modifiers",
    "comparisons",
    "condition",
    "ambiguous_names",
)


def distinct_count(reading: Reading, layer: SemanticLayer) -> tuple[Reading, SemanticLayer] | None:
    """The reading as a count of one dimension's distinct values, with the layer holding that
    count as a metric; None when the question is not exactly that.

    Example:
        >>> from assay.semantic._model import Dimension
        >>> from assay.semantic._reading import read
        >>> layer = SemanticLayer(
        ...     metrics=(Metric("pets", "pets", (), "Pets", "COUNT(*)"),),
        ...     dimensions=(Dimension("pet_type", "Pets.PetType", ("type",)),),
        ... )
        >>> counted = distinct_count(read("how many different types are there?", layer), layer)
        >>> reading, wider = counted
        >>> wider.metric(reading.metrics[0]).expression
        'COUNT(DISTINCT Pets.PetType)'
        >>> distinct_count(read("how many different types in 2020?", layer), layer) is None
        True
    """
    if len(reading.derived) != 1 or reading.derived[0].lower() not in _SAID:
        return None
    if any(getattr(reading, name) for name in _NOTHING_ELSE) or reading.grain is not None:
        return None
    if len(reading.groups) != 1:
        return None
    dimension = layer.dimension(reading.groups[0])
    if _counts_a_table(reading.question) or _keys_a_table(reading.question, dimension, layer):
        return None
    table, _, column = dimension.column.partition(".")
    if dimension.expression or not table or not column or "." in column:
        return None
    name = f"{dimension.name}_distinct_count"
    if any(m.name == name for m in layer.metrics):
        return None
    metric = Metric(
        name,
        f"number of distinct {column} values",
        (),
        table,
        f"COUNT(DISTINCT {dimension.column})",
    )
    wider = dataclasses.replace(layer, metrics=(*layer.metrics, metric))
    counted = dataclasses.replace(reading, metrics=(name,), groups=(), derived=(), notes=())
    return counted, wider


_WORD = re.compile(r"\b(?:distinct|different|unique)\s+(?P<word>[a-z]+)", re.IGNORECASE)


def _keys_a_table(question: str, dimension: Dimension, layer: SemanticLayer) -> bool:
    """Whether the dimension is a key into the table the counted word names: "how many
    distinct customers are there" where "customer" is ``store_sales.ss_customer_sk`` (OSI),
    the key of the customers on the sales. Its values are the customers who bought (914 of
    1,000); the customers are the table's (``_distinct_entity``, as said plainly)."""
    from assay.semantic._distinct_entity import table_named

    said = _WORD.search(question)
    entity = table_named(said.group("word"), layer.tables) if said else None
    return entity is not None and any(
        j.left == dimension.column and j.tables[1] == entity and j.relationship == "many_to_one"
        for j in layer.joins
    )


def _counts_a_table(question: str) -> bool:
    """Whether the count is of the word said, grouped by the dimension: "how many unique
    customers by segment" counts customers per segment (``_distinct_entity``), never the
    segments (found shown as "5", the number of segments)."""
    return _BY.search(question) is not None
