"""A breakdown by a table said by its rows' word: "customers by nation", "number of customers
per nation" on a drafted TPC-H layer.

The word after "by" ("nation") is the word of the table's row count (the metric
``nation_count``, synonym "nations"), so the question read as two metrics named apart and was
asked back. A breakdown by a table is a breakdown by what names its rows: where the layer
defines "<word> name" as one dimension of that same table (the drafter's ``nation_n_name``,
synonym "nation name"), the word is read as it ("customers by nation name"), and the planner
reaches the table along the layer's joins as for any grouping (customer -> nation: the
customer's nation; a count that could reach the table two ways is the planner's to ask back).

The same word said where the ranked groups stand ("Top 3 nations by number of customers",
"Which nation had the most suppliers?") is read so too, in the singular ("top 3 nation name
by ..."): outside tryout 39 abstained there, no 'nations' to break results down by, while
"customers by nation" was answered.

Not taken: a word that names anything but count metrics of one table, a table with no "<word>
name" dimension or with several, and a reading of the rewritten words that is not clean (a
metric, the grouping, nothing unread or dangling): the question is read as before.
"""

from __future__ import annotations

import re

from assay.semantic._model import SemanticLayer
from assay.semantic._resolve import Lexicon, Token, canonical, tokenize

__all__ = ["by_entity_name"]

_BREAKDOWN = frozenset({"by", "per", "each", "across"})


def by_entity_name(question: str, layer: SemanticLayer, lexicon: Lexicon) -> tuple[str, str]:
    """``question`` with "name" said after a breakdown by a table's rows' word, and the
    dimension it names; ``(question, "")`` when there is none (the module docstring).

    Example:
        >>> from assay.semantic._model import Dimension, JoinPath, Metric
        >>> layer = SemanticLayer(
        ...     metrics=(
        ...         Metric("customer_count", "customer count", ("customers",), "c", "count(*)"),
        ...         Metric("nation_count", "nation count", ("nations",), "n", "count(*)"),
        ...     ),
        ...     dimensions=(Dimension("nation_n_name", "n.n_name", ("nation name",)),),
        ...     joins=(JoinPath("c.nationkey", "n.nationkey"),),
        ... )
        >>> by_entity_name("customers by nation", layer, Lexicon(layer))
        ('customers by nation name', 'nation_n_name')
    """
    tokens = tokenize(question)
    said = [m for m in lexicon.match(question) if m.kind == "metric"]
    after = [m for m in said if _grouped(tokens, m.start, m.end)]
    # the tables of the metrics asked (those not said after "by"), each to reach the entity
    asked = {layer.metric(t).table for m in said if m not in after for t in m.targets}
    for match in after:
        if match.end < len(tokens) and _said(tokens[match.end]) == "name":
            continue
        tables = {layer.metric(t).table for t in match.targets}
        counts = all(_counts_rows(layer.metric(t).expression) for t in match.targets)
        words = tuple(_said(t) for t in tokens[match.start : match.end])
        found = _name_of(words, lexicon)
        if len(tables) != 1 or not counts or found is None:
            continue
        key, dimension = found
        table = next(d.column for d in layer.dimensions if d.name == dimension).split(".")[0]
        if {table} != tables or any(_paths(layer, t, table) == 0 for t in asked):
            continue
        # "line items by nation" (the supplier's or the customer's?) is read so too: the
        # rule on join paths asks which, never the word puzzle "'line items', 'nation' named
        # apart: which one should be measured" (re-check of tryout 39, N4)
        start, end = tokens[match.start].start, tokens[match.end - 1].end
        return f"{question[:start]}{' '.join(key)}{question[end:]}", dimension
    return question, ""


# "top 3 nations by ...", "which nation had ...": the ranked groups stand before these words
_RANKED = frozenset({"top", "bottom"})
_WHICH = frozenset({"which", "what"})
_AFTER_GROUP = frozenset({"by", "had", "has", "have", "with"})
_MOST = frozenset(
    "most fewest least highest lowest largest smallest biggest greatest best worst".split()
)


def _grouped(tokens: list[Token], start: int, end: int) -> bool:
    """Whether the words ``tokens[start:end]`` stand where the groups of a breakdown do: after
    "by" ("customers by nation"), or before "by"/"had" after "top N" or "which" ("top 3
    nations by ...", "which nation had the most suppliers")."""
    if start == 0:
        return False
    if _said(tokens[start - 1]) in _BREAKDOWN:
        return True
    if end >= len(tokens) or _said(tokens[end]) not in _AFTER_GROUP:
        return False
    before = [_said(t) for t in tokens[max(0, start - 2) : start]]
    if before[-1] in _WHICH:
        # one group asked by its extreme ("which nation had the most suppliers"), never a
        # list of rows ("what customers have more than 20 orders")
        most = any(_said(t) in _MOST for t in tokens[end:])
        return most and (start == 1 or before[0] in {"in", "of", "for"})
    return before[-1] in _RANKED or (
        len(before) == 2 and before[0] in _RANKED and before[1].isdigit()
    )


def _name_of(words: tuple[str, ...], lexicon: Lexicon) -> tuple[tuple[str, ...], str] | None:
    """The words "<word> name" (the word as said, or in the singular) and the one dimension
    they name; None when they name none, several, or anything but a dimension."""
    forms = [words]
    if words and words[-1].endswith("s") and len(words[-1]) > 3:
        forms.append((*words[:-1], words[-1][:-1]))
    for form in forms:
        entries = lexicon.entries.get((*form, "name"), [])
        if len(entries) == 1 and entries[0][0] == "dimension":
            return (*form, "name"), entries[0][1]
    return None


def _said(token: Token) -> str:
    return canonical(token.text.lower())


def _paths(layer: SemanticLayer, start: str, goal: str, seen: frozenset[str] = frozenset()) -> int:
    """How many ways the layer's many-to-one joins lead from table ``start`` to ``goal`` (each
    table once on a way); 1 for the table itself.

    Example:
        >>> from assay.semantic._model import JoinPath, Metric
        >>> joins = (
        ...     JoinPath("l.s", "s.k"), JoinPath("l.o", "o.k"),
        ...     JoinPath("o.c", "c.k"), JoinPath("c.n", "n.k"), JoinPath("s.n", "n.k"),
        ... )
        >>> layer = SemanticLayer(metrics=(Metric("x", "x", (), "l", "count(*)"),), joins=joins)
        >>> _paths(layer, "c", "n"), _paths(layer, "l", "n")
        (1, 2)
    """
    if start == goal:
        return 1
    onward = {
        j.tables[1]
        for j in layer.joins
        if j.relationship == "many_to_one" and j.tables[0] == start and j.tables[1] not in seen
    }
    return sum(_paths(layer, table, goal, seen | {start}) for table in sorted(onward))


def _counts_rows(expression: str) -> bool:
    return re.fullmatch(r"\s*count\(\s*\*\s*\)\s*", expression, re.IGNORECASE) is not None
