"""What ``assay ask`` prints for a warned answer: the reason that decided first, and the
findings that decided before those that did not (outside tryout 7: OSI "sales per employee",
warned for ``cap.fan_out_in_metric``, printed ``signal.grouping_missing`` where a reader looks
first); and for a withheld answer, never its text or rows."""

from __future__ import annotations

import click

from assay.cli._ask import render_answer
from assay.gate import GatePolicy
from assay.pipeline import build_verdict
from assay.scoring import get_rule
from assay.types import Finding

SIGNAL = Finding("signal.grouping_missing", "signal", "per group, no GROUP BY.", {})
CAP = Finding("cap.fan_out_in_metric", "cap", "counted once per sale.", {})
NOTE = Finding("note.judge_issue", "note", "a note.", {})


def _lines(findings: tuple[Finding, ...], reasons: tuple[str, ...]) -> list[str]:
    verdict = build_verdict(
        ident="q",
        behaviour="answer",
        rule=get_rule("agreement_first"),
        policy=GatePolicy(),
        action="warn" if reasons else "show",
        score=0.79,
        findings=findings,
        reasons=reasons,
    )
    return [click.unstyle(line).strip() for line in render_answer(verdict).splitlines()]


def test_the_deciding_finding_is_printed_before_one_that_did_not_decide() -> None:
    lines = _lines((SIGNAL, CAP, NOTE), ("cap.fan_out_in_metric",))
    at = lines.index("because cap.fan_out_in_metric")
    assert lines[at + 1 : at + 3] == [
        "cap.fan_out_in_metric: counted once per sale.",
        "also found, did not decide: signal.grouping_missing: per group, no GROUP BY.",
    ]
    assert not any(line.startswith("because signal") for line in lines)
    assert not any("note.judge_issue" in line for line in lines)


def test_findings_follow_the_order_of_the_reasons() -> None:
    veto = Finding("veto.check_failed", "veto", "could not run.", {})
    lines = _lines((CAP, veto), ("veto.check_failed", "cap.fan_out_in_metric"))
    found = [line.split(":")[0] for line in lines if line.split(":")[0] in {CAP.code, veto.code}]
    assert found == ["veto.check_failed", "cap.fan_out_in_metric"]


def test_a_shown_answer_marks_nothing() -> None:
    lines = _lines((SIGNAL,), ())
    assert "signal.grouping_missing: per group, no GROUP BY." in lines


def test_a_withheld_answer_prints_its_reasons_and_sql_never_its_text_or_rows() -> None:
    from assay.types import Candidate, Result

    candidate = Candidate(
        final_sql="SELECT AVG(d) AS value FROM orders",
        text="Average delivery days in 2023 was 56,070.88.",
        result=Result(("value",), ((56070.88,),), 1),
    )
    veto = Finding("veto.stand_in_in_aggregate", "veto", "stand-ins averaged in.", {})
    for action, printed in (("withhold", False), ("warn", True)):
        verdict = build_verdict(
            ident="q",
            behaviour="answer",
            rule=get_rule("agreement_first"),
            policy=GatePolicy(),
            action=action,
            score=0.59,
            findings=(veto,),
            reasons=(veto.code,),
            candidate=candidate,
        )
        lines = render_answer(verdict)
        assert ("56,070.88" in lines) is printed and ("56070.88" in lines) is printed, action
        assert "because veto.stand_in_in_aggregate" in click.unstyle(lines)
        assert "SQL: SELECT AVG(d) AS value FROM orders" in lines
        assert ("The answer is withheld" in lines) is not printed
