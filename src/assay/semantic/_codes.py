"""Words for the codes of a coded column: "female" where ``Student.Sex`` holds F and M.

A column whose distinct values are exactly one code set is read with the words the codes stand
for, and only then:

- ``F``/``M`` (any case) in a column whose name says sex or gender: "female", "females",
  "women", "woman" name F; "male", "males", "men", "man" name M;
- ``T``/``F`` or ``Y``/``N`` (any case) in a column named "is" or "has" and one word
  (``Is_male``, ``is_active``, ``hasPets``): that word names the true code ("male singers":
  ``Is_male = T``); nothing names the false code ("female" is not read from ``Is_male``).

- ranked codes, every value a number, a dash and words (TPC-H's ``o_orderpriority``: 1-URGENT,
  2-HIGH, ... 5-LOW): the words name their value ("urgent orders": ``1-URGENT``; outside draft
  23 was told no value says 'urgent'), each only where no other value says the same words.

A column with any other value (``U`` beside ``F``/``M``, a third flag) gets no words: what
the extra code means is never guessed. The lexicon reads a word only where it names exactly one
code of one column (``_resolve``), so two coded columns a word could mean leave it unread.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["CODE_WORDS", "OPPOSITE", "code_words"]

_SEX = {
    "f": ("female", "females", "woman", "women"),
    "m": ("male", "males", "man", "men"),
}
# The other sex's word, for a did-you-mean where a column reads only one ("female" where only
# ``Is_male`` is held: "not male" is offered, never applied).
OPPOSITE = {w: _SEX[b] for a, b in (("f", "m"), ("m", "f")) for w in _SEX[a]}
# Words that name a code, never a misspelling of another ("female" is no typo for "male").
CODE_WORDS = frozenset(w for words in _SEX.values() for w in words)
_FLAGS = ({"t", "f"}, {"y", "n"})
_TRUE = frozenset({"t", "y"})
_SEX_NAMES = frozenset({"sex", "gender"})
_PREFIXES = ("is", "has", "flag")


def _words(name: str) -> list[str]:
    """A column or dimension name's words, lower case ("Is_male": is, male; "isActive")."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return [w for w in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if w]


def code_words(column: str, values: Iterable[str]) -> list[tuple[str, str]]:
    """(word, code) for a column holding exactly a code set; none otherwise.

    ``column`` is the column's name (``table.column`` or the column alone).

    Example:
        >>> code_words("Student.Sex", ["F", "M"])[:2]
        [('female', 'F'), ('females', 'F')]
        >>> code_words("singer.Is_male", ["F", "T"])
        [('male', 'T')]
        >>> code_words("Student.Sex", ["F", "M", "U"])  # U: not the code set
        []
        >>> code_words("orders.o_orderpriority", ["1-URGENT", "2-HIGH", "4-NOT SPECIFIED"])[2]
        ('not specified', '4-NOT SPECIFIED')
    """
    stored = list(dict.fromkeys(values))
    codes = {v.lower(): v for v in stored}
    if len(codes) != len(stored):
        return []
    ranked = _ranked(stored)
    if ranked or len(codes) != 2:
        return ranked
    name = _words(column.split(".")[-1])
    if set(codes) == set(_SEX) and set(name) & _SEX_NAMES:
        return [(word, codes[code]) for code in sorted(_SEX) for word in _SEX[code]]
    if set(codes) in _FLAGS:
        said = name[1:] if name and name[0] in _PREFIXES else []
        if len(said) == 1 and len(said[0]) >= 3 and said[0] not in _SEX_NAMES:
            true = next(v for k, v in codes.items() if k in _TRUE)
            return [(said[0], true)]
    return []


_RANKED = re.compile(r"^\d{1,2}\s*-\s*(?P<words>[A-Za-z][A-Za-z ]*[A-Za-z])$")


def _ranked(values: list[str]) -> list[tuple[str, str]]:
    """(words, value) where every value is a number, a dash and words, two values or more;
    words two values share are left out."""
    found = [(_RANKED.match(v), v) for v in values]
    if len(found) < 2 or any(m is None for m, _ in found):
        return []
    words = [(" ".join(m.group("words").lower().split()), v) for m, v in found if m is not None]
    counts: dict[str, int] = {}
    for word, _ in words:
        counts[word] = counts.get(word, 0) + 1
    return [(w, v) for w, v in words if counts[w] == 1]
