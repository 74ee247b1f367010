"""A sex or a marital status the question asks for, and SQL that never reads the column that codes
it.

"How many female students are older than 20?" answered with ``SELECT count(*) FROM Student
WHERE Age > 20``; "How many male singers are there?" with ``SELECT count(*) FROM singer``;
"the average age of the female students" with ``avg(Age)`` over every student: five samples
agreeing on each were shown at 1.00 (outside tryout 23). ``code_meaning`` catches a code read
backwards (``Sex = 'M'`` for "female"), and ``value_dropped`` a stored word the SQL drops
('dog'), but here the word (female) stands for a code ('F') and nothing compares it.
"How many different married male customers bought in stores in 2002?" as ``... JOIN
customer_demographics ON ss_cdemo_sk = cd_demo_sk WHERE d_year = 2002 AND cd_gender = 'M'``
counts the male customers of every marital status, 184 where 39 are married; "single female
customers" with only ``cd_gender = 'F'`` the same way (outside tryout 28, w02 and x_w02b: both
shown at 1.00, five samples agreeing).

``code_dropped`` says so (``signal.code_dropped``) when the question asks for one marital status
(``_coded._asked_status``: "married", "single", "divorced", "widowed", each maybe negated; "a
single order", "each single sale" say a number, not a status) or one sex (``asked_sex``: "not
female" is male; both sexes, or a negation whose reach cannot be read, is silent), a table the
SQL reads, or one declared foreign key away, has a column whose name and every stored value make
it a code of that kind holding the one asked, and the SQL names no column of that kind (one
saying marital; sex, gender, male or female) and carries no string saying one of its words
(``i_category = 'Women'`` is a category of items, not the buyer's sex). Both kinds are read by
one frame, ``_unread``, given a ``_Code``. Silence is never evidence of a right answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass

from sqlglot import exp

from assay.checks._coded import (
    _SEX_WORDS,
    _STATUS_WORDS,
    _STATUSES,
    _asked_status,
    _meanings,
    _name_words,
    _sexed,
    asked_sex,
)
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._dropped import _reachable
from assay.checks._text_numbers import _text_values
from assay.checks._where import finding, tree_of
from assay.types import Finding

__all__ = ["code_dropped"]

# "a single order", "every single sale": one, not unmarried
_SINGLE_AS_ONE = re.compile(r"\b(?:a|one|each|every|any|per|the)\s+single\b")


@dataclass(frozen=True)
class _Code:
    """One kind of code: whether a column's name says it holds one, the words a string says it
    with, each stored value's meaning (``None`` unless every value is a code), and what the
    answer counts every one of when the condition is dropped."""

    holds: Callable[[str], bool]
    words: Collection[str]
    meanings: Callable[[str, list[object]], dict[str, str] | None]
    kind: str


def _marital(column: str) -> bool:
    return "marital" in _name_words(column)


def _status_meanings(column: str, stored: list[object]) -> dict[str, str] | None:
    """Each stored value's marital status (lower case), when every value is a status code."""
    codes = {str(v).strip().lower() for v in stored}
    if not codes or not codes <= set(_STATUSES):
        return None
    return {c: _STATUSES[c] for c in codes}


_SEX = _Code(_sexed, _SEX_WORDS, _meanings, "sex")
_MARITAL = _Code(_marital, _STATUS_WORDS, _status_meanings, "marital status")


def _said(tree: exp.Expr, code: _Code) -> bool:
    """The SQL names a column holding the code (``Sex``, ``Is_male``, ``cd_marital_status``) or
    carries a string holding one of its words ('Women', 'Men''s Studies', 'Married')."""
    if any(code.holds(c.name) for c in tree.find_all(exp.Column)):
        return True
    strings = (lit.name.lower() for lit in tree.find_all(exp.Literal) if lit.is_string)
    return any(w in code.words for s in strings for w in re.findall(r"[a-z]+", s))


def _unread(
    ctx: CheckContext, tree: exp.Expr, code: _Code, meaning: str, wanted: str
) -> Finding | None:
    """``signal.code_dropped`` for the first column of a table read (or one foreign key away)
    that holds the code with a value meaning ``meaning`` (``wanted`` as the question says it),
    when the SQL says the code nowhere."""
    assert ctx.catalog is not None
    if _said(tree, code):
        return None
    for table in _reachable(tree, ctx.catalog):
        for column in (c.name for c in table.columns if code.holds(c.name)):
            stored = _text_values(ctx, table.name, column)
            meanings = code.meanings(column, stored) or {}
            if meaning not in meanings.values():
                continue
            listed = ", ".join(f"{v!r} = {meanings[str(v).strip().lower()]}" for v in stored)
            return finding(
                "signal.code_dropped",
                f"The question asks for {wanted} rows but the SQL never compares "
                f"{table.name}.{column} ({listed}): the answer counts or lists every "
                f"{code.kind}. Add the condition on it.",
                column=f"{table.name}.{column}",
                asked=wanted,
            )
    return None


def code_dropped(ctx: CheckContext) -> CheckOutcome:
    """The question asks for one marital status or one sex, a table the SQL reads (or one
    foreign key away) codes it, and the SQL never reads the code (``signal.code_dropped``)."""
    tree = tree_of(ctx) if ctx.catalog is not None and ctx.profiles is not None else None
    if tree is None:
        return CheckOutcome()
    status = None if _SINGLE_AS_ONE.search(ctx.question.lower()) else _asked_status(ctx.question)
    if status is not None:  # "married male customers", marital never read
        said, negated = status
        found = _unread(ctx, tree, _MARITAL, said, f"not {said}" if negated else said)
        if found is not None:
            return CheckOutcome((found,))
    sex = asked_sex(ctx.question)
    found = _unread(ctx, tree, _SEX, sex, sex) if sex is not None else None
    return CheckOutcome(() if found is None else (found,))
