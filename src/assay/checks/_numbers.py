"""Numbers in a written answer, and whether each is cited by a returned cell.

A number written with d decimals is cited if some returned cell, the cell times 100, or the row
count is within half a unit of its last place: ``|x - c| <= 0.5 * 10**-d``. Numbers that appear
in the question or hint, and the integers 1 to 5, are ignored. Dates and date labels
(``2024-01-31``, ``2024-01``, ``2024-Q1``) are not quantities, nor is a list's own
"(and N more)", nor the rows a result cut at a cap kept and counted ("(and 990 more of the
first 1,000 rows: ...)"); a year written alone is cited by a date cell of that year.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

__all__ = ["WrittenNumber", "cited_by", "extract_numbers", "numeric_cells"]

# 1,234.5 · -3 · 12.50 · 45% · .5 (not a digit run inside a word such as Q3 or ISO8601)
_DATE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?\b"
    r"|\b\d{4}-(?:0[1-9]|1[0-2])\b(?!-\d)|\b\d{4}-Q[1-4]\b"
)
# The written answer's own count of items it left out: "... (and 25 more)."; of a result cut
# at a cap, with the rows kept and counted: "(and 990 more of the first 1,000 rows: ...)"
_MORE = re.compile(r"\((?:and [\d,]+ more|the first [\d,]+ rows)\b[^()]*\)")
_NUMBER = re.compile(r"(?<![\w.])[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?![\w])")


@dataclass(frozen=True)
class WrittenNumber:
    """A number as written: its value, decimals written, and where it starts in the text."""

    text: str
    value: float
    decimals: int
    start: int

    @property
    def tolerance(self) -> float:
        return 0.5 * 10.0 ** (-self.decimals)


def _blank(match: re.Match[str]) -> str:
    """Spaces as long as the match, so every later number keeps its start offset."""
    return " " * len(match.group(0))


def extract_numbers(text: str) -> list[WrittenNumber]:
    """Every number written in ``text``.

    Example:
        >>> [n.value for n in extract_numbers("Revenue was 1,234.5 in 2024, up 12%.")]
        [1234.5, 2024.0, 12.0]
    """
    found = []
    text = _MORE.sub(_blank, _DATE.sub(_blank, text))  # dates and list tails are not quantities
    for match in _NUMBER.finditer(text):
        raw = match.group(0)
        if not any(ch.isdigit() for ch in raw):
            continue
        clean = raw.replace(",", "").replace("−", "-")
        try:
            value = float(Decimal(clean))
        except (InvalidOperation, ValueError):
            continue
        decimals = len(clean.split(".", 1)[1]) if "." in clean else 0
        found.append(WrittenNumber(raw, value, decimals, match.start()))
    return found


def numeric_cells(rows: Iterable[Iterable[Any]]) -> list[float]:
    """The numeric values among result cells (numeric strings included); a date cell gives its
    year, so a year label written from it ("2023: 1,204") is cited.

    Example:
        >>> numeric_cells([(datetime.date(2023, 1, 1), "12", None)])
        [2023.0, 12.0]
    """
    out: list[float] = []
    for row in rows:
        for value in row:
            if isinstance(value, bool) or value is None:
                continue
            if isinstance(value, (int, float, Decimal)):
                number = float(value)
            elif isinstance(value, (datetime.date, datetime.datetime)):
                number = float(value.year)
            elif isinstance(value, str):
                try:
                    number = float(value.strip().replace(",", ""))
                except ValueError:
                    continue
            else:
                continue
            if math.isfinite(number):
                out.append(number)
    return out


def cited_by(number: WrittenNumber, cells: list[float], row_count: int | None) -> bool:
    """Whether a cell, a share cell times 100 (a percentage), or the row count matches the
    number as written. Only a share (at most 1 in size) is read as a percentage: "There are 200
    dogs." for a count of 2 was shown as cited (outside tryout 23).

    Example:
        >>> cited_by(extract_numbers("42.1%")[0], [0.4213], None)
        True
        >>> cited_by(extract_numbers("200 dogs")[0], [2.0], None)
        False
    """
    targets = list(cells) + [c * 100 for c in cells if abs(c) <= 1]
    if row_count is not None:
        targets.append(float(row_count))
    tolerance = number.tolerance + 1e-9  # float noise in cells such as 0.1 + 0.2
    # Sign-insensitive: "down 5%" cites a cell of -0.05.
    return any(abs(abs(number.value) - abs(t)) <= tolerance for t in targets)
