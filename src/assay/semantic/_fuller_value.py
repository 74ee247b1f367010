"""A value said with a word the reading dropped, where another value holds that word too.

"shipped by regular air" on the Cube TPC-H layer was read as ship mode AIR, and "regular" left
over as an unknown grouping, so the question was abstained on for 'regular' while the reading
line said AIR (outside tryout 40, F-6); the data stores the mode the user said as "REG AIR".
A value read from fewer words than the user said beside it, where another value of the same
dimension is that value plus one word the user's word shortens or spells out ("reg" of
"regular", "intl" is not taken: the word must begin the other), is asked back naming the fuller
value, never read as the shorter one.

Not taken: a word the reading used, a value with no such fuller sibling, and a word of under
three letters.
"""

from __future__ import annotations

import dataclasses

from assay.semantic._model import SemanticLayer
from assay.semantic._reading import Reading
from assay.semantic._resolve import canonical, tokenize

__all__ = ["fuller_value"]


def fuller_value(reading: Reading, layer: SemanticLayer) -> Reading:
    """``reading`` with each value said beside a dropped word that begins (or is begun by)
    the extra word of a fuller value of the same dimension taken out of its filters and
    offered as a did-you-mean (the module docstring); as it is otherwise.

    Example:
        >>> from assay.semantic._model import Dimension, Metric
        >>> from assay.semantic._reading import Filter
        >>> layer = SemanticLayer(
        ...     metrics=(Metric("sales", "sales", (), "t", "SUM(t.x)"),),
        ...     dimensions=(Dimension("mode", "t.m", (), ("AIR", "REG AIR", "MAIL")),),
        ... )
        >>> r = Reading("sales by regular air", metrics=("sales",),
        ...     filters=(Filter("mode", ("AIR",), False, "air", ("air",)),),
        ...     unknown_groups=("regular",))
        >>> fuller_value(r, layer).suggestions, fuller_value(r, layer).filters
        ((('regular air', 'reg air'),), ())
    """
    left = {
        canonical(w.lower()) for u in (*reading.unread, *reading.unknown_groups) for w in u.split()
    }
    left |= {canonical(w.lower()) for u in reading.value_like for w in u.split()}
    if not left or not reading.filters:
        return reading
    words = [canonical(t.text.lower()) for t in tokenize(reading.question)]
    for f in reading.filters:
        if len(f.values) != 1 or f.negated:
            continue
        said = [canonical(w) for w in f.words.lower().split()]
        dimension = next((d for d in layer.dimensions if d.name == f.dimension), None)
        if dimension is None or not said:
            continue
        for at in _spans(words, said):
            for beside, where in ((at - 1, "before"), (at + len(said), "after")):
                if not 0 <= beside < len(words) or words[beside] not in left:
                    continue
                word = words[beside]
                fuller = _fuller(dimension.values, said, word, where)
                if fuller is None:
                    continue
                typed = f"{word} {f.words}" if where == "before" else f"{f.words} {word}"
                return dataclasses.replace(
                    reading,
                    filters=tuple(g for g in reading.filters if g is not f),
                    unread=_without(reading.unread, word),
                    unknown_groups=_without(reading.unknown_groups, word),
                    value_like=_without(reading.value_like, word),
                    suggestions=(*reading.suggestions, (typed, fuller.lower())),
                )
    return reading


def _spans(words: list[str], said: list[str]) -> list[int]:
    return [i for i in range(len(words) - len(said) + 1) if words[i : i + len(said)] == said]


def _fuller(values: tuple[str, ...], said: list[str], word: str, where: str) -> str | None:
    """The one value that is ``said`` plus a word that ``word`` begins or that begins ``word``,
    on the side ``where``."""
    found = []
    for value in values:
        parts = [canonical(w) for w in value.lower().split()]
        if len(parts) != len(said) + 1:
            continue
        extra, rest = (parts[0], parts[1:]) if where == "before" else (parts[-1], parts[:-1])
        if rest != said or min(len(extra), len(word)) < 3:
            continue
        if extra.startswith(word) or word.startswith(extra):
            found.append(value)
    return found[0] if len(found) == 1 else None


def _without(items: tuple[str, ...], word: str) -> tuple[str, ...]:
    return tuple(u for u in items if canonical(u.lower()) != word)
