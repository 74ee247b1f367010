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

A list of the groups built on its own says so too: "For each product category, how many social
media mentions did it get?" as ``WITH cats AS (SELECT DISTINCT category FROM products) SELECT
c.category, SUM(m.mentions) FROM cats c JOIN social_media_mentions m ON m.category =
c.category GROUP BY c.category`` gives Fitness Wear alone, the three categories no mention
names dropped (outside tryout 36: shown at 1.00). "For each", "per" and "by" a group name every
group, and a grouped side that is a derived table or a CTE listing distinct values (``SELECT
DISTINCT``, or a GROUP BY returning no aggregate) of tables other than the counted one is that
list: such a join is read as if the groups with none were asked. A question that only asks
about the groups with something ("Which categories got mentions", "among categories with
mentions", any "with", "that", "only") is left alone, and a plain table grouped needs the
words ("each owner" over ``owners JOIN pets`` is Spider's reading of "how many pets does each
owner have").
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._inclusive import asks_zero_rows
from assay.checks._where import finding, tree_of

__all__ = ["asks_for_empty_groups", "empty_groups_dropped", "names_every_group"]

# each table or subquery read: its alias, its name, the join reading it (None for the FROM)
Sources = list[tuple[str, str, exp.Join | None]]
# the SELECT each derived table or CTE read stands for, by alias
Derived = dict[str, exp.Select]

# "include regions with none", "including stadiums that have hosted none", "even those with
# no orders", "also the ones without any", "even if nothing was spent there" (agreed25 h25_c14)
# or the zeros kept, said after the
# noun: "zeros included", "zeroes too", "including zeros" (agreed26 h26_c18: "Number of
# customers in every country we list, zeros included." as an inner join, shown at 1.00)
_ASKED = re.compile(
    r"\b(?:includ(?:e|es|ing)|even|also)\b[^.?!;]{0,80}?"
    r"\b(?:none|nothing|zero(?:e?s)?|0s|no\s+[a-z]+|without)\b"
    r"|\b(?:zero(?:e?s)?|0s|empty ones)\s+(?:included|kept|shown|listed|too|as well)\b",
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


# "for each product category", "per region", "by category"; not "sorted by name"
_EVERY = re.compile(
    r"\b(?:for\s+each|for\s+every|each|every|per|(?<!sorted )(?<!ordered )(?<!ranked )by)"
    r"\s+[a-z]",
    re.IGNORECASE,
)

# "Which categories got mentions", "among categories with mentions", "only the categories
# that ...": the groups with something, which an inner join gives
_RESTRICTED = re.compile(
    r"\b(?:which|among|only|with|having|that|who|whose)\b",
    re.IGNORECASE,
)


def names_every_group(question: str) -> bool:
    """Whether the question names every group ("for each", "per", "by" a group) and nothing
    that keeps only the groups with something ("which", "among", "with", "that", "only").

    Example:
        >>> names_every_group("For each product category, how many mentions did it get?")
        True
        >>> names_every_group("Which product categories got mentions, and how many?")
        False
        >>> names_every_group("Mentions per category, sorted by name, among those with any")
        False
    """
    text = " ".join(question.split())
    return _EVERY.search(text) is not None and _RESTRICTED.search(text) is None


def _sources(select: exp.Select) -> Sources:
    """Each table or subquery the SELECT reads: its alias, its name (a derived table's SQL),
    the join reading it (``None`` for the FROM)."""
    found: Sources = []
    first = select.args.get("from_") or select.args.get("from")
    reads = [(first, None)] if first is not None else []
    reads += [(join, join) for join in select.args.get("joins") or []]
    for node, join in reads:
        source = node.this
        name = source.name.lower() if isinstance(source, exp.Table) else source.sql()
        found.append((source.alias_or_name.lower(), name, join))
    return found


def _derived(select: exp.Select) -> Derived:
    """The SELECT behind each alias that reads a derived table or a CTE."""
    ctes = {
        cte.alias_or_name.lower(): cte.this
        for cte in select.root().find_all(exp.CTE)
        if isinstance(cte.this, exp.Select)
    }
    first = select.args.get("from_") or select.args.get("from")
    found: Derived = {}
    for node in [first, *(select.args.get("joins") or [])]:
        source = node.this if node is not None else None
        if isinstance(source, exp.Subquery) and isinstance(source.this, exp.Select):
            found[source.alias_or_name.lower()] = source.this
        elif isinstance(source, exp.Table) and not source.db and source.name.lower() in ctes:
            found[source.alias_or_name.lower()] = ctes[source.name.lower()]
    return found


def _has(alias: str, name: str, column: str, derived: Derived, catalog: Catalog) -> bool:
    """Whether the table or derived table read as ``alias`` has a column so named."""
    if alias in derived:
        return column in {e.alias_or_name.lower() for e in derived[alias].expressions}
    info = catalog.table(name)
    return info is not None and info.column(column) is not None


def _alias_of(
    column: exp.Column, sources: Sources, catalog: Catalog, derived: Derived | None = None
) -> str | None:
    """The alias a column reads: its qualifier, or the one table or derived table that has
    it (the first when a ``USING`` joins them on it, as the engine reads it)."""
    if column.table:
        return column.table.lower()
    name = column.name.lower()
    owners = [a for a, n, _ in sources if _has(a, n, name, derived or {}, catalog)]
    using = {
        i.name.lower()
        for _, _, join in sources
        if join is not None
        for i in join.args.get("using") or []
    }
    return owners[0] if len(owners) == 1 or (owners and name in using) else None


def _lists_groups(select: exp.Select) -> bool:
    """Whether a SELECT lists distinct values and nothing else: ``SELECT DISTINCT category
    FROM products``, or a GROUP BY that returns no aggregate."""
    listed = select.args.get("distinct") is not None or select.args.get("group") is not None
    return listed and all(e.find(exp.AggFunc) is None for e in select.expressions)


def _lists(alias: str, derived: Derived, counted: str, names: dict[str, str]) -> bool:
    """Whether ``alias`` reads a derived list of the groups from tables other than the counted
    one (a list from the counted table itself has only groups the inner join keeps)."""
    spine = derived.get(alias)
    if spine is None or not _lists_groups(spine):
        return False
    return names.get(counted) not in {t.name.lower() for t in spine.find_all(exp.Table)}


def _grouped(select: exp.Select, sources: Sources, catalog: Catalog, derived: Derived) -> set[str]:
    """The aliases whose columns the GROUP BY reads (``GROUP BY 1`` read as its projection)."""
    group = select.args.get("group")
    out: set[str] = set()
    for node in group.expressions if group is not None else []:
        if isinstance(node, exp.Literal) and node.is_int:
            index = int(node.this) - 1
            if 0 <= index < len(select.expressions):
                node = select.expressions[index]
        for column in node.find_all(exp.Column):
            alias = _alias_of(column, sources, catalog, derived)
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


def _counted(
    aggregate: exp.Count | exp.Sum,
    sources: Sources,
    grouped: set[str],
    catalog: Catalog,
    derived: Derived,
) -> list[str]:
    """The aliases an aggregate counts or adds, other than the grouped ones (every other one
    for ``count(*)``)."""
    if isinstance(aggregate.this, exp.Star):
        return [a for a, _, _ in sources if a not in grouped]
    owners = {_alias_of(c, sources, catalog, derived) for c in aggregate.find_all(exp.Column)}
    return sorted(a for a in owners if a is not None and a not in grouped)


def _problem(select: exp.Select, catalog: Catalog, asked: bool) -> str | None:
    """What keeps this grouped SELECT from showing the groups with none, or ``None``: with
    ``asked`` false, only about a derived list of the groups (the module docstring)."""
    sources = _sources(select)
    if len(sources) < 2 or select.args.get("group") is None:
        return None
    derived = _derived(select)
    grouped = _grouped(select, sources, catalog, derived)
    if not grouped:
        return None
    names = {alias: name for alias, name, _ in sources}
    group = ", ".join(sorted(names[g] for g in grouped))
    claim = (
        f"the question asks to include the {group} groups with none"
        if asked
        else f"the question names every group (for each, per, by) and the SQL lists them in {group}"
    )
    for aggregate in _aggregates(select):
        counted = [
            a
            for a in _counted(aggregate, sources, grouped, catalog, derived)
            if asked or any(_lists(g, derived, a, names) for g in grouped)
        ]
        kept = [a for a in counted if _kept(select, sources, a, grouped)]
        dropped = [a for a in counted if a not in kept]
        if isinstance(aggregate, exp.Count) and isinstance(aggregate.this, exp.Star) and kept:
            return (
                f"{claim}, but count(*) counts the one empty row a LEFT JOIN gives such a group "
                f"as 1, not 0: count a column of {names[kept[-1]]} instead"
            )
        if dropped:
            return (
                f"{claim}, but it joins {names[dropped[0]]} so that a {group} row with no "
                f"{names[dropped[0]]} row is dropped (an inner join, or a WHERE on "
                f"{names[dropped[0]]}): it never shows 0; a LEFT JOIN from {group} keeps it"
            )
    return None


def _outer_joined(select: exp.Select) -> bool:
    """The SELECT is a subquery LEFT (or FULL) joined to the groups: ``LEFT JOIN (SELECT
    i_category, sum(ws_quantity) ... JOIN item ... GROUP BY i_category) w``, the outer query
    keeping every group, its inner join dropping none of them (outside tryout 28, r07)."""
    join = select.parent.parent if isinstance(select.parent, exp.Subquery) else None
    return isinstance(join, exp.Join) and (join.side or "").upper() in ("LEFT", "FULL")


def empty_groups_dropped(ctx: CheckContext) -> CheckOutcome:
    """``signal.empty_groups_dropped``: "include the groups with none" asked (or every group
    named, and a derived list of them read), and a grouped count whose join or ``count(*)``
    cannot give them 0 (the module docstring)."""
    asked = asks_for_empty_groups(ctx.question)
    if ctx.catalog is None or not (asked or names_every_group(ctx.question)):
        return CheckOutcome()
    tree = tree_of(ctx)
    if tree is None or tree.find(exp.SetOperation) is not None:
        return CheckOutcome()
    for select in tree.find_all(exp.Select):
        if _outer_joined(select):
            continue
        problem = _problem(select, ctx.catalog, asked)
        if problem is not None:
            return CheckOutcome(
                (finding("signal.empty_groups_dropped", f"{problem[0].upper()}{problem[1:]}."),)
            )
    return CheckOutcome()
