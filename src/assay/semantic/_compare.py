"""Numeric comparisons on a dimension: "where capacity is above 3", "capacity > 3", "capacity
at least 2", "capacity between 2 and 5".

Read before the rest of the question, each as a dimension the layer names, an optional
"is"/"are", a comparison word and a number (or "between N and M", both ends kept). What is
read is taken out of the question (blanked, so that every other word keeps its place) and
the rest is read as before; the comparisons are restated in "I read this as" and checked by
the fit check (column, polarity and bound), which also withholds a comparison on a column the
engine does not type as a number.

Fail closed: a comparison word not right after the dimension (a negation is read only as
"not over/above/under/below/exceeding" or "no/not more/less than"), a
comparison joined to another by "or", a number that does not parse, or a dimension phrase
that names more than one dimension is not read here: its words stay for the reader, which
asks back naming them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from assay.semantic._model import SemanticLayer
from assay.semantic._resolve import Lexicon, Match, Token, canonical, entity_named, tokenize

__all__ = [
    "NUMERIC_TYPE",
    "Comparison",
    "comparisons_in",
    "grouped_bounds_in",
    "metric_columns",
    "said",
]

# The engine types of a column that compares as a number (DuckDB, SQLite, PostgreSQL names).
NUMERIC_TYPE = re.compile(
    r"^\s*(?:u?(?:tiny|small|big|huge)?int(?:eger)?\d*|int\d|decimal|numeric|real|float\d*"
    r"|double(?: precision)?|number|serial|bigserial|smallserial)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Comparison:
    """A dimension's value kept above, below or at a bound: ``column op value``."""

    dimension: str
    op: str  # ">", ">=", "<", "<="
    value: str  # the number as a plain decimal ("3", "2.5")
    words: str = ""  # as written
    # ``table.column`` when the bound is on a metric's column, not a dimension ("stadiums
    # with capacity more than 5000" where Capacity is only summed); ``dimension`` then names
    # it in words ("stadium Capacity")
    column: str = ""

    @property
    def number(self) -> float:
        return float(self.value)


_SAID = {">": "above", ">=": "at least", "<": "below", "<=": "at most"}


def said(comparisons: Sequence[Comparison]) -> list[str]:
    """The comparisons in plain words: ``where capacity is above 3``; the two ends of one
    "between" as ``where capacity is between 2 and 5 (both included)``."""
    out = []
    k = 0
    while k < len(comparisons):
        c = comparisons[k]
        nxt = comparisons[k + 1] if k + 1 < len(comparisons) else None
        if nxt is not None and (c.op, nxt.op) == (">=", "<=") and c.words == nxt.words:
            if c.value == nxt.value:  # "in 1970" of a year column: that one value
                out.append(f"where {c.dimension} is {c.value} (= {c.value})")
            else:
                out.append(
                    f"where {c.dimension} is between {c.value} and {nxt.value} (both included)"
                )
            k += 2
            continue
        sign = next((w for w in _SIGNS if w in c.words.lower().split()), None)
        if sign is not None and c.value == "0":
            # "a negative balance": said as asked, the bound in words (a 0 in the answer's
            # sentence would be a number no returned cell supports)
            out.append(f"where {c.dimension} is {sign} ({_SAID[c.op]} zero)")
        else:
            out.append(f"where {c.dimension} is {_SAID[c.op]} {c.value} ({c.op} {c.value})")
        k += 1
    return out


# Comparison words (canonical tokens) and the operator each means.
_OPS: dict[tuple[str, ...], str] = {
    ("above",): ">",
    ("over",): ">",
    ("exceeds",): ">",
    ("exceeding",): ">",
    ("more", "than"): ">",
    ("greater", "than"): ">",
    ("higher", "than"): ">",
    ("larger", "than"): ">",
    ("bigger", "than"): ">",
    (">",): ">",
    ("at", "least"): ">=",
    ("no", "less", "than"): ">=",
    ("no", "fewer", "than"): ">=",
    ("not", "less", "than"): ">=",
    (">", "="): ">=",
    ("below",): "<",
    ("under",): "<",
    ("less", "than"): "<",
    ("fewer", "than"): "<",
    ("lower", "than"): "<",
    ("smaller", "than"): "<",
    ("<",): "<",
    ("at", "most"): "<=",
    # "weight not over 2000": the bound negated, never the "not" dropped (outside tryout 16)
    ("not", "over"): "<=",
    ("not", "above"): "<=",
    ("not", "exceeding"): "<=",
    ("not", "under"): ">=",
    ("not", "below"): ">=",
    ("no", "more", "than"): "<=",
    ("not", "more", "than"): "<=",
    ("<", "="): "<=",
}
# Said of a weight only ("weight is heavier than 10"): of any other column they mean nothing.
_WEIGHED: dict[tuple[str, ...], str] = {("heavier", "than"): ">", ("lighter", "than"): "<"}
# A sign said of a numeric column: "a negative balance", "balance is negative" (outside
# recheck 40, N4: "customers with a negative account balance" read "negative" as a value).
# "positive" is left unread: of a column never below zero ("a positive rating" on a 1-5
# scale) it means good, not above zero, and ``> 0`` would keep every row.
_SIGNS = {"negative": "<"}
_LONGEST = max(len(k) for k in _OPS)
_COPULA = frozenset({"is", "are", "was", "were", "be", "of"})
_LEAD = frozenset({"where", "whose", "with", "having", "when"})
_NUMBER = re.compile(r"\d+(?:\.\d+)?|\d{1,3}(?:,\d{3})+(?:\.\d+)?")


def _number(tokens: list[Token], i: int) -> tuple[str, int] | None:
    """The number at token ``i`` (a minus sign written against it included) and the index
    after it; ``None`` when there is none."""
    negative = False
    if i < len(tokens) and tokens[i].text == "-" and i + 1 < len(tokens):
        if tokens[i + 1].start != tokens[i].end:
            return None
        negative, i = True, i + 1
    if i >= len(tokens) or not _NUMBER.fullmatch(tokens[i].text):
        return None
    text = tokens[i].text.replace(",", "")
    value = float(text)
    plain = str(int(value)) if value.is_integer() and "." not in text else text
    return ("-" if negative else "") + plain, i + 1


def _dated(token: Token, periods: Sequence[tuple[int, int]]) -> bool:
    return any(a <= token.start and token.end <= b for a, b in periods)


def _op(canon: list[str], i: int) -> tuple[str, int] | None:
    for size in range(_LONGEST, 0, -1):
        key = tuple(canon[i : i + size])
        if len(key) == size and key in _OPS:
            return _OPS[key], i + size
    return None


_PLAIN = re.compile(
    r"^\s*(?:sum|avg)\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)\s*\)\s*$",
    re.IGNORECASE,
)


def metric_columns(layer: SemanticLayer) -> dict[tuple[str, ...], str]:
    """The words naming a per-row numeric column (canonical tokens) -> ``table.column``: the
    column of a metric that is a plain SUM or AVG of that one column of its own table
    ("capacity" for ``sum(stadium.Capacity)``), said alone or after its table's name. Words
    naming two columns name neither."""
    out: dict[tuple[str, ...], set[str]] = {}
    for metric in layer.metrics:
        found = _PLAIN.match(metric.expression)
        if found is None or found.group(1) != metric.table:
            continue
        table, column = found.groups()
        words = tuple(canonical(t.text) for t in tokenize(column.replace("_", " ")))
        named = tuple(canonical(t.text) for t in tokenize(table.replace("_", " ")))
        for key in (words, (*named, *words)):
            out.setdefault(key, set()).add(f"{table}.{column}")
    return {k: v.pop() for k, v in out.items() if len(v) == 1 and k}


def _column_matches(
    canon: list[str], tokens: list[Token], taken: list[Match], columns: dict[tuple[str, ...], str]
) -> list[Match]:
    """Metric columns named where no phrase of the lexicon is ("capacity" alone, never the
    "capacity" of "total capacity"). A metric phrase that is only the column's own words and
    names several metrics ("capacity": its total, average, maximum and minimum alike, as a
    drafted layer names them) is the column; one naming one metric is that metric."""
    covered = {
        k
        for m in taken
        if not (
            m.kind == "metric" and len(m.targets) > 1 and tuple(canon[m.start : m.end]) in columns
        )
        for k in range(m.start, m.end)
    }
    longest = max((len(k) for k in columns), default=0)
    out: list[Match] = []
    i = 0
    while i < len(tokens):
        for size in range(min(longest, len(tokens) - i), 0, -1):
            key = tuple(canon[i : i + size])
            if key in columns and not covered & set(range(i, i + size)):
                phrase = " ".join(t.text for t in tokens[i : i + size])
                out.append(Match(phrase, i, i + size, "column", (columns[key],)))
                i += size
                break
        else:
            i += 1
    return out


def _before(
    tokens: list[Token], canon: list[str], end: int, periods: Sequence[tuple[int, int]]
) -> tuple[int, str, str] | None:
    """A comparison and number said right before token ``end`` ("more than 6" of "more than 6
    cylinders"): (its first token, the operator, the number), or None."""
    for size in range(_LONGEST, 0, -1):
        for k in range(max(end - 1 - size, 0), end - 1):
            op = _OPS.get(tuple(canon[k : k + size]))
            number = None if op is None else _number(tokens, k + size)
            if op is not None and number is not None and number[1] == end:
                if _dated(tokens[end - 1], periods):
                    return None
                return k, op, number[0]
    return None


# Words that say the rows hold a count of something ("cars with 8 cylinders", "have 4 doors")
_HAS = frozenset({"with", "having", "has", "have"})
_WHOLE = re.compile(r"[1-9]\d{0,3}")


# A key column's name: "regions with 5 stores" over a numeric ``store_id`` counts stores, it
# never keeps store 5
_KEY = re.compile(r"key$|(?:^|_)(?:id|sk|pk|fk|no|num|number)$|[a-z]Id$|ID$", re.IGNORECASE)


def _keyed(layer: SemanticLayer, name: str) -> bool:
    """Whether a dimension's column is a key (or the layer's join column), never a quantity."""
    column = next((d.column for d in layer.dimensions if d.name == name), "")
    joined = {c.lower() for j in layer.joins for c in (j.left, j.right)}
    return not column or column.lower() in joined or bool(_KEY.search(column.split(".")[-1]))


def _has_count(tokens: list[Token], canon: list[str], end: int) -> bool:
    """Whether a whole number right after "with"/"having"/"has"/"have" ends at token ``end``
    ("with 8" of "with 8 cylinders"); a number written with a unit, a sign or a decimal point
    is not one."""
    if end < 2 or end > len(tokens):
        return False
    number = tokens[end - 1]
    return canon[end - 2] in _HAS and bool(_WHOLE.fullmatch(number.text))


# Words that make the dimension after them a grouping ("for each ship mode", "per country")
_GROUPING = frozenset({"by", "per", "each", "every", "across"})


def _worded(layer: SemanticLayer, name: str) -> bool:
    """Whether a dimension's listed values are words, not numbers (a closed domain of text)."""
    values = next((d.values for d in layer.dimensions if d.name == name), ())
    return bool(values) and not all(_NUMBER.fullmatch(v.strip().lstrip("-")) for v in values)


def _bound(tokens: list[Token], canon: list[str], i: int) -> int | None:
    """The end of a bound starting at token ``i`` ("between 10 and 20", "above 3"), or None."""
    if i < len(tokens) and canon[i] == "between":
        low = _number(tokens, i + 1)
        if low is None or low[1] >= len(tokens) or canon[low[1]] not in {"and", "to"}:
            return None
        high = _number(tokens, low[1] + 1)
        return None if high is None else high[1]
    op = _op(canon, i)
    number = None if op is None else _number(tokens, op[1])
    return None if number is None else number[1]


def _signed(
    canon: list[str],
    start: int,
    end: int,
    layer: SemanticLayer | None,
    kind: str,
    dim: str,
) -> tuple[int, int] | None:
    """The token span of a sign said of a numeric column, before its words ("a negative
    balance") or after them and a copula ("balance is positive"); ``None`` when there is none,
    or the column is not one the engine types as a number."""
    if kind == "dimension" and (layer is None or dim not in layer.numeric):
        return None
    if start > 0 and canon[start - 1] in _SIGNS:
        return start - 1, end
    i = end
    while i < len(canon) and canon[i] in _COPULA:
        i += 1
    if i > end and i < len(canon) and canon[i] in _SIGNS:
        return start, i + 1
    return None


def grouped_bounds_in(
    question: str,
    lexicon: Lexicon,
    periods: Sequence[tuple[int, int]] = (),
    layer: SemanticLayer | None = None,
) -> tuple[str, tuple[tuple[str, str, bool], ...]]:
    """The question with each bound said right after a grouping blanked ("for each ship mode
    between 10 and 20"), and those bounds as (words, the dimension, grouped). Such a bound
    is the metric's per group, never the grouped dimension's: the reader keeps the grouping
    and asks the bound back, naming what it would bound. With ``layer``, a bound said of a
    dimension whose values are words ("ship mode is between 10 and 20") is found too (not
    grouped): asked back, saying so.

    Example:
        >>> from assay.semantic._model import Dimension, Metric, SemanticLayer
        >>> layer = SemanticLayer(
        ...     metrics=(Metric("qty", "quantity", (), "t", "SUM(t.q)"),),
        ...     dimensions=(Dimension("mode", "t.mode", (), ("AIR", "MAIL")),),
        ... )
        >>> rest, found = grouped_bounds_in("quantity per mode between 10 and 20", Lexicon(layer))
        >>> " ".join(rest.split()), found
        ('quantity per mode', (('between 10 and 20', 'mode', True),))
    """
    tokens = tokenize(question)
    canon = [canonical(t.text) for t in tokens]
    if not any(_op(canon, i) or canon[i] == "between" for i in range(len(canon))):
        return question, ()
    found: list[tuple[int, int, str, bool]] = []
    for m in lexicon.match_tokens(tokens, [False] * len(tokens)):
        if m.kind != "dimension" or len(m.targets) != 1:
            continue
        grouped = m.start > 0 and canon[m.start - 1] in _GROUPING
        if grouped and layer is not None and m.targets[0] in layer.numeric:
            continue  # "for each size between 10 and 20": the sizes' range (comparisons_in)
        start = m.end
        if not grouped:
            if layer is None or not _worded(layer, m.targets[0]):
                continue
            while start < len(tokens) and canon[start] in _COPULA:
                start += 1
        end = _bound(tokens, canon, start)
        if end is None or _dated(tokens[end - 1], periods):
            continue
        found.append((start, end, m.targets[0], grouped))
    chars = list(question)
    out = []
    for start, end, dim, grouped in found:
        out.append((question[tokens[start].start : tokens[end - 1].end], dim, grouped))
        for k in range(tokens[start].start, tokens[end - 1].end):
            chars[k] = " "
    return "".join(chars), tuple(out)


def comparisons_in(
    question: str,
    lexicon: Lexicon,
    periods: Sequence[tuple[int, int]] = (),
    layer: SemanticLayer | None = None,
) -> tuple[str, tuple[Comparison, ...]]:
    """The question with its numeric comparisons blanked out, and the comparisons read.
    A number inside one of ``periods`` (character spans: "over 2023") is a period's, never
    a bound. With ``layer``, a bound on a metric's column is read too (``metric_columns``).

    Example:
        >>> from assay.semantic._model import Dimension, Metric, SemanticLayer
        >>> layer = SemanticLayer(
        ...     metrics=(Metric("bookings", "bookings", (), "t", "SUM(1)"),),
        ...     dimensions=(Dimension("capacity", "t.capacity", ()),),
        ... )
        >>> rest, found = comparisons_in("bookings where capacity is above 3", Lexicon(layer))
        >>> rest.strip(), [(c.dimension, c.op, c.value) for c in found]
        ('bookings', [('capacity', '>', '3')])
    """
    tokens = tokenize(question)
    canon = [canonical(t.text) for t in tokens]
    if not any(
        _op(canon, i)
        or canon[i] in {"between", "than", *_SIGNS}
        or _has_count(tokens, canon, i + 2)
        for i in range(len(canon))
    ):
        return question, ()  # no comparison word: nothing to read (most questions)
    matches = lexicon.match_tokens(tokens, [False] * len(tokens))
    if layer is not None:  # a metric's column of the counted rows ("capacity")
        matches += _column_matches(canon, tokens, matches, metric_columns(layer))
    found: list[tuple[int, int, list[Comparison]]] = []  # token span, comparisons
    for m in matches:
        if m.kind == "ambiguous" and layer is not None:
            m = entity_named(m, tokens, layer)  # "customers with account balance over 1000"
        if m.kind not in {"dimension", "column"} or len(m.targets) != 1:
            continue
        dim, column = m.targets[0], ""
        if m.kind == "dimension" and layer is not None and _worded(layer, dim):
            continue  # "ship mode between 10 and 20": its values are words, never numbers
        grouped = m.start > 0 and canon[m.start - 1] in _GROUPING
        if grouped and (layer is None or dim not in layer.numeric):
            continue  # "for each ship mode between 10 and 20": the metric's, per group
        signed = None if grouped else _signed(canon, m.start, m.end, layer, m.kind, dim)
        if signed is not None:
            start, end = signed
            words = question[tokens[start].start : tokens[end - 1].end]
            if m.kind == "column":
                column, dim = dim, dim.replace(".", " ")
            sign = _SIGNS[canon[start] if start < m.start else canon[end - 1]]
            found.append((start, end, [Comparison(dim, sign, "0", words, column)]))
            continue
        before = None if grouped else _before(tokens, canon, m.start, periods)
        counted = (
            m.kind == "dimension"
            and before is None
            and not grouped
            and layer is not None
            and dim in layer.numeric
            and not _keyed(layer, dim)
            and _has_count(tokens, canon, m.start)
            and not _dated(tokens[m.start - 1], periods)
        )
        if counted:
            # "cars with 8 cylinders": a whole number said between "with" and a numeric
            # column's words is that column's value (= 8), never a grouping by it
            value = tokens[m.start - 1].text
            words = question[tokens[m.start - 2].start : tokens[m.end - 1].end]
            span_start = m.start - 2 if canon[m.start - 2] in _LEAD else m.start - 1
            found.append(
                (
                    span_start,
                    m.end,
                    [Comparison(dim, ">=", value, words), Comparison(dim, "<=", value, words)],
                )
            )
            continue
        if before is not None:
            # "more than 6 cylinders": the bound said before the column's words
            op_start, sign, value = before
            span_start = op_start - 1 if op_start > 0 and canon[op_start - 1] in _LEAD else op_start
            words = question[tokens[op_start].start : tokens[m.end - 1].end]
            if m.kind == "column":
                column, dim = dim, dim.replace(".", " ")
            found.append((span_start, m.end, [Comparison(dim, sign, value, words, column)]))
            continue
        if m.kind == "column":
            column = dim
            dim = dim.replace(".", " ")
        i = m.end
        while i < len(tokens) and canon[i] in _COPULA:
            i += 1
        span_start = m.start - 1 if m.start > 0 and canon[m.start - 1] in _LEAD else m.start
        if grouped:  # "for each size between 10 and 20": the grouping stays, the range is read
            if i != m.end:
                continue
            span_start = i
        if i < len(tokens) and canon[i] == "between":
            low = _number(tokens, i + 1)
            if low is None or low[1] >= len(tokens) or canon[low[1]] not in {"and", "to"}:
                continue
            high = _number(tokens, low[1] + 1)
            if high is None or float(high[0]) < float(low[0]):
                continue
            if _dated(tokens[low[1] - 1], periods) or _dated(tokens[high[1] - 1], periods):
                continue
            words = question[tokens[m.start].start : tokens[high[1] - 1].end]
            found.append(
                (
                    span_start,
                    high[1],
                    [
                        Comparison(dim, ">=", low[0], words, column),
                        Comparison(dim, "<=", high[0], words, column),
                    ],
                )
            )
            continue
        op, first = _op(canon, i), m.start
        if (
            op is None
            and "weight" in canon[m.start : m.end]
            and tuple(canon[i : i + 2]) in _WEIGHED
        ):
            op = (_WEIGHED[(canon[i], canon[i + 1])], i + 2)
        if (
            op is None
            and not grouped
            and m.start > 0
            and i == m.end
            and canon[i : i + 1] == ["than"]
        ):
            # "a greater weight than 10": the comparative said before the column
            said = _OPS.get((canon[m.start - 1], "than"))
            op = None if said is None else (said, i + 1)
            span_start = first = m.start - 1
        if op is None:
            continue
        number = _number(tokens, op[1])
        if number is None or _dated(tokens[number[1] - 1], periods):
            continue
        words = question[tokens[first].start : tokens[number[1] - 1].end]
        found.append((span_start, number[1], [Comparison(dim, op[0], number[0], words, column)]))
    if not found:
        return question, ()
    for start, end, _ in found:
        # "capacity above 3 or below 1": which rows are meant is asked back, never guessed
        near = canon[max(start - 1, 0) : start] + canon[end : end + 1]
        if "or" in near:
            return question, ()
    chars = list(question)
    for start, end, _ in found:
        for k in range(tokens[start].start, tokens[end - 1].end):
            chars[k] = " "
    return "".join(chars), tuple(c for _, _, cs in found for c in cs)
