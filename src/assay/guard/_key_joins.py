"""Joins on unrelated keys: ``customer JOIN item ON c_customer_sk = i_item_sk``.

Two id columns of different tables equated in a join (an ``ON`` or a ``WHERE`` conjunct) run,
and return rows (small surrogate keys overlap), but mean nothing. A condition ``a = b`` between
plain columns of two different base tables, both keys (a column of a known join, or a name
ending in a key word: ``id``, ``key``, ``sk``, ``code``, ``no``, ``number``), is related when:

- a known join relates them: a foreign key the catalogue declares or a join the semantic layer
  allows, both sides folded into one class (``ss_item_sk`` and ``sr_item_sk`` both reference
  ``i_item_sk``, so they relate to each other too); or
- their names agree either way (``assay.catalog.names_agree``: ``ss_item_sk`` names
  ``i_item_sk``, ``Has_Pet.StuID`` names ``Student.StuID``), the evidence the drafter itself
  requires of a join.

Otherwise it is ``guard.unrelated_join``. Where joins are known (the catalogue declares foreign
keys, or a semantic layer lists joins) it is an error: the statement is refused (fail closed).
Where nothing is known it is an error too when the names make it certain: each column is its
own table's key, of two different things (``c_customer_sk = ca_address_sk``: a customer's key
and an address's, which match only by chance; TPC-H's ``n_nationkey = c_custkey``, ``cust``
abbreviating customer). Otherwise it is a warning: the statement runs
and the note is reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sqlglot import exp

from assay.catalog import column_prefix, names_agree
from assay.guard._context import GuardContext, location
from assay.guard._report import Violation

__all__ = ["unrelated_key_joins"]

_KEY_WORDS = frozenset({"id", "key", "sk", "pk", "fk", "no", "num", "nbr", "number", "code", "ref"})


def _conjuncts(condition: exp.Expr | None) -> Iterator[exp.Expr]:
    if condition is None:
        return
    if isinstance(condition, (exp.Paren, exp.Where)):
        yield from _conjuncts(condition.this)
    elif isinstance(condition, exp.And):
        yield from _conjuncts(condition.left)
        yield from _conjuncts(condition.right)
    else:
        yield condition


class _Classes:
    """Union-find over lower-case ``(table, column)`` pairs."""

    def __init__(self) -> None:
        self.parent: dict[tuple[str, str], tuple[str, str]] = {}

    def find(self, key: tuple[str, str]) -> tuple[str, str]:
        self.parent.setdefault(key, key)
        while self.parent[key] != key:
            key = self.parent[key]
        return key

    def union(self, a: tuple[str, str], b: tuple[str, str]) -> None:
        self.parent[self.find(a)] = self.find(b)


def _fold(table: str, column: str) -> tuple[str, str]:
    return table.lower(), column.lower()


def _known(ctx: GuardContext) -> _Classes:
    classes = _Classes()
    for fk in ctx.catalog.foreign_keys if ctx.catalog else ():
        for c, rc in zip(fk.columns, fk.ref_columns, strict=False):
            classes.union(_fold(fk.table, c), _fold(fk.ref_table, rc))
    for join in ctx.semantic.joins if ctx.semantic else ():
        left, right = join.left.split(".", 1), join.right.split(".", 1)
        if len(left) == 2 and len(right) == 2:
            classes.union(_fold(*left), _fold(*right))
    return classes


def _key_named(column: str) -> bool:
    """The column's last word is a key word (``c_customer_sk``, ``StuID``, ``Code``,
    ``n_nationkey``)."""
    words = _words(column)
    return bool(words) and words[-1] in _KEY_WORDS


def _words(name: str) -> list[str]:
    """A name's words, a key word glued to the thing it keys split off (TPC-H's
    ``n_nationkey``: n, nation, key)."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    words = [w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w]
    return [p for w in words for p in (_GLUED.sub(r"\1 key", w).split())]


_GLUED = re.compile(r"^([a-z]{4,})key$")


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word


def _core(column: str, prefix: str) -> tuple[str, ...]:
    """The words of a key-named column left of its key word, less the table's prefix
    (``c_custkey``: cust; ``ca_address_sk``: address); ``()`` for a column not key-named."""
    words = _words(column)
    if prefix and len(words) > 1 and words[0] == prefix:
        words = words[1:]
    if not words or words[-1] not in _KEY_WORDS:
        return ()
    while words and words[-1] in _KEY_WORDS:
        words = words[:-1]
    return tuple(_singular(w) for w in words)


def _own_key(
    table: str, column: str, prefix: str, columns: tuple[str, ...] = ()
) -> tuple[str, ...]:
    """The thing a column keys when it is its own table's key: the words left of its key word,
    less the table's prefix, each a word of the table's name or its abbreviation
    (``customer.c_customer_sk``: customer; ``customer.c_custkey``: cust, TPC-H's;
    ``customer_address.ca_address_sk``: address); ``()`` otherwise (``ss_customer_sk`` of
    ``store_sales`` refers to another table; a bare ``id`` names nothing). ``columns`` are the
    table's columns: an abbreviation whose rest of the word is another key's thing names a
    table of two things' pairs, not its own key (``partsupp.ps_partkey`` beside
    ``ps_suppkey`` refers to part).

    Example:
        >>> _own_key("customer_address", "ca_address_sk", "ca")
        ('address',)
        >>> _own_key("customer", "c_custkey", "c")
        ('cust',)
        >>> _own_key("partsupp", "ps_partkey", "ps", ("ps_partkey", "ps_suppkey"))
        ()
        >>> _own_key("store_sales", "ss_customer_sk", "ss"), _own_key("singer", "id", "")
        ((), ())
    """
    core = _core(column, prefix)
    own = {_singular(w) for w in _words(table)}
    others = {w for c in columns if c.lower() != column.lower() for w in _core(c, prefix)}
    return core if core and all(_names_table(w, own, others) for w in core) else ()


def _names_table(word: str, own: set[str], others: set[str]) -> bool:
    """The word is one of the table's words, or abbreviates one (``cust`` of customer, ``supp``
    of supplier) whose rest is no other key's thing (``part`` of partsupp, beside ``supp``)."""
    if word in own:
        return True
    return len(word) >= 3 and any(
        w.startswith(word) and not any(o and o in w[len(word) :] for o in others) for w in own
    )


def _two_things(ctx: GuardContext, a: tuple[str, str], b: tuple[str, str]) -> bool:
    """Both columns are their own tables' keys, of different things: a customer's key equated
    with an address's (outside tryout 22, w14: 31 customers in TX shown, 67 right). The names
    make it certain where nothing is declared."""
    own_a = _own_key(*a, _prefix(ctx, a[0]), _columns(ctx, a[0]))
    own_b = _own_key(*b, _prefix(ctx, b[0]), _columns(ctx, b[0]))
    return bool(own_a) and bool(own_b) and not _same_thing(own_a, own_b)


def _same_thing(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Two keys' things share a word, or one abbreviates the other's (``cust``, ``customer``)."""
    return any(x.startswith(y) or y.startswith(x) for x in a for y in b)


def _columns(ctx: GuardContext, table: str) -> tuple[str, ...]:
    info = ctx.catalog.table(table) if ctx.catalog else None
    return tuple(info.column_names) if info is not None else ()


def _prefix(ctx: GuardContext, table: str) -> str:
    return column_prefix(list(_columns(ctx, table)))


def _related(ctx: GuardContext, classes: _Classes, a: tuple[str, str], b: tuple[str, str]) -> bool:
    fa, fb = _fold(*a), _fold(*b)
    if fa in classes.parent and fb in classes.parent and classes.find(fa) == classes.find(fb):
        return True
    pa, pb = _prefix(ctx, a[0]), _prefix(ctx, b[0])
    return names_agree(a[1], b[0], b[1], pa, pb) or names_agree(b[1], a[0], a[1], pb, pa)


def unrelated_key_joins(ctx: GuardContext) -> list[Violation]:
    """Report a join condition equating two keys that no known join or name relates (see the
    module docstring): an error where joins are known, a warning where nothing is."""
    if ctx.catalog is None:
        return []
    classes = _known(ctx)
    known = bool(classes.parent)
    # the scopes hold a normalised copy of the tree: a reference is found by scope and name
    refs = {(id(r.scope), r.node.table.lower(), r.node.name.lower()): r for r in ctx.column_refs}
    found: list[Violation] = []
    reported: set[tuple[tuple[str, str], tuple[str, str]]] = set()
    for scope in ctx.scopes:
        select = scope.expression
        if not isinstance(select, exp.Select):
            continue
        conditions = [j.args.get("on") for j in select.args.get("joins") or []]
        conditions.append(select.args.get("where"))
        for condition in conditions:
            for cond in _conjuncts(condition):
                if not isinstance(cond, exp.EQ):
                    continue
                sides = (cond.this, cond.expression)
                if not all(isinstance(side, exp.Column) for side in sides):
                    continue
                left, right = (
                    refs.get((id(scope), side.table.lower(), side.name.lower())) for side in sides
                )
                if left is None or right is None or len(left.reads) != 1:
                    continue
                if len(right.reads) != 1:
                    continue
                a, b = left.reads[0], right.reads[0]
                if a[0].lower() == b[0].lower():
                    continue
                keys = (a, b)
                if not all(_fold(*k) in classes.parent or _key_named(k[1]) for k in keys):
                    continue
                pair = (_fold(*a), _fold(*b))
                if pair in reported or _related(ctx, classes, a, b):
                    continue
                reported.add(pair)
                line, col = location(cond, ctx.sql)
                certain = not known and _two_things(ctx, a, b)
                said = (
                    "no declared foreign key or semantic-layer join relates them, and their "
                    "names do not say one refers to the other; join on a key that references "
                    "the other table"
                    if known
                    else "each is its own table's key, and the keys of two different things "
                    "never match; join on a key that references the other table"
                    if certain
                    else "nothing declares the database's keys, and their names do not say one "
                    "refers to the other; check that this is the intended key"
                )
                found.append(
                    Violation(
                        "guard.unrelated_join",
                        f"The join condition {cond.sql()} equates {a[0]}.{a[1]} with "
                        f"{b[0]}.{b[1]}, two unrelated keys: {said}.",
                        line,
                        col,
                        "error" if known or certain else "warning",
                    )
                )
    return found
