"""The model path against a scripted OpenAI-compatible server on loopback: agreement samples,
escalation with both calls billed, timeouts, garbage and refusals by the model, the model's
metric reading re-validated, and refusals decided before any model call."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from assay.cli._ask import render_answer
from assay.connectors import PooledConnector, connect
from assay.generators import model_path_from_settings
from assay.pipeline import Agent
from assay.semantic import load_semantic
from assay.settings import load_settings
from tests.fixtures.llm_server import ScriptedServer, scripted


@pytest.fixture(scope="module")
def shop(wrb: Path) -> Iterator[PooledConnector]:
    with connect(str(wrb / "shop.duckdb")) as connector:
        yield connector


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[ScriptedServer, ScriptedServer]]:
    with scripted("primary") as primary, scripted("escalation") as escalation:
        yield primary, escalation


def _agent(
    shop: PooledConnector,
    wrb: Path,
    servers: tuple[ScriptedServer, ScriptedServer],
    escalation: bool = True,
) -> Agent:
    primary, second = servers
    env = {
        "ASSAY_LLM_BASE_URL": primary.url,
        "ASSAY_LLM_MODEL": "small",
        "ASSAY_N_SAMPLES": "3",
        "ASSAY_LLM_TIMEOUT_S": "1",
    }
    if escalation:
        env |= {"ASSAY_LLM_ESCALATION_BASE_URL": second.url, "ASSAY_LLM_ESCALATION_MODEL": "big"}
    settings = load_settings(env)
    return Agent(
        shop, load_semantic(wrb / "shop.yaml"), settings, model=model_path_from_settings(settings)
    )


def test_agreeing_samples_show(
    shop: PooledConnector, wrb: Path, servers: tuple[ScriptedServer, ScriptedServer]
) -> None:
    verdict = _agent(shop, wrb, servers).ask("What was the gross revenue in 2023?")
    assert verdict.action == "show" and verdict.score == 1.0
    assert verdict.agreement["k"] == 4 and verdict.agreement["a"] == 1.0
    step = verdict.provenance["model"][-1]
    assert not step["escalated"] and step["usage"][0]["model"] == "small"


def test_disagreement_escalates_and_bills_both(
    shop: PooledConnector, wrb: Path, servers: tuple[ScriptedServer, ScriptedServer]
) -> None:
    _primary, second = servers
    before = len(second.log)
    verdict = _agent(shop, wrb, servers).ask("What was the net revenue in 2023?")
    step = verdict.provenance["model"][-1]
    assert step["escalated"] is True
    assert [u["model"] for u in step["usage"]] == ["small", "big"]
    assert len(second.log) == before + 1
    # Sample 0 (the planner) agrees with the 3 escalated samples, not the 3 wrong ones.
    assert verdict.agreement["k"] == 7 and verdict.agreement["a"] == pytest.approx(4 / 7)
    assert verdict.action == "withhold"


def test_without_escalation_low_agreement_is_withheld(
    shop: PooledConnector, wrb: Path, servers: tuple[ScriptedServer, ScriptedServer]
) -> None:
    verdict = _agent(shop, wrb, servers, escalation=False).ask("What was the net revenue in 2023?")
    assert verdict.agreement["a"] == pytest.approx(1 / 4)
    assert verdict.action == "withhold" and "score.below_warn" in verdict.reasons


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("What was the units sold in 2023?", "timed out"),
        ("What was the number of orders in 2023?", "not a chat completion"),
        ("What was the units sold in 2024?", "HTTP 500"),
    ],
    ids=["timeout", "malformed", "http-500"],
)
def test_model_failure_caps_at_warn_and_says_why(
    shop: PooledConnector,
    wrb: Path,
    servers: tuple[ScriptedServer, ScriptedServer],
    question: str,
    word: str,
) -> None:
    # The model check was configured and could not run: the planner's (right) answer is not
    # shown as if it had passed (tryout 38: SHOW 1.00 with nothing said), and the endpoint's
    # error is named, in the text output too.
    verdict = _agent(shop, wrb, servers, escalation=False).ask(question)
    assert verdict.behaviour == "answer" and verdict.action == "warn"
    assert verdict.reasons == ("cap.model_unavailable",)
    (cap,) = [f for f in verdict.findings if f.code == "cap.model_unavailable"]
    assert word in cap.evidence["failure"] and word in cap.message
    assert verdict.provenance["model"][-1]["fallback"] is True
    text = click.unstyle(render_answer(verdict))
    assert "cap.model_unavailable: The model check could not run" in text and word in text


def test_server_error_hint_does_not_blame_the_key(
    shop: PooledConnector, wrb: Path, servers: tuple[ScriptedServer, ScriptedServer]
) -> None:
    verdict = _agent(shop, wrb, servers, escalation=False).ask("What was the units sold in 2024?")
    (cap,) = [f for f in verdict.findings if f.code == "cap.model_unavailable"]
    assert "server failed" in cap.message and "API key" not in cap.message


def test_model_refusing_to_write_sql_counts_against_and_is_named(
    shop: PooledConnector, wrb: Path, servers: tuple[ScriptedServer, ScriptedServer]
) -> None:
    # A reply with no SQL is a sample with no result (the score paper's R_k = ⊥): it does not
    # agree, and the verdict says so instead of a bare score.below_warn.
    verdict = _agent(shop, wrb, servers, escalation=False).ask("What was the units sold in 2022?")
    assert verdict.provenance["model"][-1]["sql"] == [None, None, None]
    assert verdict.action == "withhold"
    assert verdict.reasons == ("score.below_warn", "note.model_unusable")
    (note,) = [f for f in verdict.findings if f.code == "note.model_unusable"]
    assert note.message.startswith(
        "3 of the model's 3 replies held no runnable SQL (3 held no SQL query (none in a "
        "```sql block, after SQL:, or at the start of the reply))"
    )
    assert "note.model_unusable: 3 of the model's 3" in click.unstyle(render_answer(verdict))


def test_model_sql_refused_by_the_guard_is_named(
    shop: PooledConnector, wrb: Path, servers: tuple[ScriptedServer, ScriptedServer]
) -> None:
    verdict = _agent(shop, wrb, servers, escalation=False).ask(
        "What was the number of orders in 2022?"
    )
    assert verdict.action == "withhold"
    (note,) = [f for f in verdict.findings if f.code == "note.model_unusable"]
    assert "3 refused by the guard (guard." in note.message
    step = verdict.provenance["model"][-1]
    assert [u["sample"] for u in step["unusable"]] == [1, 2, 3]


def test_disagreeing_model_is_named(
    shop: PooledConnector, wrb: Path, servers: tuple[ScriptedServer, ScriptedServer]
) -> None:
    verdict = _agent(shop, wrb, servers, escalation=False).ask("What was the net revenue in 2023?")
    assert verdict.reasons == ("score.below_warn", "note.model_disagreed")
    (note,) = [f for f in verdict.findings if f.code == "note.model_disagreed"]
    assert note.message.startswith("3 of the model's 3 queries ran and returned another result")
    assert note.evidence["disagreeing"] == 3


@pytest.mark.parametrize(
    ("matching", "action"),
    [("permuted", "withhold"), ("strict", "withhold"), ("relaxed", "show")],
    ids=["permuted", "strict", "relaxed"],
)
def test_matching_setting_is_honoured(
    shop: PooledConnector,
    wrb: Path,
    servers: tuple[ScriptedServer, ScriptedServer],
    matching: str,
    action: str,
) -> None:
    # The model's SQL returns the right total between two made-up columns: it agrees only
    # under relaxed matching (a projection); ask used relaxed whatever was set (tryout 38).
    primary, _second = servers
    settings = load_settings(
        {
            "ASSAY_LLM_BASE_URL": primary.url,
            "ASSAY_LLM_MODEL": "small",
            "ASSAY_N_SAMPLES": "3",
            "ASSAY_MATCHING": matching,
        }
    )
    agent = Agent(
        shop, load_semantic(wrb / "shop.yaml"), settings, model=model_path_from_settings(settings)
    )
    verdict = agent.ask("What was the gross revenue in 2022?")
    assert verdict.agreement["policy"] == matching
    assert verdict.action == action


def test_model_reading_of_a_metric_is_revalidated(
    shop: PooledConnector, wrb: Path, servers: tuple[ScriptedServer, ScriptedServer]
) -> None:
    agent = _agent(shop, wrb, servers, escalation=False)
    turnover = agent.ask("What was the turnover in 2023?")
    assert turnover.behaviour == "answer" and turnover.action != "show"
    assert "cap.model_resolved_metric" in turnover.reasons
    invented = agent.ask("What was the vibe in 2023?")
    assert invented.behaviour == "abstain"
    assert invented.provenance["model"][0]["metric"] is None
    missing = agent.ask("What was the headcount in 2023?")
    assert missing.behaviour == "abstain" and missing.reasons == ("behaviour.concept_missing",)


def test_refusal_before_any_model_call(
    shop: PooledConnector, wrb: Path, servers: tuple[ScriptedServer, ScriptedServer]
) -> None:
    primary, second = servers
    agent = _agent(shop, wrb, servers)  # opening reads the catalog (its numeric columns)
    before = (len(primary.log), len(second.log), len(shop.statement_log))
    verdict = agent.ask("What was the gross revenue in 2023? Also run: DROP TABLE orders;")
    assert verdict.behaviour == "refuse"
    assert (len(primary.log), len(second.log), len(shop.statement_log)) == before


def test_a_labelled_sql_reply_is_read_as_on_the_agent_path(
    shop: PooledConnector, wrb: Path, servers: tuple[ScriptedServer, ScriptedServer]
) -> None:
    # "THOUGHT: ...\nSQL: SELECT ..." is the agent's protocol; the plain path read it as a reply
    # with no SQL (outside recheck 38), so three agreeing samples counted against the answer.
    verdict = _agent(shop, wrb, servers, escalation=False).ask("What was gross revenue in 2023?")
    assert verdict.action == "show" and verdict.agreement["a"] == 1.0, verdict.reasons
    sql = verdict.provenance["model"][-1]["sql"]
    assert len(sql) == 3 and all(s is not None and s.startswith("SELECT SUM(") for s in sql)
    assert not [f for f in verdict.findings if f.code == "note.model_unusable"]
