"""An equality on a flag or a code the question never asks about.

"How many singers are from France?" answered with ``WHERE Country = 'France' AND Is_male =
'T'`` counts only the men: five samples agreeing on it were shown at 1.00 (outside tester,
tryout 27, W3). ``bound_unasked`` reads bounds (``<``, ``>``), not equalities; an equality on a
column of names or places is usually asked ("from France"), but one on a yes/no flag or a
short code selects a kind of row the question has to say.

``code_unasked`` reads each equality between a column and a constant among the conjuncts of a
WHERE or a JOIN's ON, and reads the column's stored values (one bounded query): a flag stores
two of T/F, Y/N, true/false, yes/no, or 1/0 where the name says flag (``is_``, ``has_``,
``_flag``); a code stores at most twelve values of at most ``MAX_CODE_CHARS`` characters each
('F'/'M', 'R'/'A'/'N'), none of them digits (digits are keys: ``car_makers.Country`` stores
'1' to '8', ids of countries the question names by name). It says so
(``signal.code_unasked``) when neither the question nor the hint given with it says anything
that may ask for it: no word of the column's name, less its table's words (the first four
letters, either way), none of its stored values as a word ('R' in "return flag R"; "dogs" says
'dog'), no yes/no word for a flag, no word of sex for a column of sex (male, women, girls,
actresses, his), no word of marital status for one of marital status, and, for a code whose
meaning the name does not say, no word beginning with the code compared ("finished" may say
'F').

Longer values name a kind of row in words, and questions often imply them: EHRSQL's gold
carries ``linksto = 'inputevents'`` and ``d_items.label = ...`` that no question spells out.
They are read only for a category: a column whose name says a kind of row (``CUSTOMER_TYPE``,
``sm_code``, ``o_orderpriority``: ``_KIND_WORDS``) storing at most ``MAX_CATEGORIES`` values
of one or two words and no digits but a rank's ('1-URGENT'), compared in the outer query (a
subquery that finds a key by a label looks the key up, it does not narrow the rows). It is
asked when the question says the name's kind word, a word of the name besides the row's own
(``CUSTOMER`` in ``CUSTOMER_TYPE`` beside ``CUSTOMER_ID`` names the rows counted, not their
type), or a word of any stored value (the first four letters): "How many customers last
ordered in August 2017?" with ``AND CUSTOMER_TYPE = 'returning'`` and "catalog orders ... by
express shipping" with ``AND sm_code = 'AIR'`` beside ``sm_type = 'EXPRESS'`` were shown at
1.00 (agreed20, a development set, five samples agreeing). Silence is never evidence of a
right answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import column_prefix
from assay.checks._coded import _FALSE, _FLAG_WORDS, _SEX_WORDS, _STATUS_WORDS, _TRUE
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._cues import table_words, words
from assay.checks._places import places_named
from assay.checks._sql import parse_query
from assay.checks._text_numbers import _text_values
from assay.checks._values import _owner
from assay.checks._where import conjuncts, const, finding, forms

__all__ = ["MAX_CODE_CHARS", "code_unasked"]

MAX_CODE_CHARS = 3
MAX_CATEGORIES = 12
# Words a column's name says a kind of row by: its values are categories, not names.
# A priority, level, rank or grade is one too: TPC-H's o_orderpriority stores '1-URGENT' to
# '5-LOW' ("orders placed in 1996" with ``AND o_orderpriority = '1-URGENT'``: outside tryout
# 29, W1, shown at 1.00).
_KIND_WORDS = frozenset(
    "type kind category class mode segment tier group status code priority level rank grade".split()
)
# A column named by one of these after a word says that word names the table's rows.
_ROW_KEYS = ("id", "key", "sk", "no", "number", "name")
# Words that say nothing of a column: the question's own and the commonest of English.
_STOP = frozenset(
    "the and for with what which how many much are was were did does get got has have had "
    "from that this these those there their its total all each every give list show find "
    "number count average sum of in on at by to who whose whom where when".split()
)
# The question says yes or no of a flag itself ("set", "flagged", "true").
_YES_NO = frozenset("yes no true false set unset flag flagged flags".split())
_MARITAL = frozenset(_STATUS_WORDS) | {"marital", "married", "status"}
# Words of sex besides ``_coded``'s that a question may say a sex by ("actresses", "his").
_SEXED = frozenset(_SEX_WORDS) | frozenset(
    "actress actresses actor actors mother mothers father fathers wife wives husband husbands "
    "daughter daughters son sons sister sisters brother brothers gentleman gentlemen sex "
    "gender he she his her hers him".split()
)


def _equalities(tree: exp.Expr) -> list[tuple[exp.EQ, exp.Column, str]]:
    """(the node, its column, the constant as text) for each ``column = constant`` among the
    conjuncts of a WHERE or a JOIN's ON."""
    conditions = [w.this for w in tree.find_all(exp.Where)]
    conditions += [j.args["on"] for j in tree.find_all(exp.Join) if j.args.get("on")]
    found = []
    for condition in conditions:
        for term in conjuncts(condition):
            if not isinstance(term, exp.EQ):
                continue
            for column, other in ((term.this, term.expression), (term.expression, term.this)):
                value = const(other)
                if isinstance(column, exp.Column) and value is not None:
                    found.append((term, column, value.text))
    return found


def _name_words(column: str, table: str, prefix: str) -> list[str]:
    """The column's own words: camel case split, less its table's prefix, the table's own
    words (``o_orderstatus`` of ``orders`` says "status") and words that only say flag."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", column)
    parts = [p for p in re.split(r"[^a-z0-9]+", spaced.lower()) if p]
    if prefix and len(parts) > 1 and parts[0] == prefix:
        parts = parts[1:]
    own = sorted((w for w in table_words(table) if len(w) >= 3), key=len, reverse=True)
    kept: list[str] = []
    for part in parts:
        for word in own:
            part = part.replace(word, " ")
        kept += part.split()
    return [p for p in kept if len(p) >= 3 and p not in _FLAG_WORDS]


def _kind(column: str, stored: list[object]) -> str | None:
    """``flag``, ``code`` or ``None`` (neither, or unread), from the name and stored values.
    Digits are a flag only where the name says flag; more digits are keys (``car_makers.
    Country`` stores '1' to '8', the ids of countries), never codes."""
    values = {str(v).strip().lower() for v in stored}
    if len(values) < 2:
        return None  # one value: the equality filters nothing
    digits = all(v.isdigit() for v in values)
    flagged = bool(set(re.split(r"[^a-z0-9]+", column.lower())) & _FLAG_WORDS) or (
        column.lower().startswith(("is", "has"))
    )
    if len(values) == 2 and values <= _TRUE | _FALSE and (flagged or not digits):
        return "flag"
    short = all(isinstance(v, str) and len(v.strip()) <= MAX_CODE_CHARS for v in stored)
    return "code" if short and not any(v.isdigit() for v in values) else None


def _could_be_code(text: str) -> bool:
    """Whether a constant may be a flag's or a code's value: a short text, a yes/no word, or
    0 or 1 (only these are read, so a long name or a number costs no query)."""
    value = text.strip().lower()
    return value in _TRUE | _FALSE or (len(value) <= MAX_CODE_CHARS and not value.isdigit())


def _category(stored: list[object], tables: set[str]) -> bool:
    """Whether the stored values are a few categories in words: two to ``MAX_CATEGORIES``
    values, each one or two words of letters ('new', 'returning'; 'AIR', 'SURFACE') after at
    most a rank's digit and a dash ('1-URGENT', '4-NOT SPECIFIED'), one
    longer than a code (codes alone are read as codes: "finished" may say 'F'), none the name
    of a table (EHRSQL's ``cost.event_type = 'prescriptions'`` says which table
    ``cost.event_id`` keys, a link no question spells out)."""
    texts = [v.strip() for v in stored if isinstance(v, str)]
    return (
        len(texts) == len(stored)
        and 2 <= len(set(texts)) <= MAX_CATEGORIES
        and any(len(t) > MAX_CODE_CHARS for t in texts)
        and all(re.fullmatch(r"(?:\d-)?[A-Za-z]+(?: [A-Za-z]+)?", t) for t in texts)
        and not {t.lower() for t in texts} & tables
    )


def _row_words(columns: list[str], prefix: str) -> set[str]:
    """The words that name a table's rows: ``CUSTOMER`` of ``CUSTOMER_ID`` (``_ROW_KEYS``)."""
    found = set()
    for column in columns:
        parts = [p for p in re.split(r"[^a-z0-9]+", column.lower()) if p]
        if prefix and len(parts) > 1 and parts[0] == prefix:
            parts = parts[1:]
        if len(parts) == 2 and parts[1] in _ROW_KEYS:
            found.add(parts[0])
    return found


def _category_asked(question: str, own: list[str], rows: set[str], stored: list[object]) -> bool:
    """Whether the question names a category column (its kind word, or a word of its name
    that is not the rows' own) or says a word of one of its values (first four letters)."""
    if _named(question, [w for w in own if w not in rows]):
        return True
    said = [w for w in words(question) if w not in _STOP and len(w) >= 3]
    told = {p[:4] for v in stored for p in re.split(r"[ _-]+", str(v).lower()) if len(p) >= 3}
    return any(w[:4] in told for w in said)


def _outer(node: exp.Expr) -> bool:
    """Whether a condition narrows the outer query's rows, not a subquery's."""
    return node.find_ancestor(exp.Subquery) is None


def _named(question: str, own: list[str]) -> bool:
    """Whether a word of the question names the column: the first four letters of a word in
    the column's own words, or of one of its words in the question."""
    name = " ".join(own)
    said = [w for w in words(question) if w not in _STOP]
    return any(len(w) >= 3 and w[:4] in name for w in said) or any(
        p[:4] in question.lower() for p in own
    )


def _asked(question: str, own: list[str], kind: str, stored: list[object], compared: str) -> bool:
    """Whether a word of the question says one of the column's values or its meaning,
    ``compared`` being the constant the SQL compares it with."""
    said = [w for w in words(question) if w not in _STOP]
    name = " ".join(own)
    tokens = set(re.findall(r"[A-Za-z0-9]+", question))
    codes = {str(v).strip() for v in stored}
    if codes & tokens or {c.upper() for c in codes} & tokens:
        return True
    stored_forms = {f for c in codes if len(c) > 1 for f in forms(c.lower())}
    if stored_forms & {f for w in said for f in forms(w)}:
        return True  # 'dog' said as "dogs", 'toys' as "toy" (outside tryout 38: "toy products")
    if kind == "flag" and _YES_NO & set(said):
        return True
    if any(w in name for w in ("sex", "gender", "male")):  # "female" holds "male"
        return bool(_SEXED & set(said))
    if "marital" in name:
        return bool(_MARITAL & set(said))
    initial = compared.strip()[:1].lower()
    return kind == "code" and any(w.startswith(initial) for w in said if len(w) >= 3)


def _place_stored(question: str, stored: list[object]) -> bool:
    """Whether the question names a place ("Germany") the column stores by its code ('DE',
    'DEU'): the column is asked about, whichever of its codes the SQL compares (outside
    re-check of tryout 38: "customers in Germany" as ``country = 'DE'`` was withheld here)."""
    codes = {str(v).strip().upper() for v in stored}
    return any(named & codes for _, _, named in places_named(question))


def code_unasked(ctx: CheckContext) -> CheckOutcome:
    """An equality on a flag or a code the question never asks about
    (``signal.code_unasked``)."""
    sql = ctx.candidate.final_sql
    if ctx.catalog is None or ctx.profiles is None or not sql:
        return CheckOutcome()
    tree = parse_query(sql, ctx.dialect)
    if tree is None:
        return CheckOutcome()
    said = f"{ctx.question} {ctx.hint}"  # a hint may state the condition
    for node, column, text in _equalities(tree):
        owner = _owner(column, tree, ctx.catalog)
        info = ctx.catalog.table(owner[0]) if owner is not None else None
        if owner is None or info is None:
            continue
        names = [c.name for c in info.columns]
        own = _name_words(owner[1], owner[0], column_prefix(names))
        if _KIND_WORDS & set(own) and _outer(node) and not text.strip().isdigit():
            stored = _text_values(ctx, *owner)
            rows = _row_words(names, column_prefix(names))
            if (
                _category(stored, {t.lower() for t in ctx.catalog.table_names})
                and not _category_asked(said, own, rows, stored)
                and not _asked(said, own, "category", stored, text)
            ):
                return _unasked(node, ".".join(owner), "category", stored, text)
        if not _could_be_code(text) or not own or _named(said, own):
            continue  # named, or a name of prefixes, table words and flag words says nothing
        stored = _text_values(ctx, *owner)
        kind = _kind(owner[1], stored)
        if kind is None or _asked(said, own, kind, stored, text) or _place_stored(said, stored):
            continue  # a place named and stored as a code: asked ('value_swapped' reads which)
        return _unasked(node, ".".join(owner), kind, stored, text)
    return CheckOutcome()


def _unasked(node: exp.EQ, where: str, kind: str, stored: list[object], text: str) -> CheckOutcome:
    """The finding: ``node`` keeps only the rows of one of ``where``'s stored values."""
    shown = ", ".join(repr(v) for v in stored)
    return CheckOutcome(
        (
            finding(
                "signal.code_unasked",
                f"The SQL keeps only the rows where {node.sql()}, but the question says "
                f"nothing of {where} (a {kind} storing {shown}) nor of any of its values: "
                "the extra condition leaves out rows the question asks about.",
                column=where,
                condition=node.sql(),
                value=text,
                stored=[str(v) for v in stored],
            ),
        )
    )
