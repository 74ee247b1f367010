"""Two metrics on different tables side by side (outside tryout 13 #30: "gross revenue and
number of orders by country in 2023" was abstained on, "measured on different tables or
filters", although both are over orders with the same status filter).

Each expected number was computed with our own SQL on the demo warehouse: gross =
SUM(l.quantity * l.unit_price) over order_lines JOIN orders, orders = COUNT(DISTINCT
o.order_id) over orders, registered customers = COUNT(DISTINCT customer_id) by registered_at;
``orders.status <> 'cancelled'`` for the order metrics. Tuned on the tryout's question.
"""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

# SELECT c.country, SUM(l.quantity*l.unit_price), COUNT(DISTINCT o.order_id) ... 2023 GROUP BY 1
GROSS_AND_ORDERS_2023 = {
    "BR": (75463.02, 349),
    "DE": (380542.83, 1651),
    "FR": (250507.34, 1028),
    "GB": (241764.33, 1039),
    "JP": (143079.31, 635),
    "US": (439531.86, 1949),
}
# SELECT country, COUNT(DISTINCT customer_id) FROM customers WHERE registered_at in 2023
REGISTERED_2023 = {"BR": 45, "DE": 257, "FR": 157, "GB": 155, "JP": 103, "US": 320}


def _ask(client: TestClient, question: str) -> dict[str, Any]:
    response = client.post("/api/ask", json={"question": question})
    assert response.status_code == 200, response.text
    return dict(response.json())


def _table(body: dict[str, Any]) -> dict[str, tuple[float, ...]]:
    assert body["badge"] == "show", (body["badge"], body["verdict"]["reasons"], body["reading"])
    rows = body["answer"]["result"]["rows"]
    return {str(r[0]): tuple(round(float(v), 2) for v in r[1:]) for r in rows}


def test_two_metrics_on_different_tables_are_answered_side_by_side(client: TestClient) -> None:
    body = _ask(client, "gross revenue and number of orders by country in 2023")
    assert _table(body) == GROSS_AND_ORDERS_2023
    assert body["answer"]["result"]["columns"] == ["country", "value", "value_order_count"]


def test_two_metrics_without_a_grouping_are_one_row(client: TestClient) -> None:
    body = _ask(client, "gross revenue and number of orders in 2023")
    rows = body["answer"]["result"]["rows"] if body["badge"] == "show" else None
    assert rows is not None, body["verdict"]["reasons"]
    assert [round(float(v), 2) for v in rows[0]] == [
        round(sum(g for g, _ in GROSS_AND_ORDERS_2023.values()), 2),
        sum(n for _, n in GROSS_AND_ORDERS_2023.values()),
    ]


def test_each_metric_keeps_its_own_time_column(client: TestClient) -> None:
    """Registered customers are dated by registration, the revenue by the order."""
    got = _table(_ask(client, "gross revenue and registered customers by country in 2023"))
    assert got == {
        k: (GROSS_AND_ORDERS_2023[k][0], float(REGISTERED_2023[k])) for k in REGISTERED_2023
    }


def test_what_cannot_be_put_side_by_side_names_each_metric_table(client: TestClient) -> None:
    body = _ask(client, "gross revenue and number of orders in 2023 compared with 2022")
    assert body["badge"] != "show"
    message = str(body["verdict"])
    assert "gross revenue on order_lines" in message
    assert "number of orders on orders" in message
    assert "a comparison of periods cannot be answered that way" in message
