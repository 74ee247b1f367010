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

__all__ = ["ranked_total"]

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
