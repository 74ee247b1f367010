"""Answer processes (``assay serve``'s default): the asks that run SQL are answered in another
process, exactly as in the request threads; one that dies fails its ask closed (nothing shown,
nothing recorded) and is replaced."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from assay.service import Service, create_app, demo_config
from assay.settings import load_settings
from tests.service.conftest import make_service

pytestmark = pytest.mark.slow

ANSWERED = "What was the gross revenue in 2023?"
BREAKDOWN = "What was the number of orders per month in 2024?"
SETTLED = "What was revenue in 2023?"
COMPARED = ("behaviour", "action", "score", "reasons", "sql", "result", "text", "reading")


@pytest.fixture
def in_processes(demo_paths: tuple[Path, Path], tmp_path: Path) -> Iterator[Service]:
    settings = load_settings()
    config = demo_config(*demo_paths, settings, f"sqlite:///{tmp_path / 'ledger.db'}")
    service = Service(config, settings, answer_processes=1)
    yield service
    service.close()
    service.ledger.close()


def test_an_answer_process_answers_as_the_request_threads_do(
    in_processes: Service, demo_paths: tuple[Path, Path], tmp_path: Path
) -> None:
    threads = make_service(demo_paths, f"sqlite:///{tmp_path / 'threads.db'}")
    try:
        main = in_processes.database(None).connector
        for question in (ANSWERED, BREAKDOWN, SETTLED):
            before = main.statement_count
            there = in_processes.ask(question)
            here = threads.ask(question)
            assert main.statement_count == before, question  # nothing ran in this process
            for key in COMPARED:
                assert there["verdict"].get(key) == here["verdict"].get(key), (question, key)
            assert there["badge"] == here["badge"] and there["reading"] == here["reading"]
            stored = in_processes.ledger.verdict(there["verdict"]["id"])
            assert stored is not None and stored["verdict"] == there["verdict"]
        assert in_processes.ask(ANSWERED)["badge"] == "show"
    finally:
        threads.close()


def test_a_dead_answer_process_fails_its_ask_closed_and_is_replaced(in_processes: Service) -> None:
    assert in_processes.answerers is not None
    assert in_processes.ask(ANSWERED)["badge"] == "show"  # started and answering
    client = TestClient(create_app(in_processes))
    (first,) = in_processes.answerers.pids()
    os.kill(first, signal.SIGKILL)
    before = in_processes.ledger.counts().verdicts
    response = client.post("/api/ask", json={"question": ANSWERED})
    assert response.status_code == 503, response.text
    body = response.json()
    assert body["ok"] is False and body["error"]["code"] == "answer.failed"
    assert "answer" not in body and "verdict" not in body  # nothing shown
    assert in_processes.ledger.counts().verdicts == before  # nothing recorded
    # A settled ask never needed the answer process; the next answered ask gets a new one.
    assert client.post("/api/ask", json={"question": SETTLED}).json()["badge"] == "ask back"
    again = client.post("/api/ask", json={"question": ANSWERED}).json()
    assert again["badge"] == "show" and again["answer"]["result"]
    assert in_processes.answerers.pids() != [first]


def test_closing_the_service_ends_its_answer_processes(in_processes: Service) -> None:
    assert in_processes.answerers is not None
    in_processes.ask(ANSWERED)
    (pid,) = in_processes.answerers.pids()
    in_processes.close()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
