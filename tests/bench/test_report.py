"""Reports from stored verdicts: byte-identical reruns, a frozen manifest that refuses a changed
bundle, hypotheses pass or fail, and bad inputs named without touching a good report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from assay.bench.datasets import default_spider_root, spider_records
from assay.cli import main
from assay.pipeline import Scorer
from assay.scoring import get_rule

ROOT = default_spider_root()
needs_spider = pytest.mark.skipif(
    not (ROOT / "questions.jsonl").exists(), reason=f"the Spider slice is not at {ROOT}"
)


def _write(path: Path, verdicts: list[dict]) -> Path:  # type: ignore[type-arg]
    path.write_text("".join(json.dumps(v, sort_keys=True) + "\n" for v in verdicts))
    return path


@pytest.fixture(scope="module")
def spider_verdicts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if not (ROOT / "questions.jsonl").exists():
        pytest.skip(f"the Spider slice is not at {ROOT}")
    folder = tmp_path_factory.mktemp("verdicts")
    records = list(spider_records(ROOT))
    paths = {}
    # One scorer, its rule swapped: the second rule reuses the open databases, their catalogues
    # and profiles (the same settings), and executes every sample afresh as a run of its own.
    with Scorer.named("designed", write_missing_text=True) as scorer:
        for rule in ("designed", "agreement_first"):
            scorer.rule = get_rule(rule)
            paths[rule] = _write(
                folder / f"{rule}.jsonl", [scorer.score(r).to_dict() for r in records]
            )
    return paths


def _report(args: list[str]) -> object:
    return CliRunner().invoke(main, ["report", *args, "--n-resamples", "300"])


@pytest.mark.slow
@needs_spider
def test_spider_report_is_byte_identical_and_frozen(
    spider_verdicts: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    manifest = tmp_path / "manifest.json"
    frozen = CliRunner().invoke(main, ["prereg", "freeze", "--out", str(manifest)])
    assert frozen.exit_code == 0, frozen.output
    inputs = [str(spider_verdicts["designed"]), str(spider_verdicts["agreement_first"])]
    first, second = tmp_path / "r1", tmp_path / "r2"
    for out in (first, second):
        result = _report([*inputs, "--out", str(out), "--manifest", str(manifest)])
        assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
        assert "scoring bundle" in result.output  # type: ignore[attr-defined]
    for name in (
        "report.json",
        "report.html",
        "accuracy_by_share.png",
        "risk_coverage.png",
        "reliability.png",
        "histograms.png",
    ):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    report = json.loads((first / "report.json").read_text())
    assert report["n_questions"] == 179
    assert set(report["rules"]) == {"designed", "agreement_first"}
    assert {h["id"]: h["result"] for h in report["hypotheses"]}.keys() == {"H1", "H2a", "H2b"}
    assert report["manifest"] == report["bundle"]
    assert 0.5 < report["rules"]["agreement_first"]["auroc"]["value"] < 1
    # A changed threshold changes the bundle: the frozen manifest refuses.
    monkeypatch.setattr("assay.scoring.SOFT_CAP", 0.75)
    refused = _report([*inputs, "--out", str(tmp_path / "r3"), "--manifest", str(manifest)])
    assert refused.exit_code == 1  # type: ignore[attr-defined]
    assert "no longer matches" in refused.output and "soft_cap" in refused.output  # type: ignore[attr-defined]
    assert not (tmp_path / "r3").exists()


def _verdict(ident: str, score: float, label: int | None, action: str = "show") -> dict:  # type: ignore[type-arg]
    record = {
        "id": ident,
        "status": "ok",
        "action": action,
        "score": score,
        "rule": {"name": "agreement_first", "version": "2.1"},
    }
    if label is not None:
        record["label"] = label
    return record


@pytest.fixture
def small(tmp_path: Path) -> Path:
    return _write(
        tmp_path / "v.jsonl",
        [
            _verdict("a", 1.0, 1),
            _verdict("b", 0.8, 1),
            _verdict("c", 0.6, 0, "warn"),
            _verdict("d", 0.2, 0, "withhold"),
        ],
    )


@pytest.mark.parametrize(
    ("labels", "word"),
    [
        ('{"id": "a", "label": 1}\n', "have no label"),
        ('{"id": "a", "label": 1}\n{"id": "a", "label": 1}\n', "repeats id 'a'"),
        ('{"id": "a", "label": "yes"}\n', "not 0 or 1"),
        ("", "is empty"),
    ],
    ids=["missing-ids", "duplicates", "not-binary", "empty"],
)
def test_bad_labels_named(small: Path, tmp_path: Path, labels: str, word: str) -> None:
    path = tmp_path / "labels.jsonl"
    path.write_text(labels)
    result = _report([str(small), "--labels", str(path), "--out", str(tmp_path / "r")])
    assert result.exit_code == 1  # type: ignore[attr-defined]
    assert word in result.output  # type: ignore[attr-defined]


def test_sets_must_cover_the_same_answers(small: Path, tmp_path: Path) -> None:
    other = _write(
        tmp_path / "w.jsonl",
        [
            {**_verdict("a", 1.0, 1), "rule": {"name": "designed"}},
            {**_verdict("z", 1.0, 1), "rule": {"name": "designed"}},
        ],
    )
    result = _report([str(small), str(other), "--out", str(tmp_path / "r")])
    assert result.exit_code == 1 and "different questions" in result.output  # type: ignore[attr-defined]


def test_single_class_is_nan_with_reason(tmp_path: Path) -> None:
    path = _write(tmp_path / "v.jsonl", [_verdict("a", 1.0, 1), _verdict("b", 0.5, 1)])
    result = _report([str(path), "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    rule = json.loads((tmp_path / "r" / "report.json").read_text())["rules"]["agreement_first"]
    assert rule["auroc"]["value"] is None
    assert any("one class" in r for r in rule["undefined"])


def test_failed_run_never_replaces_a_good_report(
    small: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "r"
    assert _report([str(small), "--out", str(out)]).exit_code == 0  # type: ignore[attr-defined]
    good = (out / "report.json").read_bytes()

    def broken(*args: object) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr("assay.bench.report._write_report._figures", broken)
    result = _report([str(small), "--out", str(out), "--seed", "5"])
    assert result.exit_code != 0  # type: ignore[attr-defined]
    assert (out / "report.json").read_bytes() == good
    assert not list(tmp_path.glob(".r.partial-*"))


def test_freeze_never_overwrites(tmp_path: Path) -> None:
    manifest = tmp_path / "m.json"
    runner = CliRunner()
    assert runner.invoke(main, ["prereg", "freeze", "--out", str(manifest)]).exit_code == 0
    again = runner.invoke(main, ["prereg", "freeze", "--out", str(manifest)])
    assert again.exit_code == 1 and "never overwritten" in again.output


def test_faults_command(tmp_path: Path, shop_duckdb: Path) -> None:
    count = "SELECT customer_id, count(*) AS n FROM orders GROUP BY customer_id ORDER BY n DESC"
    lines = [
        json.dumps(
            {
                "id": f"q{i}",
                "db": str(shop_duckdb),
                "question": "orders per customer",
                "samples": [{"final_sql": count}] * 5,
                "label": 1,
            }
        )
        for i in range(3)
    ]
    samples = tmp_path / "s.jsonl"
    samples.write_text("\n".join(lines) + "\n")
    out = tmp_path / "faults.json"
    result = CliRunner().invoke(main, ["faults", str(samples), "--out", str(out)])
    assert result.exit_code == 0, result.output
    table = json.loads(out.read_text())
    assert table["controls"] == table["controls_identical"] == 3
    rows = {r["kind"]: r for r in table["faults"]}
    assert rows["fake_table"]["withheld"] == 1.0 and rows["fake_table"]["check_fired"] == 1.0
    assert rows["intent_flip"]["planted"] == 3 and rows["intent_flip"]["not_shown"] == 1.0
    assert "controls rescored identically: 3 of 3" in result.output


def test_hypotheses_the_report_cannot_measure_are_not_evaluated() -> None:
    """A benchmark-only metric is 'not evaluated', never 'fail'; a paired AUROC difference
    with an at_least criterion compares the point estimate."""
    from assay.bench.report._build_report import _hypothesis
    from assay.bench.runner import Hypothesis

    rules = {"a": {"gate": {"pass_accuracy": 0.9}, "auroc": {"value": 0.8}}, "b": {}}
    comparisons = {"a-b": {"value": 0.02, "low": -0.01, "high": 0.05}}
    planted = Hypothesis("H", "planted_not_shown", "a", "at_least", 1.0)
    assert _hypothesis(planted, rules, comparisons)["result"] == "not evaluated"
    at_least = Hypothesis("H", "auroc", "a", "at_least", 0.0, "b")
    assert _hypothesis(at_least, rules, comparisons)["result"] == "pass"
    above = Hypothesis("H", "auroc", "a", "ci_low_above", 0.0, "b")
    assert _hypothesis(above, rules, comparisons)["result"] == "fail"


def test_report_package_imports_first_in_a_fresh_process() -> None:
    # `assay prereg freeze` imports the report before the runner; the report once imported the
    # runner, which imports the report: a cycle that only a fresh process sees.
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", "import assay.bench.report"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_sets_must_hold_the_same_answers(small: Path, tmp_path: Path) -> None:
    """Outside tryout 17: two files scored from different samples were paired silently."""
    rows = [
        {**_verdict("a", 1.0, 1), "sql": "SELECT 1"},
        {**_verdict("b", 0.8, 1), "sql": "SELECT 2"},
    ]
    first = _write(tmp_path / "x.jsonl", rows)
    same = _write(tmp_path / "y.jsonl", [{**r, "rule": {"name": "designed"}} for r in rows])
    other_sql = _write(
        tmp_path / "z.jsonl",
        [
            {**rows[0], "rule": {"name": "designed"}},
            {**rows[1], "sql": "SELECT 3", "rule": {"name": "designed"}},
        ],
    )
    other_label = _write(
        tmp_path / "w.jsonl",
        [
            {**rows[0], "rule": {"name": "designed"}},
            {**rows[1], "label": 0, "rule": {"name": "designed"}},
        ],
    )
    ok = _report([str(first), str(same), "--out", str(tmp_path / "ok")])
    assert ok.exit_code == 0, ok.output  # type: ignore[attr-defined]
    for bad in (other_sql, other_label):
        result = _report([str(first), str(bad), "--out", str(tmp_path / bad.stem)])
        assert result.exit_code == 1  # type: ignore[attr-defined]
        assert "different answers to 1 question (" in result.output  # type: ignore[attr-defined]
        assert "['b']" in result.output  # type: ignore[attr-defined]
        assert not (tmp_path / bad.stem).exists()


def test_built_in_hypotheses_on_other_rules_say_what_to_score(small: Path, tmp_path: Path) -> None:
    """Verdicts of the default rule: the paper's built-in hypotheses (about agreement_first and
    designed) are not evaluated, and the report says why and which rules to score."""
    assayed = _write(
        tmp_path / "assay.jsonl",
        [
            {**json.loads(line), "rule": {"name": "assay"}}
            for line in small.read_text().splitlines()
        ],
    )
    result = _report([str(assayed), "--out", str(tmp_path / "r")])
    output = result.output  # type: ignore[attr-defined]
    assert result.exit_code == 0, output  # type: ignore[attr-defined]
    assert "H1: not evaluated: it is about agreement_first and designed" in output
    assert "scored with assay" in output
    assert "`assay score --rule agreement_first` and `assay score --rule designed`" in output
    html = (tmp_path / "r" / "report.html").read_text()
    assert "NOT EVALUATED (it is about agreement_first and designed" in html
