"""A value of another entity's role of a table: "suppliers count in Germany" where the layer
maps the nation only as the customers'.

Cube's TPC-H model has two roles of ``nation``: the customers' and the suppliers'. Assay joins
tables, not roles, so its import keeps the customers' (``customer.c_nationkey``) and leaves the
suppliers' out. "suppliers count in Germany" then read GERMANY as the customers' nation, and the
planner stopped with "joining lineitem to supplier would multiply rows" (outside tryout 37): true,
but it never said that the suppliers' own nation is what is missing.

The other role is found in the database's own tables, not in the layer: the layer's path from
the metric's table to the filter's table fans out (the value is not an attribute of the
metric's rows), and the many-to-one run that ends the path enters a table through a key column
(``customer.c_nationkey``) whose name, less its table's shared prefix, the metric's own table
also has (``supplier.s_nationkey``) with no join of the layer on it. That column is the
metric's own role of the table, which the layer does not map: the question is abstained on,
naming it, never answered through the other entity.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from assay.catalog import Catalog, column_prefix
from assay.semantic._model import JoinPath, SemanticLayer

if TYPE_CHECKING:
    from assay.semantic._reading import Reading

__all__ = ["OtherRole", "other_roles"]


@dataclass(frozen=True)
class OtherRole:
    """A filter's ``value`` read on ``dimension``, reached through ``owner_key`` (a
    ``table.column`` into ``role``, the table it names: ``customer.c_nationkey`` into
    ``nation``), where the metric ``metric``'s table has a key of its own into the same
    table (``own_key``) the layer does not map."""

    value: str
    dimension: str
    role: str
    owner_key: str
    own_key: str
    metric: str

    def said(self, label: str) -> str:
        """Why the question is not answered, for the metric labelled ``label``."""
        owner, mine = self.owner_key.split(".")[0], self.own_key.split(".")[0]
        return (
            f"'{self.value}' is a value of {self.dimension}, reached in this layer through "
            f"the {self.role} of {owner} ({self.owner_key}). The {self.role} of {mine} "
            f"({self.own_key}) is not in the layer, so {label} cannot be kept to it (reaching "
            f"{owner} from {mine} would multiply rows). Ask about {owner}, or add a join on "
            f"{self.own_key} to the layer."
        )


def other_roles(reading: Reading, layer: SemanticLayer, catalog: Catalog) -> list[OtherRole]:
    """Each filter whose value is another entity's role of its table, for a metric that has a
    role of its own the layer does not map (the module docstring); empty when none."""
    found: list[OtherRole] = []
    # a column the layer joins on or reads as a dimension is a role it maps
    mapped = {key for join in layer.joins for key in (join.left, join.right)}
    mapped |= {d.column for d in layer.dimensions}
    for condition in reading.filters:
        dimension = layer.dimension(condition.dimension)
        if dimension.expression or "." not in dimension.column or not condition.values:
            continue
        table = dimension.column.split(".")[0]
        for name in reading.metrics:
            metric = layer.metric(name)
            steps = layer.join_steps(metric.table, table)
            if not any(_fans_out(join, forward) for join, forward in steps):
                continue
            for key, role in _entering_keys(steps):
                own = _own_column(catalog, metric.table, key)
                if own and own not in mapped:
                    value = condition.values[0]
                    found.append(OtherRole(value, dimension.name, role, key, own, name))
                    break
    return found


def _fans_out(join: JoinPath, forward: bool) -> bool:
    return (join.relationship == "many_to_one") != forward


def _entering_keys(steps: list[tuple[JoinPath, bool]]) -> list[tuple[str, str]]:
    """(key, table) for each step of the many-to-one run that ends the path, the last step's
    first: (``customer.c_nationkey``, ``nation``), then (``orders.o_custkey``, ``customer``)."""
    keys = []
    for join, forward in reversed(steps):
        if _fans_out(join, forward):
            break
        key, into = (join.left, join.right) if forward else (join.right, join.left)
        keys.append((key, into.split(".")[0]))
    return keys


def _own_column(catalog: Catalog, table: str, key: str) -> str:
    """``table.column`` of ``table``'s column named as ``key``'s, each less its table's shared
    prefix (``s_nationkey`` for ``c_nationkey``), or ``""``."""
    wanted = _own_words(catalog, *key.split(".", 1))
    info = catalog.table(table)
    if info is None or not wanted:
        return ""
    for column in info.columns:
        if _own_words(catalog, info.name, column.name) == wanted:
            return f"{info.name}.{column.name}"
    return ""


def _own_words(catalog: Catalog, table: str, column: str) -> list[str]:
    """A column's words less its table's shared prefix (``c_nationkey``: ``nationkey``)."""
    info = catalog.table(table)
    prefix = column_prefix([c.name for c in info.columns]) if info else ""
    words = [w for w in re.split(r"[^a-z0-9]+", column.lower()) if w]
    return words[1:] if prefix and len(words) > 1 and words[0] == prefix else words
