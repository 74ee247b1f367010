"""A submitted answer to a question the server's own layer answers is compared with the layer's
answer (outside tryout 41, F1, F2, F3).

/api/score showed two agreeing samples counting order lines for "How many orders were placed
in 2022?" (16,123 for 5,532 orders) and gross revenue without the layer's required filter, with
the badge ``show``; /api/sql and the MCP ``sql`` tool showed them warned. The server holds the
layer that defines each; where its own agent would show an answer, a submitted one that differs
is withheld (``veto.layer_answer_differs``) naming both numbers, one that agrees says so in the
provenance, and a comparison that cannot be made warns at most (``cap.layer_check_failed``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from assay.service import Service, ServiceConfig
from assay.service._config import DatabaseConfig
from assay.settings import load_settings

LAYER = """\
name: depot
clock: '2024-06-30'
coverage:
  start: '2023-01-01'
  end: '2024-06-30'
tables:
  shipments:
    primary_key: shipment_id
  parcels:
    primary_key: [shipment_id, parcel_no]
joins:
- left: parcels.shipment_id
  right: shipments.shipment_id
  relationship: many_to_one
metrics:
- name: shipment_count
  label: number of shipments
  synonyms: [number of shipments, shipments]
  table: shipments
  expression: COUNT(DISTINCT shipments.shipment_id)
  time_column: shipments.sent_on
  required_filters: ["shipments.status <> 'void'"]
- name: weight_sent
  label: weight sent
  synonyms: [weight sent]
  table: parcels
  expression: SUM(parcels.weight)
  time_column: shipments.sent_on
  required_filters: ["shipments.status <> 'void'"]
- name: parcel_count
  label: number of parcels
  synonyms: [number of parcels]
  table: parcels
  expression: COUNT(*)
  time_column: shipments.sent_on
  required_filters: ["shipments.status <> 'void'"]
  tier: PATTERN_CONFIRMED
  confidence: 0.6
  fact: parcels count drafted
"""


def _depot(path: Path) -> None:
    """Seven shipments in 2023 (the third void), of three parcels (odd ids) or two; one in 2024:
    six shipments and fifteen parcels counted in 2023."""
    with duckdb.connect(str(path)) as con:
        con.execute(
            "CREATE TABLE shipments (shipment_id INTEGER PRIMARY KEY, status VARCHAR, sent_on DATE)"
        )
        con.execute(
            "CREATE TABLE parcels (shipment_id INTEGER, parcel_no INTEGER, weight DOUBLE, "
            "PRIMARY KEY (shipment_id, parcel_no))"
        )
        day = dt.date(2023, 1, 5)
        for sid in range(1, 9):
            sent = day + dt.timedelta(days=55 * (sid - 1))
            status = "void" if sid == 3 else "sent"
            con.execute("INSERT INTO shipments VALUES (?, ?, ?)", [sid, status, sent])
            for parcel in range(1, 2 + sid % 2 + 1):
                con.execute(
                    "INSERT INTO parcels VALUES (?, ?, ?)", [sid, parcel, 1.5 * parcel + sid]
                )


@pytest.fixture(scope="module")
def depot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    folder = tmp_path_factory.mktemp("depot")
    _depot(folder / "depot.duckdb")
    (folder / "depot.yaml").write_text(LAYER, encoding="utf-8")
    config = ServiceConfig(
        databases={
            "depot": DatabaseConfig(
                url=str(folder / "depot.duckdb"), semantic=folder / "depot.yaml"
            )
        },
        ledger=f"sqlite:///{folder / 'ledger.db'}",
    )
    service = Service(config, load_settings())
    yield service
    service.close()
    service.ledger.close()


def _finding(verdict: dict[str, Any], code: str) -> dict[str, Any]:
    return next(f for f in verdict["findings"] if f["code"] == code)


COUNTED = "SELECT count(DISTINCT shipment_id) FROM shipments WHERE year(sent_on) = 2023"
RIGHT_COUNT = (
    "SELECT count(DISTINCT shipment_id) FROM shipments "
    "WHERE year(sent_on) = 2023 AND status <> 'void'"
)
FANNED = (
    "SELECT count(*) FROM shipments JOIN parcels USING (shipment_id) "
    "WHERE year(sent_on) = 2023 AND status <> 'void'"
)


def test_the_layer_answers_the_question_itself(depot: Service) -> None:
    asked = depot.ask("number of shipments in 2023", "depot")
    assert asked["badge"] == "show", asked["verdict"]["reasons"]
    assert asked["answer"]["result"]["rows"] == [[6]]


def test_a_count_over_a_join_to_the_many_side_is_withheld_naming_both_numbers(
    depot: Service,
) -> None:
    out = depot.sql(FANNED, "depot", "number of shipments in 2023")
    assert out["badge"] == "withhold", out["verdict"]["reasons"]
    assert out["answer"] is None
    assert "veto.layer_answer_differs" in out["verdict"]["reasons"]
    message = _finding(out["verdict"], "veto.layer_answer_differs")["message"]
    assert "6" in message and "this query gives 15" in message, message
    assert out["verdict"]["provenance"]["layer_answer"]["agrees"] is False


def test_a_query_without_the_layers_required_filter_is_withheld(depot: Service) -> None:
    out = depot.sql(COUNTED, "depot", "number of shipments in 2023")
    assert out["badge"] == "withhold", out["verdict"]["reasons"]
    assert "this query gives 7" in _finding(out["verdict"], "veto.layer_answer_differs")["message"]


def test_a_query_giving_the_layers_answer_says_so_and_is_not_withheld_by_it(
    depot: Service,
) -> None:
    out = depot.sql(RIGHT_COUNT, "depot", "number of shipments in 2023")
    assert "veto.layer_answer_differs" not in out["verdict"]["reasons"]
    assert out["badge"] == "warn", out["verdict"]["reasons"]  # one sample: a warning at most
    assert out["verdict"]["provenance"]["layer_answer"]["agrees"] is True


def test_a_query_without_a_question_is_not_compared(depot: Service) -> None:
    out = depot.sql(FANNED, "depot")
    assert "veto.layer_answer_differs" not in out["verdict"]["reasons"]
    assert "layer_answer" not in out["verdict"]["provenance"]


def test_a_question_the_layer_does_not_answer_is_left_to_the_other_checks(
    depot: Service,
) -> None:
    out = depot.sql("SELECT 42", "depot", "how many penguins live in the depot?")
    codes = out["verdict"]["reasons"]
    assert "veto.layer_answer_differs" not in codes and "cap.layer_check_failed" not in codes
    assert out["verdict"]["provenance"]["layer_answer"]["compared"] is False


def test_agreeing_samples_that_differ_from_the_layer_are_withheld_on_score(
    depot: Service,
) -> None:
    sums = [
        "SELECT sum(weight) FROM parcels JOIN shipments USING (shipment_id) "
        "WHERE year(sent_on) = 2023",
        "SELECT sum(p.weight) FROM shipments s JOIN parcels p ON p.shipment_id = s.shipment_id "
        "WHERE s.sent_on >= DATE '2023-01-01' AND s.sent_on < DATE '2024-01-01'",
    ]
    record = {
        "id": "w",
        "question": "weight sent in 2023",
        "samples": [{"final_sql": s} for s in sums],
    }
    (out,) = depot.score([record], "depot")["verdicts"]
    assert out["badge"] == "withhold", out["verdict"]["reasons"]
    assert "veto.layer_answer_differs" in out["verdict"]["reasons"]


def test_a_result_given_without_sql_is_compared_too(depot: Service) -> None:
    given = {"result": {"columns": ["v"], "rows": [[999]]}}
    record = {"id": "r", "question": "number of shipments in 2023", "samples": [given, given]}
    (out,) = depot.score([record], "depot")["verdicts"]
    assert out["badge"] == "withhold", out["verdict"]["reasons"]
    assert (
        "this query gives 999" in _finding(out["verdict"], "veto.layer_answer_differs")["message"]
    )


def test_a_comparison_that_fails_warns_at_most(
    depot: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("engine gone")

    monkeypatch.setattr(depot.databases["depot"].agent, "ask", broken)
    record = {
        "id": "f",
        "question": "number of shipments in 2023",
        "samples": [{"final_sql": RIGHT_COUNT}] * 3,
    }
    (out,) = depot.score([record], "depot")["verdicts"]
    assert out["badge"] == "warn", out["verdict"]["reasons"]
    assert "cap.layer_check_failed" in out["verdict"]["reasons"]
    assert "engine gone" in _finding(out["verdict"], "cap.layer_check_failed")["message"]


# The tester's cases on the demo warehouse (conftest's ``service``).


def test_the_demo_orders_count_over_order_lines_is_withheld(service: Service) -> None:
    fanned = [
        "SELECT count(*) FROM orders JOIN order_lines USING(order_id) WHERE year(order_date)=2022",
        "SELECT count(order_id) FROM order_lines JOIN orders USING(order_id) "
        "WHERE year(order_date)=2022",
    ]
    record = {
        "id": "b",
        "question": "How many orders were placed in 2022?",
        "samples": [{"final_sql": s} for s in fanned],
    }
    (out,) = service.score([record], "shop")["verdicts"]
    assert out["badge"] == "withhold", out["verdict"]["reasons"]
    assert "veto.layer_answer_differs" in out["verdict"]["reasons"]
    one = service.sql(fanned[0], "shop", "How many orders were placed in 2022?")
    assert one["badge"] == "withhold" and one["answer"] is None


def test_the_demo_gross_revenue_without_the_cancelled_filter_is_withheld(
    service: Service,
) -> None:
    sql = (
        "SELECT SUM(quantity*unit_price) FROM order_lines JOIN orders USING(order_id) "
        "WHERE year(order_date)=2023"
    )
    out = service.sql(sql, "shop", "gross revenue in 2023")
    assert out["badge"] == "withhold", out["verdict"]["reasons"]
    message = _finding(out["verdict"], "veto.layer_answer_differs")["message"]
    assert "1,530,888.69" in message and "1,671,670.87" in message, message


def test_a_result_without_sql_the_layer_cannot_confirm_is_withheld(depot: Service) -> None:
    given = {"result": {"columns": ["v"], "rows": [[999]]}}
    record = {"id": "p", "question": "how many penguins live in the depot?", "samples": [given] * 2}
    (out,) = depot.score([record], "depot")["verdicts"]
    assert out["badge"] == "withhold", out["verdict"]["reasons"]
    assert "veto.result_unchecked" in out["verdict"]["reasons"]
    assert "999" in _finding(out["verdict"], "veto.result_unchecked")["message"]


def test_a_result_without_sql_that_the_layer_confirms_is_not_withheld_for_it(
    depot: Service,
) -> None:
    given = {"result": {"columns": ["n"], "rows": [[6]]}}
    record = {"id": "c", "question": "number of shipments in 2023", "samples": [given] * 3}
    (out,) = depot.score([record], "depot")["verdicts"]
    codes = out["verdict"]["reasons"]
    assert "veto.result_unchecked" not in codes and "veto.layer_answer_differs" not in codes
    assert out["badge"] in ("show", "warn"), codes


RIGHT_WEIGHT = (
    "SELECT sum(p.weight) FROM parcels p JOIN shipments s USING (shipment_id) "
    "WHERE year(s.sent_on) = 2023 AND s.status <> 'void'"
)


@pytest.mark.parametrize(
    "written",
    [
        "SELECT round(({sql}), 0)",
        "SELECT round(({sql}), 1)",
        "SELECT CAST(({sql}) AS DECIMAL(18, 2))",
        "SELECT ({sql})::DOUBLE",
    ],
)
def test_the_layers_answer_rounded_as_written_agrees(depot: Service, written: str) -> None:
    """Outside recheck 41 (F7): round(sum(...), 2) was withheld as "300,424,704.14; this query
    gives 300,424,704.14"."""
    out = depot.sql(written.format(sql=RIGHT_WEIGHT), "depot", "weight sent in 2023")
    assert "veto.layer_answer_differs" not in out["verdict"]["reasons"], out["verdict"]
    assert out["verdict"]["provenance"]["layer_answer"]["agrees"] is True


def test_a_wrong_answer_rounded_still_differs(depot: Service) -> None:
    unfiltered = RIGHT_WEIGHT.replace(" AND s.status <> 'void'", "")
    out = depot.sql(f"SELECT round(({unfiltered}), 0)", "depot", "weight sent in 2023")
    assert out["badge"] == "withhold", out["verdict"]["reasons"]
    assert "veto.layer_answer_differs" in out["verdict"]["reasons"]
    # a whole number typed as one is compared exactly: an integer division is not a rounding
    whole = depot.sql(
        f"SELECT CAST(floor(({RIGHT_WEIGHT})) AS BIGINT)", "depot", "weight sent in 2023"
    )
    assert "veto.layer_answer_differs" in whole["verdict"]["reasons"], whole["verdict"]


RIGHT_PARCELS = (
    "SELECT count(*) FROM parcels p JOIN shipments s USING (shipment_id) "
    "WHERE year(s.sent_on) = 2023 AND s.status <> 'void'"
)


def test_a_layer_held_for_confirmation_is_compared_too(depot: Service) -> None:
    """Outside recheck 41 (F3): where the layer's own answer waits for its facts to be confirmed
    (a drafted or imported layer), nothing was compared, and ``count(*) * 2`` was shown by
    /api/score."""
    asked = depot.ask("number of parcels in 2023", "depot")
    assert asked["verdict"]["action"] == "warn"
    assert "cap.unconfirmed_fact" in asked["verdict"]["reasons"]
    doubled = RIGHT_PARCELS.replace("count(*)", "count(*) * 2")
    out = depot.sql(doubled, "depot", "number of parcels in 2023")
    assert out["badge"] == "withhold", out["verdict"]["reasons"]
    message = _finding(out["verdict"], "veto.layer_answer_differs")["message"]
    assert "(its facts not yet confirmed)" in message, message
    right = depot.sql(RIGHT_PARCELS, "depot", "number of parcels in 2023")
    assert "veto.layer_answer_differs" not in right["verdict"]["reasons"]
    assert right["verdict"]["provenance"]["layer_answer"]["agrees"] is True
