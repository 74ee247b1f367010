"""Tryout 36 through the service, on layers drafted by ``assay semantic init`` as the tester
drafted theirs: a follow-up whose word two dimensions share is answered as the previous
question's thing; a follow-up read over the layer the agent reads over (not the layer as
loaded) no longer raises; a did-you-mean never offers a value its metric cannot reach.

Every expected number is computed here with our own SQL on the warehouse.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from assay.service import Service, demo_config
from assay.settings import load_settings
from tests.semantic._helpers import SEMANTIC_MODELS, draft
from tests.semantic.test_tryout36 import build_orders

CORTEX_DATA = SEMANTIC_MODELS / "sfguide-cortex-analyst" / "data"


def _service(db: Path, layer: Path, folder: Path) -> Service:
    settings = load_settings()
    return Service(demo_config(db, layer, settings, f"sqlite:///{folder / 'ledger.db'}"), settings)


@pytest.fixture(scope="module")
def orders(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Service, Path]]:
    folder = tmp_path_factory.mktemp("orders36")
    db = build_orders(folder / "w.duckdb")
    svc = _service(db, draft(db, folder / "w.yaml"), folder)
    yield svc, db
    svc.close()
    svc.ledger.close()


def _follow(svc: Service, question: str, fragment: str) -> dict[str, Any]:
    first = svc.ask(question)
    assert first["verdict"]["behaviour"] == "answer"
    return svc.ask(fragment, follow_up_of=first["verdict"]["id"])


def test_now_by_status_is_answered_by_the_orders_status(
    orders: tuple[Service, Path],
) -> None:
    svc, db = orders
    body = _follow(svc, "total orders totalprice in 1995", "now by status")
    assert body["verdict"]["behaviour"] == "answer", body["verdict"]["reasons"]
    assert body["follow_up"]["question"] == "total orders totalprice in 1995 by status?"
    assert body["follow_up"]["replaced"] == ["grouping (none) -> orders_o_orderstatus"]
    with duckdb.connect(str(db), read_only=True) as con:
        expected = dict(
            con.execute(
                "SELECT o_orderstatus, SUM(o_totalprice) FROM orders "
                "WHERE year(o_orderdate) = 1995 GROUP BY 1"
            ).fetchall()
        )
    rows = body["answer"]["result"]["rows"]
    assert {r[0]: float(r[1]) for r in rows} == {k: float(v) for k, v in expected.items()}


def test_a_follow_up_on_a_word_of_a_numeric_column_is_asked_back_not_raised(
    orders: tuple[Service, Path],
) -> None:
    """ "priority": o_orderpriority, or o_shippriority, a numeric column the agent adds to the
    layer. Composed over the layer as loaded, it raised StopIteration."""
    svc, _ = orders
    body = _follow(svc, "total orders totalprice in 1995", "now by priority")
    assert body["verdict"]["reasons"] == ["behaviour.ambiguous_name"]
    assert {c["name"] for c in body["choices"]} == {
        "orders_o_orderpriority",
        "orders_o_shippriority",
    }


@pytest.fixture(scope="module")
def cortex(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    if not CORTEX_DATA.is_dir():
        pytest.skip("the shared Cortex data is absent")
    folder = tmp_path_factory.mktemp("cortex36")
    db = folder / "cortex.duckdb"
    with duckdb.connect(str(db)) as con:  # one table per CSV, as the tester made it
        for csv in sorted(CORTEX_DATA.glob("*.csv")):
            con.execute(f"CREATE TABLE {csv.stem} AS SELECT * FROM read_csv_auto('{csv}')")
    svc = _service(db, draft(db, folder / "cortex.yaml"), folder)
    yield svc
    svc.close()
    svc.ledger.close()


def test_a_misspelt_region_revenue_cannot_reach_is_abstained_on_not_offered(
    cortex: Service,
) -> None:
    body = cortex.ask("total revenue in Eurpoe in 2023")
    assert body["verdict"]["behaviour"] == "abstain"
    assert body["verdict"]["reasons"] == ["behaviour.value_not_in_domain"]
    assert body["choices"] == []
    assert "no join of the semantic layer leads from the rows of total REVENUE" in str(body)


def test_a_misspelt_product_line_revenue_reaches_is_still_offered(cortex: Service) -> None:
    body = cortex.ask("total revenue for Electronis in 2023")
    assert body["verdict"]["reasons"] == ["behaviour.did_you_mean"]
    assert [c["question"] for c in body["choices"]] == ["total revenue for Electronics in 2023"]
