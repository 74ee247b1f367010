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

__all__ = ["kept_without"]

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


def kept_without(question: str, tree: exp.Expr) -> bool:
    """The question keeps the rows without something ("including customers without orders",
    "show 0 for categories with no web sales") and the SQL keeps them with an outer join."""
    text = " ".join(question.lower().replace("\u2019", "'").split())
    return bool(_KEPT.search(text) or _ZERO_FOR.search(text)) and _outer_join(tree)


def _outer_join(tree: exp.Expr) -> bool:
    return any(join.side.upper() in ("LEFT", "RIGHT", "FULL") for join in tree.find_all(exp.Join))
