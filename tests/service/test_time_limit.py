"""A request's time limit stops its query when the server answers in its own threads
(``answer_processes: 0``, docs/deploy.md's setting for a small machine): the next ask does not
wait for the engine's own limit (outside tryout 25: every ask got 504 for 7 s after one slow
question)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from assay.scoring import DEFAULT_RULE
from assay.service import Service, create_app
from tests.service.conftest import make_service

pytestmark = pytest.mark.slow

# A three-way self join of 20,000 orders that passes the guard: minutes of work.
SLOW = (
    "SELECT count(*) AS n FROM orders a JOIN orders b ON a.order_id <> b.order_id "
    "JOIN orders c ON b.order_id <> c.order_id"
)
QUICK = "SELECT count(*) AS n FROM orders"
LIMIT_S = 1.5


@pytest.fixture
def limited(demo_paths: tuple[Path, Path], tmp_path: Path) -> Any:
    """The server's own threads answer (no answer processes), under a 1.5 s request limit and
    the engine's default 10 s."""
    svc = make_service(
        demo_paths, f"sqlite:///{tmp_path / 'l.db'}", limits={"request_time_limit_s": LIMIT_S}
    )
    assert svc.answerers is None and svc.settings.time_limit_ms >= 10_000
    yield svc
    svc.close()
    svc.ledger.close()


def test_a_query_past_the_request_limit_is_stopped_and_the_next_ask_waits_not(
    limited: Service,
) -> None:
    before = limited.ledger.counts().verdicts
    with TestClient(create_app(limited), raise_server_exceptions=False) as c:
        slow = c.post("/api/sql", json={"sql": SLOW})
        assert slow.status_code == 504, slow.text
        assert slow.json()["error"]["code"] == "request.timeout"
        started = time.monotonic()
        quick = c.post("/api/sql", json={"sql": QUICK})
        waited = time.monotonic() - started
    assert quick.status_code == 200, quick.text
    assert quick.json()["answer"]["result"]["rows"] == [[20000]]
    # The slow query held the one engine worker until the engine's 10 s limit before; now it
    # is killed at the request's limit (and the kill's half-second grace).
    assert waited < LIMIT_S + 1.5, f"the next query waited {waited:.1f} s"
    assert limited.ledger.counts().verdicts == before + 1  # the timed-out one is not recorded


def test_an_ask_past_the_request_limit_stops_its_queries_and_records_nothing(
    limited: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An ask whose SQL runs past the limit (a slow query stands in for the answer's): the
    thread's queries are cut at the limit, and the late verdict is not recorded."""
    db = limited.database(None)
    ran: list[float] = []

    def answer(*args: object, **kwargs: object) -> tuple[dict[str, Any], None]:
        started = time.monotonic()
        try:
            db.connector.execute(SLOW, time_limit_ms=10_000, max_rows=1)
        finally:
            ran.append(time.monotonic() - started)
        raise AssertionError("the slow query finished")

    monkeypatch.setattr(limited, "_answer", answer)
    before = limited.ledger.counts().verdicts
    with TestClient(create_app(limited), raise_server_exceptions=False) as c:
        response = c.post("/api/ask", json={"question": "What was the gross revenue in 2023?"})
        assert response.status_code == 504, response.text
        deadline = time.monotonic() + 15
        while not ran and time.monotonic() < deadline:
            time.sleep(0.05)
    assert ran and ran[0] < LIMIT_S + 1.5, f"the query ran {ran} s"
    assert limited.ledger.counts().verdicts == before


# Ten billion pairs of a cross join on the demo's DuckDB file that passes the guard (a condition
# between the two sides): past the engine's 10 s limit.
CROSS = (
    "SELECT count(*) AS n FROM generate_series(1, 100000) AS a(i) "
    "CROSS JOIN generate_series(1, 100000) AS b(j) WHERE a.i < b.j"
)


def _record(ident: str, sql: str) -> dict[str, Any]:
    return {"id": ident, "question": "How many orders are there?", "samples": [{"final_sql": sql}]}


def test_a_score_past_the_request_limit_stops_its_query_and_records_none_of_its_verdicts(
    limited: Service,
) -> None:
    """/api/score under the request's limit: the slow record's query is stopped at the limit,
    the next request is answered at once, and the quick record scored before the slow one is
    not recorded either (the request is refused whole)."""
    with TestClient(create_app(limited), raise_server_exceptions=False) as c:
        # The scorer's connector and catalog, opened on first use (over a second), are opened
        # before the clock starts.
        db = limited.database(None)
        limited._scorer(db, DEFAULT_RULE).database(limited.config.databases[db.key].url)
        before = limited.ledger.counts().verdicts
        slow = c.post(
            "/api/score", json={"records": [_record("quick", QUICK), _record("slow", CROSS)]}
        )
        assert slow.status_code == 504, slow.text
        assert slow.json()["error"]["code"] == "request.timeout"
        started = time.monotonic()
        quick = c.post("/api/score", json={"records": [_record("quick", QUICK)]})
        waited = time.monotonic() - started
        assert quick.status_code == 200, quick.text
        assert quick.json()["verdicts"][0]["verdict"]["result"]["rows"] == [[20000]]
        # The slow query held the scorer until the engine's 10 s limit before; now it is killed
        # at the request's limit (and the kill's half-second grace).
        assert waited < LIMIT_S + 1.5, f"the next score waited {waited:.1f} s"
        time.sleep(LIMIT_S)  # time for a late verdict of the refused request to be written
    assert limited.ledger.counts().verdicts == before + 1  # the next request's only


def test_a_query_scored_past_the_request_limit_is_not_recorded_with_answer_processes(
    limited: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/api/sql is scored in the server's thread even where answer processes answer the asks:
    a verdict finished past the limit is not recorded (its client was told 504)."""
    monkeypatch.setattr(limited, "answerers", object())  # answer processes on; /api/sql uses none
    scorer = limited._scorer(limited.database(None), DEFAULT_RULE)
    score = scorer.score
    finished: list[str] = []

    def slow_score(*args: Any, **kwargs: Any) -> Any:
        time.sleep(LIMIT_S + 0.5)
        verdict = score(*args, **kwargs)
        finished.append(verdict.action)
        return verdict

    monkeypatch.setattr(scorer, "score", slow_score)
    before = limited.ledger.counts().verdicts
    with TestClient(create_app(limited), raise_server_exceptions=False) as c:
        response = c.post("/api/sql", json={"sql": QUICK})
        assert response.status_code == 504, response.text
        deadline = time.monotonic() + 15
        while not finished and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # the ledger write that followed the scoring, before
    assert finished, "the scoring never finished"
    assert limited.ledger.counts().verdicts == before
