"""A superlative that ranks, kept out of a maximum metric's name.

A drafted layer names each column's maximum "highest X" and "largest X" (and its minimum
"lowest X", "smallest X"), so "what is the highest weight" is that one maximum. In "which
category has the highest store sales net paid" the same words rank the categories, yet the
lexicon took them whole as the maximum's name: the "which" lost its ranking, and every
category's single largest sale was shown, unranked, with score 1.00 (outside tryout 22, F2).
The fix is in the reader, not the drafter: the drafter's synonyms are right where nothing is
ranked, and only the question says whether something is. After "which" or "what" and a
dimension, the superlative is read as the ranking, and the measure as the column's total, the
way "which category has the highest total store sales net paid" already reads.
"""

from __future__ import annotations

from assay.semantic._resolve import Lexicon, canonical, tokenize

__all__ = ["ranked_first", "ranked_total"]

# The everyday superlatives a drafted maximum or minimum is also named by; "maximum" and "max"
# name the statistic itself and are left to it.
_SUPERLATIVES = frozenset({"highest", "largest", "lowest", "smallest"})
_ASKS = frozenset({"which", "what"})


def ranked_total(question: str, lexicon: Lexicon) -> str:
    """The question with "total" said after a superlative that ranks a dimension's values by
    a measure ("which category has the highest total net paid"), where "total" and the
    measure's words name exactly one metric; else the question as it is.

    Example:
        >>> from assay.semantic._model import Dimension, Metric, SemanticLayer
        >>> layer = SemanticLayer(
        ...     metrics=(
        ...         Metric("total_paid", "total paid", ("paid",), "t", "SUM(t.x)"),
        ...         Metric("max_paid", "maximum paid", ("highest paid", "paid"), "t",
        ...                "MAX(t.x)"),
        ...     ),
        ...     dimensions=(Dimension("category", "t.c", (), ()),),
        ... )
        >>> ranked_total("Which category has the highest paid?", Lexicon(layer))
        'Which category has the highest total paid?'
        >>> ranked_total("What is the highest paid?", Lexicon(layer))
        'What is the highest paid?'
    """
    tokens = tokenize(question)
    canon = [canonical(t.text.lower()) for t in tokens]
    asks = [i for i, w in enumerate(canon) if w in _ASKS]
    if not asks:
        return question
    matches = lexicon.match(question)
    dims = [m.start for m in matches if m.kind == "dimension" and m.start > asks[0]]
    for m in matches:
        if m.kind != "metric" or canon[m.start] not in _SUPERLATIVES or m.end - m.start < 2:
            continue
        if not any(d < m.start for d in dims):
            continue  # "what is the highest weight": the one maximum, nothing ranked
        total = lexicon.entries.get(("total", *canon[m.start + 1 : m.end]), [])
        if len({t for k, t in total if k == "metric"}) != 1:
            continue
        at = tokens[m.start].end
        return f"{question[:at]} total{question[at:]}"
    return question


# "largest country first": the superlative a sorted breakdown is said with, and its direction
_FIRST = {
    "largest": "largest",
    "biggest": "biggest",
    "highest": "highest",
    "most": "most",
    "top": "highest",
    "smallest": "smallest",
    "lowest": "lowest",
    "least": "least",
    "fewest": "fewest",
}


def ranked_first(question: str, lexicon: Lexicon) -> str:
    """The question with "largest <dimension> first" said as "by <dimension>, largest first",
    where the words between name exactly one dimension; else the question as it is.

    "How many orders were placed via the app in Q3 2023, largest country first?" was asked
    back on 'first' while "... by country, largest first" was answered (outside testers): the
    same breakdown, sorted the same way, said with the dimension inside the sort. A word
    between that names no dimension is left as it is, so it is still asked back.

    Example:
        >>> from assay.semantic._model import Dimension, Metric, SemanticLayer
        >>> layer = SemanticLayer(
        ...     metrics=(Metric("orders", "orders", (), "t", "COUNT(*)"),),
        ...     dimensions=(Dimension("country", "t.c", (), ()),),
        ... )
        >>> ranked_first("Orders in 2023, largest country first?", Lexicon(layer))
        'Orders in 2023, by country, largest first?'
        >>> ranked_first("Orders in 2023, largest colour first?", Lexicon(layer))
        'Orders in 2023, largest colour first?'
    """
    tokens = tokenize(question)
    canon = [canonical(t.text.lower()) for t in tokens]
    for m in lexicon.match(question):
        if m.kind != "dimension" or len(m.targets) != 1 or m.start == 0 or m.end >= len(tokens):
            continue
        said = _FIRST.get(canon[m.start - 1])
        if said is None or canon[m.end] != "first":
            continue
        words = question[tokens[m.start].start : tokens[m.end - 1].end]
        start, end = tokens[m.start - 1].start, tokens[m.end].end
        return f"{question[:start]}by {words}, {said} first{question[end:]}"
    return question
