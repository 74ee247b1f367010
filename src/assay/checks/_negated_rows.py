"""A thing the question says never happened, excluded row by row.

"How many customers never had a cancellation?" as ``SELECT count(DISTINCT id_customer) FROM
transactions_seed WHERE transaction_type_name <> 'cancellation'`` counts the customers with some
other transaction, those who also cancelled among them (agreed23, a development set: shown at
1.00, five samples agreeing). ``negation_missing`` is silent: the SQL does negate, but a row,
not the customer. "Never", "don't have any", "without" say that none of an entity's rows has
the value; ``<>`` drops the rows that have it and keeps every entity with one row more.

``negation_on_rows`` says so (``signal.negation_on_rows``) when the question negates a verb or
existence (``_negations._negated_verbs``), the SQL returns its entities once each over rows that
repeat them (``count(DISTINCT x)``, ``SELECT DISTINCT``, ``GROUP BY``), and its only negation is
a row filter on a text constant (``<>``, ``NOT IN`` a list, ``NOT LIKE``) of the outer WHERE:
no NOT EXISTS, no ``NOT IN`` a subquery, no EXCEPT, no anti-join (IS NULL), no count of 0.
The negation must say no row at all ("never", "no", "without", "not ... a / any"): "each
category other than Books" as ``i_category NOT IN ('Books', 'Music')`` picks other values
(agreed16, h16_d25), and a row filter on the very column returned once each drops whole groups.
Silent otherwise: one row an entity ("orders that were not cancelled") is judged by
``negation_added`` and the condition checks, and silence is never evidence of a right answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._negation_added import _excluded
from assay.checks._negations import _named_values, _negated_verbs, negates
from assay.checks._where import finding, outer_terms, tree_of

__all__ = ["negation_on_rows"]


# the negations that say no row at all ("never", "don't have any", "without", "with no", "hasn't
# ever": agreed25 h25_c16), not those that pick other values ("other than Books", "except",
# "excluding": agreed16, h16_d25)
_NONE = re.compile(
    r"\b(?:never|without|no|none|any)\b|(?:\bnot|n't)\s+(?:\w+\s+)?(?:a|an|one|ever)\b"
)


def _returned(tree: exp.Select) -> set[str]:
    """The names of the columns the outer SELECT returns once each: its GROUP BY, its DISTINCT
    projections, the column of a ``count(DISTINCT x)``."""
    group = tree.args.get("group")
    nodes = list(group.expressions) if group is not None else []
    if tree.args.get("distinct"):
        nodes += [p.unalias() for p in tree.expressions]
    for count in tree.find_all(exp.Count):
        if isinstance(count.this, exp.Distinct):
            nodes += list(count.this.expressions)
    return {n.name.lower() for n in nodes if isinstance(n, exp.Column)}


def _is_returned(term: exp.Expr, tree: exp.Select) -> bool:
    """The excluded column is the one returned once each: each group is its own value, so the
    row filter drops whole groups ("each category but Books" as ``category <> 'Books'``)."""
    returned = _returned(tree)
    return any(c.name.lower() in returned for c in term.find_all(exp.Column))


def _once_each(tree: exp.Select) -> bool:
    """The outer SELECT returns its entities once each over rows that may repeat them."""
    if tree.args.get("distinct") or tree.args.get("group"):
        return True
    return any(
        isinstance(count.this, exp.Distinct)
        for projection in tree.expressions
        for count in projection.find_all(exp.Count)
    )


def negation_on_rows(ctx: CheckContext) -> CheckOutcome:
    """``signal.negation_on_rows``: "never had a cancellation" as ``<> 'cancellation'`` (the
    module docstring)."""
    tree = tree_of(ctx)
    if not isinstance(tree, exp.Select) or not _once_each(tree):
        return CheckOutcome()
    excluded = [(term, value) for t in outer_terms(tree) for term, value in _excluded(t)]
    if not excluded:
        return CheckOutcome()
    said = [v for v in _negated_verbs(ctx.question, _named_values(tree)) if _NONE.search(v)]
    if not said or any(_is_returned(term, tree) for term, _ in excluded):
        return CheckOutcome()
    kept = tree.copy()
    where = kept.args.get("where")
    for term in outer_terms(kept):
        if _excluded(term):
            term.replace(exp.true())
    if where is not None and negates(kept):
        return CheckOutcome()  # a NOT EXISTS or an anti-join says "no row" besides
    term, value = excluded[0]
    return CheckOutcome(
        (
            finding(
                "signal.negation_on_rows",
                f"The question says '{said[0]}', about every row of each one it counts or "
                f"lists, but the SQL only drops the rows where {term.sql()}: one that has "
                f"{value.text!r} and any other row is still kept. Keep those with no such row "
                "(NOT EXISTS, or NOT IN a subquery of them).",
                negated=said[0],
                condition=term.sql(),
            ),
        )
    )
