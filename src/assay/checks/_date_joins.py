"""Two tables joined on their dates while a key they share is left out of the join.

"What is the total transaction amount from customers in Europe?" as ``transactions_seed t JOIN
customers_seed c ON t.ds = c.ds`` matches each transaction with every customer who signed up on
its day, not with the customer who made it (``t.id_customer = c.id_customer``): five samples
agreeing on it were shown at 1.00 (agreed19). The key overlap of the two date columns is high
(every sign-up day is also a transaction day), so ``join_readiness`` does not see it.

``date_join`` reads every equality joining two base tables (ON or WHERE): where all of them
equate date or timestamp columns (by their engine types), and the two tables carry a column of
the same name that is key-like (a name with an id, key, sk, code or number word) and unique in
one of them (measured in its profile), and the SQL equates that column nowhere, it is
``signal.date_join``: the tables relate through that key, and the date join pairs unrelated
rows. Silent without profiles, when the shared key is equated too, or when no shared key is
unique in either table. Silence is never evidence of a right answer.
"""

from __future__ import annotations

import re

from assay.catalog import Catalog
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._sql import equi_join_pairs
from assay.checks._where import finding, tree_of
from assay.errors import ExecutionError
from assay.types import Finding

__all__ = ["date_join"]

_DATE_TYPES = re.compile(r"^(?:date|datetime|timestamp)", re.IGNORECASE)
_KEY_WORDS = frozenset({"id", "key", "sk", "code", "number", "no", "num", "nbr"})


def _type(catalog: Catalog, table: str, column: str) -> str:
    info = catalog.table(table)
    found = info.column(column) if info is not None else None
    return found.type if found is not None else ""


def _key_like(column: str) -> bool:
    parts = [p for p in re.split(r"[^a-z0-9]+", column.lower()) if p]
    return any(p in _KEY_WORDS for p in parts)


def _unique(ctx: CheckContext, table: str, column: str) -> bool:
    assert ctx.profiles is not None
    try:
        profile = ctx.profiles.profile(table, column)
    except ExecutionError:  # not measured: not known to be a key
        return False
    return profile is not None and profile.n_null == 0 and profile.n_distinct == profile.n_rows


def _shared_keys(ctx: CheckContext, left: str, right: str) -> list[str]:
    """The key-like columns of the same name in both tables, unique in one of them."""
    assert ctx.catalog is not None
    first, second = ctx.catalog.table(left), ctx.catalog.table(right)
    if first is None or second is None:
        return []
    names = {c.lower(): c for c in first.column_names}
    shared = [(names[c.lower()], c) for c in second.column_names if c.lower() in names]
    return [
        a
        for a, b in shared
        if _key_like(a)
        and not _DATE_TYPES.match(_type(ctx.catalog, left, a))
        and (_unique(ctx, left, a) or _unique(ctx, right, b))
    ]


def _joined(ctx: CheckContext) -> dict[tuple[str, str], set[tuple[str, str]]]:
    """The column pairs each two base tables are equated on, the tables in sorted order."""
    tree = tree_of(ctx)
    assert ctx.catalog is not None
    joined: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for (lt, lc), (rt, rc) in equi_join_pairs(tree, ctx.catalog) if tree is not None else ():
        if lt.lower() == rt.lower():
            continue
        if lt.lower() > rt.lower():
            (lt, lc), (rt, rc) = (rt, rc), (lt, lc)
        joined.setdefault((lt, rt), set()).add((lc, rc))
    return joined


def date_join(ctx: CheckContext) -> CheckOutcome:
    """``signal.date_join`` for two tables joined on dates alone while they share a key (the
    module docstring)."""
    if ctx.catalog is None or ctx.profiles is None:
        return CheckOutcome()
    for (left, right), pairs in sorted(_joined(ctx).items()):
        dated = all(
            _DATE_TYPES.match(_type(ctx.catalog, left, a))
            and _DATE_TYPES.match(_type(ctx.catalog, right, b))
            for a, b in pairs
        )
        keys = _shared_keys(ctx, left, right) if dated else []
        if keys:
            return CheckOutcome((_finding(left, right, pairs, keys),))
    return CheckOutcome()


def _finding(left: str, right: str, pairs: set[tuple[str, str]], keys: list[str]) -> Finding:
    said = " AND ".join(f"{left}.{a} = {right}.{b}" for a, b in sorted(pairs))
    wanted = " or ".join(f"{left}.{k} = {right}.{k}" for k in keys)
    return finding(
        "signal.date_join",
        f"The SQL joins {left} and {right} on {said}, dates alone, but the two share the key "
        f"{', '.join(keys)}: each row is matched with every row of the same day, not with the "
        f"row it belongs to. Join on the key ({wanted}).",
        tables=[left, right],
        equated=[f"{a} = {b}" for a, b in sorted(pairs)],
        keys=keys,
    )
