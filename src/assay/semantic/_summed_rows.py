"""``summed_rows``: "total store sales" said of a metric that counts the sales rows.

Outside tryout 22 (F19) and 23 asked a drafted TPC-DS layer "What were total store sales in
2002?" and were answered with the number of store_sales rows (5,190): the draft names its row
count by the table's words ("store sales"), and "total" was read as nothing. "Sales" (and
"revenue", "spend", "turnover") with "total" or "sum" asks for an amount, not how many rows
there are, while "total orders" does count orders. When the one metric read counts rows
(``COUNT(*)``), was named by such a money noun, the question says "total" or "sum" and does not
count ("how many", "number of"), and the metric's table has amounts summed, the phrase is asked
back as ambiguous between the count and those amounts (``behaviour.ambiguous_metric``), never
answered with either.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

from assay.semantic._model import SemanticLayer

if TYPE_CHECKING:
    from assay.semantic._reading import Reading

__all__ = ["summed_rows"]

_SUMMED = re.compile(r"\b(?:total|totals|sum|summed)\b", re.I)
_COUNTING = re.compile(r"\b(?:how many|number of|count|counts|counted)\b", re.I)
_AMOUNT_NOUN = re.compile(r"\b(?:sales|revenue|revenues|spend|spending|turnover)$", re.I)
_ROWS = re.compile(r"^\s*count\(\s*\*\s*\)\s*$", re.I)
_SUM = re.compile(r"^\s*sum\s*\(", re.I)


def summed_rows(reading: Reading, layer: SemanticLayer) -> Reading:
    """``reading`` with a row count named "total <table> sales" made an ambiguous metric
    between that count and its table's summed amounts; unchanged otherwise.

    Example:
        >>> from assay.semantic._model import Metric
        >>> from assay.semantic._reading import Reading
        >>> from assay.semantic._resolve import Match
        >>> layer = SemanticLayer(metrics=(
        ...     Metric("n", "store sales count", ("store sales",), "s", "count(*)"),
        ...     Metric("paid", "total store sales net paid", (), "s", "SUM(s.paid)")))
        >>> said = Match("store sales", 1, 3, "metric", ("n",))
        >>> r = summed_rows(Reading("total store sales", metrics=("n",), matches=(said,)), layer)
        >>> r.metrics, r.ambiguous[0].targets
        ((), ('n', 'paid'))
    """
    if len(reading.metrics) != 1 or not _SUMMED.search(reading.question):
        return reading
    if _COUNTING.search(reading.question):
        return reading
    metric = layer.metric(reading.metrics[0])
    if not _ROWS.match(metric.expression):
        return reading
    said = [m for m in reading.matches if m.targets == (metric.name,)]
    if len(said) != 1 or not _AMOUNT_NOUN.search(said[0].phrase):
        return reading
    sums = sorted(
        m.name for m in layer.metrics if m.table == metric.table and _SUM.match(m.expression)
    )
    if not sums:
        return reading
    choice = dataclasses.replace(said[0], kind="ambiguous", targets=(metric.name, *sums))
    return dataclasses.replace(reading, metrics=(), ambiguous=(choice,))
