"""A measure several tables have, said by a word they share, read as the named table's.

A drafted Spider ``pets_1`` layer has an age on two tables: ``Student.Age`` (label "average
Age") and ``Pets.pet_age`` (synonyms "pet age", "age"). "Average age of dogs" matched the
students' label whole, so it was read as the students' average age where the pet type is dog,
and abstained on for a fan-out through ``Has_Pet`` (a reason about a question not asked);
"average age of pets" was shown as the students' 19.56 with only a warning (outside tryout 39,
F4). docs/semantic.md says of several age columns the one whose table the question names wins.

``table_named`` reads the one metric so read as another table's metric of the same aggregate
that the same words name ("age"), where the question names that table (its rows' word,
"pets", or a value or grouping of one of its dimensions, "dogs") and not the first metric's.
Where no table is named at all ("What is the average age?"), the students' age was read only
because its label says "average age" whole, and shown warned (19.56; fix40g): the question is
asked back (``behaviour.ambiguous_metric``) with each table's metric as a choice.
Unchanged where the first metric's table is named too ("average age of students with dogs"),
where several other tables are named, where no other metric shares the words, and where a word
is left unread ("average age of owners of dogs": the owners are students).
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

from assay.semantic._model import SemanticLayer
from assay.semantic._resolve import canonical, tokenize

if TYPE_CHECKING:
    from assay.semantic._reading import Reading

__all__ = ["table_named"]

_AGGREGATE = frozenset(
    "average mean avg total sum maximum max highest largest minimum min lowest smallest".split()
)


def table_named(reading: Reading, layer: SemanticLayer) -> Reading:
    """``reading`` with its one metric read as the named table's (the module docstring)."""
    if len(reading.metrics) != 1 or reading.unread or reading.value_like or reading.dangling:
        # a word left unread may name whose it is ("age of owners of dogs": the students'):
        # the reading is kept as it was, and asked back on that word
        return reading
    first = layer.metric(reading.metrics[0])
    said = [m for m in reading.matches if m.kind == "metric" and m.targets == (first.name,)]
    if len(said) != 1:
        return reading
    words = [canonical(t.text) for t in tokenize(said[0].phrase)]
    head = " ".join(w for w in words if w not in _AGGREGATE)
    if not head or head == " ".join(words):
        return reading
    kind = first.label.split(" ", 1)[0].lower()
    others = [
        m
        for m in layer.metrics
        if m.table != first.table
        and m.label.split(" ", 1)[0].lower() == kind
        and head in {_phrase(s) for s in m.synonyms}
    ]
    named = _tables_named(reading, layer)
    chosen = [m for m in others if m.table in named]
    if others and not chosen and first.table not in named:
        # no table named at all ("What is the average age?"): whose is not guessed from
        # which label happens to say the words whole; asked back with each as a choice
        targets = tuple(sorted({first.name, *(m.name for m in others)}))
        match = dataclasses.replace(said[0], kind="ambiguous", targets=targets)
        return dataclasses.replace(reading, metrics=(), ambiguous=(match,))
    if first.table in named or len({m.table for m in chosen}) != 1 or len(chosen) != 1:
        return reading
    return dataclasses.replace(reading, metrics=(chosen[0].name,))


def _phrase(text: str) -> str:
    return " ".join(canonical(t.text) for t in tokenize(text))


def _tables_named(reading: Reading, layer: SemanticLayer) -> set[str]:
    """The tables the question names: by its rows' word ("pets", "students": a count metric's
    one-word name, or the table's own name) or by a value or grouping of its dimension."""
    said = {canonical(t.text) for t in tokenize(reading.question)}
    named = {
        layer.dimension(d).column.split(".", 1)[0]
        for d in (*reading.groups, *(f.dimension for f in reading.filters))
    }
    for metric in layer.metrics:
        words = {canonical(metric.table.lower())}
        if re.fullmatch(r"\s*count\(\s*\*\s*\)\s*", metric.expression, re.IGNORECASE):
            words |= {_phrase(s) for s in metric.synonyms}
        forms = {f for w in words for f in (w, w.removesuffix("s"), f"{w}s")}
        if forms & said:
            named.add(metric.table)
    return named
