"""Reading and answer processes (``assay serve``'s default): the questions are read, and the
asks that run SQL answered, in other processes, exactly as in the request threads; one that dies
fails its ask closed (nothing shown, nothing recorded) and is replaced."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from assay.service import Service, ServiceConfig, create_app, demo_config
from assay.service._answerers import Settled, _descendants
from assay.service._errors import ApiError
from assay.service._reading import choices_for
from assay.settings import load_settings
from tests.service.conftest import make_service

pytestmark = pytest.mark.slow

ANSWERED = "What was the gross revenue in 2023?"
BREAKDOWN = "What was the number of orders per month in 2024?"
SETTLED = "What was revenue in 2023?"
REFUSED = "Delete all cancelled orders."
ABSTAINED = "What was the gross revenue for Atlantis in 2023?"
COMPARED = ("behaviour", "action", "score", "reasons", "sql", "result", "text", "reading")


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a killed one not yet reaped is a zombie: not live)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _service(paths: tuple[Path, Path], folder: Path, readers: int) -> Iterator[Service]:
    settings = load_settings()
    config = demo_config(*paths, settings, f"sqlite:///{folder / 'ledger.db'}")
    # A fresh answer process's first ask loads everything; on a loaded machine that passed the
    # 30 s request limit (a fresh clone's run beside five others: 504, no badge). These tests
    # are about processes, not limits.
    limits = {**config.limits.model_dump(), "request_time_limit_s": 300.0}
    config = ServiceConfig.model_validate({**config.model_dump(), "limits": limits})
    service = Service(config, settings, answer_processes=1, reading_processes=readers)
    yield service
    service.close()
    service.ledger.close()


@pytest.fixture
def in_processes(demo_paths: tuple[Path, Path], tmp_path: Path) -> Iterator[Service]:
    """Read here, answered in an answer process."""
    yield from _service(demo_paths, tmp_path, 0)


@pytest.fixture
def read_elsewhere(demo_paths: tuple[Path, Path], tmp_path: Path) -> Iterator[Service]:
    """Read in a reading process, answered in an answer process (``assay serve``'s default)."""
    yield from _service(demo_paths, tmp_path, 1)


@pytest.mark.parametrize("kind", ["in_processes", "read_elsewhere"])
def test_other_processes_answer_as_the_request_threads_do(
    kind: str, request: pytest.FixtureRequest, demo_paths: tuple[Path, Path], tmp_path: Path
) -> None:
    in_processes: Service = request.getfixturevalue(kind)
    threads = make_service(demo_paths, f"sqlite:///{tmp_path / 'threads.db'}")
    try:
        main = in_processes.database(None).connector
        questions = (ANSWERED, BREAKDOWN, SETTLED, REFUSED, ABSTAINED)
        for question in questions:
            before = main.statement_count
            there = in_processes.ask(question)
            here = threads.ask(question)
            if in_processes.readers is not None:  # nothing ran in this process, not even a probe
                assert main.statement_count == before, question
            for key in COMPARED:
                assert there["verdict"].get(key) == here["verdict"].get(key), (question, key)
            assert there["badge"] == here["badge"] and there["reading"] == here["reading"]
            stored = in_processes.ledger.verdict(there["verdict"]["id"])
            assert stored is not None and stored["verdict"] == there["verdict"]
        assert [in_processes.ask(q)["badge"] for q in questions] == [
            "show",
            "show",
            "ask back",
            "refuse",
            "abstain",
        ]
    finally:
        threads.close()


@pytest.mark.parametrize(
    ("kind", "pool", "settled"),
    # A dead answer process is not needed by an ask settled by reading; a dead reading process
    # is needed by every ask, so the next one is read by its successor.
    [("in_processes", "answerers", "ask back"), ("read_elsewhere", "readers", "refuse")],
)
def test_a_dead_process_fails_its_ask_closed_and_is_replaced(
    kind: str, pool: str, settled: str, request: pytest.FixtureRequest
) -> None:
    service: Service = request.getfixturevalue(kind)
    processes = getattr(service, pool)
    assert processes is not None
    client = TestClient(create_app(service))
    assert client.post("/api/ask", json={"question": ANSWERED}).json()["badge"] == "show"
    (first,) = processes.pids()
    os.kill(first, signal.SIGKILL)
    before = service.ledger.counts().verdicts
    response = client.post("/api/ask", json={"question": ANSWERED})
    assert response.status_code == 503, response.text
    body = response.json()
    assert body["ok"] is False and body["error"]["code"] == "answer.failed"
    assert "answer" not in body and "verdict" not in body  # nothing shown
    assert service.ledger.counts().verdicts == before  # nothing recorded
    question = SETTLED if settled == "ask back" else REFUSED
    assert client.post("/api/ask", json={"question": question}).json()["badge"] == settled
    again = client.post("/api/ask", json={"question": ANSWERED}).json()
    assert again["badge"] == "show" and again["answer"]["result"]
    assert processes.pids() != [first]


def test_closing_the_service_ends_its_answer_processes(in_processes: Service) -> None:
    assert in_processes.answerers is not None
    in_processes.ask(ANSWERED)
    (pid,) = in_processes.answerers.pids()
    in_processes.close()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_closing_the_service_ends_its_reading_processes(read_elsewhere: Service) -> None:
    assert read_elsewhere.readers is not None and read_elsewhere.answerers is not None
    read_elsewhere.ask(ANSWERED)
    pids = read_elsewhere.readers.pids() + read_elsewhere.answerers.pids()
    read_elsewhere.close()
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_a_reading_awaited_on_the_event_loop_reads_as_the_threads_do(
    read_elsewhere: Service,
) -> None:
    """``read_async`` (the API's path for an ask without a follow-up): the same record as
    ``read``, with the ask-back's choices the server would make itself; a request that stops
    waiting leaves the process to finish and serve the next one,
    and the pipe is read blocking again afterwards (an event loop that watched it may have made
    it non-blocking)."""
    readers = read_elsewhere.readers
    assert readers is not None
    (pid,) = readers.pids()

    async def read(question: str, ident: str) -> Settled | None:
        return await readers.read_async("shop", question, ident)

    settled = asyncio.run(read(SETTLED, "a1"))
    assert settled is not None
    record, choices = settled
    assert record["behaviour"] == "clarify" and record["id"] == "a1"
    db = read_elsewhere.database(None)
    assert choices == choices_for(record, db.layer, db.agent.lexicon)  # as made in the server
    assert [c["question"] for c in choices] == [
        "What was gross revenue in 2023?",
        "What was net revenue in 2023?",
    ]
    assert asyncio.run(read(ANSWERED, "a2")) is None  # it runs SQL: not settled by reading
    again = readers.read("shop", SETTLED, "a3")  # blocking, after the loop watched the pipe
    assert again is not None and again[0]["reasons"] == record["reasons"]
    assert again[1] == choices

    async def impatient() -> None:
        # The request stops waiting once its question is sent (cancelled, as a time limit or a
        # disconnect cancels it); a timeout of a fraction of a millisecond raced the reply on
        # a loaded machine (a fresh-clone run saw the reading finish first).
        task = asyncio.ensure_future(read(REFUSED, "a4"))
        await asyncio.sleep(0)  # it sends the question and waits for the reply
        task.cancel()
        await task

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(impatient())
    # It waits for the abandoned reading first (a process never handed back would block it:
    # a daemon thread, so that such a failure fails here rather than hanging the run).
    got: list[Settled | None] = []
    waiter = threading.Thread(
        target=lambda: got.append(readers.read("shop", REFUSED, "a5")), daemon=True
    )
    waiter.start()
    waiter.join(60)
    assert got, "the process the abandoned reading held was never handed back"
    (refused,) = got
    assert refused is not None and refused[0]["behaviour"] == "refuse"
    assert refused[0]["id"] == "a5" and refused[1] == []
    assert readers.pids() == [pid]  # drained and handed back, never replaced


def test_an_answer_past_the_time_limit_is_stopped_not_left_running(
    demo_paths: tuple[Path, Path], tmp_path: Path
) -> None:
    """The request's time limit stops the work too: the answer process (and its engine worker)
    is killed and replaced; nothing is recorded. (Before, the request gave up waiting while
    the ask ran on to its engine's limit.) The process is paused (SIGSTOP) so that its answer
    outlasts the limit: a limit shorter than the reading done before it reaches the process
    (0.001 s, before) now stops the ask before it is sent, with no process to kill."""
    settings = load_settings()
    config = demo_config(*demo_paths, settings, f"sqlite:///{tmp_path / 'ledger.db'}")
    config = config.model_copy(
        update={"limits": config.limits.model_copy(update={"request_time_limit_s": 3.0})}
    )
    service = Service(config, settings, answer_processes=1)
    try:
        assert service.answerers is not None
        (first,) = service.answerers.pids()
        engines = _descendants(first)
        assert engines, "the answer process has its engine worker"
        before = service.ledger.counts().verdicts
        os.kill(first, signal.SIGSTOP)
        with pytest.raises(ApiError) as raised:
            service.ask(ANSWERED)
        assert raised.value.code == "request.timeout" and raised.value.status == 504
        assert "stopped" in raised.value.message
        deadline = time.monotonic() + 10  # a killed process is gone once it is reaped
        while [p for p in [first, *engines] if _running(p)] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [p for p in [first, *engines] if _running(p)]
        assert service.answerers.pids() != [first]  # replaced
        assert service.ledger.counts().verdicts == before  # nothing recorded
        assert service.ask(SETTLED)["badge"] == "ask back"  # a settled ask needs no answer
    finally:
        service.close()
        service.ledger.close()


def test_a_reading_process_offers_a_did_you_mean_its_choice(read_elsewhere: Service) -> None:
    """The reading process's choices (cached per question) are the server's own for a
    did-you-mean too, which names no metric reading (it had none: outside tryout 12)."""
    readers = read_elsewhere.readers
    assert readers is not None
    settled = readers.read("shop", "gross revenue in Germny in 2023", "d1")
    assert settled is not None
    record, choices = settled
    assert record["reasons"] == ["behaviour.did_you_mean"]
    db = read_elsewhere.database(None)
    assert choices == choices_for(record, db.layer, db.agent.lexicon)
    assert [c["question"] for c in choices] == ["gross revenue in Germany in 2023"]


def test_asks_waiting_for_a_reading_process_wait_on_the_event_loop(
    read_elsewhere: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More asks than reading processes: the rest wait on the event loop, first come first
    served, and each gets the process the one before it handed back (before, they waited in
    threads, 30 to 60 ms more under load); one that stops waiting loses no process."""
    readers = read_elsewhere.readers
    assert readers is not None
    (pid,) = readers.pids()

    def no_thread(*args: object) -> None:
        raise AssertionError("an ask waited for a reading process in a thread")

    monkeypatch.setattr(readers, "read", no_thread)
    finished: list[str] = []

    async def read(question: str, ident: str) -> Settled | None:
        settled = await readers.read_async("shop", question, ident)
        finished.append(ident)
        return settled

    async def many() -> list[Settled | None]:
        first = asyncio.ensure_future(read(SETTLED, "w0"))
        await asyncio.sleep(0)  # w0 holds the one process
        impatient = asyncio.ensure_future(read(REFUSED, "w1"))
        rest = [
            asyncio.ensure_future(read(q, f"w{n}"))
            for n, q in enumerate([ABSTAINED, REFUSED, SETTLED, ANSWERED], start=2)
        ]
        await asyncio.sleep(0)
        impatient.cancel()  # stops waiting before it got a process
        return await asyncio.gather(first, *rest)

    got = asyncio.run(many())
    assert finished == ["w0", "w2", "w3", "w4", "w5"]  # in the order they asked
    assert [None if g is None else g[0]["behaviour"] for g in got] == [
        "clarify",
        "abstain",
        "refuse",
        "clarify",
        None,
    ]
    assert [g[0]["id"] for g in got if g is not None] == ["w0", "w2", "w3", "w4"]
    assert readers.pids() == [pid]
    monkeypatch.undo()
    # The process is idle again: a blocking read (a thread's) gets it at once.
    again = readers.read("shop", SETTLED, "w6")
    assert again is not None and again[0]["id"] == "w6"
