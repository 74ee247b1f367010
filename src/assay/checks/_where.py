"""What the condition checks read from a query's WHERE: constants, comparisons with the constant
on the right, the terms of an AND chain (``_conditions`` and ``_bounds`` share them)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from sqlglot import exp

from assay.checks._context import CheckContext
from assay.checks._cues import words
from assay.checks._sql import parse_query
from assay.types import Finding

__all__ = [
    "Const",
    "comparison",
    "conjuncts",
    "const",
    "disjuncts",
    "finding",
    "forms",
    "names_value",
    "negated",
    "outer_terms",
    "tree_of",
]


def finding(code: str, message: str, **evidence: object) -> Finding:
    return Finding(code, "signal", message, dict(evidence))


def tree_of(ctx: CheckContext) -> exp.Expr | None:
    sql = ctx.candidate.final_sql
    return parse_query(sql, ctx.dialect) if sql else None


def conjuncts(condition: exp.Expr) -> Iterator[exp.Expr]:
    """The terms of a top-level AND chain, through parentheses."""
    return _chain(condition, exp.And)


def disjuncts(condition: exp.Expr) -> Iterator[exp.Expr]:
    """The terms of a top-level OR chain, through parentheses."""
    return _chain(condition, exp.Or)


def _chain(condition: exp.Expr, kind: type[exp.Connector]) -> Iterator[exp.Expr]:
    while isinstance(condition, exp.Paren):
        condition = condition.this
    if isinstance(condition, kind):
        yield from _chain(condition.left, kind)
        yield from _chain(condition.right, kind)
    else:
        yield condition


@dataclass(frozen=True)
class Const:
    """A literal: its kind ("num" or "str"), its number (for "num") and its text."""

    kind: str
    number: float
    text: str


def const(node: exp.Expr) -> Const | None:
    negative = False
    if isinstance(node, exp.Neg):
        negative, node = True, node.this
    if not isinstance(node, exp.Literal):
        return None
    if node.is_string:
        return None if negative else Const("str", 0.0, node.name)
    try:
        value = float(node.name)
    except ValueError:
        return None
    return Const("num", -value if negative else value, ("-" if negative else "") + node.name)


_FLIP = {">": "<", ">=": "<=", "<": ">", "<=": ">=", "=": "="}
_OPS: dict[type[exp.Expr], str] = {
    exp.EQ: "=",
    exp.GT: ">",
    exp.GTE: ">=",
    exp.LT: "<",
    exp.LTE: "<=",
}


# A comparison under NOT says the other way ("NOT (year <= 1975)" is "year > 1975").
_NEGATE = {">": "<=", ">=": "<", "<": ">=", "<=": ">"}


def negated(node: exp.Expr) -> bool:
    """Whether ``node`` sits directly under a NOT (through parentheses)."""
    parent = node.parent
    while isinstance(parent, exp.Paren):
        parent = parent.parent
    return isinstance(parent, exp.Not)


def comparison(node: exp.Expr) -> tuple[exp.Expr, str, Const] | None:
    """``expression OP constant`` with the constant on the right (``1975 <= year`` is
    ``year >= 1975``; ``NOT (year <= 1975)`` is ``year > 1975``), or ``None`` (an equality
    under NOT too: it is no equality).

    Example:
        >>> from sqlglot import parse_one
        >>> node = parse_one("SELECT 1 FROM t WHERE NOT (year <= 1975)").find(exp.LTE)
        >>> comparison(node)[1]
        '>'
    """
    op = _OPS.get(type(node))
    if op is None:
        return None
    if negated(node):
        if op not in _NEGATE:
            return None
        op = _NEGATE[op]
    left, right = node.args.get("this"), node.args.get("expression")
    if not isinstance(left, exp.Expr) or not isinstance(right, exp.Expr):
        return None
    value = const(right)
    if value is not None and const(left) is None:
        return left, op, value
    value = const(left)
    if value is not None and const(right) is None:
        return right, _FLIP[op], value
    return None


def forms(word: str) -> set[str]:
    forms = {word}
    if word.endswith("ies") and len(word) > 4:
        forms.add(word[:-3] + "y")
    elif word.endswith("es") and len(word) > 4:
        forms |= {word[:-2], word[:-1]}
    elif word.endswith("s") and len(word) > 3:
        forms.add(word[:-1])
    return forms


def names_value(phrase: str, value: Const) -> bool:
    """Whether the negated phrase says the literal: the same number, or the text's words in
    a row (a final plural read as singular: "dogs" says 'dog')."""
    said = words(phrase)
    if value.kind == "num":
        return any(w.replace(".", "", 1).isdigit() and float(w) == value.number for w in said)
    wanted = words(value.text)
    if not wanted or not said:
        return False
    for start in range(len(said) - len(wanted) + 1):
        window = said[start : start + len(wanted)]
        if window[:-1] == wanted[:-1] and wanted[-1] in forms(window[-1]):
            return True
    return False


def outer_terms(tree: exp.Expr) -> Iterator[exp.Expr]:
    """The AND-ed terms of the outer query's WHERE (of each SELECT of a UNION)."""
    selects = [tree] if isinstance(tree, exp.Select) else []
    if isinstance(tree, exp.Union):
        selects = [s for s in (tree.left, tree.right) if isinstance(s, exp.Select)]
    for select in selects:
        where = select.args.get("where")
        if isinstance(where, exp.Where):
            yield from conjuncts(where.this)
