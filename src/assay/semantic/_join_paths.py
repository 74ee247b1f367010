"""A dimension the metric's rows reach by two join paths: "line items by nation name" on a
drafted TPC-H layer.

The layer joins ``lineitem`` to ``supplier`` and to ``orders``, ``orders`` to ``customer``, and
both ``supplier`` and ``customer`` to ``nation``. A line item has two nations, its supplier's and
its customer's; the planner takes the shortest path (``lineitem -> supplier -> nation``), so the
question was shown at 1.00 grouped by the supplier's nation, a different question answered if
the user meant the customer's. The same for a filter ("line items in GERMANY").

Found on the layer alone: a dimension used by the reading (a grouping, a filter, a numeric
bound) lies on a table that a metric's table reaches by more than one path of many-to-one joins
(each step keeps one row per metric row, each table once on a path). Paths that fan out are the
planner's to refuse, and are not counted. One join of the metric's own table straight into the
dimension's (``store_sales.ss_sold_date_sk`` into ``date_dim``, beside the customer's first
ship-to date) is the rows' own and the planner's path, shortest: it is taken. Otherwise the
layer cannot say which path is meant (it joins tables, not roles), so the question is abstained
on, naming each path in the tables' words, never answered through one of them silently. A table
reached one way ("customers by nation", "orders by nation" through the customer) is read as
before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assay.semantic._model import SemanticLayer
    from assay.semantic._reading import Reading

__all__ = ["JoinPaths", "join_paths"]

_MOST = 4  # paths named at most: more says nothing the first ones do not


@dataclass(frozen=True)
class JoinPaths:
    """The dimension ``dimension`` (on table ``table``) reached from the metric ``metric``'s
    table by each of ``paths`` (each step the key it leaves by and the table it enters,
    ``table`` last)."""

    dimension: str
    table: str
    metric: str
    paths: tuple[tuple[tuple[str, str], ...], ...]

    def ways(self) -> list[str]:
        """Each path in words: the tables it goes through ("through orders and customer"),
        or, where two paths go through the same tables, the key each leaves by ("through
        origin_code")."""
        through = [[t for _, t in path[:-1]] for path in self.paths]
        words = []
        for path, tables in zip(self.paths, through, strict=True):
            if not tables or through.count(tables) > 1:
                keys = [key.split(".", 1)[1] for key, _ in path]
                words.append("by " + " then ".join(keys))
            else:
                words.append("through " + " and ".join(tables))
        return words


def join_paths(reading: Reading, layer: SemanticLayer) -> list[JoinPaths]:
    """Each dimension the reading uses that a metric's table reaches by more than one path of
    many-to-one joins (the module docstring); empty when none."""
    used = [(d, layer.dimension(d).column) for d in reading.groups]
    used += [(f.dimension, layer.dimension(f.dimension).column) for f in reading.filters]
    # a bound may be on a metric's column ("stadium.Capacity"), not a dimension
    used += [
        (c.dimension, c.column or layer.dimension(c.dimension).column) for c in reading.comparisons
    ]
    found: list[JoinPaths] = []
    seen: set[tuple[str, str]] = set()
    for name, column in dict.fromkeys(used):
        if "." not in column:
            continue
        table = column.split(".")[0]
        for metric in dict.fromkeys(reading.metrics):
            start = layer.metric(metric).table
            if (start, table) in seen:
                continue
            paths = _ways(layer, start, table)
            if len([p for p in paths if len(p) == 1]) == 1:
                continue  # the metric's own key into the table: its rows' own (the planner's)
            if len(paths) > 1:
                seen.add((start, table))
                paths.sort(key=len)  # the planner's, shortest, first
                found.append(JoinPaths(name, table, metric, tuple(paths[:_MOST])))
    return found


def _ways(
    layer: SemanticLayer, start: str, goal: str, seen: frozenset[str] = frozenset()
) -> list[tuple[tuple[str, str], ...]]:
    """The paths of many-to-one steps from ``start`` to ``goal`` (each table once on a path),
    each step the key it leaves by and the table it enters; ``[()]`` for the table itself. Two
    joins between the same tables are two paths (a flight's origin and destination airport).

    Example:
        >>> from assay.semantic._model import JoinPath, Metric, SemanticLayer
        >>> joins = (
        ...     JoinPath("l.s", "s.k"), JoinPath("l.o", "o.k"),
        ...     JoinPath("o.c", "c.k"), JoinPath("c.n", "n.k"), JoinPath("s.n", "n.k"),
        ... )
        >>> layer = SemanticLayer(metrics=(Metric("x", "x", (), "l", "count(*)"),), joins=joins)
        >>> _ways(layer, "c", "n")
        [(('c.n', 'n'),)]
        >>> [[t for _, t in way] for way in _ways(layer, "l", "n")]
        [['s', 'n'], ['o', 'c', 'n']]
    """
    if start == goal:
        return [()]
    ways: list[tuple[tuple[str, str], ...]] = []
    for join in layer.joins:
        left, right = join.tables
        # a step keeps one row per row of ``start`` (the planner's ``_fans_out`` is false)
        if join.relationship == "many_to_one" and left == start:
            key, table = join.left, right
        elif join.relationship == "one_to_many" and right == start:
            key, table = join.right, left
        else:
            continue
        if table in seen or table == start:
            continue
        ways += [((key, table), *rest) for rest in _ways(layer, table, goal, seen | {start})]
    return ways
