"""The grammar of a question: tokens tagged, then parsed with lark.

Each token is tagged by exactly one of: a period (``_periods``), the layer's lexicon
(``_resolve``), a grammar word (``_words.KEYWORDS``), a number, a function word, or, failing all
of these, ``WORD`` (an unread content word). The tags are parsed with a lark LALR grammar (a
custom lexer feeds it the tags); shift/reduce conflicts resolve to shift, so each construct is
read as long as it goes (``excluding DE or FR`` is one negated list). ``parse`` returns the
parts in question order, for ``_reading`` to assemble into a ``Reading``.

Why one module of about 800 lines, over the house aim of 400: the grammar, the tagger
(``_tag``, about 150 lines) and the context rules it calls (``_quantifies``, ``_postposed``,
``_grouped``, ``_hyphenated``, ``_owners`` ...) share one private ``_Tag`` and one convention
(each token tagged exactly once, in order); the transformer (``_Build``) reads the tags the
rules wrote. Split, each part would import the others' private names. The context rules, about
300 lines, are the part to move out next, with ``_Tag`` made public beside them.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from lark import Lark, Transformer
from lark import Token as LarkToken
from lark.lexer import Lexer

from assay.semantic._model import SemanticLayer
from assay.semantic._periods import NO_CLOCK, find_periods
from assay.semantic._resolve import Lexicon, Match, Token, canonical, entity_named, tokenize
from assay.semantic._tied import untied
from assay.semantic._words import FUNCTION_WORDS, KEYWORDS, NUMBER_WORDS

__all__ = ["GRAMMAR", "Tag", "names_table", "parse"]

GRAMMAR = r"""
start: _item*
_item: neg | values | group | rank | which | counted | metrics | periods | loose
counted: NUMBER DIM
neg: NEG DIM? values
   | NEG -> dangling_neg
values: VALUE (SEP VALUE)*
metrics: METRIC (SEP METRIC)*
periods: PERIOD (SEP PERIOD)*
group: BY DIM -> group_dim
     | BY DIM DIM -> group_two
     | BY (GRAIN | UNIT) -> group_grain
     | BY METRIC -> by_metric
     | BY METRIC WORD+ -> group_unknown
     | BY WORD DIM -> group_modified
     | BY RETIRED -> group_retired
     | BY (WORD | ENTITY)+ -> group_unknown
rank: TOP NUMBER?
    | BOTTOM NUMBER?
    | NUMBER (TOP | BOTTOM) -> rank_after
    | (TOP | BOTTOM) NUMBER METRIC -> rank_entity
    | (TOP | BOTTOM) NUMBER UNIT -> rank_grain
    | (TOP | BOTTOM) NUMBER (WORD | ENTITY)+ -> rank_unknown
which: WHICH NUMBER? DIM
     | WHICH NUMBER? (GRAIN | UNIT) -> which_grain
     | WHICH NUMBER? (WORD | ENTITY)+ -> which_unknown
     | WHICH NUMBER? METRIC -> which_entity
     | WHICH -> which_bare
loose: DIM | NUMBER | WORD | ENTITY | ORDER | CHANGE | UNIT | RETIRED | UNDEFINED | SEP | BY
     | COMPARE | GRAIN | AGG | DERIVED | WHOLE | COUNTED
%declare NEG DIM VALUE SEP METRIC PERIOD BY GRAIN RETIRED WORD TOP BOTTOM NUMBER WHICH
%declare UNDEFINED COMPARE AGG DERIVED ENTITY ORDER CHANGE UNIT WHOLE COUNTED
"""


@dataclass(frozen=True)
class _Tag:
    kind: str
    token: Token
    index: int
    payload: Any = None
    after: str = ""  # the function word just before (for/in/from ...)


class _TagLexer(Lexer):
    def __init__(self, conf: Any) -> None:
        pass

    def lex(self, lexer_state: Any, parser_state: Any = None) -> Iterator[LarkToken]:
        for tag in lexer_state:
            yield LarkToken(tag.kind, tag)


_PARSER = Lark(GRAMMAR, parser="lalr", lexer=_TagLexer)


def _undefined_spans(tokens: list[Token], lexicon: Lexicon) -> list[tuple[int, int]]:
    """Where a concept the layer leaves undefined is said whole (token start, end).

    Its words come before a period's: "trailing 2 months revenue", a MetricFlow cumulative
    metric the import left out (a window averaged by period, not a total over two months), was
    read as "revenue in the past 2 months" and shown, the name's own words taken as a period
    and a metric. Said whole it is the concept, asked back or abstained on naming it; "revenue
    in the past 2 months" names no concept and is read as before.

    Example:
        >>> from assay.semantic._model import Metric, SemanticLayer
        >>> layer = SemanticLayer(
        ...     metrics=(Metric("revenue", "revenue", (), "t", "SUM(t.x)", "t.d"),),
        ...     undefined_concepts=("trailing 2 months revenue",),
        ... )
        >>> words = tokenize("trailing 2 months revenue by day")
        >>> _undefined_spans(words, Lexicon(layer))
        [(0, 4)]
    """
    free = [False] * len(tokens)
    return [(m.start, m.end) for m in lexicon.match_tokens(tokens, free) if m.kind == "undefined"]


def _tag(question: str, layer: SemanticLayer, lexicon: Lexicon) -> tuple[list[_Tag], list[Match]]:
    tokens = tokenize(question)
    # A layer without a clock still finds the periods a question names, so that the behaviour
    # rules can abstain on them; relative ones are read against a stand-in date, never applied.
    first_day = layer.coverage[0] if layer.coverage else None
    periods = find_periods(
        question, layer.clock or NO_CLOCK, layer.fiscal_year_start_month, first_day
    )
    taken = [False] * len(tokens)
    tags: dict[int, _Tag] = {}
    named = _undefined_spans(tokens, lexicon)
    for period in periods:
        inside = [
            i for i, t in enumerate(tokens) if t.start >= period.span[0] and t.end <= period.span[1]
        ]
        if any(a <= i < b for a, b in named for i in inside):
            continue  # "trailing 2 months revenue": a concept left undefined, said whole
        for i in inside:
            taken[i] = True
        if inside:
            tags[inside[0]] = _Tag("PERIOD", tokens[inside[0]], inside[0], period)
    ambiguous: list[Match] = []
    matches = lexicon.match_tokens(tokens, taken)
    grammar_at: set[int] = set()  # values that are words of grammar, left to the grammar
    for m in matches:
        if untied(m, tokens, matches):
            grammar_at.add(m.start)
            continue
        if m.kind == "ambiguous":
            m = entity_named(m, tokens, layer)
        if m.kind == "ambiguous":  # left to the words nothing reads, and asked back
            ambiguous.append(m)
            continue
        if _rows_named(m, tokens, layer):
            continue  # "car makers from countries in Europe": the rows, not a breakdown
        if m.kind == "value" and m.end - m.start == 1 and len(tokens[m.start].text) == 1:
            if m.start == 0 or tokens[m.start - 1].text in {".", "?", "!"}:
                continue  # "A" opening a sentence is an article, not channel A
        for i in range(m.start, m.end):
            taken[i] = True
        kind = {
            "metric": "METRIC",
            "dimension": "DIM",
            "value": "VALUE",
            "retired": "RETIRED",
            "undefined": "UNDEFINED",
        }[m.kind]
        tags[m.start] = _Tag(kind, tokens[m.start], m.start, m)
    canon = [canonical(t.text) for t in tokens]
    # A dimension's own words come before an aggregate word: "by ship mode" names the
    # dimension "line items ship mode", not the statistical mode.
    for i in range(len(tokens)):
        for size in (3, 2):
            words = tuple(canon[i : i + size])
            if len(words) < size or any(taken[i : i + size]):
                continue
            if KEYWORDS.get(words[-1:], ("",))[0] != "AGG":
                continue
            dim = lexicon.dimension_ending(words)
            if dim is not None:
                phrase = " ".join(t.text for t in tokens[i : i + size])
                match = Match(phrase, i, i + size, "dimension", (dim,))
                tags[i] = _Tag("DIM", tokens[i], i, match)
                for k in range(i, i + size):
                    taken[k] = True
                break
    # "every department but orthopaedics": 'but' after every/all and a dimension is "except".
    for i in range(2, len(tokens)):
        before = tags.get(i - 1)
        if canon[i] == "but" and not taken[i] and before is not None and before.kind == "DIM":
            if canon[i - 2] in {"every", "all", "each", "any"} and not taken[i - 2]:
                tags[i] = _Tag("NEG", tokens[i], i, ("not", "but"))
                taken[i] = True
    i = 0
    longest = max(len(k) for k in KEYWORDS)
    while i < len(tokens):
        if taken[i]:
            i += 1
            continue
        for size in range(min(longest, len(tokens) - i), 0, -1):
            key = tuple(canon[i : i + size])
            if key in KEYWORDS and not any(taken[i : i + size]):
                kind, payload = KEYWORDS[key]
                if kind == "AGG" and _named_before(canon, taken, i, key):
                    continue  # "ship mode", "price median": a name nothing reads, not an agg
                if kind == "ORDER" and size == 1 and _in_relative_clause(canon, i):
                    continue  # "customers who first ordered in 2017": a verb, no sort
                for k in range(i, i + size):
                    taken[k] = True
                tags[i] = _Tag(kind, tokens[i], i, (payload, " ".join(key)))
                i += size
                break
        else:
            i += 1
    for i, t in enumerate(tokens):
        if taken[i]:
            continue
        low = t.lower
        if low in {"one", "a", "single"} and _one_number(tokens, i):
            continue  # "one number per year", "a single figure": the grain, said again
        if low.isdigit() or low in NUMBER_WORDS:
            value = int(low) if low.isdigit() else NUMBER_WORDS[low]
            tags[i] = _Tag("NUMBER", t, i, value)
        elif canonical(low) in _NOUNS and _grouped(tags, tokens, i):
            # "per customer", "by customers in 2017", "by date": a breakdown by something no
            # dimension holds; read as an unknown grouping (abstained on, named), never
            # dropped as a function word (the total was shown for the jaffle-shop "... per
            # customer" saved query and for "... by customers in 2017" on the imported
            # customers mart). "by customers" followed by a filter the layer reads stays a
            # function word: "revenue generated by customers in France"
            tags[i] = _Tag("WORD", t, i, canonical(low))
        elif low in _MANNER and low in _phrase_words(layer):
            # "transactions that are quick": filler in "a quick count", but here a word of the
            # layer's own "quick buy" left over; read as an unknown word (asked back), never
            # dropped (50 transactions were shown for it)
            tags[i] = _Tag("WORD", t, i, canonical(low))
        elif i in grammar_at and not _quantifies(tokens, i):
            # "sales for all": a stored value ('All') said with nothing after it to quantify;
            # asked back, neither filtered on nor dropped
            tags[i] = _Tag("WORD", t, i, canonical(low))
        elif low in FUNCTION_WORDS or canonical(low) in FUNCTION_WORDS:
            continue
        elif low in _CLASS_NOUNS and (prev := tags.get(i - 1)) is not None and prev.kind == "VALUE":
            continue  # "the home and life lines": the values' class, said after them
        elif _entity(canonical(low), layer):
            # "policies", "invoice": the rows a metric counts, read as context
            tags[i] = _Tag("ENTITY", t, i, canonical(low))
        elif not any(ch.isalnum() for ch in low):
            if low in {",", "/", "&", "+"}:
                tags[i] = _Tag("SEP", t, i, (low, low))
            continue
        else:
            tags[i] = _Tag("WORD", *_hyphenated(tokens, taken, i), canonical(low))
    for i in _owners(tags, tokens, layer):
        del tags[i]  # "by customer state": the customers' state, not a count of customers
    # A word inside a grammar phrase ("compared with") is not the function word before the
    # next tag: "cancellations compared with alterations" names alterations as compared, not
    # as context ("with" alone would make it the rows measured, and drop it).
    phrased: dict[int, str] = {
        j: tag.payload[1]
        for tag in tags.values()
        if tag.kind in _PHRASED
        for j in range(tag.index, tag.index + len(tag.payload[1].split()))
    }
    ordered = [
        dataclasses.replace(tags[k], after=phrased.get(k - 1) or _metric_before(tags, tokens, k))
        for k in sorted(tags)
    ]
    return _postposed(_separators(ordered)), ambiguous


# Words that open a relative clause said of the rows: "customers who ...", "those that ...".
_RELATIVE = frozenset({"who", "that", "which", "whom", "whose"})
# Sorting words that are also verbs: "ordered", "ranked" (outside tryout 40, F-1).
_SORT_VERBS = frozenset({"ordered", "sorted", "ranked", "order", "sort", "rank"})


def _in_relative_clause(canon: list[str], i: int) -> bool:
    """Whether the one sorting word at ``i`` is the verb of a relative clause ("customers who
    first ordered in 2017", "patients whose visits were sorted"): a relative word within the
    four words before it, with no comma between, and no "by" after it. Read as an order, it
    made the noun before the clause a ranked breakdown: outside tryout 40 (F-1) was shown 657
    customers' LTV for the one total of the customers who first ordered in 2017.

    Example:
        >>> _in_relative_clause("ltv of customers who first ordered in 2017".split(), 5)
        True
        >>> _in_relative_clause("customers ordered by ltv".split(), 1)
        False
    """
    if canon[i] not in _SORT_VERBS or (i + 1 < len(canon) and canon[i + 1] == "by"):
        return False
    for word in reversed(canon[max(0, i - 4) : i]):
        if not any(ch.isalnum() for ch in word):
            return False  # "..., sorted": said apart from the clause, an order
        if word in _RELATIVE:
            return True
    return False


def _quantifies(tokens: list[Token], i: int) -> bool:
    """Whether the word at ``i`` has a word after it to quantify ("all categories")."""
    return i + 1 < len(tokens) and tokens[i + 1].text[:1].isalpha()


# Negations said after the values they exclude ("cardiology excluded").
_AFTER = frozenset({"excluded"})


def _postposed(tags: list[_Tag]) -> list[_Tag]:
    """ "visit cost, cardiology excluded": a negation said after a list of values, with no
    value or dimension after it, is moved before the list (read as "excluding cardiology")."""
    out = list(tags)
    for k, tag in enumerate(tags):
        if tag.kind != "NEG" or tag.payload[1] not in _AFTER or k == 0:
            continue
        if k + 1 < len(tags) and tags[k + 1].kind in {"VALUE", "DIM"}:
            continue  # "excluded France": the usual order
        first = k - 1
        while first >= 2 and tags[first - 1].kind == "SEP" and tags[first - 2].kind == "VALUE":
            first -= 2
        if tags[first].kind != "VALUE" or tags[k - 1].kind != "VALUE":
            continue
        out = [*tags[:first], tag, *tags[first:k], *tags[k + 1 :]]
        break
    return out


# Nouns naming the class of the values just said ("home and life lines", "smb accounts" is
# not one: accounts may be what a metric counts).
_CLASS_NOUNS = frozenset("line lines type types kind kinds sort sorts".split())
_PHRASED = frozenset({"COMPARE", "SEP", "NEG", "TOP", "BOTTOM", "ORDER", "CHANGE"})
# Function words that are nouns: after "by" or "per" they name what to break down by.
_NOUNS = frozenset(
    {
        "customer",
        "customers",
        "client",
        "clients",
        "date",
        "dates",
        "period",
        "periods",
        "time",
        "timeframe",
        "window",
        "range",
        "level",
        "levels",
        "column",
        "columns",
        "field",
        "fields",
        "record",
        "records",
        "company",
        "business",
        "firm",
        "result",
        "results",
    }
)
_ARTICLES = frozenset({"the", "a", "an", "our", "each", "every", "all", "their", "its", "my"})
# The phrases of "BY" that break down ("across all customers" is the total over them).
_BREAKS = frozenset(
    {"by", "per", "each", "every", "for each", "for every", "by each", "in each", "within each"}
)


def _grouped(tags: dict[int, _Tag], tokens: list[Token], i: int) -> bool:
    """Whether token ``i`` (a noun among the function words) is what a "by", "per" or "each"
    breaks down by, or what "number of" counts: it follows one (articles skipped), and, after
    "by", no filter the layer reads follows it ("revenue generated by customers in France" is
    a filter on France)."""
    keywords = {
        j: tag
        for tag in tags.values()
        if tag.kind in {"BY", "COUNT"}
        for j in range(tag.index, tag.index + len(tag.payload[1].split()))
    }
    k = i - 1
    while k >= 0 and k not in keywords and tokens[k].lower in _ARTICLES:
        k -= 1
    by = keywords.get(k)
    if by is None:
        return False
    if by.kind == "COUNT" or by.payload[1] == "per":
        return True
    if by.payload[1] not in _BREAKS and not by.payload[1].endswith(" by"):
        return False
    following = [tags[j] for j in range(i + 1, len(tokens)) if j in tags]
    return not (following and following[0].kind in {"VALUE", "NEG"})


def _one_number(tokens: list[Token], i: int) -> bool:
    """Whether token ``i`` opens "one number", "one figure", "a single total" followed by a
    breakdown word ("per", "by", "for each", "each")."""
    words = [t.lower for t in tokens[i + 1 : i + 4]]
    if words[:1] == ["single"]:
        words = words[1:]
    return (
        len(words) >= 2
        and words[0] in {"number", "figure", "total", "value", "row", "line"}
        and words[1] in {"per", "by", "for", "each", "a"}
    )


# Aggregate words that are nouns: said right after another word they end its name ("ship
# mode"), never the statistic ("the mode of revenue" says it before).
_NOUN_AGGREGATES = frozenset(
    "median mean average mode percentile stddev variance percentage proportion ratio".split()
)


def _named_before(canon: list[str], taken: list[bool], i: int, key: tuple[str, ...]) -> bool:
    """Whether the aggregate word at ``i`` ends a name: right after a content word nothing
    has read (not a grammar, function or number word)."""
    if len(key) != 1 or key[0] not in _NOUN_AGGREGATES or i == 0 or taken[i - 1]:
        return False
    before = canon[i - 1]
    return (
        len(before) > 2  # never the "th" of "90th percentile"
        and before.isalpha()
        and before not in FUNCTION_WORDS
        and (before,) not in KEYWORDS
        and before not in NUMBER_WORDS
    )


def _hyphenated(tokens: list[Token], taken: list[bool], i: int) -> tuple[Token, int]:
    """An unread word and, when it is hyphenated to the next word ("first-time",
    "long-standing"), the whole compound, so that it is named as written."""
    t = tokens[i]
    if (
        i + 2 < len(tokens)
        and tokens[i + 1].text == "-"
        and tokens[i + 1].start == t.end
        and tokens[i + 2].start == tokens[i + 1].end
        and tokens[i + 2].text.isalpha()
    ):
        for k in (i + 1, i + 2):
            taken[k] = True
        return Token(f"{t.text}-{tokens[i + 2].text}", t.start, tokens[i + 2].end), i
    return t, i


# Words before a metric's phrase that name the rows it is said of ("for large transactions"),
# when one word of their own stands between.
_OF_ROWS = frozenset({"for", "from", "of", "among"})


# A word said of the rows a metric names ("large transactions", "good customers").
_SAID_OF_ROWS = frozenset({"WORD", "VALUE"})


def _metric_before(tags: dict[int, _Tag], tokens: list[Token], i: int) -> str:
    """The word before token ``i``; for a metric's phrase after one unread word that itself
    follows "for", "from", "of" or "among" ("amount for large transactions"), that word: the
    phrase names the rows measured, as "for transactions" does, not a second metric (outside
    tryout 19: MetricFlow's "transactions ... for large transactions" was asked which one);
    a value the layer reads counts as that word ("for good customers", tryout 22 F16)."""
    before = _before(tokens, i)
    tag = tags.get(i)
    if tag is None or tag.kind != "METRIC" or i < 2:
        return before
    word = tags.get(i - 1)
    if word is not None and word.kind in _SAID_OF_ROWS and _before(tokens, i - 1) in _OF_ROWS:
        return _before(tokens, i - 1)
    return before


def _owners(tags: dict[int, _Tag], tokens: list[Token], layer: SemanticLayer) -> list[int]:
    """Where a count's one-word name ("customer", of a layer counting customers) is said
    between "by" and a dimension of its table, or of a table it joins ("by customer state"):
    it says whose the dimension is, not a second measure (outside tryout 22 F16 was asked back
    "'Total store sales net paid', 'customer' apart; which one should be measured")."""
    out = []
    for i, tag in tags.items():
        before, after = tags.get(i - 1), tags.get(i + 1)
        if tag.kind != "METRIC" or before is None or after is None:
            continue
        if before.kind != "BY" or after.kind != "DIM" or tag.payload.end != i + 1:
            continue
        word = canonical(tokens[i].lower)
        metrics = [layer.metric(t) for t in tag.payload.targets]
        dim_table = layer.dimension(after.payload.targets[0]).column.split(".")[0]
        if all(
            names_table(word, {m.table})
            and m.expression.replace(" ", "").lower() == "count(*)"
            and _joined(layer, m.table, dim_table)
            for m in metrics
        ):
            out.append(i)
    return out


def _joined(layer: SemanticLayer, table: str, other: str) -> bool:
    """Whether two tables are one table or joined directly."""
    if table == other:
        return True
    pairs = {(j.left.split(".")[0], j.right.split(".")[0]) for j in layer.joins}
    return (table, other) in pairs or (other, table) in pairs


def _before(tokens: list[Token], i: int) -> str:
    """The word before token ``i``, articles skipped."""
    skip = {"the", "a", "an", "our", "all", "any"}
    return next((tokens[k].lower for k in range(i - 1, -1, -1) if tokens[k].lower not in skip), "")


# Words before a table's rows named as context ("from countries in Europe")
_ROWS_CONTEXT = frozenset({"from", "for", "of", "in", "among", "with", "on", "at", "to"})


def _rows_named(match: Match, tokens: list[Token], layer: SemanticLayer) -> bool:
    """Whether a derived word that is a table's name ("countries", derived from
    countries.CountryName) is said as the rows something is measured on ("car makers from
    countries in Europe") rather than as a breakdown: read as that table, as before the word
    was derived, never as a grouping nobody asked for."""
    if not match.derived or match.kind != "dimension" or match.end - match.start != 1:
        return False
    word = canonical(tokens[match.start].text)
    return _entity(word, layer) and _before(tokens, match.start) in _ROWS_CONTEXT


# Function words of manner ("a quick count", "roughly how many"): filler, unless the layer uses
# the word in a name of its own.
_MANNER = frozenset("quick quickly roughly approximately exactly kindly basically actually".split())


def _phrase_words(layer: SemanticLayer) -> frozenset[str]:
    """The words of the layer's metric names, labels and synonyms and dimension names and
    synonyms."""
    cached = _PHRASE_WORDS.get(id(layer))
    if cached is not None and cached[0] is layer:
        return cached[1]
    texts: list[str] = []
    for metric in layer.metrics:
        texts += [metric.name, metric.label, *metric.synonyms]
    for dimension in layer.dimensions:
        texts += [dimension.name, *dimension.synonyms]
    words = frozenset(w for text in texts for w in re.split(r"[^a-z0-9]+", text.lower()) if w)
    if len(_PHRASE_WORDS) > 64:
        _PHRASE_WORDS.clear()
    _PHRASE_WORDS[id(layer)] = (layer, words)
    return words


_PHRASE_WORDS: dict[int, tuple[SemanticLayer, frozenset[str]]] = {}


def _entity(word: str, layer: SemanticLayer) -> bool:
    names = {*layer.tables, *(m.table for m in layer.metrics), layer.name}  # "life insurance"
    return names_table(word, names)


def names_table(word: str, tables: Iterable[str]) -> bool:
    """Whether a word names one of these tables, singular or plural ("policy", "categories")."""
    names = {t.lower() for t in tables}
    forms = {word, word + "s", word[:-1] if word.endswith("s") else word}
    if word.endswith("ies"):
        forms.add(word[:-3] + "y")
    return bool(forms & names)


def _separators(tags: list[_Tag]) -> list[_Tag]:
    """A list word joins like with like; otherwise it is a comparison cue or a plain "and"."""
    out: list[_Tag] = []
    for k, tag in enumerate(tags):
        nxt = tags[k + 1].kind if k + 1 < len(tags) else ""
        if tag.kind == "COMPARE" and out and out[-1].kind == nxt == "METRIC":
            # "cancellations compared with alterations": both metrics, side by side
            out.append(_Tag("SEP", tag.token, tag.index, ("and", tag.payload[1])))
            continue
        if tag.kind != "SEP":
            out.append(tag)
            continue
        prev = out[-1].kind if out else ""
        if prev == nxt and prev in {"VALUE", "PERIOD", "METRIC"}:
            out.append(tag)
        elif tag.payload[1] in {"vs", "versus"}:
            out.append(_Tag("COMPARE", tag.token, tag.index, tag.payload))
    return out


class _Build(Transformer[Any, Any]):
    """Folds the parse into the parts of a reading, in question order."""

    def start(self, items: list[Any]) -> list[Any]:
        return [i for i in items if i is not None]

    def values(self, items: list[LarkToken]) -> tuple[str, Any]:
        tags = [t.value for t in items if t.type == "VALUE"]
        seps = [t.value.payload[1] for t in items if t.type == "SEP"]
        return ("values", (tags, seps))

    def neg(self, items: list[Any]) -> tuple[str, Any]:
        _, (tags, seps) = items[-1]
        return ("neg", (tags, seps, items[0].value))

    def dangling_neg(self, items: list[LarkToken]) -> tuple[str, Any]:
        return ("dangling", items[0].value.payload[1])

    def metrics(self, items: list[LarkToken]) -> tuple[str, Any]:
        return ("metrics", [t.value for t in items if t.type == "METRIC"])

    def periods(self, items: list[LarkToken]) -> tuple[str, Any]:
        return ("periods", [t.value.payload for t in items if t.type == "PERIOD"])

    def group_dim(self, items: list[LarkToken]) -> tuple[str, Any]:
        if items[0].value.payload[1] in {"every", "for every"}:
            # "every country except France": all but one, or each? read in _reading
            return ("group_every", items[1].value.payload)
        return ("group", items[1].value.payload)

    def group_two(self, items: list[LarkToken]) -> tuple[str, Any]:
        first, second = items[1].value.payload, items[2].value.payload
        if first.end == second.start:
            # "by store state": the store's key said of a dimension of the store table is one
            # grouping; any other two dimensions side by side are asked back (read in _reading)
            return ("group_pair", (first, second))
        return ("groups", (first.targets[0], second.targets[0]))  # "by country and category"

    def group_grain(self, items: list[LarkToken]) -> tuple[str, Any]:
        by, grain = items[0].value, items[1].value
        if by.payload[1] == "across" and grain.kind == "UNIT" and grain.token.lower.endswith("s"):
            # "across years": one total over them, or one per year? read in _reading
            return ("across", (grain.payload[0], f"across {grain.token.text}"))
        return ("grain", grain.payload[0])

    def group_modified(self, items: list[LarkToken]) -> tuple[str, Any]:
        words = [t.value for t in items if t.type == "WORD"]
        return ("group_modified", (items[-1].value.payload.targets[0], words))

    def by_metric(self, items: list[LarkToken]) -> tuple[str, Any]:
        return ("metrics", [items[1].value])

    def group_retired(self, items: list[LarkToken]) -> tuple[str, Any]:
        return ("retired", items[1].value.payload)

    def group_unknown(self, items: list[LarkToken]) -> tuple[str, Any]:
        words = [t.value.token.text for t in items[1:] if t.type in {"WORD", "ENTITY"}]
        if items[1].type == "METRIC":
            words.insert(0, items[1].value.payload.phrase)
        return ("unknown_group", " ".join(words))

    def rank(self, items: list[LarkToken]) -> tuple[str, Any]:
        n = items[1].value.payload if len(items) > 1 else None
        return ("rank", (items[0].type == "TOP", n))

    def which(self, items: list[LarkToken]) -> tuple[str, Any]:
        n = items[1].value.payload if len(items) > 2 else None
        return ("which", (items[-1].value.payload.targets[0], n))

    def counted(self, items: list[LarkToken]) -> tuple[str, Any]:
        number = items[0].value
        return (
            "counted",
            (items[1].value.payload.targets[0], number.payload, number.token.text, number.after),
        )

    def which_grain(self, items: list[LarkToken]) -> tuple[str, Any]:
        n = items[1].value.payload if len(items) > 2 else None
        return ("which_grain", (items[-1].value.payload[0], n))

    def which_unknown(self, items: list[LarkToken]) -> tuple[str, Any]:
        words = [t.value.token.text for t in items if t.type in {"WORD", "ENTITY"}]
        n = items[1].value.payload if items[1].type == "NUMBER" else None
        return ("which_unknown", (" ".join(words), n))

    def rank_after(self, items: list[LarkToken]) -> tuple[str, Any]:
        return ("rank", (items[1].type == "TOP", items[0].value.payload))

    def rank_grain(self, items: list[LarkToken]) -> tuple[str, Any]:
        top = items[0].type == "TOP"
        return ("which_grain", (items[2].value.payload[0], items[1].value.payload, top))

    def rank_entity(self, items: list[LarkToken]) -> tuple[str, Any]:
        return ("unknown_group", items[-1].value.payload.phrase)

    def rank_unknown(self, items: list[LarkToken]) -> tuple[str, Any]:
        words = [t.value.token.text for t in items if t.type in {"WORD", "ENTITY"}]
        return ("unknown_group", " ".join(words))

    def which_entity(self, items: list[LarkToken]) -> tuple[str, Any]:
        return ("unknown_group", items[-1].value.payload.phrase)

    def which_bare(self, items: list[LarkToken]) -> tuple[str, Any]:
        return ("which_bare", None)

    def loose(self, items: list[LarkToken]) -> tuple[str, Any]:
        return ("loose", items[0].value)


def _how_many(tags: list[_Tag], lexicon: Lexicon) -> list[_Tag]:
    """ "how many orders": a counted noun read as the layer's "number of orders". The noun is
    read whole ("how many car makers": the layer's "number of car makers", longest first),
    after any values said of it ("how many female students": the students whose sex is F,
    where the layer reads 'female' as a value)."""
    out: list[_Tag] = []
    k = 0
    while k < len(tags):
        tag = tags[k]
        prev = out[-1] if out else None
        if tag.kind == "DIM" and prev is not None and prev.kind == "COUNT":
            # "how many countries": the rows a count metric counts, though a derived word
            # also names a dimension after them ("country" for countries.CountryName)
            noun = tuple(canonical(t.text) for t in tokenize(tag.payload.phrase))
            counts = [e for e in lexicon.lookup(("number", "of", *noun), ()) if e[0] == "metric"]
            if len(counts) == 1 and tag.payload.derived:
                target = (counts[0][1],)
                match = Match(tag.payload.phrase, tag.index, tag.payload.end, "metric", target)
                out[-1] = _Tag("METRIC", prev.token, prev.index, match)
                k += 1
                continue
        if prev is None or prev.kind != "COUNT" or tag.kind not in {"WORD", "ENTITY", "VALUE"}:
            out.append(tag)
            k += 1
            continue
        said = _values_before(tags, k)  # "female" of "how many female students"
        nouns = _noun_run(tags, k + len(said))
        if not nouns:
            out.append(tag)
            k += 1
            continue
        # the run whole, or its first words ("car makers" of "car makers are"); never its
        # last words alone: "how many new orders" is no count of orders ('new' is named)
        for b in range(len(nouns), 0, -1):
            entries = _counting(lexicon, [str(t.payload) for t in nouns[:b]])
            if entries:
                phrase = " ".join(t.token.text for t in nouns[:b])
                targets = tuple(sorted({t for _, t in entries}))
                match = Match(phrase, nouns[0].index, nouns[b - 1].index + 1, "metric", targets)
                out[-1:] = [*said, _Tag("METRIC", prev.token, prev.index, match)]
                k += len(said) + b
                break
        else:
            if said or _before_metric(tags, nouns[-1]):
                out.append(tag)
                k += 1
                continue
            # "number of orders" where nothing counts orders: a measure the layer lacks,
            # named whole (never dropped while another metric of the question is shown)
            words = " ".join(t.token.text for t in nouns)
            out[-1] = _Tag("COUNTED", prev.token, prev.index, (f"number of {words}", nouns))
            k += len(nouns)
    # a cue said before a metric's phrase is dropped here: said of a count metric, the metric
    # is the answer; said of one adding up an amount, ``_counted_amount`` finds it again
    return [t for t in out if t.kind != "COUNT"]


def _counting(lexicon: Lexicon, words: list[str]) -> list[tuple[str, str]]:
    """The metrics that count these words' rows ("number of car makers"; "units sold")."""
    entries = lexicon.lookup(("number", "of", *words), ())
    if len(words) == 1:
        entries = entries + lexicon.lookup((words[0], "sold"), ())
    return [e for e in entries if e[0] == "metric"]


def _values_before(tags: list[_Tag], k: int) -> list[_Tag]:
    """The values said right after "how many", before the counted noun ("how many female
    students"): adjacent value tags, kept only when a noun follows them at once."""
    said: list[_Tag] = []
    at = tags[k].index
    while k < len(tags) and tags[k].kind == "VALUE" and tags[k].index == at:
        said.append(tags[k])
        at = tags[k].payload.end
        k += 1
    if said and (k == len(tags) or tags[k].kind not in {"WORD", "ENTITY"} or tags[k].index != at):
        return []
    return said


def _noun_run(tags: list[_Tag], k: int) -> list[_Tag]:
    """The adjacent unread or entity words from tag ``k`` on ("car makers", "car makrs")."""
    run: list[_Tag] = []
    while k < len(tags) and tags[k].kind in {"WORD", "ENTITY"} and len(run) < 4:
        if run and tags[k].index != run[-1].index + 1:
            break
        run.append(tags[k])
        k += 1
    return run


def _before_metric(tags: list[_Tag], tag: _Tag) -> bool:
    """Whether a metric phrase follows ``tag`` at once ("how many new patients")."""
    return any(t.kind == "METRIC" and t.index == tag.index + 1 for t in tags)


def parse(question: str, layer: SemanticLayer, lexicon: Lexicon) -> list[Any]:
    """The question's parts, in order (raises lark's ``UnexpectedInput`` if it cannot parse)."""
    tags, ambiguous = _tag(question, layer, lexicon)
    tags = _how_many(tags, lexicon)
    parts: list[Any] = _Build().transform(_PARSER.parse(tags))  # type: ignore[arg-type,unused-ignore]
    # Every content word nothing read, wherever the grammar placed it: a period said of one
    # ("born after 1990") is about that word, not the metric's date.
    parts.append(("words", [t for t in tags if t.kind == "WORD"]))
    # Words derived from the layer's names, to be said with the name they stand for, and the
    # ones that stand for several (asked back)
    parts.append(
        ("derived", [t.payload for t in tags if isinstance(t.payload, Match) and t.payload.derived])
    )
    parts.append(("ambiguous_names", ambiguous))
    return parts


Tag = _Tag
