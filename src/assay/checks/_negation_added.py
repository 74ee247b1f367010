"""``signal.negation_added``: the question asks for a value and the SQL excludes it.

"How many customers are in the AUTOMOBILE segment?" answered with ``c_mktsegment <>
'AUTOMOBILE'`` runs, agrees across samples and counts every other customer (outside tryout 25:
five such counts came back from ``/api/sql`` with only a warning). ``negation_dropped`` reads
the other direction ("not made in 1972" as ``Year = 1972``); this one reads a question that
negates nothing and a WHERE that keeps the rows without a value the question says: ``<>``,
``!=``, ``NOT =``, ``NOT IN`` or ``NOT LIKE`` on a text constant whose words the question says.

Silent when the question says any word of exclusion or difference (not, never, except,
excluding, other, different, without, besides, no, non-, neither, nor, outside, ignoring,
disregarding, leaving out, ...), when the
excluded constant is a number (a question says "cars with 4 cylinders" and a query may also
drop zero rows), or when the SQL does not parse: its silence is never evidence of a right
answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._where import Const, const, finding, names_value, outer_terms, tree_of

__all__ = ["negation_added"]

_EXCLUDING = re.compile(
    r"\b(?:not|never|no|none|nor|neither|non|except|excluding|exclude[sd]?|other|others|"
    r"different|differs?|without|besides|beside|outside|apart|aside|else|another|instead|"
    r"unlike|remove[sd]?|omit\w*|but|only|exclusive\w*|"
    # "ignoring cancellations", "disregarding returns", "skipping refunds", "leaving out test
    # orders": the rows named are left out (agreed26 h26_c15: the right ``<> 'cancellation'``
    # was withheld)
    r"ignor\w*|disregard\w*|skip\w*|leav\w* out|left out|net of)\b|n't\b|\bnon-"
)


def _excluded(term: exp.Expr) -> list[tuple[exp.Expr, Const]]:
    """The text constants one WHERE term excludes: ``x <> 'a'``, ``NOT x = 'a'``, ``x NOT IN
    ('a', 'b')``, ``x NOT LIKE 'a'`` (no wildcard)."""
    node = term
    while isinstance(node, exp.Paren):
        node = node.this
    negated = False
    if isinstance(node, exp.Not):
        negated, node = True, node.this
        while isinstance(node, exp.Paren):
            node = node.this
    values: list[Const | None] = []
    if isinstance(node, exp.NEQ) and not negated:
        values = [const(node.expression), const(node.this)]
    elif isinstance(node, exp.EQ) and negated:
        values = [const(node.expression), const(node.this)]
    elif isinstance(node, exp.In) and negated and node.args.get("query") is None:
        values = [const(item) for item in node.expressions]
    elif isinstance(node, exp.Like) and (negated or node.args.get("negate")):
        value = const(node.expression)
        if value is not None and "%" not in value.text and "_" not in value.text:
            values = [value]
    return [(term, v) for v in values if v is not None and v.kind == "str"]


def negation_added(ctx: CheckContext) -> CheckOutcome:
    """``signal.negation_added`` (see the module docstring)."""
    text = " ".join(ctx.question.lower().replace("\u2019", "'").split())
    if _EXCLUDING.search(text):
        return CheckOutcome()
    tree = tree_of(ctx)
    if tree is None:
        return CheckOutcome()
    for term in outer_terms(tree):
        for condition, value in _excluded(term):
            if names_value(ctx.question, value):
                return CheckOutcome(
                    (
                        finding(
                            "signal.negation_added",
                            f"The question asks for {value.text!r} and negates nothing, "
                            f"but the SQL keeps {condition.sql()}: it selects every row "
                            "but those the question asks about.",
                            value=value.text,
                            condition=condition.sql(),
                        ),
                    )
                )
    return CheckOutcome()
