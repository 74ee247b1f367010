"""Assay's ReAct agent against a scripted OpenAI-compatible server on loopback: the Appendix H
protocol, every query through the guard and the read-only connector, the run record written as
it goes, failures named, and the monitor's gate, early exit and delivery decision live."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from assay.connectors import PooledConnector, connect
from assay.generators import ChatClient, ChatEndpoint
from assay.monitor import IsotonicMap, Monitor, fit_text_head
from assay.pipeline import ReactAgent, ask_agent
from assay.pipeline._react import parse_reply
from assay.settings import load_settings
from tests.fixtures.llm_server import ScriptedServer
from tests.fixtures.shop import build_sqlite

SETTINGS = load_settings({})
FINAL = "THOUGHT: I have it\nFINAL_SQL: SELECT count(*) FROM products WHERE category = 'toys'"
EXPLORE = "THOUGHT: look first\nSQL: SELECT name FROM products WHERE category = 'toys' LIMIT 3"
# Answers to other rows than those asked for (another category, another year), one turn each.
WRONG_CATEGORY = "THOUGHT: count\nFINAL_SQL: SELECT count(*) FROM products WHERE category = 'books'"
RIGHT_CATEGORY = "THOUGHT: count\nFINAL_SQL: SELECT count(*) FROM products WHERE category = 'tools'"
WRONG_YEAR = (
    "THOUGHT: count\nFINAL_SQL: SELECT count(*) FROM customers "
    "WHERE created_at >= '2024-01-01' AND created_at < '2025-01-01'"
)
FENCED = "THOUGHT: count\nFINAL_SQL:\n```sql\nSELECT count(*) FROM orders;\n```\nThat counts them."
RULES: list[dict[str, Any]] = [
    {"match": "QUESTION: How many products are in the toys", "reply": WRONG_CATEGORY},
    {"match": "QUESTION: How many products are in the tools", "reply": RIGHT_CATEGORY},
    {"match": "QUESTION: How many customers signed up in 2023", "reply": WRONG_YEAR},
    {"match": "QUESTION: How many orders are there", "reply": FENCED},
    {
        "match": "QUESTION: Count the widgets",
        "reply": "THOUGHT: w\nFINAL_SQL: SELECT 1 FROM widgets",
    },
    {"match": "RESULT: 3 rows", "reply": FINAL},
    {"match": "QUESTION: How many toy products", "reply": EXPLORE},
    {"match": "refused by the guard", "reply": "THOUGHT: not allowed\nFINAL: null"},
    {"match": "QUESTION: Empty the orders", "reply": "THOUGHT: go\nSQL: DELETE FROM orders"},
    {"match": "QUESTION: Ramble", "reply": "I think the answer is probably 42."},
    {"match": "QUESTION: Fail", "status": 500},
]


@contextmanager
def _server() -> Iterator[ScriptedServer]:
    server = ScriptedServer(RULES)
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


@pytest.fixture(scope="module")
def server() -> Iterator[ScriptedServer]:
    with _server() as s:
        yield s


@pytest.fixture
def connector(db: Path) -> Iterator[PooledConnector]:
    with connect(str(db), SETTINGS) as c:
        yield c


def _client(server: ScriptedServer) -> ChatClient:
    return ChatClient(ChatEndpoint(server.url, "scripted", timeout_s=5))


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (
            EXPLORE,
            ("sql", "look first", "SELECT name FROM products WHERE category = 'toys' LIMIT 3"),
        ),
        ("THOUGHT: no\nFINAL: null", ("final_null", "no", None)),
        ("THOUGHT: a\nFINAL_SQL: SELECT 1;\nBEST_SO_FAR: null", ("final_sql", "a", "SELECT 1")),
        ("just words", ("text", "", None)),
        (FENCED, ("final_sql", "count", "SELECT count(*) FROM orders")),
        ("THOUGHT: a\nSQL: `SELECT 1`", ("sql", "a", "SELECT 1")),
        ("THOUGHT: a\nFINAL_SQL:\n```\n```", ("text", "a", None)),
    ],
    ids=["sql", "final-null", "final-sql", "unreadable", "fenced", "backticks", "empty-fence"],
)
def test_parse_reply(reply: str, expected: tuple[str, str, str | None]) -> None:
    assert parse_reply(reply) == expected


def test_the_agent_explores_then_answers_and_records_each_step(
    server: ScriptedServer, connector: PooledConnector
) -> None:
    seen: list[int] = []
    agent = ReactAgent(
        _client(server), connector, SETTINGS, on_step=lambda r: seen.append(len(r.steps))
    )
    out = agent.run("How many toy products are there?")
    run = out.run
    assert out.stopped is None and run.final == "answer" and seen == [1, 2]
    assert [s.action for s in run.steps] == ["sql", "final_sql"]
    assert run.steps[0].row_count == 3 and run.steps[0].n_columns == 1
    assert run.steps[1].row_count == 1 and "5" in run.steps[1].observation  # 5 toys
    assert run.steps[0].token_logprobs is None  # the server sent none: absent, not zero
    assert out.delivered


def test_a_write_is_refused_by_the_guard_and_never_runs(
    server: ScriptedServer, connector: PooledConnector, db: Path
) -> None:
    out = ReactAgent(_client(server), connector, SETTINGS).run("Empty the orders table")
    step = out.run.steps[0]
    assert step.error is not None and "guard.forbidden_statement" in step.error
    assert out.run.final == "abstain" and not out.delivered
    assert sqlite3.connect(db).execute("SELECT count(*) FROM orders").fetchone() == (200,)


def test_failures_are_named_not_abstentions(
    server: ScriptedServer, connector: PooledConnector
) -> None:
    rambling = ReactAgent(_client(server), connector, SETTINGS, max_steps=2).run("Ramble on")
    assert rambling.stopped == "agent.max_steps" and rambling.run.final == "none"
    assert [s.action for s in rambling.run.steps] == ["text", "text"]
    failed = ReactAgent(_client(server), connector, SETTINGS).run("Fail now")
    assert failed.stopped == "llm.unavailable" and failed.run.final == "none"


def test_a_failure_names_its_cause(
    server: ScriptedServer, connector: PooledConnector, db: Path
) -> None:
    client = _client(server)
    down = ask_agent("Fail now", str(db), connector, SETTINGS, client)
    assert down.failure is not None and down.failure["code"] == "llm.unavailable"
    assert "answered HTTP 500" in down.failure["message"]
    assert [f.code for f in down.findings] == ["llm.unavailable"]
    assert "HTTP 500" in down.findings[0].message
    refused = ask_agent("Count the widgets", str(db), connector, SETTINGS, client)
    assert refused.failure is not None and refused.failure["code"] == "agent.max_steps"
    message = refused.failure["message"]
    assert "final query was refused by the guard" in message and "widgets" in message
    rambling = ReactAgent(_client(server), connector, SETTINGS, max_steps=2).run("Ramble on")
    assert "did not follow the protocol" in rambling.cause


def test_a_fenced_final_query_is_the_answer(
    server: ScriptedServer, connector: PooledConnector, db: Path
) -> None:
    verdict = ask_agent("How many orders are there?", str(db), connector, SETTINGS, _client(server))
    assert verdict.failure is None and verdict.behaviour == "answer"
    assert verdict.candidate is not None and verdict.candidate.result is not None
    assert [list(row) for row in verdict.candidate.result.rows] == [[200]]


@pytest.mark.parametrize(
    "question",
    ["How many products are in the toys category?", "How many customers signed up in 2023?"],
    ids=["other-value", "other-year"],
)
def test_an_answer_to_another_question_is_withheld(
    server: ScriptedServer, connector: PooledConnector, db: Path, question: str
) -> None:
    """The agent's SQL is the answer, so the question-SQL checks decide (default rule), as on
    /api/sql: agreement_first only noted them and showed the wrong rows, warned."""
    verdict = ask_agent(question, str(db), connector, SETTINGS, _client(server))
    assert verdict.behaviour == "answer" and verdict.action == "withhold", verdict.reasons
    assert any(r.startswith("signal.") for r in verdict.reasons)
    assert verdict.provenance["question"] == question


def test_a_right_answer_is_warned_not_withheld(
    server: ScriptedServer, connector: PooledConnector, db: Path
) -> None:
    question = "How many products are in the tools category?"
    verdict = ask_agent(question, str(db), connector, SETTINGS, _client(server))
    assert verdict.action == "warn" and verdict.reasons == ("cap.single_sample",)


def _gate_monitor() -> Monitor:
    texts = [f"QUESTION: How many toy products {i}" for i in range(20)] + [
        f"QUESTION: What is the weather on Mars {i}" for i in range(20)
    ]
    head = fit_text_head(texts, [0] * 20 + [1] * 20)  # positive class: unanswerable
    return Monitor(head, None, None, "head", None, None, 0.5, {})


def test_the_gate_refuses_before_the_first_model_call(
    server: ScriptedServer, connector: PooledConnector
) -> None:
    before = len(server.log)
    out = ReactAgent(_client(server), connector, SETTINGS, monitor=_gate_monitor()).run(
        "What is the weather on Mars?"
    )
    assert out.stopped == "monitor.gate" and out.run.steps == ()
    assert len(server.log) == before  # refused at t = 0: no model call was made
    assert out.decisions[0].p_ans is not None and out.decisions[0].p_ans < 0.5


def _withholding_monitor() -> Monitor:
    texts = ["STEP 1 RESULT: 3 rows", "STEP 1 RESULT: error: no such table"] * 10
    head = fit_text_head(texts, [1, 0] * 10)
    flat = IsotonicMap((0.0, 1.0), (0.1, 0.1))  # every answer calibrated to p = 0.1
    return Monitor(None, head, None, "head", flat, flat, None, {"1.0": None}, {})


def test_delivery_goes_through_the_same_gate(
    server: ScriptedServer, connector: PooledConnector, db: Path
) -> None:
    client = _client(server)
    plain = ask_agent("How many toy products are there?", str(db), connector, SETTINGS, client)
    assert plain.behaviour == "answer" and plain.action in {"show", "warn"}
    assert plain.candidate is not None and plain.candidate.result is not None
    watched = ask_agent(
        "How many toy products are there?",
        str(db),
        connector,
        SETTINGS,
        client,
        monitor=_withholding_monitor(),
        lam=1.0,
    )
    assert watched.action == "withhold"
    codes = [f.code for f in watched.findings]
    assert "monitor.withhold" in codes
    finding = next(f for f in watched.findings if f.code == "monitor.withhold")
    assert finding.kind == "veto" and np.isclose(finding.evidence["p"], 0.1)
    refused = ask_agent("Delete all cancelled orders.", str(db), connector, SETTINGS, client)
    assert refused.behaviour == "refuse"


def test_ask_agent_on_the_command_line(server: ScriptedServer, db: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from assay.cli._main import main
    from assay.monitor import save_monitor

    env = {"ASSAY_LLM_BASE_URL": server.url, "ASSAY_LLM_MODEL": "scripted"}
    question = "How many toy products are there?"
    result = CliRunner().invoke(
        main, ["ask", "--agent", "--db", str(db), "--json", question], env=env
    )
    assert result.exit_code == 0, result.output
    verdict = json.loads(result.output)
    assert verdict["behaviour"] == "answer" and verdict["action"] in {"show", "warn"}
    path = tmp_path / "m.json"
    save_monitor(_withholding_monitor(), path)
    watched = CliRunner().invoke(
        main,
        ["ask", "--agent", "--db", str(db), "--monitor", str(path), "--json", question],
        env=env,
    )
    assert json.loads(watched.output)["action"] == "withhold"
    missing = CliRunner().invoke(main, ["ask", "--agent", question], env=env)
    assert missing.exit_code == 1 and "--agent needs --db" in missing.output
    unset = CliRunner().invoke(
        main,
        ["ask", "--agent", "--db", str(db), question],
        env={"ASSAY_LLM_BASE_URL": "", "ASSAY_LLM_MODEL": ""},
    )
    assert unset.exit_code == 1 and "No model endpoint" in unset.output


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--semantic", "layer.yaml"], "does not read a semantic layer"),
        (["--route-calibrator", __file__], "--agent has none"),
    ],
    ids=["semantic", "route-calibrator"],
)
def test_a_flag_the_agent_would_not_use_is_refused(
    server: ScriptedServer, db: Path, flags: list[str], said: str
) -> None:
    from click.testing import CliRunner

    from assay.cli._main import main

    env = {"ASSAY_LLM_BASE_URL": server.url, "ASSAY_LLM_MODEL": "scripted"}
    before = len(server.log)
    args = ["ask", "--agent", "--db", str(db), *flags, "How many toy products are there?"]
    result = CliRunner().invoke(main, args, env=env)
    assert result.exit_code == 1 and said in result.output
    assert len(server.log) == before  # refused before any model call


def test_the_badge_line_names_the_question(server: ScriptedServer, db: Path) -> None:
    from click.testing import CliRunner

    from assay.cli._main import main

    env = {"ASSAY_LLM_BASE_URL": server.url, "ASSAY_LLM_MODEL": "scripted"}
    question = "How many products are in the tools category?"
    result = CliRunner().invoke(main, ["ask", "--agent", "--db", str(db), question], env=env)
    assert result.exit_code == 0, result.output
    badge = next(line for line in result.output.splitlines() if "score" in line)
    assert question in badge


def test_the_gate_also_reads_the_terminal_state() -> None:
    from assay.monitor import Run, Step, deliver

    run = Run(
        "r",
        "What is the weather on Mars?",
        "db",
        (Step("final_sql", sql="SELECT 1", row_count=1),),
        final="answer",
        final_sql="SELECT 1",
    )
    decision = deliver(_gate_monitor(), run, lam=1.0)
    assert decision.action == "withhold" and decision.code == "monitor.gate"
