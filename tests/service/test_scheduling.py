"""How the service schedules asks: a question settled by reading it (asked back, abstained on,
refused) never runs SQL and never waits for the asks that do; those take turns, n_workers + 1
at once, after their reading."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from assay.cli._ask import DEMO_QUESTIONS
from assay.pipeline import Agent
from assay.pipeline._agent import Rest
from assay.service import Service
from assay.types import Verdict

SETTLED = {
    "What was revenue in 2023?": "clarify",
    "What was the gross revenue for Atlantis in 2023?": "abstain",
    "Delete all cancelled orders.": "refuse",
}
ANSWERED = "What was the gross revenue in 2023?"


def test_the_demo_questions_used_here_are_the_demo_s() -> None:
    assert set(SETTLED) | {ANSWERED} <= set(DEMO_QUESTIONS)


def test_begin_settles_a_question_by_reading_it_and_runs_no_sql(service: Service) -> None:
    db = service.database(None)
    agent: Agent = db.agent
    agent.ask(ANSWERED)  # warm: the data's own date range is read once, then kept
    for question, behaviour in SETTLED.items():
        before = db.connector.statement_count
        started = agent.begin(question, "t-settled")
        assert isinstance(started, Verdict), question
        assert started.behaviour == behaviour, question
        assert db.connector.statement_count == before, question
        whole = agent.ask(question, "t-settled")
        assert whole.to_dict() == started.to_dict(), question
    before = db.connector.statement_count
    rest = agent.begin(ANSWERED, "t-answered")
    assert isinstance(rest, Rest)
    assert db.connector.statement_count == before  # reading it ran nothing
    finished = rest.finish()
    assert finished.behaviour == "answer" and finished.action in ("show", "warn")
    assert finished.to_dict()["score"] == agent.ask(ANSWERED, "t-answered").to_dict()["score"]


def test_settled_asks_never_wait_behind_asks_that_run_sql(service: Service) -> None:
    db = service.database(None)
    slots = service.settings.n_workers + 1
    for _ in range(slots):  # every turn at the engine taken
        assert db.engine_slots.acquire(timeout=30)
    released = False
    try:
        with ThreadPoolExecutor(2) as pool:
            answered = pool.submit(service.ask, ANSWERED)
            settled = pool.submit(service.ask, "Delete all cancelled orders.")
            assert settled.result(timeout=60)["badge"] == "refuse"
            # The ask that runs SQL waits for a turn (it takes well under a second otherwise).
            with pytest.raises(TimeoutError):
                answered.result(timeout=3)
            for _ in range(slots):
                db.engine_slots.release()
            released = True
            out: dict[str, Any] = answered.result(timeout=120)
            assert out["badge"] in ("show", "warn")
    finally:
        if not released:
            for _ in range(slots):
                db.engine_slots.release()
    # All turns are free again.
    taken = [db.engine_slots.acquire(blocking=False) for _ in range(slots)]
    assert all(taken)
    for _ in taken:
        db.engine_slots.release()
