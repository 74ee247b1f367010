"""Two periods said as alternatives with nothing compared: "orders in 2022 or 2023".

Two periods are otherwise read as a comparison, one row each. Said with "or" and no word that
compares (more, higher, vs, which, ...), the question asks one figure over either period: an
outside tryout saw "orders in 2022 or 2023" shown as one row per year, though a total was
asked. Two periods of one kind (years, quarters, months) that meet are read as one span ("2022
or 2023": 2022-01-01 to 2023-12-31); any other pair is asked back (one total over both, or
each apart?), never shown per period. A layer with no time is left alone: its years are
values of a year column, kept to the years said ("made in 1972 or 1973", ``_untimed_year``).
"""

from __future__ import annotations

import re

from assay.semantic._periods import Period

__all__ = ["either"]

_OR = re.compile(r"\s*(?:,\s*)?or\s*", re.IGNORECASE)
_COMPARING = re.compile(
    r"\b(?:more|less|fewer|higher|lower|greater|smaller|bigger|larger|better|worse|most|least"
    r"|highest|lowest|compare[ds]?|comparing|comparison|vs|versus|than|which|whether|differ"
    r"\w*|change[ds]?|grow|grew|fell|drop\w*|rose|each|per|by)\b",
    re.IGNORECASE,
)


def either(periods: list[Period], question: str) -> tuple[list[Period], str]:
    """``periods``, two said as alternatives joined into one span where they meet, and the
    words to ask back (``""`` when none); see the module docstring."""
    if len(periods) != 2 or any(p.relative_previous or p.open_start for p in periods):
        return periods, ""
    first, second = sorted(periods, key=lambda p: p.start)
    said = sorted(periods, key=lambda p: p.span)
    gap = question[said[0].span[1] : said[1].span[0]]
    if not _OR.fullmatch(gap) or _COMPARING.search(question):
        return periods, ""
    words = question[said[0].span[0] : said[1].span[1]]
    if first.kind is None or first.kind != second.kind or first.end != second.start:
        return periods, f"{words} (one total over both, or each apart?)"
    span = Period(
        first.start,
        second.end,
        f"{said[0].label} or {said[1].label}",
        words,
        (said[0].span[0], said[1].span[1]),
    )
    return [span], ""
