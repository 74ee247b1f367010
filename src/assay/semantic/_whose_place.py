"""A place said of rows named after an entity that has a place of its own: "total store sales
net paid in GA".

A drafted TPC-DS layer reads GA as the customer's address (``customer_address.ca_state``,
reached through ``store_sales.ss_addr_sk``): the only state it reaches, since the store's state
(``store.s_state``) holds one value at sf 0.01 and the store key one value, so the drafter
proposes neither a dimension nor a join for them. A person asking for store sales in GA means
the stores located in GA as often as the customers living there; an outside look saw the
customer's reading shown with a warning that never named the other one.

The other reading is found in the database's own tables, not in the layer: a word of the
metric's table names another table (``store`` of ``store_sales``) that is not the filter's,
and that table has a column of the same place word as the filter's column (``s_state`` beside
``ca_state``: each name less its table's shared prefix). Only place words are compared (state,
city, country, ...): "in GA" says where, and a shared name of any other kind ("name", "type")
says nothing of whose it is. The question is then asked back with both readings named, never
answered through one of them silently; a question that names the filter's table ("store sales
of customers in GA") has said whose place it is, and is read as the layer reads it.

A grouping by a place is read the same way once the question says whose it is: "by state of
the store", "by store state", "by the store's state" was answered by the customer's address
state at 1.00 (the layer's only state), "of the store" dropped silently. A table named right
before the place word, or after "<place> of (the)", that is not the grouping's own table and
has a column of the same place word is the other reading, asked back with both named.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from assay.catalog import Catalog, column_prefix

if TYPE_CHECKING:
    from assay.semantic._model import SemanticLayer
    from assay.semantic._reading import Reading

__all__ = ["PLACE_WORDS", "OtherPlace", "other_places"]

PLACE_WORDS = frozenset(
    {
        "state",
        "city",
        "county",
        "country",
        "region",
        "province",
        "territory",
        "district",
        "zip",
        "nation",
        "location",
    }
)


@dataclass(frozen=True)
class OtherPlace:
    """A filter's value read on ``column`` (the layer's reading) that may as well mean the
    same place word of ``other`` (``table.column``), the table the metric's name names; or
    (``grouped``) a grouping on ``column`` said of ``other``'s table."""

    value: str  # the filter's value, or for a grouping the words that said whose place
    column: str
    other: str
    grouped: bool = False


def other_places(reading: Reading, layer: SemanticLayer, catalog: Catalog) -> list[OtherPlace]:
    """Each place filter that another table named by a metric's table could hold as well, and
    each grouping by a place the question says is another table's (the module docstring);
    empty when none."""
    found: list[OtherPlace] = []
    for condition in reading.filters:
        dimension = layer.dimension(condition.dimension)
        if dimension.expression or "." not in dimension.column:
            continue
        table, column = dimension.column.rsplit(".", 1)
        word = _place_word(catalog, table, column)
        if not word or _says_whose(reading.question, table):
            continue
        for name in reading.metrics:
            other = _named_place(catalog, layer.metric(name).table, table, word)
            if other and condition.values:
                found.append(OtherPlace(condition.values[0], dimension.column, other))
    found += _grouped_places(reading, layer, catalog)
    return list({place.other: place for place in found}.values())


def _grouped_places(reading: Reading, layer: SemanticLayer, catalog: Catalog) -> list[OtherPlace]:
    """Each grouping by a place the question says is another table's (the module docstring)."""
    found: list[OtherPlace] = []
    for name in reading.groups:
        dimension = layer.dimension(name)
        if dimension.expression or "." not in dimension.column:
            continue
        table, column = dimension.column.rsplit(".", 1)
        word = _place_word(catalog, table, column)
        if not word:
            continue
        for said, owner in _owners_said(reading.question, word):
            if _says_whose(owner, table):
                continue  # "by customer state": the grouping's own table, as the layer reads
            other = _owned_place(catalog, owner, table, word)
            if other:
                found.append(OtherPlace(said, dimension.column, other, grouped=True))
    return found


def _owners_said(question: str, word: str) -> list[tuple[str, str]]:
    """(words, owner) for each word said to own the place ``word``: "store state", "store's
    state", "state of the store" (the owner ``store``)."""
    text = question.lower()
    place = rf"{word}s?"
    before = re.finditer(rf"\b([a-z0-9]+)(?:'s|s'|')?\s+{place}\b", text)
    after = re.finditer(rf"\b{place}\s+of\s+(?:the\s+|each\s+|their\s+|its\s+)?([a-z0-9]+)", text)
    return [(m.group(0), m.group(1)) for m in (*before, *after)]


def _says_whose(question: str, table: str) -> bool:
    """The question names the filter's table ("sales of customers in GA"): its place is read
    on that table, as the user said."""
    said = {w.removesuffix("s") for w in re.findall(r"[a-z0-9]+", question.lower())}
    return any(w.removesuffix("s") in said for w in re.split(r"[^a-z0-9]+", table.lower()) if w)


def _own_words(catalog: Catalog, table: str, column: str) -> list[str]:
    """A column's words less its table's shared prefix (``ca_state``: ``state``)."""
    info = catalog.table(table)
    prefix = column_prefix([c.name for c in info.columns]) if info else ""
    words = [w for w in re.split(r"[^a-z0-9]+", column.lower()) if w]
    return words[1:] if prefix and len(words) > 1 and words[0] == prefix else words


def _place_word(catalog: Catalog, table: str, column: str) -> str:
    words = _own_words(catalog, table, column)
    return words[0] if len(words) == 1 and words[0] in PLACE_WORDS else ""


def _named_place(catalog: Catalog, fact: str, filtered: str, word: str) -> str:
    """``table.column`` of the place ``word`` on a table a word of ``fact`` names (neither the
    fact's own table nor the filter's), or ``""``."""
    for part in re.split(r"[^a-z0-9]+", fact.lower()):
        for name in (part, part + "s", part.removesuffix("s")):
            info = catalog.table(name)
            if info is None or info.name.lower() in {fact.lower(), filtered.lower()}:
                continue
            for col in info.columns:
                if _place_word(catalog, info.name, col.name) == word:
                    return f"{info.name}.{col.name}"
    return ""


def _owned_place(catalog: Catalog, owner: str, grouped: str, word: str) -> str:
    """``table.column`` of the place ``word`` on the table ``owner`` names (``store``,
    ``stores``), when that is not the grouping's own table; else ``""``."""
    for name in dict.fromkeys((owner, owner + "s", owner.removesuffix("s"))):
        info = catalog.table(name)
        if info is None or info.name.lower() == grouped.lower():
            continue
        for col in info.columns:
            if _place_word(catalog, info.name, col.name) == word:
                return f"{info.name}.{col.name}"
    return ""
