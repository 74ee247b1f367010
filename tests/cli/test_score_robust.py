"""``assay score`` on bad input: every line gets a verdict or a named failure, the run goes on,
the exit code tells failed lines from failed samples, and ``--resume`` continues a killed run
exactly where it stopped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from assay.cli import main
from assay.generators import SampleRecord
from assay.ledger import read_verdicts
from assay.pipeline import Scorer
from assay.scoring import Rule, RuleScore, ScoreInputs

COUNT = "SELECT count(*) AS n FROM orders"
SLOW = (
    "SELECT count(*) FROM order_items a JOIN order_items b ON a.order_id <= b.order_id "
    "JOIN order_items c ON b.order_id <= c.order_id JOIN order_items d ON c.order_id <= "
    "d.order_id JOIN order_items e ON d.order_id <= e.order_id"
)


def _record(ident: str, db: Path | str, sqls: list[str], question: str = "How many orders?") -> str:
    return json.dumps(
        {
            "id": ident,
            "db": str(db),
            "question": question,
            "samples": [{"final_sql": s} for s in sqls],
        }
    )


def _records(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_bad_input_gets_a_verdict_or_a_named_failure_per_line(
    tmp_path: Path, shop_duckdb: Path, shop_sqlite: Path
) -> None:
    lines = [
        _record("duck", shop_duckdb, [COUNT] * 5),
        _record("lite", shop_sqlite, [COUNT] * 5),  # mixed dialects in one file
        _record("nodb", tmp_path / "missing.duckdb", [COUNT] * 5),
        _record("nul", shop_duckdb, ["SELECT 1\x00; DELETE FROM orders"] + [COUNT] * 4),
        _record("dup", shop_duckdb, [COUNT] * 5),
        _record("dup", shop_duckdb, [COUNT] * 5),
        _record("huge", shop_duckdb, ["SELECT 1 AS x" + " " * 1_000_000] + [COUNT] * 4),
        _record("slow", shop_duckdb, [SLOW] + [COUNT] * 4),
    ]
    samples = tmp_path / "bad.jsonl"
    samples.write_text("\n".join(lines) + "\n")
    out = tmp_path / "v.jsonl"
    result = CliRunner().invoke(
        main, ["score", str(samples), "--out", str(out), "--time-limit-ms", "500"]
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    records = _records(out)
    assert [r["id"] for r in records] == [
        "duck",
        "lite",
        "nodb",
        "nul",
        "dup",
        "dup",
        "huge",
        "slow",
    ]
    by = {(r["id"], i): r for i, r in enumerate(records)}
    assert by[("duck", 0)]["action"] == "show" and by[("lite", 1)]["action"] == "show"
    assert by[("nodb", 2)]["failure"]["code"] == "execution.connection_failed"
    assert 'this line\'s "db"' in by[("nodb", 2)]["failure"]["message"]
    assert "--db" not in by[("nodb", 2)]["failure"]["message"]  # score has no --db
    assert by[("dup", 5)]["failure"]["code"] == "input.duplicate_id"
    assert by[("dup", 4)]["status"] == "ok"
    for ident, index in (("nul", 3), ("huge", 6), ("slow", 7)):
        record = by[(ident, index)]
        # Sample 0's SQL was refused or ran out of time: a verdict, withheld, with the reason.
        assert record["status"] == "ok" and record["action"] == "withhold", record
        assert record["findings"][0]["code"] == "veto.no_result"
        assert record["failures"][0]["sample"] == 0 and record["failures"][0]["code"]
    # A refused sample says what the code means, not only the code.
    nul = by[("nul", 3)]["failures"][0]
    assert nul["code"] == "guard.rejected" and ": " in nul["message"]
    assert len(nul["message"].split(": ", 1)[1]) > 10
    assert by[("slow", 7)]["failures"][0]["code"] == "execution.timeout"
    assert result.exit_code == 1  # two lines could not be scored (no database, duplicate id)
    # The file reads back for report and calibrate: the repeat's failed line is passed over and
    # the first verdict kept (outside tryout 14: they refused the scorer's own file).
    read = read_verdicts(out)
    assert read["dup"]["status"] == "ok" and len(read) == 7


def test_failed_samples_alone_exit_zero(tmp_path: Path, shop_duckdb: Path) -> None:
    samples = tmp_path / "s.jsonl"
    samples.write_text(_record("q", shop_duckdb, ["SELECT * FROM nowhere"] + [COUNT] * 4) + "\n")
    result = CliRunner().invoke(main, ["score", str(samples), "--out", str(tmp_path / "v.jsonl")])
    assert result.exit_code == 0, result.output
    assert "1 samples' SQL failed" in result.output


def test_every_line_malformed(tmp_path: Path) -> None:
    samples = tmp_path / "bad.jsonl"
    text = '{"id": 1,\nnot json\n[1, 2]\n{"id": "x", "db": "d"}\n"\x00"\n'
    samples.write_bytes(text.encode() + b'{"id": "\xff\xfe"}\n')  # the last is not UTF-8
    out = tmp_path / "v.jsonl"
    result = CliRunner().invoke(main, ["score", str(samples), "--out", str(out)])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    records = _records(out)
    assert len(records) == 6
    assert all(r["status"] == "failed" and r["failure"]["code"] for r in records)
    assert "not UTF-8: byte 0xff" in records[-1]["failure"]["message"]
    assert "6 lines failed" in result.output


def _raising(inputs: ScoreInputs) -> RuleScore:
    raise RuntimeError("boom")


def test_any_exception_is_caught_at_the_line_boundary(shop_duckdb: Path) -> None:
    record = SampleRecord.model_validate(json.loads(_record("q", shop_duckdb, [COUNT] * 2)))
    with Scorer(Rule("raising", "0", "raises", _raising)) as scorer:
        verdict = scorer.score_line(record)
    assert verdict.failure == {
        "code": "score.internal_error",
        "message": "Scoring raised RuntimeError: boom",
    }
    assert verdict.score is None and verdict.status == "failed"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_resume_after_a_killed_run(tmp_path: Path, shop_duckdb: Path) -> None:
    # The run to kill is a process of its own (SIGKILL, no clean-up of any kind); the resume and
    # the fresh run to compare with are in this process: what they read is only the file.
    n, killed_at = 30, 8
    lines = [_record(f"q{i:03d}", shop_duckdb, [COUNT, f"SELECT {i} AS n"] * 2) for i in range(n)]
    lines.insert(27, _record("q003", shop_duckdb, [COUNT] * 3))  # repeats an id written early
    samples = tmp_path / "s.jsonl"
    samples.write_text("\n".join(lines) + "\n")
    out = tmp_path / "v.jsonl"
    command = Path(sys.executable).parent / "assay"  # the installed console script
    args = ["score", str(samples), "--out", str(out)]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    process = subprocess.Popen(
        [str(command), *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        if out.exists() and out.read_text().count("\n") >= killed_at:
            break
        time.sleep(0.02)
    assert process.poll() is None, "the run ended before it could be killed"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    written = out.read_text().count("\n")
    assert killed_at <= written < n + 1, "the run finished before it could be killed"
    resumed = CliRunner().invoke(main, [*args, "--resume"])
    assert resumed.exit_code == 1, resumed.output  # the duplicate id is a failed line
    ids = [r["id"] for r in _records(out)]
    expected = [json.loads(line)["id"] for line in lines]
    assert ids == expected  # every line exactly once, in order, the duplicate included
    fresh = tmp_path / "fresh.jsonl"
    CliRunner().invoke(main, [*args[:-1], str(fresh)])
    assert _records(out) == _records(fresh)


def test_reliability_file_is_read_and_a_bad_one_named(tmp_path: Path, shop_duckdb: Path) -> None:
    samples = tmp_path / "s.jsonl"
    samples.write_text(_record("q", shop_duckdb, [COUNT] * 3) + "\n")
    bad = tmp_path / "rel.json"
    bad.write_text('{"kind": "assay.sampler_reliability", "samplers": {"a": 2}}')
    result = CliRunner().invoke(main, ["score", str(samples), "--reliability", str(bad)])
    assert result.exit_code == 1 and "Error:" in result.output and "(0, 1]" in result.output
    good = tmp_path / "good.json"
    good.write_text('{"kind": "assay.sampler_reliability", "samplers": {"a": 0.9}}')
    result = CliRunner().invoke(main, ["score", str(samples), "--reliability", str(good)])
    record = json.loads(result.output.splitlines()[0])
    assert "note.reliability_unused" in [f["code"] for f in record["findings"]]
