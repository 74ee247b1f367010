"""``assay monitor import | train | eval`` end to end on small files built here, and on the
shared InterCode and EHRSQL data when present."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from assay.cli._main import main
from assay.monitor import HEAD_C_CANDIDATES, MONITOR_VERSION, write_jsonl
from tests.monitor._runs import synthetic_runs

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
DDL = """USE `db0`;
CREATE TABLE `singer` (`id` int, `name` text);
CREATE TABLE `concert` (`id` int, `singer_id` int,
  CONSTRAINT `fk` FOREIGN KEY (`singer_id`) REFERENCES `singer` (`id`));
USE `db1`;
CREATE TABLE `singer` (`id` int, `name` text);
"""


def _invoke(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    out: dict[str, object] = json.loads(result.output.strip().splitlines()[-1])
    return out


def _no_constant(name: str) -> object:
    raise AssertionError(f"report.json holds {name}, which is not JSON")


def _turns(actions: list[str], observations: list[str], rewards: list[float]) -> dict[str, object]:
    return {"actions": actions, "observations": observations, "rewards": rewards}


def test_import_intercode_keeps_every_unmappable_record(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(
        json.dumps({"task_id": 1, "db": "db0", "query": "Names?"})
        + "\n"
        + json.dumps({"task_id": 2, "db": "nowhere", "query": "Other?"})
        + "\n"
    )
    ok = {
        "task_id": 1,
        "query": "Names?",
        "turn_history": _turns(["SELECT name FROM singer"], ["[('a',)]"], [1.0]),
    }
    records = [
        json.dumps(ok).encode(),
        json.dumps(ok | {"task_id": 9}).encode(),  # unknown task
        json.dumps(ok | {"turn_history": _turns(["SELECT 1", "x"], ["[]"], [0, 0])}).encode(),
        b"{broken",
        json.dumps(ok).encode().replace(b"Names", b"N\xe9mes"),  # Latin-1, not UTF-8
        json.dumps(ok | {"task_id": 2}).encode(),  # database not in the schema
    ]
    traj = tmp_path / "m__ic_sql_multiturn_m_10_turns.jsonl"
    traj.write_bytes(b"\n".join(records) + b"\n")
    schema = tmp_path / "schema.sql"
    schema.write_text(DDL)
    out = tmp_path / "runs.jsonl"
    summary = _invoke(
        "monitor",
        "import",
        "intercode",
        str(traj),
        "--tasks",
        str(tasks),
        "--schema",
        str(schema),
        "--out",
        str(out),
    )
    assert summary["runs"] == 1 and summary["rejects"] == 5
    reasons = [
        json.loads(x)["reason"] for x in Path(str(summary["rejects_out"])).read_text().splitlines()
    ]
    assert any("task 9" in r for r in reasons) and any("differ in length" in r for r in reasons)
    assert any("not JSON" in r for r in reasons) and any("not UTF-8" in r for r in reasons)
    assert any("unknown database 'nowhere'" in r for r in reasons)
    run = json.loads(out.read_text())
    assert run["step_count_leaks"] is True and run["labels"] == {
        "answerable": True,
        "correct": True,
    }


def test_import_ehrsql_marks_null_labels_unanswerable(tmp_path: Path) -> None:
    data, labels = tmp_path / "data.json", tmp_path / "label.json"
    data.write_text(
        json.dumps(
            {
                "version": "x",
                "data": [
                    {"id": "a", "question": "How many?"},
                    {"id": "b", "question": "Weather?"},
                    {"id": "c", "question": "No label"},
                ],
            }
        )
    )
    labels.write_text(json.dumps({"a": "SELECT 1", "b": "null", "z": "SELECT 2"}))
    out = tmp_path / "q.jsonl"
    summary = _invoke(
        "monitor",
        "import",
        "ehrsql",
        "--data",
        str(data),
        "--labels",
        str(labels),
        "--out",
        str(out),
    )
    assert summary["runs"] == 2 and summary["rejects"] == 2
    runs = [json.loads(x) for x in out.read_text().splitlines()]
    assert [(r["run_id"], r["labels"]["answerable"], r["steps"]) for r in runs] == [
        ("ehrsql:a", True, []),
        ("ehrsql:b", False, []),
    ]


def test_train_then_eval_writes_the_report(tmp_path: Path) -> None:
    train, held = tmp_path / "train.jsonl", tmp_path / "held.jsonl"
    write_jsonl(train, (r.to_dict() for r in synthetic_runs(150, seed=3, databases=2)))
    held_runs = [
        r.to_dict() | {"run_id": f"h{i}"}
        for i, r in enumerate(synthetic_runs(60, seed=4, databases=2))
    ]
    write_jsonl(held, held_runs)
    with held.open("a") as fh:
        fh.write('{"format": "assay.trajectory/1", "run_id": "bad"}\n')
    schema = tmp_path / "schema.sql"
    schema.write_text(DDL)
    monitor = tmp_path / "monitor.json"
    trained = _invoke(
        "monitor", "train", "--runs", str(train), "--schema", str(schema), "--out", str(monitor)
    )
    assert len(str(trained["sha256"])) == 64
    assert trained["head_c"] in HEAD_C_CANDIDATES  # 'auto': chosen across the two databases
    saved = json.loads(monitor.read_text())["body"]
    assert saved["info"]["head_c_selection"]["groups"] == ["db0", "db1"]
    assert saved["correctness"]["C"] == trained["head_c"]
    # The thresholds in plain words beside the bare numbers (a null theta and a stop of 5e-324
    # read as bugs): one line for theta, one per lambda.
    said = trained["said"]
    assert isinstance(said, list) and len(said) == 1 + len(trained["stops"])  # type: ignore[arg-type]
    assert said[0].startswith("theta")  # type: ignore[index]
    out = tmp_path / "report"
    evaluate = ["monitor", "eval", "--monitor", str(monitor), "--runs", str(held)]
    evaluate += ["--schema", str(schema)]
    first = CliRunner().invoke(main, [*evaluate, "--out", str(out)])
    assert first.exit_code == 0, first.output
    # Strict JSON: a measure that could not be computed is null, never a bare NaN.
    report = json.loads((out / "report.json").read_text(), parse_constant=_no_constant)
    # The held-out runs are on the training databases: said on the screen, not only in the file.
    assert "Warning: the monitor was trained on runs of ['db0', 'db1']" in first.output
    # A database no run is on is an error naming the ones there are (it printed NaNs).
    none = tmp_path / "none"
    unknown = CliRunner().invoke(main, [*evaluate, "--database", "nosuchdb", "--out", str(none)])
    assert unknown.exit_code == 1
    assert "No run in the runs files is on database(s) ['nosuchdb']" in unknown.output
    assert "'db0'" in unknown.output and not (tmp_path / "none").exists()
    for key in (
        "correctness",
        "answerability",
        "rs",
        "coverage",
        "delivered_accuracy",
        "steps_saved",
        "rejected",
    ):
        assert key in report
    assert {"auroc", "auroc_by_step", "ece_before", "ece_after"} <= set(report["correctness"])
    assert report["correctness"]["auroc"]["value"] > 0.9  # the synthetic runs are separable
    assert set(report["rs"]) == {"1", "4", "9"}
    rs1 = report["rs"]["1"]
    assert rs1["monitored"]["mean"] > rs1["vanilla"]["mean"]
    assert len(rs1["difference"]["ci"]) == 2 and rs1["bootstrap"]["n_resamples"] == 1000
    # Every question is answerable: refusing all scores 0, and the gain over it is RS itself.
    assert rs1["always_abstain"]["mean"] == 0.0
    assert rs1["gain_over_abstain"]["mean"] == pytest.approx(rs1["monitored"]["mean"])
    by_source = report["correctness"]["auroc_by_source"]
    assert sum(v["n"] for v in by_source.values()) == report["correctness"]["auroc"]["n"]
    assert [r["line"] for r in report["rejected"]] == [61]
    assert (out / "report.html").read_text().startswith("<!doctype html>")
    # Each run: what the monitor did with it and when (outside tryout 17 saw only totals).
    per_run = [json.loads(line) for line in (out / "runs.jsonl").read_text().splitlines()]
    assert sorted(r["run_id"] for r in per_run) == sorted(f"h{i}" for i in range(60))
    assert "per_run" not in report
    for lam in ("1", "4", "9"):
        actions = [r["monitored"][lam]["action"] for r in per_run]
        assert set(actions) <= {"answer", "abstain", "exit_gate", "exit_early", "withhold"}
        share = sum(a == "answer" for a in actions) / len(actions)
        assert share == pytest.approx(report["coverage"][lam]["monitored"])
    stopped = [r for r in per_run if r["monitored"]["1"]["action"] == "exit_early"]
    assert all(r["monitored"]["1"]["at_step"] < r["steps"] for r in stopped)


def test_head_c_must_be_auto_or_a_positive_number(tmp_path: Path) -> None:
    runs = tmp_path / "runs.jsonl"
    write_jsonl(runs, (r.to_dict() for r in synthetic_runs(20, seed=3)))
    for bad in ("zero", "0", "-1", "nan"):
        result = CliRunner().invoke(
            main,
            [
                "monitor",
                "train",
                "--runs",
                str(runs),
                "--head-c",
                bad,
                "--out",
                str(tmp_path / "m"),
            ],
        )
        assert result.exit_code != 0 and "--head-c" in result.output, bad
        assert not (tmp_path / "m").exists()


def test_a_tampered_monitor_is_an_error_for_the_cli(tmp_path: Path) -> None:
    bad = tmp_path / "m.json"
    bad.write_text(
        json.dumps(
            {"format": "assay.monitor", "version": MONITOR_VERSION, "sha256": "0", "body": {}}
        )
    )
    runs = tmp_path / "r.jsonl"
    write_jsonl(runs, (r.to_dict() for r in synthetic_runs(3)))
    result = CliRunner().invoke(
        main,
        [
            "monitor",
            "eval",
            "--monitor",
            str(bad),
            "--runs",
            str(runs),
            "--out",
            str(tmp_path / "o"),
        ],
    )
    assert result.exit_code == 1 and "sha256" in result.output
    assert not (tmp_path / "o" / "report.json").exists()


@pytest.mark.skipif(not (DATA / "intercode-sql").is_dir(), reason="shared data absent")
def test_real_intercode_and_ehrsql_import(tmp_path: Path) -> None:
    ic = DATA / "intercode-sql"
    files = sorted(str(p) for p in (ic / "trajectories").glob("*.jsonl"))
    out = tmp_path / "ic.jsonl"
    summary = _invoke(
        "monitor",
        "import",
        "intercode",
        *files,
        "--tasks",
        str(ic / "tasks.jsonl"),
        "--schema",
        str(ic / "schema.mysql.sql"),
        "--out",
        str(out),
    )
    n_lines = sum(1 for f in files for line in Path(f).read_bytes().splitlines() if line.strip())
    assert summary["runs"] + summary["rejects"] == n_lines  # nothing dropped silently
    assert summary["rejects"] < 0.05 * n_lines
    eh = DATA / "ehrsql-2024" / "valid"
    q = _invoke(
        "monitor",
        "import",
        "ehrsql",
        "--data",
        str(eh / "data.json"),
        "--labels",
        str(eh / "label.json"),
        "--out",
        str(tmp_path / "v.jsonl"),
    )
    assert q == q | {"runs": 1163, "rejects": 0}
    unanswerable = sum(
        not json.loads(x)["labels"]["answerable"]
        for x in (tmp_path / "v.jsonl").read_text().splitlines()
    )
    assert unanswerable == 232  # the README's count of null labels
