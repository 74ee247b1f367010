"""The semantic layer as frozen data: metrics, dimensions, joins, forbidden joins, retired
columns, coverage and clock, and the concepts deliberately left undefined.

Time is optional: a layer for data without dates has no clock and no coverage, and its metrics
no time column; it answers questions without periods and abstains on one with a period.

A metric, dimension or join may carry the authority of the evidence it was drafted from
(``tier``, a name of ``assay.catalog.Tier``; ``confidence``, capped by that tier; ``fact``, the
reconstructed fact it rests on). An element without a tier was written by the layer's author and
is trusted as such; one below the commit tier makes an answer resting on it confirm-first.

Loaded and validated from YAML by ``load_semantic``; the guard reads only the retired columns
and forbidden joins.
"""

from __future__ import annotations

import datetime as dt
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = [
    "DerivedName",
    "Dimension",
    "ForbiddenJoin",
    "JoinPath",
    "Metric",
    "RetiredColumn",
    "SemanticLayer",
    "TrustedExample",
]


@dataclass(frozen=True)
class RetiredColumn:
    """A column no longer to be used, and what replaces it (empty when nothing does)."""

    table: str
    column: str
    replacement: str = ""
    reason: str = ""
    synonyms: tuple[str, ...] = ()


@dataclass(frozen=True)
class ForbiddenJoin:
    """Two tables that must not be joined directly (a join that fans out or means nothing)."""

    left: str
    right: str
    reason: str = ""


@dataclass(frozen=True)
class JoinPath:
    """An allowed join: ``left`` and ``right`` are ``table.column``; the relationship is read
    from left to right (``many_to_one``: many left rows per right row)."""

    left: str
    right: str
    relationship: str = "many_to_one"
    tier: str = ""
    confidence: float | None = None
    fact: str = ""
    # Rows of the left table with no partner on the right (a NULL or missing key), counted in
    # the data at import (or by the draft). Joined inner they vanish, so the planner takes it
    # inner only where a positive filter on the right table's columns (``=``, ``IN``, a numeric
    # bound) keeps none of them anyway, and LEFT for a grouping (the unmatched rows a group of
    # their own); a total or a negated filter through it is refused (generators/_planner.py
    # ``_joins``), and an answer that joins it inner is warned with its count
    # (``cap.unmatched_rows``).
    unmatched: int = 0

    @property
    def tables(self) -> tuple[str, str]:
        return self.left.split(".")[0], self.right.split(".")[0]


@dataclass(frozen=True)
class Metric:
    name: str
    label: str
    synonyms: tuple[str, ...]
    table: str
    expression: str
    time_column: str = ""  # empty: the metric has no time (no period can be applied)
    required_filters: tuple[str, ...] = ()
    tier: str = ""
    confidence: float | None = None
    fact: str = ""
    # The dates this metric's own rows cover, when narrower than the layer's (an imported
    # orders count ends before the line items do): a period outside it is abstained on.
    coverage: tuple[dt.date, dt.date] | None = None
    # The metric's own filter (a MetricFlow metric ``filter``), already inside its expression
    # as ``agg(CASE WHEN filter THEN x END)`` so that it can share a query with other metrics;
    # the planner also applies it as WHERE (every asked metric's filter, OR-ed), so a group
    # where no asked metric's filter matches a row is left out, as the source leaves it out.
    filter: str = ""


@dataclass(frozen=True)
class Dimension:
    name: str
    column: str
    synonyms: tuple[str, ...]
    values: tuple[str, ...] = ()  # a closed domain when not empty
    value_synonyms: tuple[tuple[str, str], ...] = ()
    tier: str = ""
    confidence: float | None = None
    fact: str = ""
    # SQL over its own table's columns (``CASE WHEN t.amount >= 30 THEN TRUE ELSE FALSE
    # END``) when the dimension is an expression; ``column`` then names it as ``table.name``
    # (its table; no such column is read)
    expression: str = ""

    @property
    def closed(self) -> bool:
        return bool(self.values)


@dataclass(frozen=True)
class TrustedExample:
    """A question with SQL its source project verified (a Cortex Analyst verified query).

    The agent may answer a question that matches ``question`` from ``sql``; the SQL still
    passes the guard and the checks, and the verdict names the example it used.
    """

    question: str
    sql: str
    name: str = ""
    source: str = ""


@dataclass(frozen=True)
class DerivedName:
    """An everyday word derived from a name the layer keeps from its source ("category" from
    ``i_category``; ``semantic._names``). ``choices`` are ``kind:name`` (``dimension:``,
    ``metric:``, ``undefined:`` for a concept the layer leaves undefined): one when the word is
    unambiguous, several when a question using it must be asked back."""

    words: str
    choices: tuple[str, ...]


@dataclass(frozen=True)
class SemanticLayer:
    """The governed definitions of one warehouse."""

    name: str = ""
    retired_columns: tuple[RetiredColumn, ...] = ()
    forbidden_joins: tuple[ForbiddenJoin, ...] = ()
    metrics: tuple[Metric, ...] = ()
    dimensions: tuple[Dimension, ...] = ()
    joins: tuple[JoinPath, ...] = ()
    coverage: tuple[dt.date, dt.date] | None = None
    clock: dt.date | None = None
    fiscal_year_start_month: int = 1
    undefined_concepts: tuple[str, ...] = ()
    description: str = ""
    tables: tuple[str, ...] = field(default=())
    pii: tuple[tuple[str, str], ...] = ()  # (table.column, PII class) proved from values
    allow_pii: tuple[str, ...] = ()  # forcing PII classes this layer may return raw
    trusted_examples: tuple[TrustedExample, ...] = ()
    # Words derived from the names when the agent opens the layer, never written in its file
    derived: tuple[DerivedName, ...] = ()
    # Dimensions the engine types as numbers, read from the catalog when the agent opens the
    # layer (``with_numeric_columns``), never written in its file
    numeric: tuple[str, ...] = ()

    def metric(self, name: str) -> Metric:
        return next(m for m in self.metrics if m.name == name)

    def dimension(self, name: str) -> Dimension:
        return next(d for d in self.dimensions if d.name == name)

    def join_steps(self, start: str, goal: str) -> list[tuple[JoinPath, bool]]:
        """The fewest joins from table ``start`` to ``goal`` (the planner's path), each step
        with whether it goes left to right; empty when there is none."""
        queue: deque[tuple[str, list[tuple[JoinPath, bool]]]] = deque([(start, [])])
        seen = {start}
        while queue:
            table, steps = queue.popleft()
            if table == goal:
                return steps
            for join in self.joins:
                left, right = join.tables
                for here, there, forward in ((left, right, True), (right, left, False)):
                    if here == table and there not in seen:
                        seen.add(there)
                        queue.append((there, [*steps, (join, forward)]))
        return []


def metric_filter(metrics: Sequence[Metric]) -> str:
    """The WHERE condition of metrics asked together: their own filters OR-ed (a row no asked
    metric's filter keeps adds to no value), or ``""`` when one of them has none (every row
    counts for it). MetricFlow computes each metric over the rows its filter keeps and joins
    them on the groups, so a group appears when some metric's filter keeps a row of it: the
    same groups as this WHERE, with the same values."""
    filters = list(dict.fromkeys(m.filter for m in metrics))
    if not filters or "" in filters:
        return ""
    if len(filters) == 1:
        return filters[0]
    return " OR ".join(f"({f})" for f in filters)
