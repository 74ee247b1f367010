"""Words of grammar that a column happens to hold as values ("Each" units, the "first" shift).

TPC-DS stores ``Each`` in ``item.i_units`` and ``first`` in ``time_dim.t_shift``. The lexicon
matched them before any grammar word, so "total sales for each category" was read as units =
'Each' (4 categories of small totals) and "by category, highest first" as shift = 'first' and a
top 1, both shown with score 1.00 on a reviewed drafted layer (outside tryout 22, F1). Such a
word names its value only where the question ties it to its column: the column named beside it
("units each", "the first shift", "shift = first") or the word quoted ('first'). Elsewhere the
word is grammar, and where no grammar reading holds either it is asked back, never dropped.
"""

from __future__ import annotations

from assay.semantic._resolve import Match, Token, canonical

__all__ = ["GRAMMAR_VALUES", "untied"]

# Quantifiers, determiners and the words of a ranking's order: closed, and short on purpose
# (a word of a domain, "sold" or "customer", stays a value wherever it is said).
GRAMMAR_VALUES = frozenset(
    """
    each every all any per top bottom first last other others none some both either neither
    only most least next
    """.split()
)
_QUOTES = frozenset({"'", '"', "‘", "’", "“", "”", "`"})
# Words between a column and its value that still tie them: "shift = first", "shift is first".
_JOINERS = frozenset({"=", ":", "is", "was", "equals", "of"})


def _quoted(tokens: list[Token], i: int) -> bool:
    return i > 0 and tokens[i - 1].text in _QUOTES


def _dims(m: Match) -> set[str]:
    return {target.split("=", 1)[0] for target in m.targets}


def _beside(m: Match, tokens: list[Token], matches: list[Match]) -> bool:
    """Whether a dimension the value belongs to is named right before it (a joiner such as
    '=' or 'is' between them allowed) or right after it ("the first shift")."""
    for other in matches:
        if other.kind != "dimension" or not set(other.targets) & _dims(m):
            continue
        if other.start == m.end:
            return True
        between = [canonical(t.text) for t in tokens[other.end : m.start]]
        if other.end <= m.start and all(w in _JOINERS for w in between) and len(between) <= 1:
            return True
    return False


def untied(m: Match, tokens: list[Token], matches: list[Match]) -> bool:
    """Whether ``m`` is a one-word value that is also a word of grammar, said with nothing
    tying it to its column: read as grammar, never as the value.

    Example:
        >>> from assay.semantic._resolve import tokenize
        >>> tokens = tokenize("sales for each category")
        >>> value = Match("each", 2, 3, "value", ("units=Each",))
        >>> untied(value, tokens, [value])
        True
        >>> units = Match("units", 2, 3, "dimension", ("units",))
        >>> value = Match("each", 3, 4, "value", ("units=Each",))
        >>> untied(value, tokenize("sales by units each"), [units, value])
        False
    """
    if m.kind != "value" or m.end - m.start != 1:
        return False
    if canonical(tokens[m.start].text.lower()) not in GRAMMAR_VALUES:
        return False
    return not (_quoted(tokens, m.start) or _beside(m, tokens, matches))
