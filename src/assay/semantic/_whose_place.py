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
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from assay.catalog import Catalog, column_prefix

if TYPE_CHECKING:
    from assay.semantic._model import SemanticLayer
    from assay.semantic._reading import Reading

__all__ = ["OtherPlace", "other_places"]

_PLACE_WORDS = frozenset(
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
    same place word of ``other`` (``table.column``), the table the metric's name names."""

    value: str
    column: str
    other: str


def other_places(reading: Reading, layer: SemanticLayer, catalog: Catalog) -> list[OtherPlace]:
    """Each place filter that another table named by a metric's table could hold as well (the
    module docstring); empty when none."""
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
    return list({place.other: place for place in found}.values())


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
    return words[0] if len(words) == 1 and words[0] in _PLACE_WORDS else ""


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
