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
carries ``linksto = 'inputevents'`` and ``d_items.label = ...`` that no question spells out,
so they are never read here. Silence is never evidence of a right answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import column_prefix
from assay.checks._coded import _FALSE, _FLAG_WORDS, _SEX_WORDS, _STATUS_WORDS, _TRUE
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._cues import table_words, words
from assay.checks._sql import parse_query
from assay.checks._text_numbers import _text_values
from assay.checks._values import _owner
from assay.checks._where import conjuncts, const, finding, forms

__all__ = ["MAX_CODE_CHARS", "code_unasked"]

MAX_CODE_CHARS = 3
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
    if {c.lower() for c in codes if len(c) > 1} & {f for w in said for f in forms(w)}:
        return True  # 'dog' said as "dogs"
    if kind == "flag" and _YES_NO & set(said):
        return True
    if any(w in name for w in ("sex", "gender", "male")):  # "female" holds "male"
        return bool(_SEXED & set(said))
    if "marital" in name:
        return bool(_MARITAL & set(said))
    initial = compared.strip()[:1].lower()
    return kind == "code" and any(w.startswith(initial) for w in said if len(w) >= 3)


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
        owner = _owner(column, tree, ctx.catalog) if _could_be_code(text) else None
        info = ctx.catalog.table(owner[0]) if owner is not None else None
        if owner is None or info is None:
            continue
        own = _name_words(owner[1], owner[0], column_prefix([c.name for c in info.columns]))
        if not own or _named(said, own):
            continue  # named, or a name of prefixes, table words and flag words says nothing
        stored = _text_values(ctx, *owner)
        kind = _kind(owner[1], stored)
        if kind is None or _asked(said, own, kind, stored, text):
            continue
        where = ".".join(owner)
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
    return CheckOutcome()
