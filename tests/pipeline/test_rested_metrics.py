"""An answer rests on every metric asked, not only the plan's first (outside tryout 22: "Store
sales vs web sales net paid" was read as the store sales count, authored by the schema, and the
guessed total web sales net paid, and shown plainly: the second metric's tier was never read).
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from assay.connectors import connect
from assay.generators import plan
from assay.pipeline import Agent
from assay.pipeline._routing import rested_on
from assay.semantic import Metric, Reading, SemanticLayer

LAYER = SemanticLayer(
    name="shop",
    metrics=(
        Metric("orders_count", "orders count", (), "orders", "count(*)"),
        Metric(
            "refunds_total",
            "total refunds",
            (),
            "refunds",
            "sum(refunds.amount)",
            tier="PATTERN_CONFIRMED",
            confidence=0.6,
            fact="refunds.amount semantic_type",
        ),
    ),
    tables=("orders", "refunds"),
)


def test_every_metric_asked_is_rested_on() -> None:
    reading = Reading("orders count and total refunds", metrics=("orders_count", "refunds_total"))
    rested = rested_on(plan(reading, LAYER), reading, LAYER)
    assert [(r.kind, r.name) for r in rested] == [
        ("metric", "orders_count"),
        ("metric", "refunds_total"),
    ]
    assert rested[1].unconfirmed


def test_a_guessed_second_metric_makes_the_answer_confirm_first(tmp_path: Path) -> None:
    db = tmp_path / "shop.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute("CREATE TABLE orders AS SELECT range AS id FROM range(3)")
        con.execute("CREATE TABLE refunds AS SELECT 2.5 AS amount FROM range(2)")
    with connect(str(db)) as connector:
        verdict = Agent(connector, LAYER).ask("orders count and total refunds")
    assert verdict.behaviour == "answer", verdict.reasons
    assert verdict.action == "warn" and "cap.unconfirmed_fact" in verdict.reasons
