"""Set operations and comparisons turned the other way: "both" answered with UNION, the two sides
of an EXCEPT swapped, a comparison with a share of another column reversed.

Five samples agreeing on each of these were shown at 1.00 (agreed16: "customers who shopped both
in a store and through the catalog" as store UNION catalog, h16_d24; "bought in 1999 but not in
2000" as 2000 EXCEPT 1999, h16_d50; "wholesale cost more than half of their current price" as
``i_current_price / 2 > i_wholesale_cost``, h16_d16). Each check is a pure function of the
context returning ``signal`` findings with their evidence, silent when the SQL does not parse
or the question's cue is not read, so their silence is never evidence of a right answer:

- ``signal.both_as_union``: the question asks for what is in both of two sets ("both ... and
  ...") and the SQL unites them (UNION) with nothing that keeps only what is in both: no
  INTERSECT, no HAVING, no EXISTS or IN subquery. "Both" is read so only after a relative
  clause ("customers who have both cats and dogs") or before a condition ("both in a store",
  "both 2014 and ..."): "the names of both the students and the teachers" lists two sets, which
  UNION answers. The ``both_as_either`` check of ``_negations`` reads the same cue said with
  OR or IN on one column.
- ``signal.except_swapped``: the question keeps one value and excludes another ("in 1999 but
  not in 2000") and the SQL keeps the excluded one and excludes the kept one (the value said
  before the negation only in the EXCEPT's right side, or in a NOT IN or NOT EXISTS subquery,
  and the value said after it only outside).
- ``signal.share_comparison_flipped``: the question compares one column with a share or a
  multiple of another ("a wholesale cost that is more than half of their current price") and
  the SQL's comparison of the two says the other way.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._cues import words
from assay.checks._where import Const, const, finding, tree_of

__all__ = [
    "SET_OP_CHECKS",
    "SET_OP_SIGNALS",
    "both_as_union",
    "except_swapped",
    "share_comparison_flipped",
]

SET_OP_SIGNALS = (
    "signal.both_as_union",
    "signal.except_swapped",
    "signal.share_comparison_flipped",
)


def _text(question: str) -> str:
    return " ".join(question.lower().replace("\u2019", "'").split())


# ---------------------------------------------------------------- both_as_union

# "both in a store and through the catalog": "both", then "and" within eight words
_BOTH = re.compile(r"\bboth\b(?:\s+\S+){1,8}?\s+and\s+\S+")
# "both" asks for rows in two sets when it follows a relative clause ("customers who have both
# cats and dogs") or leads a condition (a preposition, a number: "both in a store and ...",
# "both 2014 and 2015"); "the names of both the students and the teachers" lists two sets,
# which UNION answers
_RELATIVE = re.compile(r"\b(?:who|whom|that|which|whose|where)\b")
_CONDITION = re.compile(
    r"^(?:in|at|on|by|from|through|via|with|during|for|to|as|\d[\w.]*)$|\w(?:ed|ing)$"
)


def _keeps_both(tree: exp.Expr) -> bool:
    """INTERSECT, a HAVING, or an EXISTS or IN subquery: each can keep only what is in both."""
    if tree.find(exp.Intersect, exp.Having, exp.Exists) is not None:
        return True
    return any(node.args.get("query") is not None for node in tree.find_all(exp.In))


def both_as_union(ctx: CheckContext) -> CheckOutcome:
    """The question asks for what is in both of two sets and the SQL takes their UNION with
    nothing that requires both (``signal.both_as_union``)."""
    tree = tree_of(ctx)
    text = _text(ctx.question)
    cue = _BOTH.search(text)
    if tree is None or cue is None or _keeps_both(tree):
        return CheckOutcome()
    following = cue.group(0).split()[1]
    if not (_RELATIVE.search(text[: cue.start()]) or _CONDITION.search(following)):
        return CheckOutcome()
    union = tree.find(exp.Union)
    if union is None:
        return CheckOutcome()
    return CheckOutcome(
        (
            finding(
                "signal.both_as_union",
                f"The question asks for {cue.group(0)!r} but the SQL unites the two sets "
                "(UNION), which keeps what is in either; nothing keeps only what is in both "
                "(INTERSECT, a join of the two, HAVING or an IN subquery).",
                cue=cue.group(0),
                operation="UNION ALL" if not union.args.get("distinct") else "UNION",
            ),
        )
    )


# ---------------------------------------------------------------- except_swapped

# the negation that turns "kept" into "excluded": "in 1999 but not in 2000", "and not 2000",
# "but never in 2000", "but did not ... in 2000"
_BUT_NOT = re.compile(
    r"\b(?:but|and|yet)\s+(?:not|never|no longer|did not|didn't|does not|doesn't|have not|"
    r"haven't|has not|hasn't|had not|hadn't|were not|weren't|was not|wasn't)\b"
)


def _literals(node: exp.Expr) -> Iterator[Const]:
    for literal in node.find_all(exp.Literal):
        value = const(literal)
        if value is not None:
            yield value


def _excluded_sides(tree: exp.Expr) -> list[exp.Expr]:
    """The parts of the query whose rows are taken away: an EXCEPT's right side, a NOT IN or
    NOT EXISTS subquery."""
    sides: list[exp.Expr] = [e.expression for e in tree.find_all(exp.Except)]
    for node in tree.find_all(exp.Not):
        inner = node.this
        while isinstance(inner, exp.Paren):
            inner = inner.this
        if isinstance(inner, exp.Exists):
            sides.append(inner)
        elif isinstance(inner, exp.In) and inner.args.get("query") is not None:
            sides.append(inner.args["query"])
    return sides


def _said_at(question_words: list[str], value: Const) -> list[int]:
    """The positions where the question says a number or a one-word string."""
    if value.kind == "num":
        return [
            i
            for i, w in enumerate(question_words)
            if w.replace(".", "", 1).isdigit() and float(w) == value.number
        ]
    text = value.text.lower()
    return [i for i, w in enumerate(question_words) if w == text] if text.isalnum() else []


def except_swapped(ctx: CheckContext) -> CheckOutcome:
    """The question keeps one value and excludes another and the SQL excludes the kept one and
    keeps the excluded one (``signal.except_swapped``)."""
    tree = tree_of(ctx)
    text = _text(ctx.question)
    cue = _BUT_NOT.search(text)
    if tree is None or cue is None:
        return CheckOutcome()
    turn = len(words(text[: cue.start()]))
    said = words(text)
    for side in _excluded_sides(tree):
        inside = {v for v in _literals(side)}
        outside = {v for v in _literals(tree)} - inside
        kept = [v for v in inside - outside if any(i < turn for i in _said_at(said, v))]
        dropped = [v for v in outside - inside if any(i >= turn for i in _said_at(said, v))]
        kept = [v for v in kept if not any(i >= turn for i in _said_at(said, v))]
        dropped = [v for v in dropped if not any(i < turn for i in _said_at(said, v))]
        if kept and dropped:
            return CheckOutcome(
                (
                    finding(
                        "signal.except_swapped",
                        f"The question keeps {kept[0].text} and excludes {dropped[0].text} "
                        f"({text[cue.start() :][:40]!r}), but the SQL excludes {kept[0].text} "
                        f"and keeps {dropped[0].text}: the two sides are swapped.",
                        kept=kept[0].text,
                        excluded=dropped[0].text,
                    ),
                )
            )
    return CheckOutcome()


# ---------------------------------------------------------------- share_comparison_flipped

_MORE = r"more|greater|higher|larger|bigger|above|over|exceeds?|exceeding"
_LESS = r"less|lower|smaller|fewer|below|under"
# "more than half of their current price", "less than twice the", "above 50% of"
_SHARE = re.compile(
    rf"\b(?:({_MORE})|({_LESS}))(?:\s+than)?\s+(?:(?:one|a)\s+)?"
    r"(half|third|quarter|twice|double|triple|\d+(?:\.\d+)?\s*(?:%|percent|times))\b"
)
_ORDER = {exp.GT: ">", exp.GTE: ">", exp.LT: "<", exp.LTE: "<"}
_SWAP = {">": "<", "<": ">"}


def _column_words(column: exp.Column) -> list[str]:
    """A column's own words: its name split on underscores, a short table prefix dropped
    (``wholesale cost`` of ``i_wholesale_cost``)."""
    parts = [w for w in re.split(r"[^a-z0-9]+", column.name.lower()) if w]
    return parts[1:] if len(parts) > 1 and len(parts[0]) <= 2 else parts


def _said_in(part: list[str], column: exp.Column) -> bool:
    own = _column_words(column)
    return bool(own) and all(w in part for w in own)


def _sides(node: exp.Expr) -> tuple[exp.Column, exp.Column, bool] | None:
    """``column OP expression of another column and a number`` as (the bare column, the other
    column, whether the bare column is on the left)."""
    for bare, other, left in (
        (node.this, node.expression, True),
        (node.expression, node.this, False),
    ):
        if not isinstance(bare, exp.Column) or not isinstance(other, (exp.Div, exp.Mul)):
            continue
        columns = list(other.find_all(exp.Column))
        if len(columns) == 1 and other.find(exp.Literal) is not None:
            return bare, columns[0], left
    return None


def share_comparison_flipped(ctx: CheckContext) -> CheckOutcome:
    """The question compares a column with a share of another ("more than half of the price")
    and the SQL compares them the other way (``signal.share_comparison_flipped``)."""
    tree = tree_of(ctx)
    text = _text(ctx.question)
    cue = _SHARE.search(text)
    if tree is None or cue is None:
        return CheckOutcome()
    wanted = ">" if cue.group(1) else "<"
    before, after = words(text[: cue.start()]), words(text[cue.end() :])
    for node in tree.find_all(*_ORDER):
        sides = _sides(node)
        if sides is None:
            continue
        bare, other, left = sides
        if not (_said_in(before, bare) and _said_in(after, other)) or _said_in(before, other):
            continue
        said = _ORDER[type(node)] if left else _SWAP[_ORDER[type(node)]]
        if said != wanted:
            return CheckOutcome(
                (
                    finding(
                        "signal.share_comparison_flipped",
                        f"The question asks for {bare.name} {cue.group(0)!r} of {other.name} "
                        f"but the SQL says {node.sql()}: the comparison is the other way.",
                        condition=node.sql(),
                        cue=cue.group(0),
                    ),
                )
            )
    return CheckOutcome()


SET_OP_CHECKS = (both_as_union, except_swapped, share_comparison_flipped)
