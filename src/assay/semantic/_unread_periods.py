"""The pieces of a period the reader could not read, told apart from missing concepts.

"What was churn in 1Q24?" abstained with "the warehouse has no metric for ('churn', 'Q', '1',
'24')" (outside tryout 38): the pieces of a period said in a form the period reader does not
know were quoted as if each were a concept the warehouse lacks. A period is not a concept: the
unread words that are pieces of one (numbers, "Q", "H", "FY", "quarter", "week") are taken out
of the concepts when the question's words they come from say a period (a year, a quarter or
half, a week, or digits and letters run together, "1Q24"), and that period is said as a period
the reader could not read. A number said outside such words ("the top 5 customers") stays.
"""

from __future__ import annotations

import re

__all__ = ["unread_periods"]

_UNITS = r"q|h|fy|cy|qtr|quarter|week|wk|half"
# An unread word that may be a piece of a period.
_PIECE = re.compile(rf"\d+|{_UNITS}", re.IGNORECASE)
# A word of the question that may belong to a period's words.
_WORD = re.compile(rf"[\w'/-]*\d[\w'/-]*|{_UNITS}|of", re.IGNORECASE)
# What makes a run of such words a period: a year, a unit, or digits and letters run together.
_PERIODIC = re.compile(
    rf"(?<!\d)(?:19|20)\d\d(?!\d)|\b(?:{_UNITS})\b|\d[a-z]|[a-z]\d", re.IGNORECASE
)


def unread_periods(question: str, unread: tuple[str, ...]) -> tuple[tuple[str, ...], list[str]]:
    """The unread words that are concepts, and the periods (as the question says them) whose
    pieces are the other unread words.

    Example:
        >>> unread_periods("What was churn in 1Q24?", ("churn", "Q", "1", "24"))
        (('churn',), ['1Q24'])
        >>> unread_periods("churn of the top 5 customers", ("churn", "5"))
        (('churn', '5'), [])
    """
    pieces = {w.lower() for w in unread if _PIECE.fullmatch(w)}
    if not pieces:
        return unread, []
    periods: list[str] = []
    taken: set[str] = set()
    for run in _runs(question):
        said = {t.lower() for t in re.findall(r"\d+|[a-z]+", run, re.IGNORECASE)}
        if said & pieces and _PERIODIC.search(run):
            periods.append(run)
            taken |= said & pieces
    concepts = tuple(w for w in unread if w.lower() not in taken)
    return concepts, periods


def _runs(question: str) -> list[str]:
    """The runs of consecutive words that may say a period, less an "of" at either end."""
    runs: list[list[str]] = [[]]
    for word in re.findall(r"[\w'/-]+", question):
        word = word.strip("'")
        if _WORD.fullmatch(word):
            runs[-1].append(word)
        elif runs[-1]:
            runs.append([])
    found = []
    for run in runs:
        while run and run[0].lower() == "of":
            run = run[1:]
        while run and run[-1].lower() == "of":
            run = run[:-1]
        if run:
            found.append(" ".join(run))
    return found
