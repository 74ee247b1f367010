"""``scripts/eval_agent_spider.py``: the run plans, the stand-in model's one reply a run, and
the classes of hand-made verdicts against a fixed gold result."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from assay.types import Candidate, Result, Verdict

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "eval_agent_spider.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("eval_agent_spider", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


script = _load()
GOLD = Result(("n",), ((3,),), 1)
ROW = {
    "gold_sql": "G",
    "predictions": {"dailsql_gpt4": "A", "dinsql_gpt4": "B", "codes_7b": "C", "graphix_t5": "E"},
}


@pytest.mark.parametrize(
    ("plan", "wrong", "runs"),
    [
        ("wrong-first", {"C"}, ["C", "A", "B", "G", "E"]),  # the first wrong one leads
        ("wrong-first", set(), ["G", "A", "B", "C", "G"]),  # all right: gold, then the systems
        ("published", {"C"}, ["A", "B", "C", "G", "E"]),  # system k; gold where none
    ],
    ids=["wrong-first", "all-right", "published"],
)
def test_the_plan(plan: str, wrong: set[str], runs: list[str]) -> None:
    assert script.plan_runs(ROW, plan, lambda sql: sql not in wrong, 5) == runs


def test_the_stand_in_answers_each_run_with_its_own_sql_on_every_turn() -> None:
    client = httpx.Client(transport=script.scripted_model(["S1", "S2"]))

    def ask(messages: int) -> str:
        body = {"messages": [{"role": "user", "content": "x"}] * messages}
        reply = client.post("http://m/v1/chat/completions", content=json.dumps(body))
        return str(reply.json()["choices"][0]["message"]["content"])

    said = [ask(2), ask(4), ask(2), ask(2)]
    assert [s.split("FINAL_SQL: ")[1] for s in said] == ["S1", "S1", "S2", "S1"]


def _verdict(result: Result | None, **fields: Any) -> Verdict:
    base: dict[str, Any] = {
        "id": "q",
        "behaviour": "answer",
        "action": "show",
        "score": 0.9,
        "rule": "assay",
        "rule_version": "assay-1.0",
        "policy": "thresholds",
        "policy_version": "1",
        "candidate": Candidate("SELECT 3", result=result),
    }
    return Verdict(**(base | fields))


@pytest.mark.parametrize(
    ("verdict", "label"),
    [
        (_verdict(GOLD), "shown_right"),
        (_verdict(Result(("n",), ((4,),), 1)), "shown_wrong"),
        (_verdict(GOLD, action="warn"), "warned_right"),
        (_verdict(GOLD, action="withhold"), "withheld_right"),
        (_verdict(Result(("n",), ((4,),), 1), action="withhold"), "withheld_wrong"),
        (_verdict(None, candidate=None, action="withhold"), "no_answer"),
        (_verdict(GOLD, behaviour="abstain", action="withhold"), "no_answer"),
    ],
    ids=["right", "wrong", "warned", "withheld-right", "withheld-wrong", "failed", "abstained"],
)
def test_the_class(verdict: Verdict, label: str) -> None:
    assert script.classify(verdict, GOLD, ordered=False) == label
