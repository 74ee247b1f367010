"""A question that asks for the groups with none, and a grouped count that cannot give them.

"How many customers does each region have? Include regions with none." as ``SELECT k.region,
count(c.id_customer) FROM countries_seed k JOIN customers_seed c ON c.country = k.country GROUP
BY k.region`` drops the region no customer lives in (SA), which should show 0; "How many
concerts has each stadium hosted, including stadiums that have hosted none?" as ``count(*)``
over ``stadium JOIN concert`` drops the stadiums with no concert, and its ``count(*)`` would
count them as 1 even under a LEFT JOIN (agreed22, a development set: both shown at 1.00, five
samples agreeing).

The question must ask for them in words ("include regions with none", "including stadiums that
have hosted none", "even those with no orders"). Then a SELECT with GROUP BY that returns a
COUNT or a SUM is read join by join: the grouped table (the one the GROUP BY columns belong
to) must keep its rows through the join that reaches the counted table (a LEFT JOIN into it,
or a RIGHT JOIN from it), and a WHERE condition on the counted table's columns, other than
``IS NULL``, drops them again. ``count(*)`` counts the one NULL-extended row a kept group gets,
so it gives 1 where the answer is 0: a column of the counted table must be counted. A correlated
subquery per row, a set operation, or a count over one table alone: silent, never evidence of
a right answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._inclusive import asks_zero_rows
from assay.checks._where import finding, tree_of

__all__ = ["asks_for_empty_groups", "empty_groups_dropped"]

# each table or subquery read: its alias, its name, the join reading it (None for the FROM)
Sources = list[tuple[str, str, exp.Join | None]]

# "include regions with none", "including stadiums that have hosted none", "even those with
# no orders", "also the ones without any"
_ASKED = re.compile(
    r"\b(?:includ(?:e|es|ing)|even|also)\b[^.?!;]{0,80}?"
    r"\b(?:none|zero|no\s+[a-z]+|without)\b",
    re.IGNORECASE,
)


def asks_for_empty_groups(question: str) -> bool:
    """Whether the question asks to keep the groups that have none of what it counts ("include
    regions with none", or a value or a listing for them: "show 0 for classes without sales",
    "listing classes with no sales as 0": outside tryout 32, W2 and P4).

    Example:
        >>> asks_for_empty_groups("How many pets does each owner have? Include owners with none.")
        True
        >>> asks_for_empty_groups("Units per class? Show 0 for classes without sales.")
        True
        >>> asks_for_empty_groups("How many pets does each owner have?")
        False
    """
    return _ASKED.search(" ".join(question.split())) is not None or asks_zero_rows(question)


def _sources(select: exp.Select) -> Sources:
    """Each table or subquery the SELECT reads: its alias, its name, the join reading it
    (``None`` for the FROM)."""
    found: Sources = []
    first = select.args.get("from_") or select.args.get("from")
    if first is not None:
        found.append((first.this.alias_or_name.lower(), first.this.name.lower(), None))
    for join in select.args.get("joins") or []:
        found.append((join.this.alias_or_name.lower(), join.this.name.lower(), join))
    return found


def _alias_of(column: exp.Column, sources: Sources, catalog: Catalog) -> str | None:
    """The alias a column reads: its qualifier, or the one catalogued table that has it."""
    if column.table:
        return column.table.lower()
    owners = []
    for alias, name, _ in sources:
        info = catalog.table(name)
        if info is not None and info.column(column.name) is not None:
            owners.append(alias)
    return owners[0] if len(owners) == 1 else None


def _grouped(select: exp.Select, sources: Sources, catalog: Catalog) -> set[str]:
    """The aliases whose columns the GROUP BY reads (``GROUP BY 1`` read as its projection)."""
    group = select.args.get("group")
    out: set[str] = set()
    for node in group.expressions if group is not None else []:
        if isinstance(node, exp.Literal) and node.is_int:
            index = int(node.this) - 1
            if 0 <= index < len(select.expressions):
                node = select.expressions[index]
        for column in node.find_all(exp.Column):
            alias = _alias_of(column, sources, catalog)
            if alias is not None:
                out.add(alias)
    return out


def _aggregates(select: exp.Select) -> list[exp.Count | exp.Sum]:
    """The COUNTs and SUMs the SELECT returns (not those of a subquery)."""
    return [
        node
        for projection in select.expressions
        for node in projection.find_all(exp.Count, exp.Sum)
        if node.find_ancestor(exp.Select) is select
    ]


def _where_reads(select: exp.Select, alias: str) -> bool:
    """The WHERE reads a column of ``alias`` outside an ``IS NULL`` test."""
    where = select.args.get("where")
    return where is not None and any(
        c.table.lower() == alias and not isinstance(c.parent, exp.Is)
        for c in where.find_all(exp.Column)
    )


def _kept(select: exp.Select, sources: Sources, counted: str, grouped: set[str]) -> bool:
    """Whether every grouped row survives the join that reaches the counted alias."""
    joins = {alias: join for alias, _, join in sources}
    join = joins.get(counted)
    if join is not None:
        side = (join.side or "").upper()
        return side in ("LEFT", "FULL") and not _where_reads(select, counted)
    # the counted table is the FROM: each grouped table must be joined RIGHT or FULL
    sides = [(j.side or "").upper() if j is not None else "" for j in map(joins.get, grouped)]
    return all(side in ("RIGHT", "FULL") for side in sides)


def _problem(select: exp.Select, catalog: Catalog) -> str | None:
    """What keeps this grouped SELECT from showing the groups with none, or ``None``."""
    sources = _sources(select)
    if len(sources) < 2 or select.args.get("group") is None:
        return None
    grouped = _grouped(select, sources, catalog)
    names = {alias: name for alias, name, _ in sources}
    if not grouped:
        return None
    for aggregate in _aggregates(select):
        if isinstance(aggregate.this, exp.Star):
            counted = [a for a, _, _ in sources if a not in grouped]
        else:
            owners = {_alias_of(c, sources, catalog) for c in aggregate.find_all(exp.Column)}
            counted = sorted(a for a in owners if a is not None and a not in grouped)
        group = ", ".join(sorted(names[g] for g in grouped))
        kept = [a for a in counted if _kept(select, sources, a, grouped)]
        dropped = [a for a in counted if a not in kept]
        if isinstance(aggregate, exp.Count) and isinstance(aggregate.this, exp.Star) and kept:
            return (
                f"the question asks to include the {group} groups with none, but count(*) "
                f"counts the one empty row a LEFT JOIN gives such a group as 1, not 0: count a "
                f"column of {names[kept[-1]]} instead"
            )
        if dropped:
            return (
                f"the question asks to include the {group} groups with none, but the SQL "
                f"joins {names[dropped[0]]} so that a {group} row with no {names[dropped[0]]} "
                f"row is dropped (an inner join, or a WHERE on {names[dropped[0]]}): it never "
                f"shows 0; a LEFT JOIN from {group} keeps it"
            )
    return None


def _outer_joined(select: exp.Select) -> bool:
    """The SELECT is a subquery LEFT (or FULL) joined to the groups: ``LEFT JOIN (SELECT
    i_category, sum(ws_quantity) ... JOIN item ... GROUP BY i_category) w``, the outer query
    keeping every group, its inner join dropping none of them (outside tryout 28, r07)."""
    join = select.parent.parent if isinstance(select.parent, exp.Subquery) else None
    return isinstance(join, exp.Join) and (join.side or "").upper() in ("LEFT", "FULL")


def empty_groups_dropped(ctx: CheckContext) -> CheckOutcome:
    """``signal.empty_groups_dropped``: "include the groups with none" asked, and a grouped
    count whose join or ``count(*)`` cannot give them 0 (the module docstring)."""
    if ctx.catalog is None or not asks_for_empty_groups(ctx.question):
        return CheckOutcome()
    tree = tree_of(ctx)
    if tree is None or tree.find(exp.SetOperation) is not None:
        return CheckOutcome()
    for select in tree.find_all(exp.Select):
        if _outer_joined(select):
            continue
        problem = _problem(select, ctx.catalog)
        if problem is not None:
            return CheckOutcome(
                (finding("signal.empty_groups_dropped", f"{problem[0].upper()}{problem[1:]}."),)
            )
    return CheckOutcome()
