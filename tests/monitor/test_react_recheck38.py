"""The outside re-check of tryout 38 as the tester ran it: ``assay ask --agent`` on the demo
warehouse, the model's one FINAL_SQL for "What was the gross revenue in 2023?" (a mid-year
range, a single bound leaving out 2023, the year only as an order id) and for "... from
customers in Germany in 2023?" (another country's code withheld naming both; the right code
warned as one sample, not withheld)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from assay.cli._ask import demo_warehouse
from assay.connectors import connect
from assay.generators import ChatClient, ChatEndpoint
from assay.pipeline import ask_agent
from assay.settings import load_settings
from tests.fixtures.llm_server import ScriptedServer

SETTINGS = load_settings({})
GROSS = "What was the gross revenue in 2023?"
GERMANY = "What was the gross revenue from customers in Germany in 2023?"
SELECT = (
    "SELECT SUM(ol.quantity * ol.unit_price) FROM orders o JOIN order_lines ol "
    "ON ol.order_id = o.order_id JOIN customers c ON c.customer_id = o.customer_id WHERE "
)
IN_2023 = "o.order_date >= '2023-01-01' AND o.order_date < '2024-01-01'"


@pytest.fixture(scope="module")
def server() -> Iterator[ScriptedServer]:
    server = ScriptedServer([])
    thread = threading.Thread(target=server.httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.httpd.shutdown()
        server.httpd.server_close()


def _asked(server: ScriptedServer, question: str, where: str) -> tuple[str, tuple[str, ...]]:
    server.rules = [{"match": "QUESTION:", "reply": f"THOUGHT: sum\nFINAL_SQL: {SELECT}{where}"}]
    db: Path = demo_warehouse(SETTINGS)[0]
    client = ChatClient(ChatEndpoint(server.url, "scripted", timeout_s=5))
    with connect(str(db), SETTINGS) as connector:
        verdict = ask_agent(question, str(db), connector, SETTINGS, client)
    return verdict.action, verdict.reasons


@pytest.mark.parametrize(
    ("question", "where"),
    [
        (GROSS, "o.order_date >= '2022-06-01' AND o.order_date < '2023-06-01'"),
        (GROSS, "o.order_date < '2023-01-01'"),
        (GROSS, "o.order_date >= '2023-01-01'"),  # the orders run into 2024 (fix39h)
        (GROSS, "year(o.order_date) = 2022 AND o.order_id <> 2023"),
        (GERMANY, f"c.country = 'FR' AND {IN_2023}"),
    ],
)
def test_a_wrong_final_query_is_withheld(server: ScriptedServer, question: str, where: str) -> None:
    action, reasons = _asked(server, question, where)
    assert action == "withhold", reasons


@pytest.mark.parametrize(
    ("question", "where"), [(GROSS, IN_2023), (GERMANY, f"c.country = 'DE' AND {IN_2023}")]
)
def test_a_right_final_query_is_warned(server: ScriptedServer, question: str, where: str) -> None:
    action, reasons = _asked(server, question, where)
    assert action == "warn" and reasons == ("cap.single_sample",), reasons
