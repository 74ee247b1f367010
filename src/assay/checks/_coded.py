"""What a coded column's values mean, against the words of the question.

``Student.Sex`` (Spider pets_1) stores 'F' and 'M'; ``singer.Is_male`` (concert_singer) stores
'T' and 'F'. "How many female students are there?" answered with ``WHERE Sex = 'M'``, "How many
singers are not male?" with ``WHERE Is_male = 'T'``: five samples agreeing on either were shown
at 1.00 (outside testers, task gen16). ``code_meaning`` reads the sex the question asks for
(female, woman, girl; male, man, boy; each turned by a "not" or "non-" before it) and the sex
the SQL's comparison selects, and says when they are opposite (``signal.code_flipped``).

Only where the mapping is certain: the column's name says sex or gender (every stored value
'F'/'M' or 'female'/'male') or says male or female as a flag (``is_male``: every stored value
T/F, Y/N, 1/0, true/false, yes/no), read from the data with one bounded query. A question that
asks for both sexes, or holds a negation a few words before a sex word whose reach cannot be
read ("who do not identify as female", "teams with no women"); a query that negates anything
besides the comparison itself (NOT IN a subquery, EXCEPT, IS NULL); a code the mapping does
not name: silent, never evidence of a right answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._sql import parse_query
from assay.checks._text_numbers import _text_values
from assay.checks._values import _owner
from assay.checks._where import const, finding, negated

__all__ = ["code_meaning"]

FEMALE, MALE = "female", "male"
_SEX_WORDS = {
    **dict.fromkeys("female females woman women girl girls lady ladies".split(), FEMALE),
    **dict.fromkeys("male males man men boy boys".split(), MALE),
}
_OTHER = {FEMALE: MALE, MALE: FEMALE}
_SEX_CODES = {"f": FEMALE, "m": MALE, "female": FEMALE, "male": MALE}
_TRUE = frozenset({"t", "true", "y", "yes", "1"})
_FALSE = frozenset({"f", "false", "n", "no", "0"})
_SKIPPED = frozenset({"a", "an", "the", "be", "being"})  # "not a woman"
# a negation just before a sex word that turns it ("not female", "non-male", "except women");
# "no women", "never men", "without girls" negate existence, not the sex
_TURNING = frozenset({"not", "non", "except", "excluding", "besides"})
_NEGATIONS = _TURNING | {"no", "never", "without"}
_BE_NOT = frozenset({"isn", "aren", "wasn", "weren"})  # "aren't men": n't turns the word
_WINDOW = 5  # words before a sex word that a negation may reach it from


def _name_words(name: str) -> list[str]:
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", name)
    return [w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w]


def _negated_at(tokens: list[str], index: int) -> bool | None:
    """Whether the word at ``index`` is negated: "not", "non-", "except", "other than" or
    "isn't" just before it (articles skipped: "not a woman"); ``None`` when a negation stands a
    few words before it, whose reach cannot be read ("who do not identify as female", "with no
    women")."""
    before = [t for t in tokens[:index] if t not in _SKIPPED][-_WINDOW:]
    pairs = list(zip(["", *before], before, strict=False))
    said = [i for i, (prior, word) in enumerate(pairs) if _negation(prior, word)]
    if not said:
        return False
    last = len(pairs) - 1
    prior, word = pairs[last]
    turns = (
        word in _TURNING
        or (prior == "other" and word == "than")
        or (prior in _BE_NOT and word == "t")
    )
    return True if said == [last] and turns else None  # "not female", "aren't men"


def _negation(prior: str, word: str) -> bool:
    return word in _NEGATIONS or (word == "than" and prior == "other") or word == "t"


def asked_sex(question: str) -> str | None:
    """The one sex the question asks for, each sex word turned by a negation just before it;
    ``None`` when it names none, both ("female and male students"), or a negation a few words
    before a sex word may or may not reach it.

    Example:
        >>> asked_sex("How many students are not female?"), asked_sex("List the women singers")
        ('male', 'female')
        >>> asked_sex("How many male and female students are there?") is None
        True
    """
    tokens = re.findall(r"[a-z0-9]+", question.lower().replace("\u2019", "'"))
    wanted = set()
    for index, token in enumerate(tokens):
        sex = _SEX_WORDS.get(token)
        if sex is None:
            continue
        negated = _negated_at(tokens, index)
        if negated is None:
            return None
        wanted.add(_OTHER[sex] if negated else sex)
    return wanted.pop() if len(wanted) == 1 else None


def _meanings(column: str, stored: list[object]) -> dict[str, str] | None:
    """Each stored value's sex (lower case), when the column's name and every value make it
    certain: a sex or gender column of F/M codes, or a male (female) flag of T/F-like codes."""
    words = _name_words(column)
    values = {str(v).strip().lower() for v in stored}
    if not values:
        return None
    if {"sex", "gender"} & set(words):
        return {v: _SEX_CODES[v] for v in values} if values <= set(_SEX_CODES) else None
    flags = [w for w in words if w in (FEMALE, MALE)]
    if len(flags) != 1 or not values <= _TRUE | _FALSE:
        return None
    flag = flags[0]
    return {v: flag if v in _TRUE else _OTHER[flag] for v in values}


def _comparisons(tree: exp.Expr) -> list[tuple[exp.Expr, exp.Column, list[str], bool]]:
    """(the node, its column, the constants' texts, whether it excludes them) for each
    ``column = c``, ``<>``, ``IN (c, ...)`` and NOT of them."""
    found: list[tuple[exp.Expr, exp.Column, list[str], bool]] = []
    for node in tree.find_all(exp.EQ, exp.NEQ, exp.In):
        if isinstance(node, exp.In):
            column, values = node.this, list(node.expressions)
        else:
            column, values = node.this, [node.expression]
            if not isinstance(column, exp.Column):
                column, values = node.expression, [node.this]
        consts = [const(v) for v in values]
        if not isinstance(column, exp.Column) or not consts or None in consts:
            continue
        excludes = isinstance(node, exp.NEQ) != negated(node)
        found.append((node, column, [c.text for c in consts if c is not None], excludes))
    return found


def _turned(tree: exp.Expr, node: exp.Expr) -> bool:
    """Whether something around the comparison may turn what it selects: a NOT above its own
    (``StuID NOT IN (SELECT ... WHERE Sex = 'F')``), the subtracted side of an EXCEPT, or an
    IS anywhere (``LEFT JOIN ... WHERE key IS NULL`` keeps the rows the join's ON excludes)."""
    if tree.find(exp.Is) is not None:
        return True
    own = node.parent
    while isinstance(own, exp.Paren):
        own = own.parent
    child, parent = node, node.parent
    while parent is not None:
        if isinstance(parent, exp.Not) and parent is not own:
            return True
        if isinstance(parent, exp.Except) and child is parent.expression:
            return True
        child, parent = parent, parent.parent
    return False


def _sexed(column: str) -> bool:
    return any(w in (FEMALE, MALE, "sex", "gender") for w in _name_words(column))


_Selected = dict[str, list[tuple[exp.Expr, str, list[object]]]]


def _selected(ctx: CheckContext, tree: exp.Expr) -> _Selected | None:
    """The sex each comparison on a sex-coded column selects, with (the comparison, the
    column, its stored codes); ``None`` when a code cannot be read for certain, both sexes are
    compared in one comparison, or something around it may turn it."""
    assert ctx.catalog is not None
    found: _Selected = {}
    for node, column, texts, excludes in _comparisons(tree):
        owner = _owner(column, tree, ctx.catalog)
        if owner is None or not _sexed(owner[1]):
            continue
        stored = _text_values(ctx, *owner)
        meanings = _meanings(owner[1], stored) or {}
        said = {meanings.get(t.strip().lower()) for t in texts}
        sex = said.pop() if len(said) == 1 else None
        if sex is None or _turned(tree, node):
            return None
        found.setdefault(_OTHER[sex] if excludes else sex, []).append(
            (node, ".".join(owner), stored)
        )
    return found


def code_meaning(ctx: CheckContext) -> CheckOutcome:
    """The question asks for one sex and the SQL's comparison on a sex-coded column selects
    the other (``signal.code_flipped``)."""
    sql = ctx.candidate.final_sql
    if ctx.catalog is None or ctx.profiles is None or not sql:
        return CheckOutcome()
    tree = parse_query(sql, ctx.dialect)
    wanted = asked_sex(ctx.question) if tree is not None else None
    selected = _selected(ctx, tree) if tree is not None and wanted is not None else None
    if wanted is None or selected is None or set(selected) != {_OTHER[wanted]}:
        return CheckOutcome()
    node, column, stored = selected[_OTHER[wanted]][0]
    meanings = _meanings(column.split(".", 1)[1], stored) or {}
    codes = ", ".join(f"{v!r} = {meanings.get(str(v).strip().lower())}" for v in stored)
    return CheckOutcome(
        (
            finding(
                "signal.code_flipped",
                f"The question asks for {wanted} but the SQL's {node.sql()} selects "
                f"{_OTHER[wanted]} rows: {column} stores {codes}.",
                column=column,
                condition=node.sql(),
                asked=wanted,
                selected=_OTHER[wanted],
            ),
        )
    )
