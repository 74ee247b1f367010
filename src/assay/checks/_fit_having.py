"""The shape of a condition on a metric per group, read back from SQL for the fit check: the
grouped query's ``HAVING metric op value`` (one comparison, the reading's operator and bound,
on the metric's own expression or its ``value`` column) and, when the groups are counted, an
outer ``SELECT COUNT(group) FROM (grouped query)`` with nothing else, over inner joins only (a
LEFT join would count the rows no group holds as a group of their own)."""

from __future__ import annotations

import sqlglot
from sqlglot import exp

from assay.semantic import GroupCondition, SemanticLayer

__all__ = ["grouped_part"]

_OP = {"gt": ">", "gte": ">=", "lt": "<", "lte": "<="}
_FLIP = {"gt": "<", "gte": "<=", "lt": ">", "lte": ">="}


def _plain(node: exp.Expr, aliases: dict[str, str]) -> str:
    tree = node.copy()
    for column in tree.find_all(exp.Column):
        if column.table in aliases:
            column.set("table", exp.to_identifier(aliases[column.table]))
    return tree.sql(dialect="duckdb").lower()


def _number(node: exp.Expr) -> float | None:
    negative = isinstance(node, exp.Neg)
    inner = node.this if negative else node
    if not isinstance(inner, exp.Literal) or inner.is_string:
        return None
    try:
        value = float(inner.this)
    except ValueError:
        return None
    return -value if negative else value


def _having(select: exp.Select, held: GroupCondition, layer: SemanticLayer) -> str | None:
    """What the HAVING says, when it is not the reading's condition; None when it is."""
    having = select.args.get("having")
    node = having.this if having is not None else None
    while isinstance(node, exp.Paren):
        node = node.this
    if not isinstance(node, (exp.GT, exp.GTE, exp.LT, exp.LTE)):
        return "absent" if node is None else node.sql()
    aliases = {t.alias_or_name: t.name for t in select.find_all(exp.Table)}
    metric = sqlglot.parse_one(layer.metric(held.metric).expression, read="duckdb")
    measured = {_plain(metric, {}), "value"}
    left, right = node.this, node.expression
    if _plain(left, aliases) in measured and _number(right) is not None:
        op, bound = _OP[node.key], _number(right)
    elif _plain(right, aliases) in measured and _number(left) is not None:
        op, bound = _FLIP[node.key], _number(left)
    else:
        return node.sql()
    if (op, bound) != (held.op, held.number):
        return f"{op} {bound:g}"
    return None


def grouped_part(
    select: exp.Select, held: GroupCondition, layer: SemanticLayer
) -> tuple[exp.Select | None, list[str]]:
    """The grouped query (its HAVING taken off, to be checked as the reading grouped by the
    group) and the mismatches of the condition's own shape."""
    bad: list[str] = []
    inner = select
    if held.counted:
        source = select.args.get("from_")
        sub = source.this if source is not None else None
        counted = select.expressions[0].unalias() if len(select.expressions) == 1 else None
        if (
            not isinstance(sub, exp.Subquery)
            or not isinstance(sub.this, exp.Select)
            or not isinstance(counted, exp.Count)
            or not isinstance(counted.this, exp.Column)
            or any(select.args.get(k) for k in ("where", "group", "having", "joins", "limit"))
        ):
            return None, [
                f"the condition per {held.group} is not counted: the reading counts the "
                f"{held.group} kept, the query does not"
            ]
        inner = sub.this
        first = inner.expressions[0] if inner.expressions else None
        if first is None or first.alias_or_name != counted.this.name:
            bad.append(f"the condition per {held.group} counts another column than the group")
        if any(j.side for j in inner.args.get("joins") or ()):
            bad.append(f"the condition per {held.group} counts over an outer join")
    said = _having(inner, held, layer)
    if said is not None:
        bad.append(f"the condition per {held.group} is {said}, reading says {held.op} {held.value}")
    grouped = inner.copy()
    grouped.set("having", None)
    return grouped, bad
