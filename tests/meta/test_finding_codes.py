"""Finding codes by construction: the prefix is the kind, every code the product emits is in
``FindingCode``, and ``assay score --show`` prints every one of them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from assay.cli._render import render_verdict
from assay.types import Finding, FindingCode

SRC = Path(__file__).resolve().parents[2] / "src" / "assay"
CODE = re.compile(r"^(veto|cap|signal|note)\.[a-z_]+$")


def _emitted() -> set[str]:
    """Every string literal in the source that has the shape of a finding code."""
    found = set()
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if CODE.match(node.value):
                    found.add(node.value)
    return found


def test_every_emitted_code_is_in_the_enum() -> None:
    emitted = _emitted()
    assert emitted, "the scan found no codes: the pattern or the path is wrong"
    assert emitted <= {c.value for c in FindingCode}, sorted(emitted - set(FindingCode))


def test_every_code_is_rendered_by_show() -> None:
    findings = [Finding(c.value, c.value.split(".")[0], f"message {c.value}") for c in FindingCode]  # type: ignore[arg-type]
    record = {
        "id": "q",
        "action": "withhold",
        "score": 0.1,
        "rule": {"name": "assay", "version": "assay-1.0"},
        "findings": [f.to_dict() for f in findings],
        "agreement": {"terms": {"A": 0.2, "support": 0.447}, "capped_by": ["veto.no_result"]},
    }
    shown = render_verdict(record)
    for code in FindingCode:
        assert code.value in shown
    assert "A 0.2" in shown and "support 0.447" in shown


@pytest.mark.parametrize(
    ("code", "kind"),
    [("veto.no_result", "note"), ("note.x", "veto"), ("cap.x", "signal"), ("guard.x", "note")],
    ids=["veto-as-note", "note-as-veto", "cap-as-signal", "stage-code-as-note"],
)
def test_finding_refuses_a_code_whose_prefix_disagrees(code: str, kind: str) -> None:
    with pytest.raises(ValueError, match="must be"):
        Finding(code, kind, "m")  # type: ignore[arg-type]


def test_codes_of_other_stages_pass_as_vetoes() -> None:
    assert Finding("guard.forbidden_statement", "veto", "m").kind == "veto"
