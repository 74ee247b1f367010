"""Whether a dimension named with no "by" before it is still said as a breakdown.

A dimension the grammar leaves loose (no "by", "per", "for each" right before it) was read as a
grouping wherever it stood. Said as the thing asked ("account balance of customers"), that
answered another question: the outside tryout 37 saw the Cube TPC-H layer show a count of
customers per balance (1,499 rows of 1s) for a balance the layer has no metric for. A loose
dimension is a breakdown only where the question says one:

* it continues a breakdown said before it: "by year and customer country", "by day and is
  large", "by store state" (the store read as a metric said after "by");
* the question ranks or sorts: "top 3 countries by total sales", "rank categories by units
  sold", "busiest channel by orders", "categories ranked by units sold";
* it names what a count counts the values of: "how many different types of pet";
* it is said right beside a word nothing read, where a value would stand ("the kitchn
  category", "customer region Narnia"), or right before a year ("made in year 1974"): the
  question is about values of it, read (or asked back) by the rules for those.

A dimension a relative clause follows ("customers who first ordered in 2017") names the rows
the clause describes, not a breakdown, unless a ranking or a "by" before it says one.

Anything else is left unread (asked back or abstained on, named), never grouped.
"""

from __future__ import annotations

import re
from typing import Any

from assay.semantic._grammar import Tag
from assay.semantic._resolve import Match, tokenize

__all__ = ["said_as_breakdown"]

# The parts of a reading that group (``_grammar._Build``), and loose tags that do.
_GROUPING = frozenset(
    {"group", "groups", "group_pair", "group_every", "group_modified", "grain", "across"}
)
_GROUPING_TAGS = frozenset({"GRAIN", "UNIT", "BY"})
# Parts that say a ranking or an order: the dimension is what is ranked.
_RANKING = frozenset({"rank", "which", "which_grain"})
# The words before a metric's phrase that make it a breakdown ("by store state").
_BREAKDOWN = frozenset({"across", "by", "per", "each", "every"})
# A year said right after the dimension: "made in year 1974", "in the year of 1972".
_YEAR_AFTER = re.compile(r"\s+(?:of\s+)?\d{4}\b")
# A relative clause said of the dimension's rows: "customers who first ordered in 2017", "for
# customers that are new" (outside tryout 40, F-1: read as a breakdown by customer, 657 rows
# were shown for one total).
_RELATIVE_AFTER = re.compile(r"\s+(?:who|that|which|whom|whose)\b", re.IGNORECASE)


def said_as_breakdown(parts: list[Any], tag: Tag, question: str) -> bool:
    """Whether the loose dimension ``tag`` (a ``("loose", tag)`` of ``parts``) is said as a
    breakdown, by one of the rules in the module's docstring.

    Example:
        A dimension after "by year and" continues the breakdown; one said alone does not:

        >>> from assay.semantic._grammar import Tag
        >>> from assay.semantic._resolve import Match, Token
        >>> dim = Tag("DIM", Token("region", 20, 26), 4, Match("region", 4, 5, "dimension", ("r",)))
        >>> grain = Tag("GRAIN", Token("by", 10, 12), 2, ("year", "by year"))
        >>> said_as_breakdown([("loose", grain), ("loose", dim)], dim, "orders by year and region")
        True
        >>> named = Match("region", 2, 3, "dimension", ("r",))
        >>> alone = Tag("DIM", Token("region", 10, 16), 2, named)
        >>> said_as_breakdown([("loose", alone)], alone, "orders of region")
        False
    """
    if any(_ranks(kind, payload) for kind, payload in parts):
        return True
    if _RELATIVE_AFTER.match(question[_end(tag, question) :]) and not _after_by(parts, tag):
        return False  # "LTV of customers who first ordered in 2017": the rows described
    if _beside_unread(parts, tag) or _YEAR_AFTER.match(question[_end(tag, question) :]):
        return True
    at = next(k for k, (kind, payload) in enumerate(parts) if kind == "loose" and payload is tag)
    if at == 0:
        return False
    kind, before = parts[at - 1]
    if kind in _GROUPING:
        return True
    if kind == "metrics":
        return bool(before[0].after in _BREAKDOWN)
    if kind != "loose":
        return False
    if before.kind == "DIM":
        return said_as_breakdown(parts, before, question)
    return bool(before.kind in _GROUPING_TAGS or before.kind == "COUNTED")


def _after_by(parts: list[Any], tag: Tag) -> bool:
    """Whether the part right before the dimension groups ("by customer who ...")."""
    at = next(k for k, (kind, payload) in enumerate(parts) if kind == "loose" and payload is tag)
    if at == 0:
        return False
    kind, before = parts[at - 1]
    if kind == "metrics":
        return bool(before[0].after in _BREAKDOWN)
    return kind in _GROUPING or (kind == "loose" and before.kind in _GROUPING_TAGS)


def _ranks(kind: str, payload: Any) -> bool:
    """Whether one part ranks or orders: "top 3", "which", "rank", "ranked by"."""
    return kind in _RANKING or (kind == "loose" and payload.kind == "ORDER")


def _beside_unread(parts: list[Any], tag: Tag) -> bool:
    """Whether a word nothing read stands right before or right after the dimension's phrase
    ("the kitchn category", "customer region Narnia")."""
    match = tag.payload
    words: list[Tag] = next((payload for kind, payload in parts if kind == "words"), [])
    return any(w.index in {match.start - 1, match.end} for w in words)


def _end(tag: Tag, question: str) -> int:
    """Where the dimension's phrase ends in ``question`` (after its last word)."""
    match: Match = tag.payload
    return tokenize(question)[match.end - 1].end
