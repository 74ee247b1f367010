"""``assay calibrate`` reads verdict files through the ledger and names every problem."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from assay.cli import main
from assay.errors import LedgerError, ScoringError


def _verdicts(path: Path, rows: list[tuple[str, float, int | None, str]]) -> Path:
    lines = [
        json.dumps({"id": i, "status": "ok", "score": s, "label": lab, "rule": {"name": r}})
        for i, s, lab, r in rows
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def _calibrate(verdicts: Path, out: Path, *extra: str, debug: bool = False) -> Result:
    args = ["--debug"] if debug else []
    return CliRunner().invoke(main, [*args, "calibrate", str(verdicts), "--out", str(out), *extra])


def test_fits_from_the_verdicts_own_labels(tmp_path: Path) -> None:
    rows = [("a", 0.9, 1, "v3"), ("b", 0.2, 0, "v3"), ("c", 0.7, 1, "v3"), ("d", 0.4, 0, "v3")]
    result = _calibrate(_verdicts(tmp_path / "v.jsonl", rows), tmp_path / "c.json")
    assert result.exit_code == 0, result.output
    saved = json.loads((tmp_path / "c.json").read_text())
    assert (saved["kind"], saved["rule"]) == ("isotonic", "v3")


@pytest.mark.parametrize(
    ("rows", "error", "words"),
    [
        ([("a", 0.9, 1, "v3"), ("b", 0.2, None, "v3")], ScoringError, "have no label"),
        ([("a", 0.9, 1, "v3"), ("b", 0.2, 0, "designed")], ScoringError, "mix rules"),
    ],
    ids=["unlabelled", "two-rules"],
)
def test_calibration_problems_are_scoring_errors(
    tmp_path: Path, rows: list[tuple[str, float, int | None, str]], error: type, words: str
) -> None:
    path = _verdicts(tmp_path / "v.jsonl", rows)
    shown = _calibrate(path, tmp_path / "c.json")
    assert shown.exit_code == 1 and words in shown.output
    raised = _calibrate(path, tmp_path / "c.json", debug=True)
    assert isinstance(raised.exception, error)
    assert not (tmp_path / "c.json").exists()


def test_a_torn_verdict_file_is_a_ledger_error(tmp_path: Path) -> None:
    path = tmp_path / "v.jsonl"
    path.write_text('{"id": "a", "status": "ok"}\n{"id": "b", "sta')
    result = _calibrate(path, tmp_path / "c.json", debug=True)
    assert isinstance(result.exception, LedgerError)
    assert "Line 2" in str(result.exception)
