"""``counted_amount``: "how many cancellations" said of a metric that adds up an amount.

Outside tryout 37 asked the imported MetricFlow tutorial layer "how many cancellations were
there?" and was shown 3,530.61: its metric Cancellations is ``sum(CASE WHEN
transaction_type_name = 'cancellation' THEN transaction_amount_usd ELSE 0 END)``, a dollar
total, while 17 cancellations were made ("... by country" and "... in Mexico" the same). The
grammar reads "how many" right before a metric's phrase as nothing (``_grammar._how_many``
drops the cue: said of a count metric, the metric is the answer), so the count asked was lost.

A count asked ("how many", "number of", "count of", "count") of a metric that adds up or
averages an amount, a column whose name says money (``_draft.MONEY_WORDS``: amount, price,
revenue, ...), is therefore never answered with that amount:

* when the layer has exactly one metric counting the same rows (its table, time column and
  conditions: the metric's filter and the ``CASE WHEN`` its sum keeps rows by), the question
  is read as that count, which the reading line names;
* otherwise it is asked back (``behaviour.count_of_amount``), saying what the metric adds up.

A metric that counts rows (``COUNT``, ``SUM(1)``, ``SUM(CASE WHEN ... THEN 1 ELSE 0 END)``) or
adds up a column of units ("how many units were sold" over ``SUM(ss_quantity)``:
``_draft.UNIT_WORDS``) is a count and stays answered, as does a count of money said in money
words ("how many dollars of cancellations").
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError

from assay.semantic._draft import MONEY_WORDS, UNIT_WORDS
from assay.semantic._model import Metric, SemanticLayer
from assay.semantic._names import split_name
from assay.semantic._resolve import Match, canonical, tokenize

if TYPE_CHECKING:
    from assay.semantic._reading import Reading

__all__ = ["counted_amount"]

# The words that ask how many, as the question's tokens spell them ("no. of": no . of)
_CUES = (("how", "many"), ("number", "of"), ("count", "of"), ("count",), ("no", ".", "of"))
# Words between the cue and the metric that make the count one of money ("how many dollars of
# cancellations"): the amount is then what is asked
_MONEY_SAID = frozenset(
    {"dollar", "dollars", "euro", "euros", "pound", "pounds", "usd", "eur", "gbp", "money"}
)
# How far a cue may sit before the metric's phrase: "how many large cancellations" (one value
# between); farther, the cue counts something else
_GAP = 3
# Words of a column's name that say it holds money, beyond the draft's: a currency code
_CURRENCY = frozenset({"usd", "eur", "gbp", "dollars", "euros"})


def counted_amount(reading: Reading, layer: SemanticLayer) -> Reading:
    """``reading`` with a count asked of an amount metric read as the layer's one count of the
    same rows, or its why in ``count_asked`` (asked back); unchanged otherwise.

    Example:
        >>> from assay.semantic._reading import Reading
        >>> from assay.semantic._resolve import Match
        >>> layer = SemanticLayer(metrics=(
        ...     Metric("refunds", "Refunds", (), "t", "SUM(t.refund_amount)"),))
        >>> said = Match("refunds", 2, 3, "metric", ("refunds",))
        >>> r = counted_amount(Reading("how many refunds", ("refunds",), matches=(said,)), layer)
        >>> r.count_asked[0][:47]
        "'how many refunds' asks how many there are, but"
    """
    if not reading.metrics or reading.count_asked:
        return reading
    tokens = tokenize(reading.question)
    words = [canonical(t.text.lower()) for t in tokens]
    for name in reading.metrics:
        metric = layer.metric(name)
        added = _added_amount(metric.expression)
        if added is None:
            continue
        span = _counted_phrase(reading, name, words)
        if span is None:
            continue
        counts = _counts_of_rows(metric, layer)
        if len(counts) == 1:
            reading = _read_as(reading, name, counts[0].name)
            continue
        said = reading.question[tokens[span[0]].start : tokens[span[1] - 1].end]
        why = _why(said, metric, added, counts)
        reading = dataclasses.replace(reading, count_asked=(*reading.count_asked, why))
    return reading


def _counted_phrase(reading: Reading, name: str, words: list[str]) -> tuple[int, int] | None:
    """The span of words from a count's cue through the metric's phrase ("how many
    cancellations"), when a cue stands at most ``_GAP`` words before a phrase naming it."""
    spans = [m for m in reading.matches if m.kind == "metric"]
    for match in spans:
        if name not in match.targets:
            continue
        phrase = [canonical(t.text.lower()) for t in tokenize(match.phrase)]
        for start in _occurrences(phrase, words):
            cue = _cue_before(words, start)
            if cue is None:
                continue
            between = range(cue, start)
            if any(other is not match and _overlaps(other, words, between) for other in spans):
                continue  # "orders count and total refunds": the cue counts the orders
            return cue, start + len(phrase)
    return None


def _occurrences(phrase: list[str], words: list[str]) -> list[int]:
    """Where ``phrase`` starts in ``words`` (the reading's token indices can belong to a
    rewritten question, so the phrase is found again in the question's own words)."""
    n = len(phrase)
    return [i for i in range(len(words) - n + 1) if n and words[i : i + n] == phrase]


def _cue_before(words: list[str], start: int) -> int | None:
    """The index of a count's cue ending at most ``_GAP`` words before ``start``, none of the
    words between saying money."""
    for gap in range(_GAP + 1):
        end = start - gap
        if end < 0 or any(w in _MONEY_SAID for w in words[end:start]):
            return None
        for cue in _CUES:
            if end >= len(cue) and tuple(words[end - len(cue) : end]) == cue:
                return end - len(cue)
    return None


def _overlaps(match: Match, words: list[str], between: range) -> bool:
    """Whether another metric's phrase is said among the words ``between`` (its cue
    included: "orders count and total refunds" counts the orders, not the refunds)."""
    phrase = [canonical(t.text.lower()) for t in tokenize(match.phrase)]
    return any(j in between for i in _occurrences(phrase, words) for j in range(i, i + len(phrase)))


def _added_amount(expression: str) -> exp.Column | None:
    """The money column a metric adds up or averages (``SUM(x.amount)``, ``AVG(x.price)``,
    or inside ``SUM(CASE WHEN ... THEN x.amount ELSE 0 END)``); None for a count, a sum of
    units, or a sum of columns whose names say no money.

    Example:
        >>> _added_amount("sum(CASE WHEN t.kind = 'x' THEN t.amount_usd ELSE 0 END)").sql()
        't.amount_usd'
        >>> _added_amount("SUM(CASE WHEN t.kind = 'x' THEN 1 ELSE 0 END)") is None
        True
        >>> _added_amount("SUM(ss_quantity)") is None
        True
    """
    tree = _parsed(expression)
    if tree is None:
        return None
    for aggregate in tree.find_all(exp.Sum, exp.Avg):
        for column in _added(aggregate.this):
            said = set(split_name(column.name))
            if said & UNIT_WORDS:
                return None  # "units sold": a count of units, whatever else it adds
            if said & (MONEY_WORDS | _CURRENCY):
                return column
    return None


def _added(node: exp.Expr) -> list[exp.Column]:
    """The columns whose values a sum adds: not those a ``CASE WHEN`` only tests."""
    if isinstance(node, exp.Case):
        out = [c for when in node.args.get("ifs") or [] for c in _added(when.args["true"])]
        default = node.args.get("default")
        return out + (_added(default) if default is not None else [])
    if isinstance(node, exp.Paren):
        return _added(node.this)
    return list(node.find_all(exp.Column))


def _parsed(expression: str) -> exp.Expr | None:
    try:
        return sqlglot.parse_one(expression)
    except ParseError:
        return None


def _counts_of_rows(metric: Metric, layer: SemanticLayer) -> list[Metric]:
    """The metrics of the layer that count the rows ``metric`` adds up: the same table and
    time column, and the same conditions on its rows (case aside)."""
    return over_same_rows(metric, layer, counted=False)


def over_same_rows(metric: Metric, layer: SemanticLayer, *, counted: bool) -> list[Metric]:
    """The other metrics of the layer over the rows ``metric`` measures, read the other way:
    when ``metric`` adds up (``counted`` False) those that count its rows, when it counts
    (``counted`` True) those that add up a column over them. The same table and time column,
    and the same conditions on its rows (case aside)."""
    rows = _folded(_rows(metric, counted=counted))
    if rows is None:
        return []
    return [
        m
        for m in layer.metrics
        if m.name != metric.name
        and m.table == metric.table
        and m.time_column == metric.time_column
        and m.required_filters == metric.required_filters
        and _folded(_rows(m, counted=not counted)) == rows
    ]


def _folded(rows: frozenset[str] | None) -> frozenset[str] | None:
    return None if rows is None else frozenset(r.lower() for r in rows)


def _rows(metric: Metric, counted: bool) -> frozenset[str] | None:
    """The conditions a metric keeps its rows by (its filter, and each ``CASE WHEN`` around
    what its one aggregate adds), when it adds a column (``counted`` false) or counts the rows
    (``counted`` true: ``COUNT(*)``, ``SUM(1)``, ``SUM(CASE WHEN c THEN 1 ELSE 0 END)``); None
    when it is neither (two aggregates, a ratio)."""
    tree = _parsed(metric.expression)
    if not isinstance(tree, (exp.Sum, exp.Count)):
        return None
    kept = set(_conjuncts(_parsed(metric.filter))) if metric.filter else set()
    inner = tree.this
    while isinstance(inner, exp.Paren):
        inner = inner.this
    while isinstance(inner, exp.Case) and len(inner.args.get("ifs") or []) == 1:
        if not _keeps_nothing(inner.args.get("default"), tree):
            return None
        when = inner.args["ifs"][0]
        kept |= _conjuncts(when.this)
        inner = when.args["true"]
    if isinstance(tree, exp.Count):
        value = isinstance(inner, exp.Star) or _is_one(inner)
    else:
        value = _is_one(inner)
    if value != counted or (not counted and not inner.find(exp.Column)):
        return None
    return frozenset(kept)


def _keeps_nothing(default: exp.Expr | None, aggregate: exp.Expr) -> bool:
    """Whether a CASE's ELSE adds nothing: none or NULL, or 0 inside a SUM."""
    if default is None or isinstance(default, exp.Null):
        return True
    return isinstance(aggregate, exp.Sum) and default.is_int and default.to_py() == 0


def _is_one(node: exp.Expr) -> bool:
    return isinstance(node, exp.Literal) and node.is_int and node.to_py() == 1


def _conjuncts(condition: exp.Expr | None) -> set[str]:
    """A condition's AND-ed parts, each as plain SQL; ``CASE WHEN c THEN TRUE ELSE FALSE END``
    is ``c`` (MetricFlow writes a boolean dimension so)."""
    while isinstance(condition, exp.Paren):
        condition = condition.this
    if condition is None:
        return set()
    if isinstance(condition, exp.And):
        return _conjuncts(condition.left) | _conjuncts(condition.right)
    ifs = condition.args.get("ifs") if isinstance(condition, exp.Case) else None
    if ifs and len(ifs) == 1 and ifs[0].args["true"] == exp.true():
        if condition.args.get("default") in (None, exp.false()):
            return _conjuncts(ifs[0].this)
    return {condition.sql()}


def _read_as(reading: Reading, amount: str, count: str) -> Reading:
    """``reading`` with the amount metric replaced by the count of its rows."""
    metrics = tuple(dict.fromkeys(count if m == amount else m for m in reading.metrics))
    matches = tuple(
        dataclasses.replace(m, targets=(count,)) if m.targets == (amount,) else m
        for m in reading.matches
    )
    return dataclasses.replace(reading, metrics=metrics, matches=matches)


def _why(said: str, metric: Metric, column: exp.Column, counts: list[Metric]) -> str:
    """The ask-back: what the metric adds up, over which rows, and that it is no count."""
    verb = "averages" if "avg(" in metric.expression.lower() else "adds up"
    rows = sorted(_rows(metric, counted=False) or ())
    where = f" of the rows where {' and '.join(rows)}" if rows else ""
    labels = ", ".join(sorted(m.label for m in counts))
    defined = f"counts them as {labels}" if counts else "defines no count of those rows"
    return (
        f"'{said}' asks how many there are, but {metric.label} is an amount: it {verb} "
        f"{column.sql()}{where}, so its figure says how much, not how many, and the "
        f"warehouse {defined}. Ask for '{metric.label}' to get the amount, or name a count "
        "the warehouse defines (`assay semantic show` lists them)."
    )
