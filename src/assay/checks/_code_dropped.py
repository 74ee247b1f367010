"""A sex the question asks for, and SQL that never reads the column that codes it.

"How many female students are older than 20?" answered with ``SELECT count(*) FROM Student
WHERE Age > 20``; "How many male singers are there?" with ``SELECT count(*) FROM singer``;
"the average age of the female students" with ``avg(Age)`` over every student: five samples
agreeing on each were shown at 1.00 (outside tryout 23). ``code_meaning`` catches a code read
backwards (``Sex = 'M'`` for "female"), and ``value_dropped`` a stored word the SQL drops
('dog'), but here the word (female) stands for a code ('F') and nothing compares it.

``code_dropped`` says so (``signal.code_dropped``) when the question asks for one sex
(``asked_sex``: "not female" is male; both sexes, or a negation whose reach cannot be read, is
silent), a table the SQL reads, or one declared foreign key away, has a column whose name and
every stored value make it a sex code holding that sex, and the SQL names no column that says
sex, gender, male or female and carries no string saying a sex word (``i_category = 'Women'``
is a category of items, not the buyer's sex). A marital status asked and never read ("married
male customers" with only ``cd_gender = 'M'``) is said the same way: ``_marital_dropped``.
Silence is never evidence of a right answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._coded import _SEX_WORDS, _meanings, _sexed, asked_sex
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._dropped import _reachable
from assay.checks._marital_dropped import marital_dropped
from assay.checks._sql import parse_query
from assay.checks._text_numbers import _text_values
from assay.checks._where import finding

__all__ = ["code_dropped"]


def _sex_said(tree: exp.Expr) -> bool:
    """The SQL names a column that says sex (``Sex``, ``cd_gender``, ``Is_male``) or carries
    a string holding a sex word ('Women', 'Men''s Studies')."""
    if any(_sexed(c.name) for c in tree.find_all(exp.Column)):
        return True
    strings = (lit.name.lower() for lit in tree.find_all(exp.Literal) if lit.is_string)
    return any(w in _SEX_WORDS for s in strings for w in re.findall(r"[a-z]+", s))


def code_dropped(ctx: CheckContext) -> CheckOutcome:
    """The question asks for one sex, a table the SQL reads (or one foreign key away) codes
    it, and the SQL never reads the code (``signal.code_dropped``)."""
    sql = ctx.candidate.final_sql
    catalog = ctx.catalog
    if catalog is None or ctx.profiles is None or not sql:
        return CheckOutcome()
    tree = parse_query(sql, ctx.dialect)
    if tree is None:
        return CheckOutcome()
    status = marital_dropped(ctx, tree)  # "married male customers", marital never read
    if status is not None:
        return CheckOutcome((status,))
    wanted = asked_sex(ctx.question)
    if wanted is None or _sex_said(tree):
        return CheckOutcome()
    for table in _reachable(tree, catalog):
        for column in (c.name for c in table.columns if _sexed(c.name)):
            stored = _text_values(ctx, table.name, column)
            meanings = _meanings(column, stored) or {}
            if wanted not in meanings.values():
                continue
            codes = ", ".join(f"{v!r} = {meanings[str(v).strip().lower()]}" for v in stored)
            return CheckOutcome(
                (
                    finding(
                        "signal.code_dropped",
                        f"The question asks for {wanted} rows but the SQL never compares "
                        f"{table.name}.{column} ({codes}): the answer counts or lists every "
                        "sex. Add the condition on it.",
                        column=f"{table.name}.{column}",
                        asked=wanted,
                    ),
                )
            )
    return CheckOutcome()
