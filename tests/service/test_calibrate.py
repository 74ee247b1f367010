"""Feedback that calibrates: the ledger's labels fit an isotonic map per database, the service
then gates with Chow's rule, the page is told which policy decided, and no answer is judged by
a calibrator fitted on its own feedback."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner

from assay.cli._main import main
from assay.ledger import labels_for, read_labels, read_verdicts
from assay.service import Service
from tests.service.conftest import make_service

ANSWERED = [
    "What was the gross revenue in 2023?",
    "Top 3 country by net revenue last year",
    "What was the average delivery days in 2023?",
    "What was the latest ship date in 2023?",
    "What was the number of orders per month in 2024?",
]


def _fill(demo_paths: tuple[Path, Path], url: str, n: int) -> list[str]:
    """``n`` answered questions with feedback: right when shown, wrong otherwise."""
    svc = make_service(demo_paths, url)
    try:
        ids = []
        for i in range(n):
            body = svc.ask(ANSWERED[i % len(ANSWERED)])
            ident = body["verdict"]["id"]
            svc.feedback(ident, 1 if body["badge"] == "show" else 0, "")
            ids.append(ident)
        svc.ask("What was revenue in 2023?")  # an ask-back: no score, never calibrates
        return ids
    finally:
        svc.close()
        svc.ledger.close()


def test_calibrate_from_ledger_then_chow(
    demo_paths: tuple[Path, Path],
    filled_ledger: Callable[[Path], tuple[str, list[str]]],
    tmp_path: Path,
) -> None:
    url, fitted_on = filled_ledger(tmp_path)  # _fill(demo_paths, url, 50), asked once per run
    out = tmp_path / "calibrators"
    result = CliRunner().invoke(main, ["calibrate", "--ledger", url, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "shop: isotonic calibrator on 50 labelled answers" in result.output
    calibrator = json.loads((out / "shop.json").read_text())
    assert calibrator["kind"] == "isotonic" and calibrator["n"] == 50
    assert calibrator["rule"] == "agreement_first"  # the rule that scored the answers
    assert json.loads((out / "shop.ids.json").read_text()) == sorted(fitted_on)

    svc = make_service(demo_paths, url, calibration={"dir": str(out), "cost": 4.0})
    try:
        body = svc.ask("What was the gross revenue in 2023?")
        assert body["policy"]["kind"] == "chow"
        assert body["verdict"]["policy"]["name"].startswith("chow(lambda=4, calibrator=")
        assert body["verdict"]["provenance"] is not None
        # A shown answer was labelled right every time: P(right) = 1 >= 4/5.
        assert body["verdict"]["action"] == "show"
        # A vetoed answer is withheld by its veto under Chow's rule too (the map, fitted on
        # 0.59 -> wrong, would withhold it anyway; a map that says otherwise never shows it).
        withheld = svc.ask("What was the latest ship date in 2023?")
        assert withheld["verdict"]["action"] == "withhold"
        assert "veto.stand_in_returned" in withheld["verdict"]["reasons"]
        # The answers it judges were never part of its fit.
        assert body["verdict"]["id"] not in fitted_on
        assert svc.semantic()["databases"]["shop"]["policy"].startswith("chow(")
        # The map was fitted on agreement_first's scores: assay-1.0's (a square root of the
        # agreement) are gated by the fixed thresholds, never through another rule's map.
        sql = svc.sql("SELECT count(*) AS n FROM orders")
        assert sql["verdict"]["rule"]["name"] == "assay"
        assert sql["verdict"]["policy"]["name"].startswith("thresholds(")
        assert sql["badge"] == "show" and sql["policy"]["kind"] == "thresholds"
    finally:
        svc.close()
        svc.ledger.close()


def test_too_few_labels_keep_thresholds(demo_paths: tuple[Path, Path], tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    _fill(demo_paths, url, 12)
    out = tmp_path / "calibrators"
    result = CliRunner().invoke(main, ["calibrate", "--ledger", url, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "shop: not calibrated (12 labelled answers, fewer than 50)" in result.output
    assert not (out / "shop.json").exists()
    svc = make_service(demo_paths, url, calibration={"dir": str(out)})
    try:
        assert svc.ask(ANSWERED[0])["policy"]["kind"] == "thresholds"
    finally:
        svc.close()
        svc.ledger.close()


def test_export_is_read_by_report_and_calibrate(
    demo_paths: tuple[Path, Path], tmp_path: Path
) -> None:
    """With feedback on some verdicts only (the usual case), the export holds the labelled
    ones and says how many it left out: calibrate reads its files as they are (outside tryout
    36 every verdict was written, and calibrate refused them: "34 verdicts have no label")."""
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    ids = _fill(demo_paths, url, 10)  # ten labelled answers and an ask-back, unlabelled
    svc = make_service(demo_paths, url)
    try:
        for question in ANSWERED[:3]:
            svc.ask(question)  # answered, never labelled
    finally:
        svc.close()
        svc.ledger.close()
    out = tmp_path / "export"
    result = CliRunner().invoke(main, ["ledger", "export", "--ledger", url, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == (
        f"wrote 10 labelled verdicts and their labels to {out}; left out 4 verdicts without a label"
    )
    verdicts = read_verdicts(out / "verdicts.jsonl")
    labels = read_labels(out / "labels.jsonl")
    assert set(labels) == set(ids) == set(verdicts)
    assert labels_for(None, [verdicts]) == labels  # the verdicts carry their own labels too
    fitted = CliRunner().invoke(
        main,
        [
            "calibrate",
            str(out / "verdicts.jsonl"),
            "--labels",
            str(out / "labels.jsonl"),
            "--out",
            str(tmp_path / "c.json"),
        ],
    )
    assert fitted.exit_code == 0, fitted.output
    assert "fitted on 10 verdicts" in fitted.output
    empty = CliRunner().invoke(
        main, ["ledger", "export", "--ledger", url, "--out", str(out), "--database", "nope"]
    )
    assert empty.exit_code == 1 and "holds no verdicts of 'nope'" in empty.output


def test_export_of_a_ledger_without_labels_says_so(
    demo_paths: tuple[Path, Path], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    svc = make_service(demo_paths, url)
    try:
        svc.ask(ANSWERED[0])
    finally:
        svc.close()
        svc.ledger.close()
    result = CliRunner().invoke(
        main, ["ledger", "export", "--ledger", url, "--out", str(tmp_path / "export")]
    )
    assert result.exit_code == 1
    assert "None of the ledger's 1 verdicts has a label" in result.output
    assert not (tmp_path / "export").exists()


def test_calibrate_names_every_database_and_every_label_left_out(
    demo_paths: tuple[Path, Path], tmp_path: Path
) -> None:
    """Labels on /api/sql verdicts are counted as left out (with why), a database with no
    labels is named, and one-class labels are said in plain words (outside tryout 25: "1
    labelled answers", the database unnamed, "Cannot calibrate on 55 answers with labels
    [1.0]")."""
    db, layer = demo_paths
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    svc = make_service(
        demo_paths,
        url,
        databases={
            "shop": {"url": str(db), "semantic": str(layer)},
            "quiet": {"url": str(db), "semantic": str(layer)},
        },
    )
    try:
        for question in ANSWERED[:3]:
            svc.feedback(svc.ask(question, "shop")["verdict"]["id"], 1)
        for sql in ("SELECT count(*) AS n FROM orders", "SELECT 1 AS one"):
            svc.feedback(svc.sql(sql, "shop")["verdict"]["id"], 0)
        svc.ask(ANSWERED[0], "quiet")  # asked, never labelled
    finally:
        svc.close()
        svc.ledger.close()
    out = tmp_path / "calibrators"
    result = CliRunner().invoke(
        main, ["calibrate", "--ledger", url, "--out", str(out), "--min-labels", "2"]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "quiet: not calibrated (no labelled answers to questions); thresholds stay."
    assert lines[1] == (
        "shop: not calibrated (every one of the 3 labels says the answer was right; a "
        "calibrator learns how often a score is wrong from both kinds: label some wrong "
        "answers too); thresholds stay. (2 labels on /api/sql or /api/score verdicts left out: "
        "those are scored by another rule than the questions asked, and the calibrator maps "
        "the asks' scores)"
    )
    assert not out.exists() or not list(out.glob("*.json"))


def test_a_map_that_cannot_rank_is_warned(demo_paths: tuple[Path, Path], tmp_path: Path) -> None:
    """Every labelled answer with one score fits one point: the command says so, and what the
    gate will do (outside tryout 36: 54 answers all scored 1.0 fitted P(right) = 0.7963, and
    every answer was then withheld with no word said)."""
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    svc = make_service(demo_paths, url)
    try:
        for label in (1, 1, 1, 0):
            svc.feedback(svc.ask(ANSWERED[0])["verdict"]["id"], label)
    finally:
        svc.close()
        svc.ledger.close()
    out = tmp_path / "calibrators"
    result = CliRunner().invoke(
        main, ["calibrate", "--ledger", url, "--out", str(out), "--min-labels", "4"]
    )
    assert result.exit_code == 0, result.output
    assert "shop: isotonic calibrator on 4 labelled answers" in result.output
    warning = result.output.split("Warning: shop: ", 1)[1]
    assert warning.startswith("the 4 labelled answers have 1 distinct score (")
    assert "P(right) = 0.7500 and cannot rank them" in warning
    assert "withhold every answer when its cost is above 3.00" in warning
    assert "leave calibration.dir unset to keep the thresholds" in warning


def _one_point_service(demo_paths: tuple[Path, Path], tmp_path: Path) -> Service:
    """The service calibrated with the map of outside tryout 36: one point, P(right) = 0.7963."""
    out = tmp_path / "calibrators"
    out.mkdir()
    (out / "shop.json").write_text(
        json.dumps(
            {"kind": "isotonic", "rule": "agreement_first", "n": 54, "x": [1.0], "y": [0.7963]}
        ),
        encoding="utf-8",
    )
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    return make_service(demo_paths, url, calibration={"dir": str(out), "cost": 4.0})


def test_a_probability_just_below_the_threshold_is_written_apart(
    demo_paths: tuple[Path, Path], tmp_path: Path
) -> None:
    """Outside tryout 36: "the calibrated probability ... is 0.80, below the 0.80 that showing
    it needs", for 0.7963."""
    svc = _one_point_service(demo_paths, tmp_path)
    try:
        body = svc.ask(ANSWERED[0])
        assert body["badge"] == "withhold" and body["policy"]["kind"] == "chow"
        (chow,) = [f for f in body["verdict"]["findings"] if f["code"] == "chow.below_threshold"]
        assert "is 0.796, below the 0.800 that showing it needs" in chow["message"]
        evidence = chow["evidence"]
        assert evidence["threshold"] == 0.8 and evidence["cost"] == 4.0
        assert evidence["probability"] == 0.7963
        stored = svc.ledger.verdict(body["verdict"]["id"])
        assert stored is not None and chow in stored["verdict"]["findings"]
    finally:
        svc.close()
        svc.ledger.close()


def test_a_refusal_names_the_fixed_rules_once_calibrated(
    demo_paths: tuple[Path, Path], tmp_path: Path
) -> None:
    """A refused statement names the fixed rules that refused it, not the calibrated map
    (outside tryout 36: a refused DELETE named "chow(lambda=4, ...)")."""
    svc = _one_point_service(demo_paths, tmp_path)
    try:
        refused = svc.sql("DELETE FROM orders")
        assert refused["badge"] == "refuse"
        assert refused["verdict"]["rule"]["name"] == "guard_refusal"
        assert refused["verdict"]["policy"]["name"].startswith("thresholds(")
        assert refused["policy"]["kind"] == "thresholds"
    finally:
        svc.close()
        svc.ledger.close()


def test_a_vetoed_answer_stays_withheld_once_calibrated(
    demo_paths: tuple[Path, Path], tmp_path: Path
) -> None:
    """Outside tryout 41: fitted on feedback for answers that all scored 1.0, the map gave every
    score P(right) = 0.85, and vetoed answers were shown with a warning ("Average delivery days
    in 2023 was 56,070.88", the stand-in date 9999-12-31 averaged in)."""
    out = tmp_path / "calibrators"
    out.mkdir()
    (out / "shop.json").write_text(
        json.dumps(
            {"kind": "isotonic", "rule": "agreement_first", "n": 61, "x": [1.0], "y": [0.8525]}
        ),
        encoding="utf-8",
    )
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    svc = make_service(demo_paths, url, calibration={"dir": str(out), "cost": 4.0})
    try:
        shown = svc.ask(ANSWERED[0])
        assert shown["badge"] == "show" and shown["policy"]["kind"] == "chow"
        body = svc.ask("average delivery days in 2023")
        assert body["policy"]["kind"] == "chow"
        assert body["badge"] == "withhold", body["verdict"]["reasons"]
        assert any(r.startswith("veto.") for r in body["verdict"]["reasons"])
        assert body["answer"] is None
    finally:
        svc.close()
        svc.ledger.close()


def test_a_score_below_the_fitted_ones_says_the_thresholds_decided() -> None:
    from assay.gate import GatePolicy
    from assay.scoring import IsotonicCalibrator
    from assay.service._service import _explain_chow

    policy = GatePolicy.chow(4, IsotonicCalibrator((1.0,), (0.8525,), 61))
    record = {"score": 0.79, "reasons": ["cap.thin_evidence", "chow.outside_calibration"]}
    _explain_chow(record, policy)
    (finding,) = record["findings"]
    assert finding["code"] == "chow.outside_calibration"
    assert "(0.79; the lowest was 1.00)" in finding["message"]
    assert "the fixed thresholds decided" in finding["message"]
