"""The last of two dated events read where the question asks for the first, or the reverse.

"How many customers placed their first order in 2017?" filtered on ``LAST_ORDERED_AT`` counts
customers whose latest order fell in 2017, though the table holds ``FIRST_ORDERED_AT`` (agreed20,
h20_g16: shown at 1.00, five samples agreeing).

``first_last_swapped``: the question says "first" (or "earliest") of an event and never "last",
"latest" or "most recent", and the SQL reads a dated column whose words say "last" (or "latest")
while its table has the twin column saying "first" in that place, which the SQL never reads; or
the reverse. The twins must be dates or times (their engine type, or a ``date`` or ``time``
word): ``first_name`` and ``last_name`` are not two moments of one thing.

Words that order or bound rather than pick an event are not read: "biggest first" (an order),
"the first quarter", "last year", "the first 5" (a period or a count). Silent when the SQL does
not parse: its silence is never evidence of a right answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import Catalog, TableInfo, column_prefix
from assay.checks._qualified import _read, column_words
from assay.types import Finding

__all__ = ["first_last_swapped"]

_FIRST = frozenset({"first", "earliest"})
_LAST = frozenset({"last", "latest"})
# "first"/"last" before these bound a period or a count, or name a person: not an event's order.
_NOT_EVENT = (
    r"(?:quarter|half|week|month|day|year|time|name|names|page|row|rows|few|one|two|three|"
    r"four|five|six|seven|eight|nine|ten|\d+)"
)
_PICKED = re.compile(rf"\b(first|earliest|last|latest)\b(?!\s+{_NOT_EVENT}\b)(?=\s+[a-z])")
_ORDERING = frozenset({"most", "least", "fewest", "recent", "newest", "oldest"})
_RECENT = re.compile(r"\b(?:most recent|most recently|latest)\b")
_DATED_WORDS = frozenset({"date", "time", "at", "dt", "on", "timestamp"})


def _asked(question: str) -> str | None:
    """``first`` or ``last``: the one end of an event's history the question picks, or
    ``None`` (neither, or both).

    Example:
        >>> _asked("How many customers placed their first order in 2017?")
        'first'
        >>> _asked("Customers by first order date, most recent first") is None
        True
    """
    text = question.lower()
    picked = set()
    for match in _PICKED.finditer(text):
        before = text[: match.start()].split()[-1:]
        if not any(w.endswith("est") or w in _ORDERING for w in before):  # "biggest first"
            picked.add("first" if match.group(1) in _FIRST else "last")
    if _RECENT.search(text):
        picked.add("last")
    return picked.pop() if len(picked) == 1 else None


def _dated(info: TableInfo, column: str, own: list[str]) -> bool:
    kind = next((c.type for c in info.columns if c.name == column), "").upper()
    return "DATE" in kind or "TIME" in kind or bool(set(own) & _DATED_WORDS)


def _twin(own: list[str], other: list[str], asked: str) -> bool:
    """``other`` is ``own`` with the asked end in the place of the other end."""
    if len(own) != len(other):
        return False
    wanted = _FIRST if asked == "first" else _LAST
    differ = [(a, b) for a, b in zip(own, other, strict=True) if a != b]
    return len(differ) == 1 and differ[0][1] in wanted and differ[0][0] in _FIRST | _LAST


def first_last_swapped(question: str, tree: exp.Expr, catalog: Catalog) -> list[Finding]:
    """``signal.column_mismatch`` for "their first order" read through ``LAST_ORDERED_AT``
    (see the module docstring)."""
    asked = _asked(question)
    if asked is None:
        return []
    findings = []
    for table, columns in sorted(_read(tree, catalog).items()):
        info = catalog.table(table)
        if info is None:
            continue
        names = [c.name for c in info.columns]
        prefix = column_prefix(names)
        own = {c: column_words(c, prefix) for c in names}
        for column in sorted(columns):
            twins = [
                other
                for other in names
                if other not in columns
                and _twin(own[column], own[other], asked)
                and _dated(info, column, own[column])
                and _dated(info, other, own[other])
            ]
            if len(twins) == 1:
                findings.append(
                    Finding(
                        "signal.column_mismatch",
                        "signal",
                        f"The question asks about the {asked} event but the SQL reads "
                        f"{table}.{column} and never {table}.{twins[0]}.",
                        {"named": f"{table}.{twins[0]}", "used": [f"{table}.{column}"]},
                    )
                )
    return findings
