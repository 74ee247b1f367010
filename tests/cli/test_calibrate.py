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


def test_one_distinct_score_is_warned(tmp_path: Path) -> None:
    # Outside tryout 36: every labelled answer scored 1.0, the map was one point and every
    # answer was then withheld, with no word said.
    rows = [("a", 1.0, 1, "v3"), ("b", 1.0, 1, "v3"), ("c", 1.0, 1, "v3"), ("d", 1.0, 0, "v3")]
    result = _calibrate(_verdicts(tmp_path / "v.jsonl", rows), tmp_path / "c.json")
    assert result.exit_code == 0, result.output
    assert "Warning: the 4 labelled answers have 1 distinct score (1)" in result.output
    assert "cannot rank them; Chow's rule will withhold every answer" in result.output


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


def _routed(path: Path, rows: list[tuple[str, float, float, int]]) -> Path:
    """Verdicts with a route decision: (id, raw route score, mapped route score, label); the
    verdict's own score runs against the label, so a fit on it would come out flat."""
    lines = [
        json.dumps(
            {
                "id": i,
                "status": "ok",
                "score": 1.0 - raw,
                "label": lab,
                "rule": {"name": "v3"},
                "provenance": {"route": {"route": "answer", "raw": raw, "score": mapped}},
            }
        )
        for i, raw, mapped, lab in rows
    ]
    lines.append(json.dumps({"id": "unrouted", "status": "ok", "score": 0.5, "label": 1}))
    path.write_text("\n".join(lines) + "\n")
    return path


def test_route_fits_the_isotonic_routing_map_on_raw_route_scores(tmp_path: Path) -> None:
    """--route fits P(right | route score) on the route's raw score (what 'assay ask
    --route-calibrator' maps), not the verdict's score nor the already-mapped one; the map
    then routes through gate.route."""
    from assay.gate import route
    from assay.scoring import IsotonicCalibrator

    rows = [(f"r{i}", i / 10, 0.5, int(i >= 5)) for i in range(10)]
    path = _routed(tmp_path / "v.jsonl", rows)
    out = tmp_path / "route.json"
    result = _calibrate(path, out, "--route", "--min-labels", "10")
    assert result.exit_code == 0, result.output
    cal = IsotonicCalibrator.load(out)
    assert (cal.rule, cal.n) == ("route", 10)  # the unrouted verdict is not fitted on
    assert cal(0.2) == 0.0 and cal(0.8) == 1.0
    features = {"execution_ok": 1.0, "link_calibrated_probability": 0.8}
    plain = route(features, "DOCUMENTED_STRONG")
    mapped = route(features, "DOCUMENTED_STRONG", calibrator=cal)
    assert mapped.raw == plain.raw and mapped.score == round(cal(plain.raw), 6)


@pytest.mark.parametrize(
    ("rows", "extra", "words"),
    [
        ([("a", 0.9, 0.9, 1), ("b", 0.1, 0.1, 0)], (), "Only 2 of the 3 verdicts carry a route"),
        ([("a", 0.9, 0.9, 1), ("b", 0.1, 0.1, 1)], ("--min-labels", "2"), "both classes"),
    ],
    ids=["too-few", "one-class"],
)
def test_route_refuses_too_few_labels(
    tmp_path: Path, rows: list[tuple[str, float, float, int]], extra: tuple[str, ...], words: str
) -> None:
    out = tmp_path / "route.json"
    result = _calibrate(_routed(tmp_path / "v.jsonl", rows), out, "--route", *extra)
    assert result.exit_code == 1 and words in " ".join(result.output.split())
    assert not out.exists()


def test_a_calibrator_gates_only_the_rule_it_was_fitted_on(
    tmp_path: Path, shop_duckdb: Path
) -> None:
    # Outside tryout 14: a calibrator fitted on 'assay' scores gated 'designed' scores.
    rows = [("a", 0.9, 1, "assay"), ("b", 0.2, 0, "assay"), ("c", 0.7, 1, "assay")]
    fitted = _calibrate(_verdicts(tmp_path / "v.jsonl", rows), tmp_path / "c.json")
    assert fitted.exit_code == 0, fitted.output
    samples = tmp_path / "s.jsonl"
    samples.write_text(
        json.dumps(
            {
                "id": "q",
                "db": str(shop_duckdb),
                "question": "How many orders?",
                "samples": [{"final_sql": "SELECT count(*) FROM orders"}] * 3,
            }
        )
        + "\n"
    )
    args = ["score", str(samples), "--cost", "4", "--calibrator", str(tmp_path / "c.json")]
    other = CliRunner().invoke(main, [*args, "--rule", "designed", "--out", str(tmp_path / "o")])
    assert other.exit_code == 1
    assert "fitted on scores of the rule 'assay', not of 'designed'" in other.output
    assert "--rule assay" in other.output and not (tmp_path / "o").exists()
    same = CliRunner().invoke(main, [*args, "--rule", "assay", "--out", str(tmp_path / "v2")])
    assert same.exit_code == 0, same.output
