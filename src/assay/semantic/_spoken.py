"""A layer's identifier said as words, for every sentence a person reads (the answer, and the
"I read this as" line)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assay.semantic._model import SemanticLayer

__all__ = ["spoken_dimension", "spoken_name"]


def spoken_name(name: str) -> str:
    """A layer's identifier as a sentence for people says it: ``total_revenue`` as "total
    revenue", MetricFlow's ``customer__customer_country`` as "customer customer country". A
    name already written in words ("Revenue (USD)", "net revenue") is kept as it is, and so
    is any name without an underscore.

    Example:
        >>> spoken_name("capacity_latest"), spoken_name("Revenue (USD)"), spoken_name("region")
        ('capacity latest', 'Revenue (USD)', 'region')
    """
    if "_" not in name or " " in name.strip():
        return name
    return " ".join(part for part in name.split("_") if part)


def spoken_dimension(name: str, layer: SemanticLayer) -> str:
    """A dimension said as words: its name spoken, or shorter, the first synonym of two words
    or more that says only words of that name (a drafted ``nation_n_name`` is "nation name",
    its synonym, rather than "nation n name"); never a synonym with other words, which could
    read as another column.

    Example:
        >>> from assay.semantic._model import Dimension, Metric, SemanticLayer
        >>> dims = (
        ...     Dimension("nation_n_name", "nation.n_name", ("n_name", "nation name")),
        ...     Dimension("customer_country", "c.country", ("country", "nation of customer")),
        ... )
        >>> layer = SemanticLayer(metrics=(Metric("n", "n", (), "c", "count(*)"),), dimensions=dims)
        >>> spoken_dimension("nation_n_name", layer), spoken_dimension("customer_country", layer)
        ('nation name', 'customer country')
    """
    spoken = spoken_name(name)
    words = {w.lower() for w in spoken.split()}
    for dim in layer.dimensions:
        if dim.name != name:
            continue
        for synonym in dim.synonyms:
            said = synonym.lower().split()
            if "_" not in synonym and 2 <= len(said) < len(words) and set(said) <= words:
                return synonym
    return spoken
