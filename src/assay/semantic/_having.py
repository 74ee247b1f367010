"""Conditions on a metric per group: "number of customers with more than 3 orders" (the
customers whose order count is above 3, counted), "countries with more than 1000 orders" (the
countries, ``HAVING``).

Read before the rest of the question as: an optional count phrase ("number of", "how many",
"count of"), the group (a dimension the layer names, or a table's name: an entity), a lead
("with", "having", "that have", "who placed", ...), a comparison word, a number, and a metric
named right after the number ("orders" for the number of orders). The group, the lead, the
comparison and the number are blanked; the count phrase and the metric words stay, so the rest
reads as the metric ("number of orders in 2023"). The reader then keeps the condition only when
the rest read as exactly that metric, with no grouping, ranking, grain or compared periods of
its own (``placed``); otherwise the comparison's words are asked back.

An entity is grouped by its key: the one column that many-to-one joins reach it by
(``customers.customer_id``); a table reached by none, or by two different columns, is not an
entity here. Entities are only counted ("number of customers with ..."): listing them has no
column that names them.

Fail closed: "3 or more" ("at least" or "more than"?), a unit or share ("$1000", "50%"), two
conditions, a condition joined to another by "or", or a metric the words after the number do
not name exactly: not read here; the words stay for the reader, which asks back naming them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assay.semantic._compare import _SAID, _dated, _number, _op
from assay.semantic._model import SemanticLayer
from assay.semantic._resolve import Lexicon, Match, Token, canonical, tokenize

__all__ = ["GroupCondition", "group_condition_in"]


@dataclass(frozen=True)
class GroupCondition:
    """Groups kept by their value of ``metric``: ``HAVING metric op value``."""

    group: str  # a dimension's name, or an entity's table
    key: str  # what is grouped by: the dimension's column, or the entity's key column
    entity: bool
    metric: str
    op: str  # ">", ">=", "<", "<="
    value: str  # the number as a plain decimal
    counted: bool  # the answer is how many groups, not the groups
    words: str = ""  # the comparison as written ("more than 3")
    # entities listed ("customers with more than 3 orders"): no column names them, so the
    # reader asks back offering this counted question instead
    offered: str = ""

    @property
    def number(self) -> float:
        return float(self.value)

    def said(self, metric_label: str) -> str:
        """ "whose number of orders is above 3"."""
        return f"whose {metric_label} is {_SAID[self.op]} {self.value}"


_LEADS: tuple[tuple[str, ...], ...] = tuple(
    sorted(
        {
            ("with",),
            ("having",),
            ("have",),
            ("has",),
            ("had",),
            ("placed",),
            ("made",),
            ("whose",),
            *((who, verb) for who in ("that", "who", "which") for verb in ("have", "has", "had")),
            *((who, verb) for who in ("that", "who", "which") for verb in ("placed", "made")),
        },
        key=len,
        reverse=True,
    )
)
_COUNTS = (("number", "of"), ("count", "of"), ("how", "many"))
_ASKING = frozenset({"which", "what"})


def _lead(canon: list[str], end: int) -> int:
    """How many lead words end at ``end`` (0 when none)."""
    for lead in _LEADS:
        if tuple(canon[max(end - len(lead), 0) : end]) == lead and end - len(lead) >= 0:
            return len(lead)
    return 0


def _metric_after(tokens: list[Token], k: int, lexicon: Lexicon) -> Match | None:
    """The one metric named by the words from ``k`` on, starting right there."""
    if k >= len(tokens):
        return None
    found = lexicon.match_tokens(tokens[k:], [False] * (len(tokens) - k))
    first = found[0] if found else None
    if first is None or first.start != 0 or first.kind != "metric" or len(first.targets) != 1:
        return None
    return Match(first.phrase, first.start + k, first.end + k, first.kind, first.targets)


def _entity_key(layer: SemanticLayer, table: str) -> str | None:
    """The one column many-to-one joins reach ``table`` by; None for none or several."""
    keys = {
        j.right for j in layer.joins if j.tables[1] == table and j.relationship == "many_to_one"
    }
    return keys.pop() if len(keys) == 1 else None


def _table_named(words: list[str], layer: SemanticLayer) -> str | None:
    """The table the words name, in the plural ("customers", "car makers")."""
    if not words or not words[-1].endswith("s"):
        return None
    joined = "_".join(words)
    for table in layer.tables:
        name = table.lower()
        if joined in {name, name + "s"} or (joined.endswith("ies") and joined[:-3] + "y" == name):
            return table
    return None


def _group(
    tokens: list[Token], canon: list[str], end: int, layer: SemanticLayer, lexicon: Lexicon
) -> tuple[int, str, str, bool] | None:
    """The group named right before ``end``: (start, name, key, entity)."""
    found = lexicon.match_tokens(tokens[:end], [False] * end)
    last = found[-1] if found else None
    if last is not None and last.end == end and last.kind == "dimension" and len(last.targets) == 1:
        dim = layer.dimension(last.targets[0])
        return last.start, dim.name, dim.column, False
    for size in (2, 1):
        if end - size < 0:
            continue
        table = _table_named(canon[end - size : end], layer)
        if table is None:
            continue
        key = _entity_key(layer, table)
        return (end - size, table, key, True) if key is not None else None
    return None


_UNIT = re.compile(r"^[$€£%]$")


def group_condition_in(
    question: str,
    layer: SemanticLayer,
    lexicon: Lexicon,
    periods: tuple[tuple[int, int], ...] = (),
) -> tuple[str, GroupCondition | None]:
    """The question with a per-group condition's group, lead and bound blanked, and the
    condition; the question unchanged and ``None`` when it has none (or more than one).

    Example:
        >>> from assay.semantic._model import Dimension, JoinPath, Metric
        >>> layer = SemanticLayer(
        ...     metrics=(Metric("orders", "number of orders", (), "o", "COUNT(*)"),),
        ...     joins=(JoinPath("o.customer_id", "customers.id"),),
        ...     tables=("o", "customers"),
        ... )
        >>> rest, c = group_condition_in("number of customers with over 3 orders", layer,
        ...                              Lexicon(layer))
        >>> " ".join(rest.split()), c.group, c.key, c.op, c.value, c.counted
        ('number of orders', 'customers', 'customers.id', '>', '3', True)
    """
    tokens = tokenize(question)
    canon = [canonical(t.text) for t in tokens]
    named: Lexicon | None = None  # built only when a bound is found: most questions have none
    # token spans blanked, the condition, and metric words said again as the metric's label
    found: list[tuple[list[tuple[int, int]], GroupCondition, tuple[int, int, str] | None]] = []
    for i in range(len(tokens)):
        op = _op(canon, i)
        if op is None or (i > 0 and canon[i - 1] in {"no", "not"}):
            continue
        number = _number(tokens, op[1])
        if number is None or _dated(tokens[number[1] - 1], periods):
            continue
        value, k = number
        words = question[tokens[i].start : tokens[k - 1].end]
        named = named or lexicon.counted(layer) or lexicon
        # "with more than 3 orders": the bound, then the metric
        metric, lead_end, spans = _metric_after(tokens, k, named), i, [(i, k)]
        relabel: tuple[int, int, str] | None = None
        if metric is None:
            # "more than 2 countries" where 'countries' also names a column: the rows counted
            metric = _rows_after(canon, k, layer)
            if metric is not None:
                relabel = (metric.start, metric.end, layer.metric(metric.targets[0]).label)
        if metric is None:
            # "with gross revenue above 1000", "whose number of orders is over 3"
            metric = _metric_before(tokens, canon, i, named)
            if metric is None:
                continue
            lead_end, spans = metric.start, [(metric.end, k)]
        lead = _lead(canon, lead_end)
        if not lead:
            continue
        group = _group(tokens, canon, lead_end - lead, layer, lexicon)
        if group is None:
            continue
        start, name, key, entity = group
        counted = start >= 2 and tuple(canon[start - 2 : start]) in _COUNTS
        offered = ""
        if not counted and entity:  # the entities listed: no column names them, asked back
            listed = question[tokens[start].start : tokens[lead_end - lead - 1].end]
            rest = question[tokens[lead_end].start :].strip().rstrip("?")
            said = question[tokens[lead_end - lead].start : tokens[lead_end - 1].end]
            link = said if canon[lead_end - lead] in {"with", "having", "whose"} else "with"
            offered = f"number of {listed} {link} {rest}"
        blank_from = start - 1 if not counted and start and canon[start - 1] in _ASKING else start
        spans.append((blank_from, lead_end))
        condition = GroupCondition(
            name, key, entity, metric.targets[0], op[0], value, counted, words, offered
        )
        found.append((spans, condition, relabel))
    if len(found) != 1:
        return question, None
    spans, condition, relabel = found[0]
    last = max(end for _, end in spans)
    if "or" in canon[last:] or any(_UNIT.match(t.text) for a, b in spans for t in tokens[a:b]):
        return question, None
    chars = list(question)
    for a, b in spans:
        for n in range(tokens[a].start, tokens[b - 1].end):
            chars[n] = " "
    if relabel is not None:
        a, b, label = relabel
        chars[tokens[a].start : tokens[b - 1].end] = list(label)
    return "".join(chars), condition


def _rows_after(canon: list[str], k: int, layer: SemanticLayer) -> Match | None:
    """A table named in the plural right at ``k`` whose rows exactly one metric counts
    (``count(...)`` over that table): that metric ("more than 2 countries")."""
    for size in (2, 1):
        table = _table_named(canon[k : k + size], layer) if k + size <= len(canon) else None
        if table is None:
            continue
        counts = [
            m.name
            for m in layer.metrics
            if m.table == table and m.expression.strip().lower().startswith("count(")
        ]
        if len(counts) == 1:
            return Match(" ".join(canon[k : k + size]), k, k + size, "metric", (counts[0],))
        return None
    return None


_COPULA = frozenset({"is", "are", "was", "were", "of"})


def _metric_before(tokens: list[Token], canon: list[str], i: int, lexicon: Lexicon) -> Match | None:
    """The one metric named right before the comparison word at ``i`` (a copula between:
    "gross revenue is above", "gross revenue of over")."""
    end = i
    while end > 0 and canon[end - 1] in _COPULA:
        end -= 1
    found = lexicon.match_tokens(tokens[:end], [False] * end)
    last = found[-1] if found else None
    if last is None or last.end != end or last.kind != "metric" or len(last.targets) != 1:
        return None
    return Match(last.phrase, last.start, i, last.kind, last.targets)
