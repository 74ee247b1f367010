"""A column's abbreviated words, said in full by the question.

"the total store sales revenue (extended sales price)" names ``ss_ext_sales_price`` and "net
paid including tax" names ``cs_net_paid_inc_tax``: the schema shortens "extended" to ``ext``
and "including" to ``inc``. Read word for word, only the shorter sibling (``ss_sales_price``,
``cs_net_paid``) was said, and the right answers were withheld as ``column_mismatch`` (outside
tryout 28, r02, r09, y4). A column word of three to five letters is said by a question word
that starts with it and is at least three letters longer (``ext``: extended; ``inc``:
including, ``addr``: address), and one of three or four letters by a word it contracts, first
and last letters kept (``amt``: amount; ``qty``: quantity); a plural last word is said as in
``_mentions._says``.
"""

from __future__ import annotations

__all__ = ["abbreviates", "contracts", "longest_said", "says_abbreviated"]


def abbreviates(word: str, said: str) -> bool:
    """A column word of three to five letters shortens a question word three letters longer
    or more that starts with it.

    Example:
        >>> abbreviates("ext", "extended"), abbreviates("inc", "including")
        (True, True)
        >>> abbreviates("net", "nets")
        False
    """
    if not 3 <= len(word) <= 5:
        return False
    return (len(said) >= len(word) + 3 and said.startswith(word)) or contracts(word, said)


def contracts(word: str, said: str) -> bool:
    """A column word of three or four letters is the question's word with letters dropped
    inside, its first and last kept: ``amt`` amount, ``qty`` quantity, ``pct`` percent, ``cnt``
    count, ``nbr`` number, ``mgr`` manager (agreed18 h18_d05: "coupon amount" did not say
    ``cs_coupon_amt``, so a sum of ``cs_ext_discount_amt`` was shown).

    Example:
        >>> contracts("amt", "amount"), contracts("qty", "quantity"), contracts("amt", "mat")
        (True, True, False)
    """
    if not 3 <= len(word) <= 4 or len(said) < len(word) + 2:
        return False
    if word[0] != said[0] or word[-1] != said[-1]:
        return False
    rest = iter(said[1:-1])
    return all(letter in rest for letter in word[1:-1])


def _word_says(said: str, word: str, last: bool) -> bool:
    if said == word or abbreviates(word, said):
        return True
    if not last:
        return False
    plural = {word + "s", word + "es", word[:-1] + "ies" if word.endswith("y") else word}
    return said in plural or (word.endswith("s") and said == word[:-1])


def says_abbreviated(question_words: list[str], phrase: tuple[str, ...]) -> bool:
    """The question says the phrase's words in a row, each in full or as the word an
    abbreviation shortens.

    Example:
        >>> q = "total store sales revenue extended sales price in 2000".split()
        >>> says_abbreviated(q, ("ext", "sales", "price")), says_abbreviated(q, ("ext", "tax"))
        (True, False)
    """
    size = len(phrase)
    if not size:
        return False
    for start in range(len(question_words) - size + 1):
        window = question_words[start : start + size]
        if all(
            _word_says(w, p, i == size - 1)
            for i, (w, p) in enumerate(zip(window, phrase, strict=True))
        ):
            return True
    return False


def longest_said(named: dict[str, tuple[str, ...]]) -> list[str]:
    """The named columns less those whose words sit inside another named column's words in a
    row: "extended sales price" names ``cs_ext_sales_price``, not ``cs_sales_price`` too.

    Example:
        >>> longest_said({"a": ("sales", "price"), "b": ("ext", "sales", "price")})
        ['b']
    """

    def inside(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
        n = len(short)
        return n < len(long) and any(long[i : i + n] == short for i in range(len(long) - n + 1))

    return [c for c, w in named.items() if not any(inside(w, o) for o in named.values())]
