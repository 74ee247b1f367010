"""A "with no X" that keeps rows, not one that drops them: ``negation_missing``'s exception.

"How many orders did each customer place, counting customers with no orders as zero?" and
"..., including customers without orders" ask the rows without X kept beside the others, which
the SQL says with an outer join (``LEFT JOIN ... COALESCE(count, 0)``), never with NOT or IS NULL
(outside tryout 26, t_r5 and p5: the right answers were withheld as negation_missing). Without
an outer join the rows without X are lost, and the check still judges.
"""

from __future__ import annotations

import re

from sqlglot import exp

__all__ = ["asks_zero_rows", "kept_without"]

# "including / counting / even / also <up to 3 words> with no | without | with zero ..."
_KEPT = re.compile(
    r"\b(?:includ(?:e|es|ing)|count(?:ing)?|even|also)\s+(?:[\w'-]+\s+){0,3}?"
    r"(?:without|with (?:no|zero)|(?:that|who|which) (?:have|has|had) (?:no|not|never))\b"
)


# "show 0 for categories with no web sales", "report zero for stores without sales": a value
# the question gives the rows without X, which it keeps (outside tryout 28, r07).
_ZERO_FOR = re.compile(
    r"\b(?:show|shows|showing|report|reporting|return|returning|give|giving|put|use|as|with)"
    r"\s+(?:a\s+)?(?:0|zero|0s|zeros|zeroes)\s+(?:for|on|against)\s+(?:[\w'-]+\s+){0,3}?"
    r"(?:without|with (?:no|zero)|(?:that|who|which) (?:have|has|had) (?:no|not|never))\b"
)


# "listing classes with no sales as 0", "customers without orders counted as zero": the rows
# without X given a value, so kept (outside tryout 32, C2: the right LEFT JOIN withheld).
_AS_ZERO = re.compile(
    r"\b(?:without|with (?:no|zero))\s+(?:[\w'-]+\s+){1,3}?(?:as|at)\s+(?:0|zero)\b"
)

# "listing classes with none", "showing the stores with none": the groups with none listed
_LISTED_NONE = re.compile(
    r"\b(?:list|lists|listing|show|shows|showing|keep|keeping|report|reporting)\s+"
    r"(?:[\w'-]+\s+){1,3}?(?:with|having|that have|who have|which have) none\b"
)


def _text(question: str) -> str:
    return " ".join(question.lower().replace("\u2019", "'").split())


def asks_zero_rows(question: str) -> bool:
    """The question gives the rows without something a value or lists them ("show 0 for
    classes without sales", "listing classes with no sales as 0", "listing classes with
    none"): it asks for them kept, never excluded.

    Example:
        >>> asks_zero_rows("How many units per class, listing classes with no sales as 0?")
        True
        >>> asks_zero_rows("Which classes have no sales?")
        False
    """
    text = _text(question)
    return any(p.search(text) for p in (_ZERO_FOR, _AS_ZERO, _LISTED_NONE))


def kept_without(question: str, tree: exp.Expr) -> bool:
    """The question keeps the rows without something ("including customers without orders",
    "show 0 for categories with no web sales") and the SQL keeps them with an outer join."""
    asked = _KEPT.search(_text(question)) is not None or asks_zero_rows(question)
    return asked and _outer_join(tree)


def _outer_join(tree: exp.Expr) -> bool:
    return any(join.side.upper() in ("LEFT", "RIGHT", "FULL") for join in tree.find_all(exp.Join))
