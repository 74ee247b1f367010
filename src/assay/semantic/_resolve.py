"""The lexicon: every phrase the layer defines, matched the way people type them.

The lexicon holds every synonym of every metric, dimension, dimension value, value synonym,
retired column and undefined concept. Matching is on canonical word forms: lower case, British
spellings folded to American (``paediatrics`` = ``pediatrics``, ``colour`` = ``color``), the
last word's plural or singular. Reading left to right, the longest phrase that matches wins:
"gross revenue" is one metric, "revenue" alone is two. Codes of one or two letters (``US``,
``DE``, ``W``) match only as written in capitals, since ``us`` and ``de`` are words. Nothing
here decides a behaviour; it only says what phrases name.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import re
from dataclasses import dataclass

from assay.semantic._codes import code_words
from assay.semantic._model import SemanticLayer
from assay.semantic._places import place_names
from assay.semantic._words import FUNCTION_WORDS

__all__ = [
    "ABBREVIATIONS",
    "Lexicon",
    "Match",
    "Token",
    "canonical",
    "entity_named",
    "tokenize",
]

_TOKEN = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*|\d+(?:[.,:]\d+)*|[^\sA-Za-z\d]")
_FOLDS = (
    (re.compile(r"isation"), "ization"),
    (re.compile(r"is(e|ed|es|ing)$"), r"iz\1"),
    (re.compile(r"ys(e|ed|es|ing)$"), r"yz\1"),
    (re.compile(r"([a-z]{2,})our(s?)$"), r"\1or\2"),
    (re.compile(r"ae"), "e"),
    (re.compile(r"([a-z]{3,})tre(s?)$"), r"\1ter\2"),
    (re.compile(r"ogue(s?)$"), r"og\1"),
    (re.compile(r"ll(ed|ing)$"), r"l\1"),
)
# Abbreviations analysts type, read as the word they stand for.
ABBREVIATIONS = {
    "rev": "revenue",
    "revs": "revenue",
    "qty": "quantity",
    "qtys": "quantities",
    "avg": "average",
    "amt": "amount",
    "num": "number",
    "nr": "number",
    "cust": "customer",
    "mkt": "market",
    "custs": "customers",
    "prod": "product",
    "prods": "products",
    "cat": "category",
    "dept": "department",
    "depts": "departments",
    "pts": "patients",
    "mo": "month",
    "mos": "months",
    "yr": "year",
    "yrs": "years",
    "qtr": "quarter",
    "qtrs": "quarters",
    "inv": "invoice",
    "invs": "invoices",
    "acct": "account",
    "accts": "accounts",
    "approx": "approximately",
    "nett": "net",
    "signed": "sign",
    "signing": "sign",
}
_KEEP = frozenset({"raise", "rise", "wise", "otherwise", "premise", "premises", "enterprise"})


@dataclass(frozen=True)
class Token:
    """One word, number or mark of the question, with where it is."""

    text: str
    start: int
    end: int

    @property
    def lower(self) -> str:
        return self.text.lower()


def tokenize(text: str) -> list[Token]:
    """Words (a possessive ``'s`` split off), numbers and single marks, in order."""
    out: list[Token] = []
    for m in _TOKEN.finditer(text):
        word = m.group(0)
        possessive = re.search(r"['’]s$", word)
        if possessive and len(word) > 2:
            out.append(Token(word[: possessive.start()], m.start(), m.start() + possessive.start()))
            continue
        out.append(Token(word, m.start(), m.end()))
    return out


_NAME_WORDS = frozenset({"name", "names"})


@functools.lru_cache(maxsize=1 << 16)
def canonical(word: str) -> str:
    """A word's folded form: lower case, British spelling to American (cached: a reading folds
    every word of the layer's labels and synonyms, the same few hundred words each time).

    Example:
        >>> canonical("Paediatrics"), canonical("colours"), canonical("analysed")
        ('pediatrics', 'colors', 'analyzed')
    """
    word = word.lower()
    word = ABBREVIATIONS.get(word, word)
    if len(word) < 5 or word in _KEEP or word.endswith("enterprises"):
        return word
    for pattern, repl in _FOLDS:
        word = pattern.sub(repl, word)
    return word


@dataclass(frozen=True)
class Match:
    """A phrase of the question that names something in the layer."""

    phrase: str
    start: int  # token index
    end: int
    kind: str  # metric | dimension | value | retired | undefined | ambiguous
    targets: tuple[str, ...]  # for ambiguous: the choices, ``kind:name``
    derived: bool = False  # a word derived from the layer's names ("category": i_category)


# Words a verb follows: a subject pronoun, an auxiliary or modal, "to" ("did we book", "we
# order", "to ship"). A value read there only through its other number ("book" for 'books')
# is the verb, never the value.
_VERB_LEADS = frozenset(
    {
        *("we", "i", "you", "they", "he", "she", "to"),
        *("do", "does", "did", "don't", "doesn't", "didn't", "will", "won't", "would"),
        *("can", "can't", "could", "should", "shall", "may", "might", "must"),
    }
)

_SUBJECTS = frozenset({"we", "i", "you", "they"})

_COUNTED = re.compile(r"^(?:number|count|no\.?) of ([a-z][a-z ]*[a-z])$")


def _forms(word: str) -> set[str]:
    """The plural or singular of ``word`` (none for a short or non-alphabetic word)."""
    if len(word) <= 3 or not word.isalpha():
        return set()
    if word.endswith("ies"):
        return {word[:-3] + "y"}
    if word.endswith("s"):
        return (
            {word[:-1], word[:-2]} if word.endswith(("ses", "xes", "ches", "shes")) else {word[:-1]}
        )
    if word.endswith("y"):
        return {word[:-1] + "ies"}
    return {word + "s"}


class Lexicon:
    """Phrases (as canonical token tuples) to what they name."""

    def __init__(self, layer: SemanticLayer):
        self.entries: dict[tuple[str, ...], list[tuple[str, str]]] = {}
        # what a phrase names only through its head noun's other number ("book": 'books')
        self.formed: dict[tuple[str, ...], set[tuple[str, str]]] = {}
        self.case_sensitive: dict[tuple[str, ...], list[tuple[str, str]]] = {}
        for metric in layer.metrics:
            for phrase in {metric.label, metric.name.replace("_", " "), *metric.synonyms}:
                self._add(phrase, "metric", metric.name)
        for dim in layer.dimensions:
            for phrase in {dim.name, dim.name.replace("_", " "), *dim.synonyms}:
                self._add(phrase, "dimension", dim.name)
            for value in dim.values:
                target = f"{dim.name}={value}"
                if len(value) >= 3:
                    self._add(value, "value", target)
                else:
                    key = tuple(t.text for t in tokenize(value))
                    self.case_sensitive.setdefault(key, []).append(("value", target))
            for word, value in dim.value_synonyms:
                self._add(word, "value", f"{dim.name}={value}")
        self._places(layer)
        self._codes(layer)
        for retired in layer.retired_columns:
            for phrase in retired.synonyms:
                self._add(phrase, "retired", f"{retired.table}.{retired.column}")
        for concept in layer.undefined_concepts:
            self._add(concept, "undefined", concept)
        self._singular_counts()
        self._counted_heads()
        self._singular_tables(layer)
        self._clients()
        self.derived: set[tuple[str, ...]] = set()
        for name in layer.derived:
            self._add_derived(name.words, name.choices)
        self.longest = max((len(k) for k in (*self.entries, *self.case_sensitive)), default=1)

    def _singular_counts(self) -> None:
        """ "customer count" where the layer says "customers count" (Cube's import names each
        count after its plural cube): a metric phrase "<plural> count" read in the singular
        too, where no phrase is already that (outside tryout 37: "customer count per nation"
        was read with no metric and asked back)."""
        for key, entries in list(self.entries.items()):
            if len(key) < 2 or key[-1] != "count" or not all(k == "metric" for k, _ in entries):
                continue
            word = key[-2]
            if len(word) < 4 or not word.endswith("s") or word.endswith("ss"):
                continue
            one = word[:-3] + "y" if word.endswith("ies") else word[:-1]
            variant = (*key[:-2], one, "count")
            if variant not in self.entries:
                self.entries[variant] = list(entries)

    def _counted_heads(self) -> None:
        """ "lifetime orders" where the layer says "count lifetime orders" (a MetricFlow label
        that starts with "count"): a metric phrase of "count" and two words or more read
        without "count" too, where no phrase is already that (outside recheck 40: "which
        customer type had the most lifetime orders?" was abstained on, naming that metric as
        the closest). One word alone ("orders") is left as it is: it names rows, not a sum."""
        for key, entries in list(self.entries.items()):
            if len(key) < 3 or key[0] != "count" or not all(k == "metric" for k, _ in entries):
                continue
            if key[1] in {"of", "the", "all"}:
                continue  # "count of singers": "of singers" names the singers, not a sum
            if key[1:] not in self.entries:
                self.entries[key[1:]] = list(entries)

    def _singular_tables(self, layer: SemanticLayer) -> None:
        """ "average order totalprice" where the layer says "average orders totalprice": a
        metric phrase that says its own table's plural name before its head read with that
        word in the singular too, where no phrase is already that (outside tryout 39 read
        'order' as the count of orders and answered both: "Orders count in 1997 was 2,287;
        average orders totalprice in 1997 was 140,021.31")."""
        found: dict[tuple[str, ...], list[tuple[str, str]]] = {}
        for metric in layer.metrics:
            table = canonical(metric.table.lower())
            if len(table) < 4 or not table.endswith("s") or table.endswith("ss"):
                continue
            for phrase in sorted({metric.label, *metric.synonyms}):
                key = tuple(canonical(t.text) for t in tokenize(phrase))
                for i, word in enumerate(key[:-1]):
                    if word == table:
                        bucket = found.setdefault((*key[:i], word[:-1], *key[i + 1 :]), [])
                        if ("metric", metric.name) not in bucket:
                            bucket.append(("metric", metric.name))
        for variant, entries in found.items():
            # each metric whose phrase it is ("order totalprice": the average and the total
            # alike, asked which), never a phrase the layer already says
            self.entries.setdefault(variant, entries)

    def _clients(self) -> None:
        """ "number of clients" where the layer says "number of customers": every phrase of
        two or more words with "customer(s)" read with "client(s)" too, where no phrase is
        already that. "clients" alone stays a function word (the demo's "sales for clients
        in France" are its sales in France)."""
        swap = {"customer": "client", "customers": "clients"}
        for key, entries in list(self.entries.items()):
            if len(key) < 2 or not set(key) & swap.keys():
                continue
            variant = tuple(swap.get(w, w) for w in key)
            if variant not in self.entries:
                self.entries[variant] = list(entries)

    def _places(self, layer: SemanticLayer) -> None:
        """ "Mexico" where a column holds MX (``place_names``); a name with a word that names
        a dimension or metric ("the States" beside a state dimension) is left out."""
        named = {
            w for key, entries in self.entries.items() for w in key if len(key) == 1 and entries
        }
        for dim in layer.dimensions:
            for name, code in place_names(dim.values, f"{dim.name} {dim.column}"):
                target = f"{dim.name}={code}"
                if len(name) < 3:  # "UK": a short name, read as written
                    bucket = self.case_sensitive.setdefault((name,), [])
                    if ("value", target) not in bucket:
                        bucket.append(("value", target))
                elif not {canonical(t.text) for t in tokenize(name)} & named:
                    self._add(name, "value", target)

    def _codes(self, layer: SemanticLayer) -> None:
        """ "female" where a column holds exactly F and M (``code_words``): read only where
        the word names one code of one column and names nothing else in the layer."""
        found: dict[tuple[str, ...], set[str]] = {}
        for dim in layer.dimensions:
            if dim.expression:
                continue
            for word, code in code_words(dim.column, dim.values):
                key = tuple(canonical(t.text) for t in tokenize(word))
                for form in {key} | {(*key[:-1], f) for f in _forms(key[-1])}:
                    found.setdefault(form, set()).add(f"{dim.name}={code}")
        for key, targets in sorted(found.items()):
            if len(targets) == 1 and key not in self.entries:
                self.entries[key] = [("value", next(iter(targets)))]

    def with_values(self, pairs: list[tuple[str, str]]) -> Lexicon:
        """A copy of this lexicon where each phrase also names its value (``dim=value``): a
        value the data was asked for, not read at layer load (``_lookup``)."""
        out = copy.copy(self)
        out.entries = {key: list(found) for key, found in self.entries.items()}
        out.formed = {key: set(found) for key, found in self.formed.items()}
        for phrase, target in pairs:
            out._add(phrase, "value", target)
        out.longest = max(self.longest, *(len(k) for k in out.entries))
        return out

    def with_names(self, pairs: list[tuple[str, str]]) -> Lexicon:
        """A copy of this lexicon where each phrase, as said, names only its one dimension: a
        name of several dimensions read as the one a conversation's earlier words settle."""
        out = copy.copy(self)
        out.entries = dict(self.entries)
        for phrase, dimension in pairs:
            out.entries[tuple(canonical(t.text) for t in tokenize(phrase))] = [
                ("dimension", dimension)
            ]
        return out

    def within(self, dimensions: frozenset[str]) -> Lexicon:
        """A copy of this lexicon without what names only a dimension outside ``dimensions``,
        or a value of one: the phrases a did-you-mean may offer where the question's metric
        reaches only those dimensions."""
        out = copy.copy(self)
        out.entries = _within(self.entries, dimensions)
        out.case_sensitive = _within(self.case_sensitive, dimensions)
        return out

    def counted(self, layer: SemanticLayer) -> Lexicon | None:
        """This lexicon where 'orders' alone also names 'number of orders' ('units' names 'units
        sold': one plural noun and only function words after it), when that is the
        only metric counting them and nothing else is called 'orders' (the plural as written,
        no other form); None when no metric's rows can be named so. The reader uses it only
        when a question names no metric."""
        counted: dict[tuple[str, ...], set[str]] = {}
        for metric in layer.metrics:
            for phrase in {metric.label, *metric.synonyms}:
                found = _COUNTED.match(phrase.strip().lower())
                if found is not None:
                    key = tuple(canonical(t.text) for t in tokenize(found.group(1)))
                    counted.setdefault(key, set()).add(metric.name)
                    continue
                # "units sold", "items sold": one plural noun and function words around it
                words = [canonical(t.text) for t in tokenize(phrase)]
                content = [w for w in words if w not in FUNCTION_WORDS]
                if len(content) == 1 and len(words) > 1 and words[0] == content[0]:
                    counted.setdefault((content[0],), set()).add(metric.name)
        added = {
            key: [("metric", next(iter(names)))]
            for key, names in counted.items()
            if len(names) == 1 and key and key[-1].endswith("s") and key not in self.entries
        }
        if not added:
            return None
        out = copy.copy(self)
        out.entries = {**self.entries, **added}
        return out

    def _add(self, phrase: str, kind: str, target: str) -> None:
        key = tuple(canonical(t.text) for t in tokenize(phrase))
        if not key:
            return
        # a plural or singular of the head noun: the last word, or the word before "of"
        # ("lines of business" for "line of business")
        heads = {len(key) - 1} | ({key.index("of") - 1} if "of" in key[1:] else set())
        variants = {key} | {
            (*key[:head], form, *key[head + 1 :]) for head in heads for form in _forms(key[head])
        }
        for variant in variants:
            bucket = self.entries.setdefault(variant, [])
            if (kind, target) not in bucket:
                bucket.append((kind, target))
                if variant != key:
                    self.formed.setdefault(variant, set()).add((kind, target))
            elif variant == key:
                self.formed.get(variant, set()).discard((kind, target))

    def _verb_form(self, key: tuple[str, ...], canon: list[str], i: int) -> bool:
        """Whether one word, right after a word a verb follows ("did we book", "we order",
        "to ship"), names values only through their other number ('books', 'orders'), or
        right after a subject pronoun names any ("did we ship": 'SHIP'): the verb, never a
        filter on the value (outside tryout 40: "How much gross revenue did
        we book in Q3 2023?" was answered for the category Books alone)."""
        if len(key) != 1 or i == 0 or canon[i - 1] not in _VERB_LEADS:
            return False
        values = {e for e in self.entries.get(key, []) if e[0] == "value"}
        if values and canon[i - 1] in _SUBJECTS:
            return True  # "did we ship": the verb, even where a value is 'SHIP' as said
        return bool(values) and values <= self.formed.get(key, set())

    def _add_derived(self, phrase: str, choices: tuple[str, ...]) -> None:
        """A derived word (``semantic._names``) and its plural or singular, each only where
        no phrase the layer defines is already that word: a derived word never shadows one."""
        key = tuple(canonical(t.text) for t in tokenize(phrase))
        if not key:
            return
        variants = {key} | {(*key[:-1], form) for form in _forms(key[-1])}
        if len(choices) == 1:
            kind, target = choices[0].split(":", 1)
            entry = [(kind, target)]
        else:
            entry = [("ambiguous", c) for c in choices]
        for variant in sorted(variants):
            if variant not in self.entries:
                self.entries[variant] = list(entry)
                self.derived.add(variant)

    def dimension_ending(self, words: tuple[str, ...]) -> str | None:
        """The one dimension whose name or synonym ends with ``words`` (two or more canonical
        words, fewer than the phrase): "ship mode" of "line items ship mode"; None when none
        does or several do."""
        if len(words) < 2:
            return None
        found = {
            t
            for key, entries in self.entries.items()
            if len(key) > len(words) and key[-len(words) :] == words
            for k, t in entries
            if k == "dimension"
        }
        return found.pop() if len(found) == 1 else None

    def phrases(self) -> list[str]:
        """Every phrase the lexicon knows (for did-you-mean), sorted."""
        return sorted({" ".join(k) for k in self.entries})

    def lookup(self, words: tuple[str, ...], exact: tuple[str, ...]) -> list[tuple[str, str]]:
        return self.entries.get(words, []) + self.case_sensitive.get(exact, [])

    def match(self, question: str) -> list[Match]:
        """Every phrase named, longest first, left to right."""
        tokens = tokenize(question)
        return self.match_tokens(tokens, [False] * len(tokens))

    def _hit(self, tokens: list[Token], i: int, size: int, entries: list[tuple[str, str]]) -> Match:
        kinds = {k for k, _ in entries}
        kind = "metric" if "metric" in kinds else sorted(kinds)[0]
        targets = tuple(sorted({t for k, t in entries if k == kind}))
        phrase = " ".join(t.text for t in tokens[i : i + size])
        if kind == "dimension" and len(targets) > 1:
            # two dimensions called alike ("location": a store, a city): asked back, never
            # read as the first of them
            kind, targets = "ambiguous", tuple(f"dimension:{t}" for t in targets)
        key = tuple(canonical(t.text) for t in tokens[i : i + size])
        return Match(phrase, i, i + size, kind, targets, derived=key in self.derived)

    def _joined(
        self, i: int, size: int, tokens: list[Token], canon: list[str], taken: list[bool]
    ) -> Match | None:
        """A word written in two parts read whole ("sign-ups", "sign ups" = "signups")."""
        if any(taken[i : i + size]) or not (canon[i].isalpha() and canon[i + size - 1].isalpha()):
            return None
        entries = self.entries.get((canonical(canon[i] + canon[i + size - 1]),), [])
        if not entries:
            return None
        kinds = {k for k, _ in entries}
        kind = "metric" if "metric" in kinds else sorted(kinds)[0]
        targets = tuple(sorted({t for k, t in entries if k == kind}))
        phrase = " ".join(t.text for t in tokens[i : i + size])
        return Match(phrase, i, i + size, kind, targets)

    def _extend(
        self, hit: Match, tokens: list[Token], canon: list[str], taken: list[bool]
    ) -> Match:
        """Overlapping phrases naming the same thing read as one ("total cost" and "cost of
        visits" in "total cost of visits")."""
        for start in range(hit.start + 1, hit.end):
            for size in range(min(self.longest, len(tokens) - start), hit.end - start, -1):
                if any(taken[start : start + size]):
                    continue
                entries = self.entries.get(tuple(canon[start : start + size]), [])
                if tuple(sorted(t for k, t in entries if k == hit.kind)) == hit.targets:
                    end = start + size
                    phrase = " ".join(t.text for t in tokens[hit.start : end])
                    return Match(phrase, hit.start, end, hit.kind, hit.targets)
        return hit

    def _overrun(self, hit: Match, canon: list[str], taken: list[bool]) -> bool:
        """Whether a concept the layer leaves undefined is only the start of a longer metric
        phrase said over it: "total transaction amount" is the metric "transaction amount"
        with a total said of it, not the undefined "total transactions" and a stray word
        (outside tryout 13 was asked back "'total transactions' is not defined")."""
        if hit.kind != "undefined":
            return False
        for start in range(hit.start + 1, hit.end):
            for size in range(min(self.longest, len(canon) - start), hit.end - start, -1):
                if any(taken[start : start + size]):
                    continue
                if any(
                    k == "metric"
                    for k, _ in self.entries.get(tuple(canon[start : start + size]), [])
                ):
                    return True
        return False

    def match_tokens(self, tokens: list[Token], taken: list[bool]) -> list[Match]:
        canon = [canonical(t.text) for t in tokens]
        found: list[Match] = []
        i = 0
        while i < len(tokens):
            hit = None
            for size in range(min(self.longest, len(tokens) - i), 0, -1):
                if any(taken[i : i + size]):
                    continue
                entries = self.lookup(
                    tuple(canon[i : i + size]), tuple(t.text for t in tokens[i : i + size])
                )
                if entries and self._verb_form(tuple(canon[i : i + size]), canon, i):
                    entries = [e for e in entries if e[0] != "value"]
                if entries:
                    hit = self._hit(tokens, i, size, entries)
                    break
            if hit is None and i + 2 < len(tokens) and tokens[i + 1].text == "-":
                hit = self._joined(i, 3, tokens, canon, taken)
            if hit is None and i + 1 < len(tokens):
                hit = self._joined(i, 2, tokens, canon, taken)
            if hit is None or self._overrun(hit, canon, taken):
                i += 1
                continue
            hit = self._extend(hit, tokens, canon, taken)
            if (
                hit.kind == "dimension"
                and hit.end < len(tokens)
                and canon[hit.end] in _NAME_WORDS
                and not taken[hit.end]
            ):
                # "the continent name": the continent's own name, never a second dimension
                # that the bare word 'name' names (a drafted layer gives it to one name column)
                end = hit.end + 1
                phrase = " ".join(t.text for t in tokens[hit.start : end])
                hit = Match(phrase, hit.start, end, hit.kind, hit.targets, derived=hit.derived)
            found.append(hit)
            i = hit.end
        return found


def _within(
    entries: dict[tuple[str, ...], list[tuple[str, str]]], dimensions: frozenset[str]
) -> dict[tuple[str, ...], list[tuple[str, str]]]:
    """``entries`` less each target that is a dimension outside ``dimensions`` or a value of
    one; a phrase left naming nothing is dropped."""
    out = {}
    for key, found in entries.items():
        kept = [(k, t) for k, t in found if _dimension_of(k, t) in dimensions | {None}]
        if kept:
            out[key] = kept
    return out


def _dimension_of(kind: str, target: str) -> str | None:
    """The dimension a lexicon target names or holds a value of; None for any other thing.

    Example:
        >>> _dimension_of("value", "region=Europe"), _dimension_of("metric", "revenue")
        ('region', None)
    """
    if kind == "dimension":
        return target
    if kind == "value":
        return target.split("=", 1)[0]
    if kind == "ambiguous" and target.startswith("dimension:"):
        return target.split(":", 1)[1]
    return None


def _entity_words(name: str, column: str, phrase: set[str]) -> set[str]:
    """The words a dimension's entity is said by: its name's words other than the phrase's
    ("customers" of customers_account_balance) and its table's name, each in either number."""
    said = {canonical(w) for w in name.lower().replace(".", "_").split("_") if w}
    said = (said - phrase) | {canonical(column.split(".", 1)[0].lower())}
    return {f for w in said if len(w) > 2 for f in (w, w.removesuffix("s"), f"{w}s")}


def entity_named(m: Match, tokens: list[Token], layer: SemanticLayer) -> Match:
    """An ambiguous name of dimensions ("account balance": the customer's or the supplier's)
    read as the one whose entity the question names elsewhere ("customers with account
    balance over 1000"; outside tryout 16 was asked back). Unchanged when it names none of
    them, or more than one, or a choice is not a dimension."""
    if not all(t.startswith("dimension:") for t in m.targets):
        return m
    phrase = {canonical(t.text.lower()) for t in tokens[m.start : m.end]}
    said = {canonical(t.text.lower()) for i, t in enumerate(tokens) if not m.start <= i < m.end}
    named = []
    for target in m.targets:
        dim = layer.dimension(target.split(":", 1)[1])
        if _entity_words(dim.name, dim.column, phrase) & said:
            named.append(target)
    if len(named) != 1:
        return m
    return dataclasses.replace(m, kind="dimension", targets=(named[0].split(":", 1)[1],))
