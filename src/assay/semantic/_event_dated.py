"""A period said of an event the metric is not dated by: "line items received in 1997".

A metric is counted in a period by one date column, its time column. A question may name the
event its period is about with a verb: "line items *received* in 1997", "quantity *ordered*
in 1995", "orders *placed* in 1996". Where the time column's own name says another event
(``lineitem.l_shipdate``: shipped), the period would be applied to the wrong date, and the
answer, which runs and looks right, is the count shipped in 1997 (outside tryout 39, F0:
9,172 shown at 1.00 where 9,212 line items were received). Some of these verbs were read
as nothing ("placed", "received": an order arriving, ``_reading._placed_said``), one as a sort
word ("ordered"), so the period went to the ship date with no word left unread.

``event_dated`` asks such a question back, naming the date the metric is counted by and the
event the verb names, so the user picks one (or the layer is given a metric dated by the
other column). It is silent where the time column's name says no event (``date``,
``created_at``: nothing to compare), where it says the verb's event (orders placed, counted by
``o_orderdate``; line items shipped, by ``l_shipdate``), and where no period or grain is read
(the verb then restricts nothing the metric does not already count). "Received" said of
orders is their arrival at the seller as much as a delivery: either an order or a delivery
date fits it. "Ordered by" said after the period is a sort word, never an event.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

from assay.semantic._model import SemanticLayer

if TYPE_CHECKING:
    from assay.semantic._reading import Reading

__all__ = ["column_event", "event_dated", "fits_event", "said_event"]

# A verb's events ("received": an order received by the seller, or goods by the buyer)
_SAID: dict[str, frozenset[str]] = {
    **dict.fromkeys(
        ("ordered", "placed", "submitted", "sold", "bought", "purchased"), frozenset({"order"})
    ),
    "received": frozenset({"order", "delivery"}),
    "delivered": frozenset({"delivery"}),
    "shipped": frozenset({"ship"}),
    "returned": frozenset({"return"}),
    "committed": frozenset({"commit"}),
}
# A date column's own words, by event ("l_shipdate": ship; "ws_sold_date_sk": a sale)
_COLUMN: dict[str, str] = {
    **dict.fromkeys(("sold", "sale", "order", "ordered", "purchase", "purchased"), "order"),
    **dict.fromkeys(("ship", "shipped", "shipping", "shipto"), "ship"),
    **dict.fromkeys(("return", "returned"), "return"),
    **dict.fromkeys(("commit", "committed"), "commit"),
    **dict.fromkeys(("deliver", "delivered", "delivery", "receipt", "received"), "delivery"),
}
_DATED = frozenset({"date", "at", "on", "time", "day"})
# A date column's name in plain words, by event
_SPOKEN = {
    "order": "order (sale) date",
    "ship": "ship date",
    "return": "return date",
    "commit": "commit date",
    "delivery": "receipt (delivery) date",
}
# The verb that says a date column's own event
_PAST = {
    "order": "ordered",
    "ship": "shipped",
    "return": "returned",
    "commit": "committed",
    "delivery": "received",
}
_GLUED = re.compile(r"([a-z]+)(date)")
# "ordered by revenue", "ordered from the largest": a sort, not an event
_SORT = re.compile(r"\bordered\s+(?:by|from)\b", re.IGNORECASE)


def column_event(column: str) -> str:
    """The event a date column's name says, or ``""`` when it says none or several.

    Example:
        >>> column_event("lineitem.l_shipdate"), column_event("orders.o_orderdate")
        ('ship', 'order')
        >>> column_event("daily_revenue.date"), column_event("web_sales.ws_sold_date_sk")
        ('', 'order')
    """
    name = column.rsplit(".", 1)[-1]
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()
    parts: list[str] = []
    for part in re.split(r"[^a-z0-9]+", spaced):
        glued = _GLUED.fullmatch(part)  # TPC-H writes the date into the word: "l_shipdate"
        parts.extend(glued.groups() if glued else (part,) if part else ())
    events = {_COLUMN[p] for p in parts if p in _COLUMN}
    return events.pop() if len(events) == 1 and _DATED & set(parts) else ""


def _verbs(reading: Reading) -> list[str]:
    """The event verbs said, in order. "Ordered by" (or "from") said after every period read
    is a sort ("line items in 1997 ordered by ship mode"); before one, it is as likely the
    event with a breakdown ("line items ordered by ship mode in 1996"), so it is kept."""
    text = reading.question
    ends = [p.span[1] for p in reading.periods if text[p.span[0] : p.span[1]] == p.text]
    for sort in reversed(list(_SORT.finditer(text))):
        if len(ends) == len(reading.periods) and all(e <= sort.start() for e in ends):
            text = text[: sort.start()] + " " + text[sort.end() :]
    return list(dict.fromkeys(w for w in re.findall(r"[a-z]+", text.lower()) if w in _SAID))


def event_dated(reading: Reading, layer: SemanticLayer) -> Reading:
    """The reading with an event verb its metric is not dated by asked back (see the module
    docstring); unchanged where every verb said fits each metric's time column."""
    if not reading.periods and reading.grain is None:
        return reading
    said = {w for u in reading.unread for w in u.lower().split()}
    for verb in _verbs(reading):
        if verb in said:
            continue  # already asked back as an unread word
        for name in reading.metrics:
            metric = layer.metric(name)
            event = column_event(metric.time_column) if metric.time_column else ""
            if not event or event in _SAID[verb]:
                continue
            meant = " or ".join(_SPOKEN[e] for e in sorted(_SAID[verb]))
            why = (
                f"'{verb}' asks by the {meant}, but {metric.label} is counted by "
                f"{metric.time_column}, its {_SPOKEN[event]}, so the period would be applied "
                f"to the wrong date. Ask for it by its {_SPOKEN[event]} (say "
                f"'{_PAST[event]}' instead of '{verb}'), or add to the layer a metric dated by "
                f"the {meant}."
            )
            return dataclasses.replace(
                reading,
                unread=(*reading.unread, verb),
                explained=(*reading.explained, (verb, why)),
            )
    return reading


def said_event(question: str) -> str | None:
    """The one event verb a question says ("shipped"), or ``None`` (none, several, one said
    twice, or "ordered" said as a sort)."""
    if _SORT.search(question):
        return None
    said = re.findall(r"[a-z]+", question.lower())
    verbs = [w for w in said if w in _SAID]
    return verbs[0] if len(verbs) == 1 else None


def fits_event(time_column: str, verb: str) -> bool:
    """Whether a time column's name says the event ``verb`` names ("l_shipdate", "shipped")."""
    event = column_event(time_column) if time_column else ""
    return bool(event) and event in _SAID[verb]
