"""``valued_count``: "the total value of urgent orders" said of a metric that counts rows.

A drafted TPC-H layer answered "What was the total value of urgent orders in 1997?" with the
orders count (479), warned: "value" and "amount" are function words ("the total value of
revenue" is the revenue), so "value of orders" was read as "orders", the count of the orders,
and the word that asked for money fell away silently (fix40g). The value asked was the sum of
``o_totalprice`` (67,931,485.24).

A value asked ("value of", "amount of", "worth of", or the word said right after: "order
value") of a metric that counts rows (``_counted_amount._rows``) is therefore never answered
with the count:

* when the layer has exactly one metric adding up a money column (``_draft.MONEY_WORDS``) over
  the same rows (table, time column, conditions), the question is read as it;
* when it has several, it is asked back with them as the choices (``behaviour.ambiguous_metric``);
* when it has none, the word is left unread, and asked back.

The same holds of a metric that adds up a quantity, not money ("the total value of units sold"
was answered as SUM(units_sold), 248,702, where the sales amount of those rows was asked;
outside recheck 40b, F3): the one money total of the same rows, or asked back. "Amount" is said
of a number as often as of money ("the amount of orders" was a count on one warehouse and the
orders' money total on another), so where a money total of the rows exists "amount of" is asked
back with the count (or quantity) and the money total(s) as the choices; "the amount of units
sold" with no money total of them stays the units.

Unchanged where a count is asked too ("number of high value orders": the value qualifies the
rows counted) and where another metric is said between the word and the count's phrase.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from sqlglot import exp

from assay.semantic._counted_amount import (
    _added,
    _cue_before,
    _overlaps,
    _parsed,
    _rows,
    over_same_rows,
)
from assay.semantic._draft import MONEY_WORDS, UNIT_WORDS
from assay.semantic._model import Metric, SemanticLayer
from assay.semantic._names import split_name
from assay.semantic._resolve import Match, canonical, tokenize

if TYPE_CHECKING:
    from assay.semantic._reading import Reading

__all__ = ["valued_count"]

# The words that ask how much rows are worth, not how many there are
_VALUE = frozenset({"value", "values", "amount", "amounts", "worth"})
# "amount of orders" says the number of orders as often as their money: asked which where both
# can be answered
_AMOUNT = frozenset({"amount", "amounts"})
# Name words of a column that holds a number of things ("units_sold", "l_quantity", a count kept
# per row: "count_lifetime_orders", whose "total value" was shown as 61,948 orders; outside
# recheck 41, F6)
_QUANTITY = UNIT_WORDS | {"unit", "quantities", "volume", "count", "counts", "num"}
# How far the value word's "of" may sit before the count's phrase: "value of all the urgent
# orders" (three words between); farther, it says something else
_GAP = 3


def valued_count(reading: Reading, layer: SemanticLayer) -> Reading:
    """``reading`` with a value asked of a count of rows read as the one money total of the
    same rows, asked back among several, or its word left unread; unchanged otherwise.

    Example:
        >>> from assay.semantic._reading import Reading
        >>> layer = SemanticLayer(metrics=(
        ...     Metric("orders", "orders", (), "t", "COUNT(*)"),
        ...     Metric("sales", "total sales", (), "t", "SUM(t.price)"),))
        >>> said = Match("orders", 4, 5, "metric", ("orders",))
        >>> q = "the total value of orders"
        >>> valued_count(Reading(q, ("orders",), matches=(said,)), layer).metrics
        ('sales',)
    """
    words = [canonical(t.text.lower()) for t in tokenize(reading.question)]
    for name in reading.metrics:
        metric = layer.metric(name)
        # a count of rows, or any other count ("COUNT(DISTINCT orders.order_id)": its rows are
        # not read, so no money total of them is found and the value word is asked back)
        counts = _rows(metric, counted=True) is not None or metric.expression.replace(
            " ", ""
        ).lower().startswith("count(")
        # a quantity summed ("SUM(sales.units_sold)"): the value of units sold is money, never
        # the number of units (outside recheck 40b, F3)
        quantity = not counts and _sums_quantity(metric)
        said = _valued(reading, name, words) if counts or quantity else None
        if said is None:
            continue
        match, word, phrase = said
        amounts = _amounts_of_rows(metric, layer)
        if quantity and word in _AMOUNT:
            continue  # "the amount of units sold", "the amount of quantity": the units
        if phrase.startswith(word) and word in _AMOUNT and amounts and len(reading.metrics) == 1:
            # "amount of orders": the number of orders or their money total, both said so
            # (outside recheck 40b: a count on one warehouse, SUM(o_totalprice) on another);
            # "order amount" is money
            targets = tuple(sorted({name, *(m.name for m in amounts)}))
            asked = dataclasses.replace(match, kind="ambiguous", targets=targets, phrase=phrase)
            return dataclasses.replace(reading, metrics=(), ambiguous=(asked, *reading.ambiguous))
        if len(amounts) == 1:
            matches = tuple(
                dataclasses.replace(m, targets=(amounts[0].name,)) if m is match else m
                for m in reading.matches
            )
            metrics = tuple(
                dict.fromkeys(amounts[0].name if m == name else m for m in reading.metrics)
            )
            reading = dataclasses.replace(reading, metrics=metrics, matches=matches)
        elif amounts and len(reading.metrics) == 1:
            targets = tuple(sorted(m.name for m in amounts))
            asked = dataclasses.replace(match, kind="ambiguous", targets=targets)
            return dataclasses.replace(reading, metrics=(), ambiguous=(asked, *reading.ambiguous))
        else:
            # no money total of those rows, or several beside another measure: the word is
            # asked back, never dropped, saying why
            reading = dataclasses.replace(
                reading,
                unread=(*reading.unread, word),
                explained=(*reading.explained, (word, _why(phrase, metric, quantity))),
            )
    return reading


def _why(phrase: str, metric: Metric, quantity: bool) -> str:
    """Why a value word said of a count (or a quantity) is asked back, and how to ask."""
    label = metric.label
    what = "adds up a number of things, not money" if quantity else "counts them"
    return (
        f"'{phrase}': {label} {what}, and no money total of the same rows is defined, so "
        f"whether you mean how many or what they are worth is not certain. Ask for "
        f"'{label}', or name the money measure you mean (`assay semantic show` lists them)."
    )


def _valued(reading: Reading, name: str, words: list[str]) -> tuple[Match, str, str] | None:
    """The phrase naming the count and the value word said of it ("value of ... orders",
    "order value"), when one is."""
    spans = [m for m in reading.matches if m.kind == "metric"]
    for match in spans:
        if match.targets != (name,):
            continue
        phrase = [canonical(t.text.lower()) for t in tokenize(match.phrase)]
        n = len(phrase)
        for start in (i for i in range(len(words) - n + 1) if n and words[i : i + n] == phrase):
            if _cue_before(words, start) is not None:
                continue  # "number of high value orders": a count asked, of valued rows
            after = start + n
            if after < len(words) and words[after] in _VALUE:
                return match, words[after], " ".join(words[start : after + 1])
            of = _value_of_before(words, start)
            if of is None:
                continue
            if any(
                other is not match and _overlaps(other, words, range(of, start)) for other in spans
            ):
                continue  # "value of refunds and orders": the value is the refunds'
            return match, words[of], " ".join(words[of : start + n])
    return None


def _value_of_before(words: list[str], start: int) -> int | None:
    """The index of a value word followed by "of", ending at most ``_GAP`` words before
    ``start``."""
    for gap in range(_GAP + 1):
        end = start - gap
        if end >= 2 and words[end - 1] == "of" and words[end - 2] in _VALUE:
            return end - 2
    return None


def _amounts_of_rows(metric: Metric, layer: SemanticLayer) -> list[Metric]:
    """The metrics of the layer that add up a money column over the rows ``metric`` counts
    (or whose quantity it adds up): the same table and time column, and the same conditions
    on its rows (case aside)."""
    if _rows(metric, counted=True) is not None:
        same = over_same_rows(metric, layer, counted=True)
    else:
        rows = _rows(metric, counted=False)
        folded = None if rows is None else frozenset(r.lower() for r in rows)
        same = [
            m
            for m in layer.metrics
            if folded is not None
            and m.name != metric.name
            and m.table == metric.table
            and m.time_column == metric.time_column
            and m.required_filters == metric.required_filters
            and (kept := _rows(m, counted=False)) is not None
            and frozenset(r.lower() for r in kept) == folded
        ]
    return [m for m in same if _adds_money(m.expression)]


def _sums_quantity(metric: Metric) -> bool:
    """Whether a metric is one sum of a column that says it holds a number of things, not
    money (``units_sold``, ``l_quantity``, ``qty``: a name word that is a unit word).

    Example:
        >>> _sums_quantity(Metric("u", "units sold", (), "s", "sum(s.units_sold)"))
        True
        >>> _sums_quantity(Metric("r", "revenue", (), "s", "sum(s.sales_amount)"))
        False
        >>> _sums_quantity(Metric("c", "orders", (), "c", "sum(c.count_lifetime_orders)"))
        True
    """
    tree = _parsed(metric.expression)
    if not isinstance(tree, exp.Sum):
        return False
    columns = _added(tree.this)
    if len(columns) != 1:
        return False
    said = set(split_name(columns[0].name))
    return bool(said & _QUANTITY) and not _adds_money(metric.expression)


def _adds_money(expression: str) -> bool:
    """Whether a metric is one sum of a column whose name says money, its words glued or not
    (``o_totalprice``, ``l_extendedprice``: a name word ending in a money word of four letters
    or more).

    Example:
        >>> _adds_money("sum(orders.o_totalprice)"), _adds_money("sum(t.quantity)")
        (True, False)
        >>> _adds_money("avg(orders.o_totalprice)"), _adds_money("sum(t.pet_age)")
        (False, False)
    """
    tree = _parsed(expression)
    if not isinstance(tree, exp.Sum):
        return False
    columns = _added(tree.this)
    if len(columns) != 1:
        return False
    said = split_name(columns[0].name)
    if set(said) & UNIT_WORDS:
        return False
    money = {w for w in MONEY_WORDS if len(w) >= 4}
    return any(w in MONEY_WORDS or any(w.endswith(m) for m in money) for w in said)
