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

The same reading covers two more kinds of code (outside tryout 23, shown at 1.00): a marital
status ("single customers" as ``cd_marital_status = 'M'``, "married" as ``'S'``: TPC-DS
stores M, S, D, W, U), and a yes/no flag whose name says what yes means (``d_weekend``,
``d_holiday``, ``c_preferred_cust_flag``: "on weekends" as ``d_weekend = 'N'``, "on weekdays"
as ``'Y'``, "on holidays" as ``d_holiday = 'N'``, "customers with the preferred flag set" as
``'N'``). A flag's words are its name's, less the table's own words or their abbreviations
("cust"), one- and two-letter prefixes and words that only say it is a flag; the question says
them ("weekends", "preferred"), their opposite ("weekdays") or them negated ("non-holiday",
"not on holidays"). A question that names a code itself ('Y', "true") or holds a negation just
after the flag's words ("the preferred flag is not set") is silent.

About 410 lines, past the house's 400: the three kinds of code share one reading of the
question's negations and of the SQL's comparisons, which splitting would duplicate.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._sql import parse_query
from assay.checks._text_numbers import _text_values
from assay.checks._values import _owner
from assay.checks._where import const, finding, forms, negated

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
_SKIPPED_FLAG = _SKIPPED | {"on", "during", "in", "at", "over"}  # "not on holidays"
# a negation just before a sex word that turns it ("not female", "non-male", "except women");
# "no women", "never men", "without girls" negate existence, not the sex
_TURNING = frozenset({"not", "non", "except", "excluding", "besides"})
_NEGATIONS = _TURNING | {"no", "never", "without"}
_BE_NOT = frozenset({"isn", "aren", "wasn", "weren"})  # "aren't men": n't turns the word
_WINDOW = 5  # words before a sex word that a negation may reach it from
_STATUSES = {
    **dict.fromkeys(("m", "married"), "married"),
    **dict.fromkeys(("s", "single"), "single"),
    **dict.fromkeys(("d", "divorced"), "divorced"),
    **dict.fromkeys(("w", "widowed"), "widowed"),
    **dict.fromkeys(("u", "unknown"), "unknown"),
}
# the question's words for one marital status; "unmarried" is "not married"
_STATUS_WORDS = {
    **dict.fromkeys(("married", "unmarried"), "married"),
    **dict.fromkeys(("single", "singles"), "single"),
    "divorced": "divorced",
    **dict.fromkeys("widowed widow widows widower widowers".split(), "widowed"),
}
# name words that only say a column is a flag ("is_", "_flag", "_ind")
_FLAG_WORDS = frozenset("is has if flag flg ind indicator yn bool".split())
# the opposite of a flag's words: "on weekdays" asks for d_weekend = 'N'
_OPPOSITES: dict[tuple[str, ...], tuple[tuple[str, ...], ...]] = {
    ("weekend",): (("weekday",), ("workday",), ("working", "day"), ("business", "day")),
    ("holiday",): (("workday",), ("working", "day"), ("business", "day")),
}
# words just after a flag's words that turn or question it ("the preferred flag is not set")
_AFTER = frozenset("not no never without unset off false t".split())
_AFTER_WINDOW = 4
# the question names a code itself ("flag 'Y'", "set to true", "status 0"): read as written
_CODE_SAID = re.compile(r"\b(?:y|n|yes|true|false|0|1)\b|['\"][tfyn01]['\"]")


def _name_words(name: str) -> list[str]:
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", name)
    return [w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w]


def _negated_at(tokens: list[str], index: int, skipped: frozenset[str] = _SKIPPED) -> bool | None:
    """Whether the word at ``index`` is negated: "not", "non-", "except", "other than" or
    "isn't" just before it (``skipped`` words between: "not a woman"); ``None`` when a
    negation stands a few words before it, whose reach cannot be read ("who do not identify as
    female", "with no women")."""
    before = [t for t in tokens[:index] if t not in skipped][-_WINDOW:]
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


def _asked_status(question: str) -> tuple[str, bool] | None:
    """The one marital status the question says and whether it is negated ("not married",
    "unmarried"); ``None`` when it says none, two ("married or single"), or a negation whose
    reach cannot be read.

    Example:
        >>> _asked_status("How many single customers?"), _asked_status("unmarried people")
        (('single', False), ('married', True))
    """
    tokens = re.findall(r"[a-z0-9]+", question.lower().replace("\u2019", "'"))
    said = set()
    for index, token in enumerate(tokens):
        if token not in _STATUS_WORDS:
            continue
        negated = _negated_at(tokens, index)
        if negated is None:
            return None
        said.add((_STATUS_WORDS[token], negated != (token == "unmarried")))
    return said.pop() if len(said) == 1 else None


def flag_words(table: str, column: str) -> tuple[str, ...] | None:
    """The words a yes/no column's name says yes means, in order: its name's words less the
    table's words and their abbreviations, prefixes of one or two letters and words that only
    say it is a flag; ``None`` when none are left.

    Example:
        >>> flag_words("customer", "c_preferred_cust_flag"), flag_words("date_dim", "d_weekend")
        (('preferred',), ('weekend',))
    """
    own = _name_words(table)
    kept = tuple(
        w
        for w in _name_words(column)
        if len(w) > 2
        and w not in _FLAG_WORDS
        and not any(o.startswith(w) or w.startswith(o) for o in own if len(o) > 2)
    )
    return kept or None


def _at(tokens: list[str], index: int, phrase: tuple[str, ...]) -> bool:
    """The phrase's words start at ``index``, its last word maybe plural ("weekends")."""
    found = tokens[index : index + len(phrase)]
    return (
        len(found) == len(phrase)
        and found[:-1] == list(phrase[:-1])
        and phrase[-1] in forms(found[-1])
    )


def asked_flag(question: str, phrase: tuple[str, ...]) -> bool | None:
    """Whether the question asks for the flag set (its words said: "on weekends") or clear
    (negated: "not on holidays", "non-preferred"; or their opposite: "on weekdays"); ``None``
    when it says neither, both, names a code itself, or holds a negation whose reach cannot be
    read.

    Example:
        >>> asked_flag("sales on weekdays", ("weekend",))
        False
        >>> asked_flag("non-holiday sales", ("holiday",))
        False
        >>> asked_flag("customers with the preferred flag set", ("preferred",))
        True
    """
    text = question.lower().replace("\u2019", "'")
    if _CODE_SAID.search(text):
        return None
    tokens = re.findall(r"[a-z0-9]+", text)
    phrases = [(phrase, True), *((o, False) for o in _OPPOSITES.get(phrase, ()))]
    said = set()
    for index in range(len(tokens)):
        for words, meaning in phrases:
            if not _at(tokens, index, words):
                continue
            negated = _negated_at(tokens, index, _SKIPPED_FLAG)
            after = tokens[index + len(words) : index + len(words) + _AFTER_WINDOW]
            if negated is None or _AFTER & set(after):
                return None
            said.add(meaning != negated)
    return said.pop() if len(said) == 1 else None


def _flag_meanings(phrase: tuple[str, ...], stored: list[object]) -> dict[str, str] | None:
    values = {str(v).strip().lower() for v in stored}
    if not values or not values <= _TRUE | _FALSE:
        return None
    said = " ".join(phrase)
    return {v: said if v in _TRUE else f"not {said}" for v in values}


@dataclass(frozen=True)
class _Code:
    """A coded column as the question reads it: what its code says ("sex", "marital status",
    a flag's words), each stored code's meaning (by its lower case), the meanings the question
    asks for, and the values as stored (for the message)."""

    kind: str
    meanings: Mapping[str, str]
    asked: frozenset[str]
    stored: tuple[object, ...]

    def listed(self) -> str:
        return ", ".join(f"{v!r} = {self.meanings[str(v).strip().lower()]}" for v in self.stored)


def _sex_code(ctx: CheckContext, table: str, column: str) -> _Code | None:
    wanted = asked_sex(ctx.question)
    stored = _text_values(ctx, table, column) if wanted else []
    meanings = _meanings(column, stored)
    if wanted is None or meanings is None:
        return None
    return _Code("sex", meanings, frozenset({wanted}), tuple(stored))


def _status_code(ctx: CheckContext, table: str, column: str) -> _Code | None:
    status = _asked_status(ctx.question)
    stored = _text_values(ctx, table, column) if status else []
    values = {str(v).strip().lower() for v in stored}
    if status is None or not values or not values <= set(_STATUSES):
        return None
    codes = {v: _STATUSES[v] for v in values}
    said, negated = status
    asked = frozenset(codes.values()) - {said} if negated else frozenset({said})
    return _Code("marital status", codes, asked, tuple(stored))


def _flag_code(ctx: CheckContext, table: str, column: str) -> _Code | None:
    phrase = flag_words(table, column)
    on = asked_flag(ctx.question, phrase) if phrase else None
    if phrase is None or on is None:
        return None
    stored = _text_values(ctx, table, column)
    meanings = _flag_meanings(phrase, stored)
    said = " ".join(phrase)
    asked = frozenset({said if on else f"not {said}"})
    return _Code(said, meanings, asked, tuple(stored)) if meanings else None


def _coding(ctx: CheckContext, table: str, column: str) -> _Code | None:
    """What the column's codes mean and which of them the question asks for; ``None`` when it
    is no code the question speaks of, or a code not certain. The stored values are read (one
    bounded query) only once the name and the question qualify."""
    if _sexed(column):
        return _sex_code(ctx, table, column)
    if "marital" in _name_words(column):
        return _status_code(ctx, table, column)
    return _flag_code(ctx, table, column)


@dataclass(frozen=True)
class _Compared:
    """One comparison on a coded column: the node, the column, its code, what it selects."""

    node: exp.Expr
    column: str
    code: _Code
    picked: frozenset[str]


def _selected(ctx: CheckContext, tree: exp.Expr) -> dict[str, list[_Compared]] | None:
    """The comparisons on coded columns, grouped by what the code says; ``None`` when a
    compared code cannot be read, or something around a comparison may turn it."""
    assert ctx.catalog is not None
    found: dict[str, list[_Compared]] = {}
    for node, column, texts, excludes in _comparisons(tree):
        owner = _owner(column, tree, ctx.catalog)
        code = _coding(ctx, *owner) if owner is not None else None
        if owner is None or code is None:
            continue
        said = {code.meanings.get(t.strip().lower()) for t in texts}
        if None in said or _turned(tree, node):
            return None
        chosen = frozenset(str(m) for m in said)
        picked = frozenset(code.meanings.values()) - chosen if excludes else chosen
        found.setdefault(code.kind, []).append(_Compared(node, ".".join(owner), code, picked))
    return found


def _flipped(compared: list[_Compared]) -> CheckOutcome:
    first = compared[0]
    picked = frozenset().union(*(c.picked for c in compared))
    wanted, other = " or ".join(sorted(first.code.asked)), " or ".join(sorted(picked))
    return CheckOutcome(
        (
            finding(
                "signal.code_flipped",
                f"The question asks for {wanted} but the SQL's {first.node.sql()} selects "
                f"{other} rows: {first.column} stores {first.code.listed()}.",
                column=first.column,
                condition=first.node.sql(),
                asked=wanted,
                selected=other,
            ),
        )
    )


def code_meaning(ctx: CheckContext) -> CheckOutcome:
    """The question asks for one sex, marital status or flag state, and the SQL's comparisons
    on the column that codes it select only others (``signal.code_flipped``)."""
    sql = ctx.candidate.final_sql
    if ctx.catalog is None or ctx.profiles is None or not sql:
        return CheckOutcome()
    tree = parse_query(sql, ctx.dialect)
    selected = _selected(ctx, tree) if tree is not None else None
    for _, compared in sorted((selected or {}).items()):
        picked = frozenset().union(*(c.picked for c in compared))
        if picked and not picked & compared[0].code.asked:
            return _flipped(compared)
    return CheckOutcome()
