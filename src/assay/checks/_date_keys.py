"""Which of a table's dates the question means: sold, shipped, returned, delivered.

A fact table often carries several dates of one row (TPC-DS ``web_sales``: ``ws_sold_date_sk``
and ``ws_ship_date_sk``). "Orders sold in 2001" joined to the calendar on the ship date runs,
agrees across samples and is wrong (outside tryout 22, w15: 3,501,369.11 shown, 3,315,110.25
right). ``date_keys_misread`` reads the question's verb (sold, bought, purchased, ordered, or "a
purchase"; shipped; returned; delivered or received) against the event word of each date
column the SQL uses: where the table has a date column for the event the question says, the
SQL uses another of its dates and never that one, and the question does not say the other
event, it is ``signal.column_mismatch``.

With no event verb said, a row of a table whose name says its event (``web_sales``: a sale,
``catalog_returns``: a return) is dated by that event: "web sales in 2001" joined on the ship
date is the same misreading (``_own_event_misread``).

Silent when the question says several event verbs, when the table has one date, or when the
SQL does not parse: its silence is never evidence of a right answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import Catalog, column_prefix
from assay.checks._cues import words
from assay.checks._values import _owner
from assay.types import Finding

__all__ = ["date_events", "date_keys_misread"]

# The question's verbs, by event. Only verbs: "sales" and "orders" name tables and rows, not
# which of a row's dates is meant. "A first purchase" names the event (agreed20, h20_d16: a
# customer's first purchase read through c_first_shipto_date_sk, shown at 1.00). What was
# received was delivered ("line items received in 1995" filtered on l_shipdate beside
# l_receiptdate: outside tryout 29, W4, shown at 1.00); what was committed, TPC-H's commit date.
_SAID: dict[str, str] = {
    **dict.fromkeys(("sold", "bought", "purchased", "purchase", "ordered"), "sale"),
    "shipped": "ship",
    "committed": "commit",
    "returned": "return",
    **dict.fromkeys(("delivered", "received"), "delivery"),
}
# A date column's own words, by event ("ws_sold_date_sk": sold; "cr_returned_date_sk"). A
# receipt is the delivery seen by who received it ("shipped in March" through TPC-H's
# l_receiptdate: agreed20, h20_h15, shown at 1.00); TPC-DS writes "ship to" as one word.
_COLUMN: dict[str, str] = {
    **dict.fromkeys(("sold", "sale", "sales", "order", "ordered", "purchase"), "sale"),
    **dict.fromkeys(("ship", "shipped", "shipping", "shipto"), "ship"),
    **dict.fromkeys(("return", "returned"), "return"),
    **dict.fromkeys(("commit", "committed"), "commit"),
    **dict.fromkeys(("deliver", "delivered", "delivery", "receipt"), "delivery"),
}


_GLUED = re.compile(r"[a-z]+date")


def _words(name: str) -> list[str]:
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return [w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w]


def date_events(columns: list[str]) -> dict[str, str]:
    """The event of each date column of one table, by column (lower case): a column whose words
    say ``date`` and one event word.

    Example:
        >>> date_events(["ws_sold_date_sk", "ws_ship_date_sk", "ws_net_paid"])
        {'ws_sold_date_sk': 'sale', 'ws_ship_date_sk': 'ship'}
    """
    prefix = column_prefix(columns)
    found = {}
    for column in columns:
        parts = _words(column)
        if prefix and parts[:1] == [prefix]:
            parts = parts[1:]
        # TPC-H writes the date into the word: "l_shipdate", "o_orderdate".
        parts = [q for p in parts for q in ([p[:-4], "date"] if _GLUED.fullmatch(p) else [p])]
        events = {_COLUMN[p] for p in parts if p in _COLUMN}
        if "date" in parts and len(events) == 1:
            found[column.lower()] = events.pop()
    return found


def _used_dates(tree: exp.Expr, catalog: Catalog) -> dict[str, set[str]]:
    """Per table read, the date columns the SQL uses (lower case)."""
    used: dict[str, set[str]] = {}
    for column in tree.find_all(exp.Column):
        owner = _owner(column, tree, catalog)
        if owner is not None:
            used.setdefault(owner[0].lower(), set()).add(owner[1].lower())
    return used


def date_keys_misread(question: str, tree: exp.Expr, catalog: Catalog) -> list[Finding]:
    """``signal.column_mismatch`` for "sold in 2001" read through a ship date (see the module
    docstring); ``column_fit`` reads it."""
    said = {_SAID[w] for w in words(question) if w in _SAID}
    if not said:
        return _own_event_misread(question, tree, catalog)
    if len(said) != 1:
        return []
    event = next(iter(said))
    findings = []
    for table, columns in sorted(_used_dates(tree, catalog).items()):
        misdated = _misdated(table, columns, event, catalog)
        if misdated is None:
            continue
        meant, other = misdated
        findings.append(
            _mismatch(
                f"The question asks about what was {_verb(question)} but the SQL reads "
                f"{table}'s {', '.join(other)} instead of {meant}.",
                table,
                meant,
                other,
            )
        )
    return findings or _across_tables(question, event, tree, catalog)


def _misdated(
    table: str, columns: set[str], event: str, catalog: Catalog
) -> tuple[str, list[str]] | None:
    """The one date column of ``table`` for ``event`` and the table's other dates the SQL uses
    instead of it, or ``None`` (no one such column, or the SQL uses it too)."""
    info = catalog.table(table)
    events = date_events(info.column_names) if info is not None else {}
    meant = sorted(c for c, e in events.items() if e == event)
    other = sorted(c for c in columns if events.get(c, event) != event)
    if len(meant) != 1 or not other or set(meant) & columns:
        return None
    return meant[0], other


def _mismatch(message: str, table: str, meant: str, other: list[str]) -> Finding:
    return Finding(
        "signal.column_mismatch",
        "signal",
        message,
        {"named": f"{table}.{meant}", "used": [f"{table}.{c}" for c in other]},
    )


def _across_tables(question: str, event: str, tree: exp.Expr, catalog: Catalog) -> list[Finding]:
    """The same across the tables the SQL reads: "line items shipped in 1996" filtered on
    ``orders.o_orderdate`` while the lineitem it joins has ``l_shipdate`` (agreed16)."""
    used = _used_dates(tree, catalog)
    meant, other = [], []
    for table in sorted(used):
        info = catalog.table(table)
        events = date_events(info.column_names) if info is not None else {}
        meant += [f"{table}.{c}" for c, e in events.items() if e == event]
        other += [f"{table}.{c}" for c in sorted(used[table]) if events.get(c, event) != event]
    used_names = {f"{t}.{c}" for t, cs in used.items() for c in cs}
    if len(meant) != 1 or not other or meant[0] in used_names:
        return []
    return [
        Finding(
            "signal.column_mismatch",
            "signal",
            f"The question asks about what was {_verb(question)} but the SQL reads "
            f"{', '.join(other)} instead of {meant[0]}.",
            {"named": meant[0], "used": other},
        )
    ]


def _events_named(name: str) -> set[str]:
    """The events a name's words say, plurals read as singulars ("web_sales": sale)."""
    return {_COLUMN[w] for p in _words(name) for w in (p, p[:-1]) if w in _COLUMN}


def _own_event_misread(question: str, tree: exp.Expr, catalog: Catalog) -> list[Finding]:
    """No event verb said: a row of ``web_sales`` "in 2001" is a sale in 2001, dated by its own
    event's date (``ws_sold_date_sk``), not by when it shipped (outside tryout 23, U3 and T2:
    web and catalog sales of a year joined to the calendar on the ship date, shown at 1.00).
    Silent when the question says any event word other than the table's own (shipping,
    deliveries), when the table's name says no one event, or when the SQL also uses the
    table's own date."""
    said = {e for w in words(question) for e in _events_named(w)}
    findings = []
    for table, columns in sorted(_used_dates(tree, catalog).items()):
        own = _events_named(table)
        if len(own) != 1 or said - own:
            continue
        event = next(iter(own))
        misdated = _misdated(table, columns, event, catalog)
        if misdated is None:
            continue
        meant, other = misdated
        findings.append(
            _mismatch(
                f"The question asks about {table} rows, dated by their own {event} date "
                f"({meant}), but the SQL reads {', '.join(other)} instead.",
                table,
                meant,
                other,
            )
        )
    return findings


def _verb(question: str) -> str:
    said = next(w for w in words(question) if w in _SAID)
    return "purchased" if said == "purchase" else said
