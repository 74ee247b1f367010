"""A request's time limit stops its query when the server answers in its own threads
(``answer_processes: 0``, docs/deploy.md's setting for a small machine): the next ask does not
wait for the engine's own limit (outside tryout 25: every ask got 504 for 7 s after one slow
question)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from assay.scoring import DEFAULT_RULE
from assay.service import Service, create_app, demo_config
from assay.service._deadline import Deadline
from assay.service._errors import ApiError
from assay.settings import load_settings
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


ANSWERED = "What was the gross revenue in 2023?"


def test_an_ask_that_waited_for_a_busy_answer_process_past_the_limit_records_nothing(
    demo_paths: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Answer processes on (``assay serve``'s default) and the only one busy until after the
    request's limit: the client is told 504, and no verdict is recorded, nor is the answer
    process killed for it. Before, the limit was counted afresh from when the ask reached a
    free process: it was answered then, and its verdict recorded after the 504."""
    settings = load_settings()
    config = demo_config(*demo_paths, settings, f"sqlite:///{tmp_path / 'ledger.db'}")
    config = config.model_copy(
        update={"limits": config.limits.model_copy(update={"request_time_limit_s": LIMIT_S})}
    )
    service = Service(config, settings, answer_processes=1)
    try:
        answerers = service.answerers
        assert answerers is not None
        (pid,) = answerers.pids()
        ask = answerers.ask
        done = threading.Event()

        def watched(*args: Any, **kwargs: Any) -> dict[str, Any]:
            try:
                return ask(*args, **kwargs)
            finally:
                done.set()

        monkeypatch.setattr(answerers, "ask", watched)
        before = service.ledger.counts().verdicts
        busy = answerers._idle.get()  # another ask holds the one process ...
        # ... until just after this request's limit
        threading.Timer(LIMIT_S + 0.3, answerers._release, (busy,)).start()
        with TestClient(create_app(service), raise_server_exceptions=False) as c:
            response = c.post("/api/ask", json={"question": ANSWERED})
            assert response.status_code == 504, response.text
            assert response.json()["error"]["code"] == "request.timeout"
            assert done.wait(30), "the ask never came back from the answer process"
            time.sleep(0.5)  # the ledger write that followed, before
        assert service.ledger.counts().verdicts == before
        assert answerers.pids() == [pid]  # it gave up waiting: no process was killed for it
        # the process serves the next ask (given time: this checks it serves, not its speed;
        # under a loaded machine a 1.5 s limit was missed here)
        assert service.ask(ANSWERED, deadline=Deadline(60.0))["badge"] == "show"
    finally:
        service.close()
        service.ledger.close()


def test_a_verdict_whose_ledger_write_began_within_the_limit_is_sent_not_504(
    limited: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The work's last look at the clock and its ledger write are not one instant: a verdict
    found in time whose write ran past the limit (a slow commit stands in) was recorded after
    its client had been told 504. The work now claims the request before it writes, and the
    server, at the limit, waits for the write and sends the verdict: a verdict recorded is a
    verdict its client got."""
    limited.sql(QUICK)  # the scorer opened (over a second) before the clock starts
    record = limited.ledger.record

    def slow_record(*args: Any, **kwargs: Any) -> None:
        time.sleep(LIMIT_S + 0.5)
        record(*args, **kwargs)

    monkeypatch.setattr(limited.ledger, "record", slow_record)
    with TestClient(create_app(limited), raise_server_exceptions=False) as c:
        response = c.post("/api/sql", json={"sql": QUICK})
    assert response.status_code == 200, response.text
    assert limited.ledger.verdict(response.json()["verdict"]["id"]) is not None


@pytest.mark.parametrize(
    "call",
    [
        lambda s, d: s.ask(ANSWERED, deadline=d),
        lambda s, d: s.sql(QUICK, deadline=d),
        lambda s, d: s.score([_record("quick", QUICK)], deadline=d),
    ],
    ids=["ask", "sql", "score"],
)
def test_work_given_a_request_s_deadline_counts_from_the_request_s_start(
    limited: Service, call: Any
) -> None:
    """The service counts the limit from the request's start (the app's clock, handed on as
    its deadline), not from when a request thread took up the work: a request that reached
    its thread after its limit is refused at once, with nothing run and nothing recorded."""
    db = limited.database(None)
    before = (limited.ledger.counts().verdicts, db.connector.statement_count)
    late = Deadline(LIMIT_S, started=time.monotonic() - LIMIT_S - 1.0)
    with pytest.raises(ApiError) as raised:
        call(limited, late)
    assert raised.value.code == "request.timeout" and raised.value.status == 504
    assert (limited.ledger.counts().verdicts, db.connector.statement_count) == before
