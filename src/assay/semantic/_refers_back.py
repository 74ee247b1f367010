"""``refers_back``: a question that only points back at an earlier one ("What about the year
before?", "and in 2022?", "same for Germany").

Asked with no earlier question, such a fragment names no measure, so it was abstained on as
"something the warehouse has no metric for (no word of 'What about the year before?' names
one)" (outside testers): true of its words, but the trouble is not a missing metric, it is the
missing question it follows. It is asked back saying so, never answered: nothing tells which
measure, period or values it is about. A follow-up with an earlier question never gets here;
it is composed with that question first (``_follow_up``).
"""

from __future__ import annotations

import re

from assay.semantic._reading import Reading

__all__ = ["refers_back"]

# The openings that continue an earlier question; "show me" or "now" open whole questions too.
_OPENING = re.compile(
    r"^\W*(?P<cue>(?:and\s+)?(?:what|how)\s+about|what\s+of|"
    r"(?:and\s+)?(?:do\s+)?(?:the\s+)?same\s+(?:for|with|but|again)|and|also)\b",
    re.IGNORECASE,
)
# A period counted from one the question does not give: "the year before", "the month after",
# "that period", "the same quarter" (said alone; "the year before 2023" gives its own)
_POINTER = re.compile(
    r"\b(?P<cue>the\s+(?:year|quarter|month|week|day)\s+(?:before|after)(?!\s+\w)|"
    r"(?:that|the\s+same)\s+(?:year|quarter|month|week|day|period))\b",
    re.IGNORECASE,
)


def refers_back(reading: Reading) -> str | None:
    """The words by which a question only refers back ("what about"), or ``None``: a question
    that names no measure, leaves no word unread and opens as a follow-up or names a period
    counted from an earlier one.

    Example:
        >>> refers_back(Reading(question="What about the year before?"))
        'What about'
        >>> refers_back(Reading(question="the year before"))
        'the year before'
        >>> refers_back(Reading(question="What about weather?", unread=("weather",))) is None
        True
        >>> refers_back(Reading(question="revenue in 2022", metrics=("revenue",))) is None
        True
    """
    if reading.metrics or reading.ambiguous or reading.unread or reading.suggestions:
        return None
    said = _OPENING.search(reading.question) or _POINTER.search(reading.question)
    return said["cue"] if said is not None else None
