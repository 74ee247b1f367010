"""One builder of verdicts: ``Verdict`` is keyword-only, made only by ``build_verdict``, and its
``rule`` always names something that decided."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import assay
from assay.gate import GatePolicy
from assay.pipeline import BEHAVIOUR_RULES, GUARD_REFUSAL, MONITOR_STOP, build_verdict
from assay.scoring import get_rule
from assay.types import Verdict

SRC = Path(__file__).resolve().parents[2] / "src" / "assay"


def test_verdict_is_keyword_only() -> None:
    with pytest.raises(TypeError):
        Verdict("q", "answer", "withhold", None, "r", "1", "p", "1")  # type: ignore[misc]


def test_only_the_builder_constructs_verdicts() -> None:
    callers = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Verdict":
                callers.append(str(path.relative_to(SRC)))
    assert callers == ["pipeline/_verdict.py"]


def test_rule_and_policy_come_from_the_objects() -> None:
    rule, policy = get_rule("agreement_first"), GatePolicy()
    verdict = build_verdict(
        ident="q", behaviour="answer", rule=rule, policy=policy, action="show", score=0.9
    )
    assert (verdict.rule, verdict.rule_version) == (rule.name, rule.version)
    assert (verdict.policy, verdict.policy_version) == (policy.name, policy.version)
    assert verdict.action == "show" and verdict.failure is None


def test_deciders_of_unscored_verdicts_are_named_and_versioned() -> None:
    names = {d.name for d in (BEHAVIOUR_RULES, GUARD_REFUSAL, MONITOR_STOP)}
    assert names == {"behaviour_rules", "guard_refusal", "monitor_stop"}
    assert {d.version for d in (BEHAVIOUR_RULES, GUARD_REFUSAL, MONITOR_STOP)} == {
        assay.__version__
    }
    withheld = build_verdict(
        ident="q", behaviour="clarify", rule=BEHAVIOUR_RULES, policy=GatePolicy()
    )
    assert withheld.action == "withhold" and withheld.score is None
    assert withheld.to_dict()["rule"] == {"name": "behaviour_rules", "version": assay.__version__}


def test_an_unknown_behaviour_is_refused() -> None:
    with pytest.raises(KeyError):
        build_verdict(ident="q", behaviour="shrug", rule=BEHAVIOUR_RULES, policy=GatePolicy())
