"""Drafted layers answer: `assay semantic init` on a Spider slice database (no dates) and on
TPC-H SF 0.01 writes a layer that loads, checks and answers questions through the Agent with the
rows of hand-written SQL; answers resting on inferred facts are confirm-first; a period asked of
data without dates abstains naming why. Fails if a drafted layer stops loading or answering."""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import duckdb
import pytest
from click.testing import CliRunner

from assay.cli import main
from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import load_semantic
from tests.semantic._helpers import draft

SLICE = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "spider-slice"
CONCERT = SLICE / "database" / "concert_singer" / "concert_singer.sqlite"


def _norm(rows: Any) -> Counter[tuple[Any, ...]]:
    return Counter(
        tuple(round(float(v), 4) if isinstance(v, (int, float)) else v for v in r) for r in rows
    )


def _ask(db: Path, layer: Path, questions: list[tuple[str, str]], hand: Any) -> list[Any]:
    verdicts = []
    with connect(str(db)) as connector:
        agent = Agent(connector, load_semantic(layer))
        for question, sql in questions:
            verdict = agent.ask(question)
            assert verdict.behaviour == "answer" and verdict.action != "withhold", (
                question,
                verdict.reasons,
                verdict.provenance.get("message"),
            )
            assert verdict.candidate is not None and verdict.candidate.result is not None
            assert _norm(verdict.candidate.result.rows) == _norm(hand(sql)), question
            verdicts.append(verdict)
    return verdicts


@pytest.mark.skipif(not CONCERT.exists(), reason="the Spider slice is absent")
def test_slice_layer_without_dates_answers(tmp_path: Path) -> None:
    layer = draft(CONCERT, tmp_path / "concert.yaml")

    def hand(sql: str) -> list[Any]:
        with sqlite3.connect(f"file:{CONCERT}?mode=ro", uri=True) as con:
            return con.execute(sql).fetchall()

    verdicts = _ask(
        CONCERT,
        layer,
        [
            ("What is the singer count?", "SELECT count(*) FROM singer"),
            ("What is the stadium count?", "SELECT count(*) FROM stadium"),
            ("singer count by singer Country", "SELECT Country, count(*) FROM singer GROUP BY 1"),
            ("What is the total stadium Capacity?", "SELECT sum(Capacity) FROM stadium"),
            (
                "What is the singer count for France?",
                "SELECT count(*) FROM singer WHERE Country = 'France'",
            ),
        ],
        hand,
    )
    # a plain row count rests on the schema alone; a grouping by an inferred dimension and a
    # guessed sum rest on facts below the commit tier: confirm-first, naming how to confirm
    assert verdicts[0].route == "answer" and verdicts[0].action == "show"
    for v in verdicts[2:4]:
        assert v.route == "confirm_first" and v.action == "warn"
        assert "cap.unconfirmed_fact" in v.reasons
        assert any("assay catalog accept" in f.message for f in v.findings)
    with connect(str(CONCERT)) as connector:
        period = Agent(connector, load_semantic(layer)).ask("What is the singer count in 2014?")
    assert period.behaviour == "abstain" and period.reasons == ("behaviour.no_time",)
    assert "no time" in period.provenance["message"]


def test_tpch_layer_answers(tpch_duckdb: Path, tpch_draft: Path) -> None:
    db = tpch_duckdb  # the session's TPC-H SF 0.01 (drafting only reads it)
    layer = tpch_draft  # `assay semantic init` on it, drafted once per session
    check = CliRunner().invoke(
        main, ["semantic", "check", "--db", str(db), "--semantic", str(layer)]
    )
    assert check.exit_code == 0, check.output

    def hand(sql: str) -> list[Any]:
        with duckdb.connect(str(db), read_only=True) as con:
            return con.execute(sql).fetchall()

    verdicts = _ask(
        db,
        layer,
        [
            ("What is the supplier count?", "SELECT count(*) FROM supplier"),
            (
                "What is the orders count in 1995?",
                "SELECT count(*) FROM orders WHERE o_orderdate >= DATE '1995-01-01' "
                "AND o_orderdate < DATE '1996-01-01'",
            ),
            (
                # every TPC-H column shares its table's prefix (c_, l_, o_): the layer's words
                # are the table's instead ("customer mktsegment", never "customer c_mktsegment")
                "customer count by customer mktsegment",
                "SELECT c_mktsegment, count(*) FROM customer GROUP BY 1",
            ),
            (
                "What is the total lineitem quantity by lineitem returnflag?",
                "SELECT l_returnflag, sum(l_quantity) FROM lineitem GROUP BY 1",
            ),
            (
                "orders count by customer mktsegment",
                "SELECT c_mktsegment, count(*) FROM orders JOIN customer "
                "ON o_custkey = c_custkey GROUP BY 1",
            ),
        ],
        hand,
    )
    joined = verdicts[4]
    assert joined.route == "confirm_first"
    rests = {r["kind"] for r in joined.provenance["route"]["rests_on"] if r["tier"] != "author"}
    assert "join" in rests
    assert any("orders.o_custkey references" in f.message for f in joined.findings)


@pytest.mark.skipif(not CONCERT.exists(), reason="the Spider slice is absent")
def test_accepted_fact_lifts_confirm_first(tmp_path: Path) -> None:
    store, out = tmp_path / "facts.db", tmp_path / "layer.yaml"
    args = ["semantic", "init", "--db", str(CONCERT), "--out", str(out), "--store", str(store)]
    assert CliRunner().invoke(main, args).exit_code == 0
    question = "singer count by singer Country"
    with connect(str(CONCERT)) as connector:
        first = Agent(connector, load_semantic(out)).ask(question)
    assert first.route == "confirm_first"
    message = next(f.message for f in first.findings if f.code == "cap.unconfirmed_fact")
    fact_id = message.split("assay catalog accept ")[1].split()[0]
    accept = ["catalog", "accept", fact_id, "--store", str(store)]
    assert CliRunner().invoke(main, accept).exit_code == 0
    assert CliRunner().invoke(main, [*args, "--force"]).exit_code == 0
    with connect(str(CONCERT)) as connector:
        again = Agent(connector, load_semantic(out)).ask(question)
    assert again.route == "answer" and again.action == "show"
    assert again.candidate is not None and first.candidate is not None
    assert again.candidate.result is not None and first.candidate.result is not None
    assert _norm(again.candidate.result.rows) == _norm(first.candidate.result.rows)


def test_forcing_pii_refused_through_the_agent(tmp_path: Path) -> None:
    db = tmp_path / "p.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute("CREATE TABLE people (id INTEGER, ssn VARCHAR, city VARCHAR)")
        con.execute(
            "INSERT INTO people VALUES (1, '123-45-6789', 'Oslo'), (2, '234-56-7890', 'Oslo'),"
            " (3, '345-67-8901', 'Rome')"
        )
    from assay.semantic import parse_semantic

    raw: dict[str, Any] = {
        "name": "p",
        "metrics": [{"name": "people_count", "table": "people", "expression": "count(*)"}],
        "dimensions": [{"name": "ssn", "column": "people.ssn"}],
    }
    with connect(str(db)) as connector:
        refused = Agent(connector, parse_semantic(raw)).ask("people count by ssn")
        allowed = Agent(connector, parse_semantic({**raw, "allow_pii": ["ssn"]})).ask(
            "people count by ssn"
        )
    assert refused.behaviour == "refuse" and refused.action == "withhold"
    assert refused.reasons == ("veto.forcing_pii",) and refused.route == "refuse"
    assert refused.candidate is not None and refused.candidate.result is None
    assert "123-45-6789" not in str(refused.to_dict())
    assert allowed.behaviour == "answer" and allowed.action != "withhold"
