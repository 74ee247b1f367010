"""The question says a fuller stored value than the one the SQL compares.

"How many line items were shipped by regular air in 1996?" answered with ``l_shipmode = 'AIR'``
counts another ship mode: TPC-H stores both 'AIR' and 'REG AIR' (agreed20, a development set:
five samples agreeing were shown at 1.00). ``value_swapped`` is silent, for the question does
say "air"; but it says more of the column's values than that: "regular air" is 'REG AIR', a
stored value holding every word of the compared one and more.

``fuller_value_said`` reads each string the SQL compares with ``=`` or ``IN`` against a short
categorical column (``_dropped._categories``: one bounded query each) and says when another
stored value of that column holds the compared value's words in a row with more words beside
them, the question says all of that value's words in a row, and the SQL carries it in no string
(``signal.fuller_value_said``). A question's word says a stored word when they are equal
(singular or plural) or when the stored word (three letters or more) begins the question's word
as its abbreviation: 'REG' for "regular", 'DEPT' for "department". A question with a negation
("air but not regular air") is left alone. Silence is never evidence of a right answer.
"""

from __future__ import annotations

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._cues import words
from assay.checks._dropped import _categories
from assay.checks._swapped import MAX_NAMES, compared_values
from assay.checks._where import finding, forms

__all__ = ["fuller_value_said"]

ABBREVIATION_MIN = 3  # 'REG' for "regular"; two letters abbreviate too much


def _word_says(said: str, stored: str) -> bool:
    """The question's word says the stored word: the same (a final plural read as singular), or
    the stored word is its abbreviation.

    Example:
        >>> _word_says("regular", "reg"), _word_says("air", "air"), _word_says("re", "reg")
        (True, True, False)
    """
    if stored in forms(said):
        return True
    return len(stored) >= ABBREVIATION_MIN and len(said) > len(stored) and said.startswith(stored)


def _said_in_row(question_words: list[str], value_words: list[str]) -> bool:
    """The question says every word of the stored value, in a row."""
    n = len(value_words)
    return any(
        all(_word_says(said, stored) for said, stored in zip(window, value_words, strict=True))
        for window in (question_words[i : i + n] for i in range(len(question_words) - n + 1))
    )


def _holds(fuller: list[str], shorter: list[str]) -> bool:
    """``fuller`` holds every word of ``shorter`` in a row, and more words."""
    n = len(shorter)
    return len(fuller) > n and any(fuller[i : i + n] == shorter for i in range(len(fuller) - n + 1))


def _fuller(ctx: CheckContext, table: str, column: str, compared: str, carried: set[str]) -> str:
    """The stored value of ``table.column`` holding the compared one's words and more that the
    question says and the SQL carries nowhere; "" when there is none (or more than one)."""
    shorter = words(compared)
    if not shorter:
        return ""
    question_words = words(ctx.question)
    stored = _categories(ctx, table, column, most=MAX_NAMES, repeated=False)
    if compared.strip().lower() not in stored:
        return ""
    said = sorted(
        value
        for value in set(stored)
        if value not in carried
        and _holds(words(value), shorter)
        and _said_in_row(question_words, words(value))
    )
    return said[0] if len(said) == 1 else ""


def fuller_value_said(ctx: CheckContext) -> CheckOutcome:
    """The SQL compares a short categorical column with a stored value, and the question says
    another stored value of that column holding the compared one's words and more
    (``signal.fuller_value_said``)."""
    read = compared_values(ctx)
    if read is None:
        return CheckOutcome()
    tree, comparisons = read
    carried = {lit.name.strip().lower() for lit in tree.find_all(exp.Literal) if lit.is_string}
    for table, column, compared in comparisons:
        fuller = _fuller(ctx, table, column, compared, carried)
        if not fuller:
            continue
        where = f"{table}.{column}"
        return CheckOutcome(
            (
                finding(
                    "signal.fuller_value_said",
                    f"The question says {fuller!r}, a stored value of {where}, but the SQL "
                    f"compares {where} with {compared!r}, a shorter stored value: another "
                    f"category than the one asked for (compare with the stored {fuller!r}).",
                    column=where,
                    asked=fuller,
                    compared=compared,
                ),
            )
        )
    return CheckOutcome()
