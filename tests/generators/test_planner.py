"""The planner: deterministic SQL from the semantic layer, joins without fan-out."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.errors import GenerationError
from assay.generators import plan
from assay.semantic import JoinPath, SemanticLayer, load_semantic, resolve


def test_same_question_same_sql(wrb: Path) -> None:
    layer = load_semantic(wrb / "shop.yaml")
    question = "Top 2 category by gross revenue in Q2 2023"
    first = plan(resolve(question, layer), layer)
    second = plan(resolve(question, load_semantic(wrb / "shop.yaml")), layer)
    assert first.sql == second.sql
    assert "LIMIT 2" in first.sql and "JOIN products" in first.sql
    assert "orders.status <> 'cancelled'" in first.sql
    assert first.join_count == 2


def test_fan_out_is_refused(wrb: Path) -> None:
    layer = load_semantic(wrb / "shop.yaml")
    # A sum on orders broken down by a product column would repeat each order per line.
    metrics = tuple(
        m
        if m.name != "order_count"
        else m.__class__(
            m.name,
            m.label,
            m.synonyms,
            m.table,
            "SUM(orders.order_id)",
            m.time_column,
            m.required_filters,
        )
        for m in layer.metrics
    )
    broken = SemanticLayer(**{**layer.__dict__, "metrics": metrics})
    with pytest.raises(GenerationError, match="multiply rows"):
        plan(resolve("What was the number of orders by category in 2023?", broken), broken)


def test_no_join_path(wrb: Path) -> None:
    layer = load_semantic(wrb / "shop.yaml")
    cut = SemanticLayer(
        **{**layer.__dict__, "joins": (JoinPath("orders.customer_id", "customers.customer_id"),)}
    )
    with pytest.raises(GenerationError, match="No join path"):
        plan(resolve("What was the gross revenue by category in 2023?", cut), cut)
