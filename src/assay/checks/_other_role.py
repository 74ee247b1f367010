"""A value said of one table's rows, reached through another table that refers to the same place.

"What was the revenue in 1996 on line items supplied by German suppliers?" answered with
``... JOIN supplier ON l_suppkey = s_suppkey JOIN customer ON o_custkey = c_custkey JOIN nation
ON c_nationkey = n_nationkey WHERE n_name = 'GERMANY'`` sums the line items bought by German
customers (agreed22, a development set: five samples agreeing, shown at 1.00). The SQL reads
supplier, so ``filtered_elsewhere`` (a named table left unread) is silent, and nation holds
'GERMANY', so no value check objects: the mistake is the road to nation, through the customer,
a table the question never names, while the supplier it does name has a road of its own
(``s_nationkey``) that the SQL never takes.

``reached_through_other_role`` reads each value compared on a column of a table P (the place:
nation) that the SQL joins from a table V (the road taken: ``customer.c_nationkey``). When the
question names, on its own, a table R other than V and P (supplier) whose column refers to P as
V's does (the same name after each table's prefix: ``s_nationkey`` beside ``c_nationkey``, or
the same name as P's key, if that is more than a bare ``id``), the question never names V, and
the SQL never equates R's column with P: ``signal.reached_through_other_role``.

Silent when V is named too (the question may mean it), when R's road is taken as well, and on
a value compared on V or R themselves; silence is never evidence of a right answer.
"""

from __future__ import annotations

from assay.catalog import Catalog
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._filtered_elsewhere import _alone, _words
from assay.checks._sql import equi_join_pairs
from assay.checks._values import _compared, _owner
from assay.checks._where import finding, tree_of
from assay.types import Finding

__all__ = ["reached_through_other_role"]

_BARE_KEYS = frozenset({("id",), ("key",), ("sk",), ("code",)})
Column = tuple[str, str]


def _words_of(catalog: Catalog, table: str, column: str) -> tuple[str, ...]:
    info = catalog.table(table)
    return _words(column, info.column_names) if info is not None else ()


def _own_road(catalog: Catalog, role: str, via: Column, key: Column) -> str | None:
    """The one column of ``role`` that refers to the place as ``via`` does: the same words as
    ``via``'s column, or as the place's key when that key says more than ``id``."""
    info = catalog.table(role)
    if info is None:
        return None
    wanted = {_words_of(catalog, *via)}
    key_words = _words_of(catalog, *key)
    if key_words not in _BARE_KEYS:
        wanted.add(key_words)
    found = [c for c in info.column_names if _words(c, info.column_names) in wanted - {()}]
    return found[0] if len(found) == 1 else None


def _roads(pairs: list[tuple[Column, Column]], place: str) -> list[tuple[Column, Column]]:
    """(the place's key, the column of another table equated with it), for each join."""
    roads = []
    for a, b in pairs:
        for key, via in ((a, b), (b, a)):
            if key[0].lower() == place.lower() and via[0].lower() != place.lower():
                roads.append((key, via))
    return roads


def _low(*names: str) -> tuple[str, ...]:
    return tuple(n.lower() for n in names)


def _untaken(
    catalog: Catalog, named: list[str], key: Column, via: Column, equated: set[tuple[str, ...]]
) -> Column | None:
    """A named table's own road to the place (``key``'s table) that the SQL never takes, where
    the road it takes (``via``) is from a table the question never names."""
    said = {t.lower() for t in named}
    if via[0].lower() in said:
        return None
    for role in named:
        if role.lower() in {via[0].lower(), key[0].lower()}:
            continue
        road = _own_road(catalog, role, via, key)
        joined = road is not None and _low(role, road, *key) in equated
        if road is not None and not joined:
            return role, road
    return None


def reached_through_other_role(ctx: CheckContext) -> CheckOutcome:
    """``signal.reached_through_other_role`` (the module docstring)."""
    catalog, tree = ctx.catalog, tree_of(ctx)
    if catalog is None or tree is None or not ctx.question:
        return CheckOutcome()
    pairs = equi_join_pairs(tree, catalog)
    equated = {_low(*a, *b) for a, b in pairs} | {_low(*b, *a) for a, b in pairs}
    named = sorted(_alone(ctx.question, catalog.table_names))
    for column, value in _compared(tree):
        owner = _owner(column, tree, catalog)
        for key, via in _roads(pairs, owner[0]) if owner is not None else ():
            road = _untaken(catalog, named, key, via, equated)
            if road is not None:
                return CheckOutcome((_finding(f"{column.sql()} = {value!r}", road, key, via),))
    return CheckOutcome()


def _finding(condition: str, road: Column, key: Column, via: Column) -> Finding:
    own, taken, joined = ".".join(road), ".".join(via), ".".join(key)
    return finding(
        "signal.reached_through_other_role",
        f"The question says where the {road[0]} rows are, but the SQL reaches {key[0]} "
        f"({condition}) through {via[0]} ({taken} = {joined}), a table the question never "
        f"names, and never joins {own}: it keeps rows whose {via[0]} matches, not whose "
        f"{road[0]} does. Join {key[0]} on {own} = {joined}.",
        condition=condition,
        reached_through=taken,
        said_of=own,
    )
