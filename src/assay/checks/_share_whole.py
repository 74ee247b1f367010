"""A share whose denominator drops a condition of the whole the question names.

"What share of the orders placed in 1995 were 1-URGENT?" as ``(SELECT count(*) FROM orders
WHERE o_orderpriority = '1-URGENT' AND <1995>) * 1.0 / (SELECT count(*) FROM orders)``
divides the urgent orders of 1995 by every order ever placed: 0.0295 where the share is 0.2005
(outside tryout 31, w1: shown at 1.00, five samples agreeing; a CTE of the same slip too). A
share's numerator and denominator count the same whole, and the numerator only narrows it by
what the share is of: the denominator must keep every other condition of the numerator.

The two sides are read wherever they are aggregated: scalar subqueries, CTEs or derived tables
read by column, or two aggregates of one SELECT (``SUM(CASE WHEN c THEN 1 ELSE 0 END) /
COUNT(*)``, whose CASE condition narrows the numerator alone). A condition the numerator keeps
and the denominator drops (no condition on the same columns) is lost; it is judged lost from the
whole when the question says its value (a year of its date bounds, a word of its text) in the
whole, before the verb ("the orders placed in 1995", "1995 orders came from ..."), or before a
relative clause when there is no verb ("Percentage of orders in 1996 that were urgent"), and
not in what the share is of ("were 1-URGENT"): ``signal.share_whole_dropped``. A condition
that compares a key with a number is said by what its rows are called (``_keyed.code_labels``):
"What share of Europe's revenue came from Electronics?" as ``SUM(CASE WHEN Product_line =
'Electronics' AND Region_id = 2 THEN REVENUE ELSE 0 END) / SUM(REVENUE)`` divides Europe's
electronics by every region's revenue, 0.036 where the share is 0.173 (outside tester, share36:
shown at 1.00), and only ``region`` says 2 is 'Europe'. The same code
names a denominator that puts another value on a column of the whole (1996's orders under a
1995 share: its conditions there say none of the whole's value) and one that keeps a condition
the question says only of the part (the urgent orders of 1995 over the same: a part over a part,
or over another whole). Conditions in the ON of an inner join narrow the rows like a WHERE; the
denominator may read fewer tables than the numerator (the part's condition needs a join to
customers, the whole's count does not).

Silent when the question asks no share or rate, when a side is not one aggregate (a window's
``SUM(x) OVER ()`` over the filtered rows is one set), when the denominator reads a table the
numerator does not (a ratio of two things, not a share), when the question has neither a verb
nor a relative clause to split the whole from the part, or when the dropped condition is what
the share is of (one WHERE shared by both sides, a CTE filtered once then divided, "what share
of all orders were urgent"). One WHERE shared by both sides is never a part kept below: a rate
of one subject ("what click-through rate (clicks per impression) did the Summer Fitness
Campaign manage?" as ``SUM(clicks) / SUM(impressions) ... WHERE campaign_name = ...``) names
its subject after the verb (outside tryout 33, r4: withheld).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._keyed import Label, code_labels
from assay.checks._linked_whole import linked_whole, other_whole
from assay.checks._rates import RATE
from assay.checks._where import conjuncts, finding, tree_of

__all__ = ["share_division", "share_whole_dropped"]

# The verb that ends the whole and begins what the share is of: "of the orders placed in 1995
# | were 1-URGENT"; one right after a relative pronoun is still the whole's ("of the orders
# that were placed in 1995 | were 1-URGENT").
_VERBS = (
    r"(?:were|was|are|is|had|have|has|did|do|does|came|come|comes|went|go|goes|fell|falls|own|owns)"
)
_VERB = re.compile(rf"(?<!\bthat )(?<!\bwhich )(?<!\bwho )\b{_VERBS}\b")
# With no verb of its own, a relative clause after the whole is what the share is of:
# "Percentage of orders in 1996 | that were urgent".
_RELATIVE = re.compile(rf"\b(?:that|which|who) {_VERBS}\b")

# One aggregated side: the aggregate and the SELECT it is computed in.
Measure = tuple[exp.AggFunc, exp.Select]


def _sources(select: exp.Select) -> Iterator[exp.Expr]:
    """The FROM and JOIN sources of ``select``."""
    found = select.args.get("from_")
    if found is not None:
        yield found.this
    for join in select.args.get("joins") or []:
        yield join.this


def _ctes(tree: exp.Expr) -> dict[str, exp.Select]:
    """Every CTE of the query by its name (lowercased), where it is a plain SELECT."""
    return {
        cte.alias.lower(): cte.this
        for cte in tree.find_all(exp.CTE)
        if isinstance(cte.this, exp.Select)
    }


def _derived(source: exp.Expr, ctes: dict[str, exp.Select]) -> exp.Select | None:
    """The SELECT a FROM source stands for: a CTE read by name or a derived table."""
    if isinstance(source, exp.Table) and not source.args.get("db"):
        return ctes.get(source.name.lower())
    if isinstance(source, exp.Subquery) and isinstance(source.this, exp.Select):
        return source.this
    return None


def _resolved(
    column: exp.Column, scope: exp.Select, ctes: dict[str, exp.Select]
) -> tuple[exp.Expr, exp.Select] | None:
    """The projection of a CTE or derived table that ``column`` reads (``u.n`` for ``WITH u AS
    (SELECT count(*) n ...)``) with its SELECT, or None when it reads a base table or cannot be
    told."""
    found: list[tuple[exp.Expr, exp.Select]] = []
    for source in _sources(scope):
        select = _derived(source, ctes)
        if select is None or (
            column.table and column.table.lower() != source.alias_or_name.lower()
        ):
            continue
        found += [
            (p.unalias(), select)
            for p in select.expressions
            if p.alias_or_name.lower() == column.name.lower()
        ]
    return found[0] if len(found) == 1 else None


def _measures(
    node: exp.Expr, scope: exp.Select, ctes: dict[str, exp.Select]
) -> list[Measure | None]:
    """The aggregates one side of the division computes, each with its SELECT; ``None`` for a
    part that cannot be read as one set (a window, nested aggregates)."""
    if isinstance(node, exp.Window):
        return [None]
    if isinstance(node, exp.AggFunc):
        nested = node.this is not None and node.this.find(exp.AggFunc) is not None
        return [None] if nested else [(node, scope)]
    if isinstance(node, exp.Subquery) and isinstance(node.this, exp.Select):
        inner = node.this
        if len(inner.expressions) != 1:
            return [None]
        return _measures(inner.expressions[0].unalias(), inner, ctes)
    if isinstance(node, exp.Column):
        projection = _resolved(node, scope, ctes)
        return [] if projection is None else _measures(*projection, ctes)
    found: list[Measure | None] = []
    for child in node.iter_expressions():
        found += _measures(child, scope, ctes)
    return found


def _kept(select: exp.Select, ctes: dict[str, exp.Select]) -> list[exp.Expr]:
    """The WHERE conditions the rows of ``select`` meet: its own and those of the CTEs and
    derived tables it reads."""
    where = select.args.get("where")
    kept = list(conjuncts(where.this)) if where is not None else []
    for join in select.args.get("joins") or []:
        if not join.side and join.args.get("on") is not None:
            kept += conjuncts(join.args["on"])
    for source in _sources(select):
        inner = _derived(source, ctes)
        if inner is not None and inner is not select:
            kept += _kept(inner, ctes)
    return kept


def _narrowed(agg: exp.AggFunc) -> list[exp.Expr]:
    """The conditions an aggregate counts under: ``FILTER (WHERE c)`` or the one WHEN of a
    ``CASE`` it adds up (``SUM(CASE WHEN c THEN 1 ELSE 0 END)``)."""
    if isinstance(agg.parent, exp.Filter):
        where = agg.parent.expression
        return list(conjuncts(where.this)) if isinstance(where, exp.Where) else []
    case = agg.this.find(exp.Case) if agg.this is not None else None
    if case is not None and len(case.args.get("ifs") or []) == 1:
        return list(conjuncts(case.args["ifs"][0].this))
    return []


def _columns(condition: exp.Expr) -> frozenset[str]:
    """The columns a condition reads, outside any subquery it holds."""
    return frozenset(
        c.name.lower()
        for c in condition.find_all(exp.Column)
        if c.find_ancestor(exp.Select) is condition.find_ancestor(exp.Select)
    )


def _filters(measure: Measure, ctes: dict[str, exp.Select]) -> list[exp.Expr]:
    """The conditions that narrow a side's rows, less joins (a column equal to a column)."""
    agg, select = measure
    return [
        c
        for c in _kept(select, ctes) + _narrowed(agg)
        if _columns(c)
        and not (
            isinstance(c, exp.EQ) and all(isinstance(s, exp.Column) for s in c.iter_expressions())
        )
    ]


def _tables(select: exp.Select, ctes: dict[str, exp.Select]) -> frozenset[str]:
    """The base tables a side's rows come from, through CTEs and derived tables."""
    found: set[str] = set()
    for source in _sources(select):
        inner = _derived(source, ctes)
        if inner is not None and inner is not select:
            found |= _tables(inner, ctes)
        elif isinstance(source, exp.Table):
            found.add(source.name.lower())
    return frozenset(found)


def _literals_said(condition: exp.Expr) -> set[str]:
    """What the question would say of a condition's literals: the years of its dates, its
    numbers (1000 for 1000.0), its text values and their words ('1-URGENT': "1-urgent",
    "urgent")."""
    said: set[str] = set()
    for literal in condition.find_all(exp.Literal):
        value = str(literal.this).lower()
        year = re.fullmatch(r"((?:19|20)\d\d)-\d\d-\d\d.*", value)
        if year:
            said.add(year.group(1))
        elif literal.is_number:
            said.add(re.sub(r"\.0*$", "", value))
        else:
            said |= _text_said(value)
    return said


def _text_said(value: str) -> set[str]:
    """A text value and its words of three letters or more, lower case."""
    value = value.strip().lower()
    return {value, *re.findall(r"[a-z]{3,}", value)} if value else set()


# What the rows of each coded condition of a query are called, by the condition's SQL.
_Labels = dict[str, list[Label]]


def _labels(ctx: CheckContext, tree: exp.Expr, conditions: list[exp.Expr]) -> _Labels:
    """For each condition that compares a key with numbers, what its rows are called
    (``Region_id = 2``: 'Europe', ``_keyed.code_labels``): the question says a whole by that
    name, not by the code. A column is read in its own SELECT (``Region_id`` of a subquery over
    ``daily_revenue`` beside another joining ``region``)."""
    found = {c.sql(): code_labels(ctx, c.find_ancestor(exp.Select) or tree, c) for c in conditions}
    return {sql: labels for sql, labels in found.items() if labels}


def _said(condition: exp.Expr, labels: _Labels) -> set[str]:
    """What the question would say of a condition: its literals (``_literals_said``) and what
    the rows of its code are called."""
    named = labels.get(condition.sql(), [])
    return _literals_said(condition).union(*(_text_said(label.value) for label in named))


def _in(text: str, said: set[str]) -> bool:
    return any(re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", text) for s in said)


def _lost(numerator: list[exp.Expr], denominator: list[exp.Expr]) -> list[exp.Expr]:
    """The numerator's conditions on columns the denominator puts no condition on."""
    kept = [_columns(c) for c in denominator]
    return [c for c in numerator if not any(_columns(c) & k for k in kept)]


def _of_whole(
    lost: list[exp.Expr], denominator: list[exp.Expr], split: tuple[str, str], labels: _Labels
) -> list[exp.Expr]:
    """The lost conditions the question says of the whole and not of the part, with every
    other lost condition on the same columns (a year's two bounds, though only its first day's
    year is said). One the denominator says otherwise is kept: ``region.Region = 'Europe'``
    above and ``Region_id = 2`` below, 2 being 'Europe'."""
    whole, part = split
    kept = set().union(*(_said(c, labels) for c in denominator))
    columns = set()
    for condition in lost:
        said = _said(condition, labels)
        of_whole = {s for s in said if _in(whole, {s})}
        if of_whole and not _in(part, said) and not of_whole <= kept:
            columns.add(_columns(condition))
    return [c for c in lost if _columns(c) in columns]


def _changed(
    numerator: list[exp.Expr], denominator: list[exp.Expr], whole: str, part: str, labels: _Labels
) -> list[exp.Expr]:
    """The denominator's conditions that put another value on a column of the whole: the
    numerator says the whole's value there ("orders placed in 1995"), the denominator's
    conditions on those columns say none of it (1996's bounds). The same value said otherwise
    (``BETWEEN`` for ``>= AND <``) says the year too, so it is kept."""
    changed: list[exp.Expr] = []
    for condition in numerator:
        said = {s for s in _said(condition, labels) if _in(whole, {s}) and not _in(part, {s})}
        below = [c for c in denominator if _columns(c) & _columns(condition)]
        if said and below and not said & set().union(*(_said(c, labels) for c in below)):
            changed += [c for c in below if c not in changed]
    return changed


def _of_part(
    numerator: list[exp.Expr], denominator: list[exp.Expr], whole: str, part: str, labels: _Labels
) -> list[exp.Expr]:
    """The numerator's conditions the denominator keeps too though the question says them only
    of what the share is of ("were 1-URGENT"): the ratio then divides a part by the part, or by
    another whole. A denominator's own value said there is no share's part ("grow from 1995 to
    1996" as 1996's total over 1995's)."""
    above = {c.sql() for c in numerator}
    return [
        c
        for c in denominator
        if c.sql() in above and _in(part, _said(c, labels)) and not _in(whole, _said(c, labels))
    ]


def _split(text: str) -> tuple[str, str] | None:
    """The whole a share is of and what it is of ("of the orders placed in 1995" | "1-urgent"),
    split at the first verb after the share's word, else at a relative clause ("of orders in
    1996" | "urgent"); None when the question asks no share or says neither."""
    rate = RATE.search(text)
    if rate is None:
        return None
    verb = _VERB.search(text, rate.end()) or _RELATIVE.search(text, rate.end())
    if verb is None:
        return None
    return text[rate.end() : verb.start()], text[verb.end() :]


def share_division(tree: exp.Expr) -> tuple[exp.Div, Measure, Measure] | None:
    """The first division of the query whose two sides each compute one aggregate."""
    ctes = _ctes(tree)
    for div in tree.find_all(exp.Div):
        scope = div.find_ancestor(exp.Select)
        if scope is None:
            continue
        top = _measures(div.this, scope, ctes)
        bottom = _measures(div.expression, scope, ctes)
        if len(top) == 1 and len(bottom) == 1 and top[0] is not None and bottom[0] is not None:
            return div, top[0], bottom[0]
    return None


def _problem(
    above: list[exp.Expr],
    below: list[exp.Expr],
    split: tuple[str, str],
    labels: _Labels,
    apart: bool,
) -> tuple[list[exp.Expr], str] | None:
    """The denominator's conditions at fault and what is wrong with them: a condition of the
    whole dropped, another value put on it, or, when the two sides are read apart (``apart``),
    what the share is of kept."""
    whole, part = split
    if lost := _of_whole(_lost(above, below), below, split, labels):
        return lost, "drops {}, which its numerator keeps"
    if changed := _changed(above, below, whole, part, labels):
        return changed, "counts under {}, another value than the whole's"
    if apart and (kept := _of_part(above, below, whole, part, labels)):
        return kept, "keeps {}, which the share is of"
    return None


def share_whole_dropped(ctx: CheckContext) -> CheckOutcome:
    """``signal.share_whole_dropped``: a share's denominator drops a condition of the whole
    the question names, puts another value on it, or keeps what the share is of (the module
    docstring)."""
    split = _split(ctx.question.lower())
    tree = tree_of(ctx)
    found = share_division(tree) if tree is not None and split is not None else None
    if split is None or found is None or tree is None:
        return CheckOutcome()
    div, top, bottom = found
    ctes = _ctes(tree)
    labels: _Labels = {}
    if _tables(bottom[1], ctes) <= _tables(top[1], ctes):
        above, below = _filters(top, ctes), _filters(bottom, ctes)
        labels = _labels(ctx, tree, above + below)
        fault = _problem(above, below, split, labels, top[1] is not bottom[1])
    else:  # a ratio of two things, unless it counts every row of a linked whole
        linked = linked_whole(ctx, tree, split[0], top[1], bottom[1])
        fault = None if linked is None else ([], linked.replace("{", "{{").replace("}", "}}"))
    if fault is None:  # the whole named counted above, another table's rows below
        other = other_whole(ctx, tree, split[0], top[1], bottom[1])
        fault = None if other is None else ([], other.replace("{", "{{").replace("}", "}}"))
    if fault is None:
        return CheckOutcome()
    lost, problem = fault
    said = re.sub(r"^\s*of\s+", "", split[0]).strip()
    named = [str(label) for c in lost for label in labels.get(c.sql(), [])]
    return CheckOutcome(
        (
            finding(
                "signal.share_whole_dropped",
                f"The question asks a share of {said!r}, but the ratio's denominator "
                f"({div.expression.sql(dialect=ctx.dialect)}) "
                f"{problem.format(_joined(lost, ctx.dialect, labels))}: it divides by rows "
                "other than that whole. Put the whole's conditions, and only those, on both "
                "sides (one WHERE shared by the numerator and the denominator).",
                dropped=[c.sql(dialect=ctx.dialect) for c in lost],
                whole=said,
                **({"named": named} if named else {}),
            ),
        )
    )


def _joined(conditions: list[exp.Expr], dialect: str, labels: _Labels) -> str:
    """The conditions in SQL, a code's name after it (``Region_id = 2 (region.Region_id 2
    is 'Europe')``)."""
    return " AND ".join(_written(c, dialect, labels) for c in conditions)


def _written(condition: exp.Expr, dialect: str, labels: _Labels) -> str:
    named = labels.get(condition.sql())
    sql = condition.sql(dialect=dialect)
    return f"{sql} ({'; '.join(str(n) for n in named)})" if named else sql
