"""``assay ask --agent --n-samples N``: N independent runs of the agent against a scripted
OpenAI-compatible server on loopback, scored as N samples (the governed-score paper, 3.1): runs
that agree can show; runs that disagree are withheld with the disagreement named; a run that
fails counts as a sample that does not agree, named with its cause; when every run fails,
nothing is shown and the cause is said."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest

from assay.cli._ask import render_answer
from assay.connectors import PooledConnector, connect
from assay.generators import ChatClient, ChatEndpoint
from assay.pipeline import ReactAgent, ask_agent
from assay.settings import load_settings
from tests.fixtures.llm_server import ScriptedServer
from tests.fixtures.shop import build_sqlite

SETTINGS = load_settings({})


def _final(sql: str) -> str:
    return f"THOUGHT: that is it\nFINAL_SQL: {sql}"


CUSTOMERS = _final("SELECT count(*) FROM customers")  # 50
ORDERS = _final("SELECT count(*) FROM orders")  # 200
PRODUCTS = _final("SELECT count(*) FROM products")  # 20
TOOLS = _final("SELECT count(*) FROM products WHERE category = 'tools'")
RULES: list[dict[str, Any]] = [
    {"match": "QUESTION: How many products are in the tools", "reply": TOOLS},
    # A majority that is not the first run; three runs that each say another thing.
    {"match": "QUESTION: How many customers do we have", "replies": [ORDERS, CUSTOMERS, CUSTOMERS]},
    {"match": "QUESTION: How many customers are on file", "replies": [CUSTOMERS, ORDERS, PRODUCTS]},
    # Runs that fail: the endpoint down once, a model that rambles to the step limit once.
    {
        "match": "QUESTION: How many products do we sell",
        "replies": [PRODUCTS, {"status": 500}, PRODUCTS, "I would guess about twenty."],
    },
    {"match": "QUESTION: How many products do we stock", "reply": PRODUCTS},
    {"match": "refused by the guard", "reply": "THOUGHT: not allowed\nFINAL: null"},
    {"match": "QUESTION: Empty the orders", "reply": "THOUGHT: go\nSQL: DELETE FROM orders"},
    {"match": "QUESTION: Fail", "status": 500},
]


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    server = ScriptedServer(RULES)  # a fresh one a test: each counts its conversations
    thread = threading.Thread(target=server.httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.httpd.shutdown()
        server.httpd.server_close()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sqlite(tmp_path_factory.mktemp("shop") / "shop.sqlite")


@pytest.fixture
def connector(db: Path) -> Iterator[PooledConnector]:
    with connect(str(db), SETTINGS) as c:
        yield c


def _ask(server: ScriptedServer, connector: PooledConnector, db: Path, q: str, n: int) -> Any:
    client = ChatClient(ChatEndpoint(server.url, "scripted", timeout_s=5))
    try:
        return ask_agent(q, str(db), connector, SETTINGS, client, n_runs=n)
    finally:
        client.close()


def test_runs_that_agree_can_show(
    server: ScriptedServer, connector: PooledConnector, db: Path
) -> None:
    verdict = _ask(server, connector, db, "How many products are in the tools category?", 3)
    assert verdict.action == "show" and verdict.score == 1.0, verdict.reasons
    assert "cap.single_sample" not in [f.code for f in verdict.findings]
    assert verdict.agreement["k"] == 3 and verdict.agreement["a"] == 1.0
    runs = verdict.provenance["agent_runs"]
    assert (runs["n"], runs["agreed"], runs["failed"]) == (3, 3, {})
    # Independent draws: sampled warm, one conversation a run.
    assert [r["body"]["temperature"] for r in server.log] == [0.7, 0.7, 0.7]
    assert "3 runs of the agent: 3 agreed" in click.unstyle(render_answer(verdict))


def test_one_run_stays_greedy_and_capped(
    server: ScriptedServer, connector: PooledConnector, db: Path
) -> None:
    verdict = _ask(server, connector, db, "How many products are in the tools category?", 1)
    assert verdict.action == "warn" and verdict.reasons == ("cap.single_sample",)
    assert [r["body"]["temperature"] for r in server.log] == [0.0]
    assert "agent_runs" not in verdict.provenance


def test_the_answer_shown_is_the_majoritys(
    server: ScriptedServer, connector: PooledConnector, db: Path
) -> None:
    verdict = _ask(server, connector, db, "How many customers do we have?", 3)
    assert verdict.candidate is not None and verdict.candidate.result is not None
    assert [list(r) for r in verdict.candidate.result.rows] == [[50]]  # runs 2 and 3, not run 1
    assert verdict.agreement["a"] == pytest.approx(2 / 3)
    assert verdict.action == "show", verdict.reasons  # sqrt(2/3) = 0.82
    runs = verdict.provenance["agent_runs"]
    assert runs["shown_run"] == 2 and runs["agreed"] == 2
    assert [r["agrees"] for r in runs["runs"]] == [False, True, True]


def test_runs_that_disagree_are_withheld_with_the_disagreement_named(
    server: ScriptedServer, connector: PooledConnector, db: Path
) -> None:
    verdict = _ask(server, connector, db, "How many customers are on file?", 3)
    assert verdict.action == "withhold"
    assert verdict.reasons == ("score.below_warn", "note.model_disagreed")
    (note,) = [f for f in verdict.findings if f.code == "note.model_disagreed"]
    assert note.message.startswith("2 of the agent's 3 runs ended on a query that returned")
    assert note.evidence["disagreeing"] == 2
    assert "note.model_disagreed: 2 of the agent's 3" in click.unstyle(render_answer(verdict))


def test_runs_that_fail_are_named_and_do_not_agree(
    server: ScriptedServer, connector: PooledConnector, db: Path
) -> None:
    verdict = _ask(server, connector, db, "How many products do we sell?", 4)
    # Two of four agree: sqrt(0.5) = 0.71 warns (four agreeing of four would show).
    assert verdict.agreement["a"] == 0.5 and verdict.action == "warn"
    assert verdict.reasons == ("score.below_show", "note.model_unusable")
    (note,) = [f for f in verdict.findings if f.code == "note.model_unusable"]
    assert note.message.startswith("2 of the agent's 4 runs gave no answer")
    assert "llm.unavailable" in note.message and "answered HTTP 500" in note.message
    assert "agent.max_steps" in note.message and "did not follow the protocol" in note.message
    runs = verdict.provenance["agent_runs"]
    assert runs["failed"] == {"agent.max_steps": 1, "llm.unavailable": 1}
    assert [r["ending"] for r in runs["runs"]] == [
        "answer",
        "llm.unavailable",
        "answer",
        "agent.max_steps",
    ]
    text = click.unstyle(render_answer(verdict))
    assert "4 runs of the agent: 2 agreed" in text and "1 agent.max_steps" in text


def test_a_run_that_raises_is_a_named_failure_not_a_crash(
    server: ScriptedServer, connector: PooledConnector, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    run = ReactAgent.run

    def flaky(self: ReactAgent, question: str, *, run_id: str | None = None) -> Any:
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("the connector went away")
        return run(self, question, run_id=run_id)

    monkeypatch.setattr(ReactAgent, "run", flaky)
    verdict = _ask(server, connector, db, "How many products do we stock?", 3)
    assert len(calls) == 3  # the other runs were drawn
    assert verdict.agreement["a"] == pytest.approx(2 / 3)  # the failed run does not agree
    (note,) = [f for f in verdict.findings if f.code == "note.model_unusable"]
    assert "agent.error" in note.message and "RuntimeError: the connector went away" in note.message
    assert verdict.provenance["agent_runs"]["failed"] == {"agent.error": 1}


def test_an_exception_while_scoring_the_runs_is_a_named_failure(
    server: ScriptedServer, connector: PooledConnector, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from assay.pipeline import Scorer

    def broken(self: Scorer, *args: Any, **kwargs: Any) -> Any:
        raise ValueError("a check fell over")

    monkeypatch.setattr(Scorer, "score", broken)
    verdict = _ask(server, connector, db, "How many products do we stock?", 2)
    assert verdict.action == "withhold" and verdict.reasons == ("score.internal_error",)
    assert (
        verdict.failure is not None
        and "ValueError: a check fell over" in verdict.failure["message"]
    )
    assert verdict.candidate is None and verdict.provenance["agent_runs"]["answered"] == 2


def test_when_every_run_fails_nothing_is_shown_and_the_cause_is_said(
    server: ScriptedServer, connector: PooledConnector, db: Path
) -> None:
    verdict = _ask(server, connector, db, "Fail now", 3)
    assert verdict.behaviour == "answer" and verdict.action == "withhold"
    assert verdict.candidate is None and verdict.reasons == ("llm.unavailable",)
    assert verdict.failure is not None and verdict.failure["code"] == "llm.unavailable"
    assert "3 of the agent's 3 runs" in verdict.failure["message"]
    assert "answered HTTP 500" in verdict.failure["message"]
    assert verdict.provenance["agent_runs"]["failed"] == {"llm.unavailable": 3}
    assert "answered HTTP 500" in click.unstyle(render_answer(verdict))


def test_when_every_run_abstains_the_question_is_abstained_on(
    server: ScriptedServer, connector: PooledConnector, db: Path
) -> None:
    verdict = _ask(server, connector, db, "Empty the orders table", 2)
    assert verdict.behaviour == "abstain" and verdict.reasons == ("agent.final_null",)
    assert verdict.failure is None
    assert verdict.provenance["message"] == (
        "2 of the agent's 2 runs: The agent found that the database cannot answer this question."
    )


def test_n_samples_draws_n_runs_on_the_command_line(server: ScriptedServer, db: Path) -> None:
    from click.testing import CliRunner

    from assay.cli._main import main

    env = {"ASSAY_LLM_BASE_URL": server.url, "ASSAY_LLM_MODEL": "scripted"}
    question = "How many products are in the tools category?"
    args = ["ask", "--agent", "--n-samples", "3", "--db", str(db), "--json", question]
    result = CliRunner().invoke(main, args, env=env)
    assert result.exit_code == 0, result.output
    verdict = json.loads(result.output)
    assert verdict["action"] == "show" and verdict["provenance"]["agent_runs"]["n"] == 3
    assert len(server.log) == 3
    text = CliRunner().invoke(main, [*args[:-2], question], env=env)
    assert "3 runs of the agent: 3 agreed" in text.output
