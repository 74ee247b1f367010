"""A value the question says of one table, compared on the same attribute of another.

"Store sales net paid at stores in Tennessee" filtered on ``customer_address.ca_state = 'TN'``
(through ``ss_addr_sk``) sums the sales to Tennessee's customers, not the sales of its stores:
300,039.65 shown at 1.00 where 9,813,409.68 was right (outside tryout 23, G1). Five samples
agreeing on it are caught only by the words: the question names ``store`` on its own, the SQL
does not read it, and the column it compares (``ca_state``) is, after each table's prefix, a
column of ``store`` too (``s_state``). ``table_fit`` reads it.

Silent when the named table is said only inside a longer table's name ("store sales to customers
in Tennessee": ``store`` is the channel there), when the SQL reads it, or when the compared
column's own table is named: its silence is never evidence of a right answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import Catalog, column_prefix
from assay.checks._cues import named_tables, words
from assay.checks._sql import referenced_tables
from assay.checks._values import _compared, _owner

__all__ = ["filtered_elsewhere"]


def _alone(question: str, tables: tuple[str, ...]) -> frozenset[str]:
    """The tables the question names outside every longer named table's name ("at stores"
    names ``store``; "store sales" alone names ``store_sales`` only).

    Example:
        >>> tables = ("store", "store_sales", "customer")
        >>> sorted(_alone("store sales net paid at stores in Tennessee", tables))
        ['store', 'store_sales']
        >>> sorted(_alone("store sales to customers in Tennessee", tables))
        ['customer', 'store_sales']
    """
    said = " " + " ".join(words(question)) + " "
    named = named_tables(said, tables)
    for table in sorted(named, key=lambda t: -len(t)):
        phrase = " ".join(p for p in table.lower().replace("_", " ").split())
        if " " in phrase:  # a longer name's words are its own, not the shorter table's
            for form in (phrase, phrase + "s", phrase + "es"):
                said = said.replace(f" {form} ", " | ")
    return named_tables(said, tables) | {t for t in named if " " in t.replace("_", " ")}


def _words(column: str, columns: list[str]) -> tuple[str, ...]:
    """A column's words after its table's common prefix (``ca_state``: state)."""
    parts = tuple(w for w in re.split(r"[^a-z0-9]+", column.lower()) if w)
    prefix = column_prefix(columns)
    return parts[1:] if prefix and parts[:1] == (prefix,) else parts


def filtered_elsewhere(question: str, tree: exp.Expr, catalog: Catalog) -> list[str]:
    """One description per value compared on another table's column where a table the question
    names on its own, and the SQL does not read, has the same attribute ("store.s_state, not
    customer_address.ca_state").

    Example:
        >>> from assay.catalog import Catalog, ColumnInfo, TableInfo
        >>> import sqlglot
        >>> def t(name, *cols): return TableInfo(name, tuple(ColumnInfo(c, "") for c in cols))
        >>> cat = Catalog((t("store", "s_store_sk", "s_state"), t("customer_address",
        ...     "ca_address_sk", "ca_state"), t("store_sales", "ss_addr_sk", "ss_store_sk")))
        >>> sql = ("SELECT count(*) FROM store_sales JOIN customer_address ON ss_addr_sk = "
        ...        "ca_address_sk WHERE ca_state = 'TN'")
        >>> filtered_elsewhere("How many store sales at stores in TN?", sqlglot.parse_one(sql),
        ...                    cat)
        ["customer_address.ca_state = 'TN', not store.s_state"]
    """
    read = {t.lower() for t in referenced_tables(tree)}
    named = _alone(question, catalog.table_names)
    unread = sorted(t for t in named if t.lower() not in read)
    said = {t.lower() for t in named}
    found: list[str] = []
    for column, value in _compared(tree):
        owner = _owner(column, tree, catalog)
        info = catalog.table(owner[0]) if owner is not None else None
        if owner is None or info is None or owner[0].lower() in said:
            continue
        attribute = _words(owner[1], info.column_names)
        for table in unread:
            other = catalog.table(table)
            if other is None or not attribute:
                continue
            same = [c for c in other.column_names if _words(c, other.column_names) == attribute]
            if len(same) == 1:
                found.append(f"{owner[0]}.{owner[1]} = {value!r}, not {table}.{same[0]}")
    return found
