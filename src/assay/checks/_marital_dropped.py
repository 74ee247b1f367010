"""A marital status the question asks for, and SQL that never reads the column that codes it.

"How many different married male customers bought in stores in 2002?" as ``... JOIN
customer_demographics ON ss_cdemo_sk = cd_demo_sk WHERE d_year = 2002 AND cd_gender = 'M'``
counts the male customers of every marital status, 184 where 39 are married; "single female
customers" with only ``cd_gender = 'F'`` the same way (outside tryout 28, w02 and x_w02b: both
shown at 1.00, five samples agreeing). ``code_meaning`` reads a status code read backwards;
here nothing compares it.

``marital_dropped`` is ``code_dropped``'s second reading: the question says one marital status
(``_coded._asked_status``: "married", "single", "divorced", "widowed", each maybe negated), a
table the SQL reads, or one declared foreign key away, has a column whose name says marital and
whose every stored value is a status code holding it, and the SQL names no marital column and
carries no string saying a status. "a single order", "each single sale" say a number, not a
status, and are silent. Silence is never evidence of a right answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._coded import _STATUS_WORDS, _STATUSES, _asked_status, _name_words
from assay.checks._context import CheckContext
from assay.checks._dropped import _reachable
from assay.checks._text_numbers import _text_values
from assay.checks._where import finding
from assay.types import Finding

__all__ = ["marital_dropped"]

# "a single order", "every single sale": one, not unmarried
_SINGLE_AS_ONE = re.compile(r"\b(?:a|one|each|every|any|per|the)\s+single\b")


def _status_said(tree: exp.Expr) -> bool:
    """The SQL names a marital column or carries a string saying a status ('Married')."""
    if any("marital" in _name_words(c.name) for c in tree.find_all(exp.Column)):
        return True
    strings = (lit.name.lower() for lit in tree.find_all(exp.Literal) if lit.is_string)
    return any(w in _STATUS_WORDS for s in strings for w in re.findall(r"[a-z]+", s))


def marital_dropped(ctx: CheckContext, tree: exp.Expr) -> Finding | None:
    """``signal.code_dropped`` for a marital status asked and never compared (the module
    docstring); ``None`` when the question asks none or the SQL reads it."""
    assert ctx.catalog is not None
    status = None if _SINGLE_AS_ONE.search(ctx.question.lower()) else _asked_status(ctx.question)
    if status is None or _status_said(tree):
        return None
    said, negated = status
    for table in _reachable(tree, ctx.catalog):
        for column in (c.name for c in table.columns if "marital" in _name_words(c.name)):
            stored = _text_values(ctx, table.name, column)
            codes = {str(v).strip().lower() for v in stored}
            if (
                not codes
                or not codes <= set(_STATUSES)
                or said not in {_STATUSES[c] for c in codes}
            ):
                continue
            listed = ", ".join(f"{v!r} = {_STATUSES[str(v).strip().lower()]}" for v in stored)
            wanted = f"not {said}" if negated else said
            return finding(
                "signal.code_dropped",
                f"The question asks for {wanted} rows but the SQL never compares "
                f"{table.name}.{column} ({listed}): the answer counts or lists every marital "
                "status. Add the condition on it.",
                column=f"{table.name}.{column}",
                asked=wanted,
            )
    return None
