"""A word several things share, read as the one the metric's rows can reach.

An imported layer keeps a name two tables share on both, told apart by table (Cortex's
marketing model has CATEGORY on PRODUCTS, on MARKETING_CAMPAIGN_METRICS and on SOCIAL_MEDIA).
"revenue by category" then names three dimensions; but revenue is summed over SALES, and the
layer's joins reach only PRODUCTS from SALES: the other two could never group or filter it
(the planner would stop with ``plan.no_join_path``).

Likewise a concept the layer leaves undefined may compete for a word ("region": the
customer's, defined, or the supplier's, a role Cube's import could not map). Its qualifier
("supplier") names a table; when no chain of many-to-one joins leads from the metric's rows to
that table (a customer has no supplier), the role cannot be what the question means of them,
and asking "which one?" would offer a single choice (an outside tryout: "customers count by
region"). Over line items, which do have a supplier, it still competes.

The question is read again over the dimensions every asked metric's table reaches, without the
roles none reaches; that reading is taken only when it keeps the same metrics and leaves fewer
words asked back (an ambiguous name or a value of several dimensions), so a word that still
names two reachable things stays asked back and a question naming an unreachable dimension
outright is decided as before.

What the metrics reach (``reached_dimensions``) also bounds what a did-you-mean may offer
(``Lexicon.within``): a value of a dimension no join reaches from the metric's rows is never
offered, since the question with it could only be abstained on. A follow-up that names no
metric is read over what the previous question's metrics reach.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

from assay.semantic._model import DerivedName, SemanticLayer
from assay.semantic._names import split_name

if TYPE_CHECKING:
    from assay.semantic._reading import Reading

__all__ = ["by_reach", "reached_dimensions"]


def by_reach(
    reading: Reading,
    layer: SemanticLayer,
    read: Callable[[str, SemanticLayer], Reading],
    metrics: tuple[str, ...] = (),
) -> Reading:
    """``reading``, or the question read over what its metrics reach (the module docstring);
    ``read`` reads a question over a layer. ``metrics`` are those of a follow-up that names
    none and keeps the previous question's ("now by status" after a question on orders: the
    order's status, never the line item's)."""
    metrics = reading.metrics or metrics
    if not metrics or not (reading.ambiguous_names or reading.dangling):
        return reading
    starts = {layer.metric(m).table for m in metrics}
    onward = set.union(*(_reached(layer, t, onward=True) for t in starts))
    reached = reached_dimensions(metrics, layer)
    kept = tuple(d for d in layer.dimensions if d.name in reached)
    roles = {c for c in layer.undefined_concepts if _role_of(c, layer.tables) - onward}
    if (len(kept) == len(layer.dimensions) and not roles) or not kept:
        return reading
    narrowed = dataclasses.replace(
        layer,
        dimensions=kept,
        undefined_concepts=tuple(c for c in layer.undefined_concepts if c not in roles),
        derived=_derived(layer.derived, {d.name for d in kept}, roles),
    )
    again = dataclasses.replace(read(reading.question, narrowed), question=reading.question)
    if again.metrics != reading.metrics or len(again.unread) > len(reading.unread):
        return reading
    if _asked_back(again) >= _asked_back(reading):
        return reading
    return again


def reached_dimensions(metrics: tuple[str, ...], layer: SemanticLayer) -> frozenset[str]:
    """The names of the dimensions whose table the layer's joins reach from every one of
    ``metrics``' tables (either way along a join, as the planner walks them); every dimension
    when no metric is given (nothing to reach from).

    Example:
        >>> from assay.semantic._model import Dimension, Metric
        >>> layer = SemanticLayer(
        ...     metrics=(Metric("revenue", "revenue", (), "sales", "SUM(sales.x)"),),
        ...     dimensions=(Dimension("line", "sales.line", ()), Dimension("region",
        ...         "regions.region", ())),
        ... )
        >>> sorted(reached_dimensions(("revenue",), layer))
        ['line']
    """
    names = frozenset(d.name for d in layer.dimensions)
    if not metrics:
        return names
    starts = {layer.metric(m).table for m in metrics}
    tables = set.intersection(*(_reached(layer, t, onward=False) for t in starts))
    return frozenset(d.name for d in layer.dimensions if d.column.split(".")[0] in tables)


def _asked_back(reading: Reading) -> int:
    return len(reading.ambiguous_names) + len(reading.dangling)


def _reached(layer: SemanticLayer, start: str, *, onward: bool) -> set[str]:
    """The tables the layer's joins reach from ``start``, ``start`` included: either way along
    a join, as the planner walks them; or, ``onward``, only from the many side to the one
    (each row has one of them)."""
    seen = {start}
    frontier = [start]
    while frontier:
        table = frontier.pop()
        for join in layer.joins:
            ways = [join.tables] if onward else [join.tables, join.tables[::-1]]
            if onward and join.relationship != "many_to_one":
                ways = [join.tables[::-1]] if join.relationship == "one_to_many" else []
            for here, there in ways:
                if here == table and there not in seen:
                    seen.add(there)
                    frontier.append(there)
    return seen


def _role_of(concept: str, tables: tuple[str, ...]) -> set[str]:
    """The table the qualifier of an undefined concept names ("supplier regions name":
    ``supplier``), as a set of one; empty when it names none (then it always competes)."""
    words = [w.lower() for w in split_name(concept)]
    head = len(words) - 2 if len(words) > 1 and words[-1] == "name" else len(words) - 1
    said = "_".join(words[:head])
    forms = {said, f"{said}s", said[:-1] if said.endswith("s") else said}
    named = {t for t in tables if t.lower() in forms}
    return named if len(named) == 1 and said else set()


def _derived(
    derived: tuple[DerivedName, ...], kept: set[str], roles: set[str]
) -> tuple[DerivedName, ...]:
    """The derived words with their dimension choices cut to ``kept`` and the unreached
    ``roles`` taken out; a word left with no choice is dropped."""
    out = []
    for name in derived:
        choices = tuple(
            c
            for c in name.choices
            if not (c.startswith("dimension:") and c.split(":", 1)[1] not in kept)
            and not (c.startswith("undefined:") and c.split(":", 1)[1] in roles)
        )
        if choices:
            out.append(dataclasses.replace(name, choices=choices))
    return tuple(out)
