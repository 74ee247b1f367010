"""``assay score`` and ``assay calibrate`` end to end on the shop database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from assay.cli import main

COUNT = "SELECT count(*) AS n FROM orders"
WRONG = "SELECT count(*) AS n FROM customers"


def _line(
    ident: str, db: Path, sqls: list[str], *, text: str | None = None, label: int | None = None
) -> str:
    samples = [{"final_sql": s} for s in sqls]
    if text:
        samples[0]["text"] = text
    record: dict[str, object] = {
        "id": ident,
        "db": str(db),
        "question": "How many orders?",
        "samples": samples,
    }
    if label is not None:
        record["label"] = label
    return json.dumps(record)


@pytest.fixture
def samples(tmp_path: Path, shop_duckdb: Path) -> Path:
    lines = [
        _line("agree", shop_duckdb, [COUNT] * 5, text="There are 200 orders.", label=1),
        _line(
            "split", shop_duckdb, [COUNT] * 3 + [WRONG] * 2, text="There are 200 orders.", label=1
        ),
        _line("fake", shop_duckdb, ["SELECT count(*) FROM orders_2023"] + [COUNT] * 4, label=0),
        _line("minority", shop_duckdb, [WRONG] + [COUNT] * 4, text="There are 50.", label=0),
    ]
    path = tmp_path / "samples.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def _records(path: Path) -> dict[str, dict]:  # type: ignore[type-arg]
    return {r["id"]: r for r in map(json.loads, path.read_text().splitlines())}


def test_score_writes_verdicts(samples: Path, tmp_path: Path) -> None:
    out = tmp_path / "verdicts.jsonl"
    result = CliRunner().invoke(main, ["score", str(samples), "--out", str(out)])
    # The fake table's SQL failed: named in its record; that is evidence, not a failed line,
    # so the exit code is 0 (1 is kept for lines that could not be scored).
    assert result.exit_code == 0, result.output
    assert "1 samples' SQL failed" in result.output
    records = _records(out)
    assert {k: v["action"] for k, v in records.items()} == {
        "agree": "show",
        "split": "warn",
        "fake": "withhold",
        "minority": "withhold",
    }
    assert records["agree"]["score"] == 1.0
    assert records["agree"]["rule"] == {"name": "assay", "version": "assay-1.0"}
    assert records["split"]["reasons"] == ["score.below_show"]
    fake = records["fake"]
    assert "veto.missing_table" in fake["reasons"]
    assert fake["failures"][0]["code"] == "guard.rejected"
    assert fake["label"] == 0
    assert {"id", "action", "score", "rule", "findings", "label"} <= set(fake)
    assert all({"code", "kind", "message"} <= set(f) for f in fake["findings"])


def test_designed_rule(samples: Path, tmp_path: Path) -> None:
    out = tmp_path / "designed.jsonl"
    CliRunner().invoke(main, ["score", str(samples), "--rule", "designed", "--out", str(out)])
    records = _records(out)
    assert records["agree"]["rule"]["version"] == "bench-1.0"
    assert records["fake"]["score"] <= 0.59


def test_show_prints_badges(samples: Path) -> None:
    result = CliRunner().invoke(main, ["score", str(samples), "--show"])
    assert " SHOW " in result.output and " WITHHOLD " in result.output
    assert "SQL: SELECT count(*) AS n FROM orders" in result.output
    assert "because veto.missing_table" in result.output


def test_bad_lines_are_named_failures_and_the_run_goes_on(
    samples: Path, tmp_path: Path, shop_duckdb: Path
) -> None:
    text = samples.read_text()
    text += '{"id": "broken", \n'
    text += (
        json.dumps(
            {
                "id": "nodb",
                "db": "/nowhere/x.duckdb",
                "question": "q",
                "samples": [{"final_sql": "SELECT 1"}],
            }
        )
        + "\n"
    )
    text += (
        json.dumps(
            {
                "id": "nothing",
                "db": str(shop_duckdb),
                "question": "q",
                "samples": [{"text": "hello"}],
            }
        )
        + "\n"
    )
    text += (
        json.dumps(
            {
                "id": "typo",
                "db": str(shop_duckdb),
                "question": "q",
                "samples": [{"final_sql": "SELECT 1", "finalsql": "x"}],
            }
        )
        + "\n"
    )
    text += _line("after", shop_duckdb, [COUNT] * 5) + "\n"
    samples.write_text(text)
    out = tmp_path / "v.jsonl"
    result = CliRunner().invoke(main, ["score", str(samples), "--out", str(out)])
    assert result.exit_code == 1
    assert "4 lines failed" in result.output
    records = _records(out)
    assert records["line-5"]["failure"]["code"] == "input.invalid"
    assert "not JSON" in records["line-5"]["failure"]["message"]
    assert records["nodb"]["failure"]["code"] == "execution.connection_failed"
    assert "neither final_sql nor result" in records["nothing"]["failure"]["message"]
    assert "finalsql" in records["typo"]["failure"]["message"]
    # the hint names every key a sample may hold (it left out 'sampler': outside tryout 26)
    assert "samples[final_sql, sampler, queries" in records["typo"]["failure"]["message"]
    for ident in ("line-5", "nodb", "nothing", "typo"):
        assert records[ident]["status"] == "failed" and records[ident]["action"] is None
    assert records["after"]["status"] == "ok"


def test_resume_skips_written_and_redoes_a_cut_line(samples: Path, tmp_path: Path) -> None:
    out = tmp_path / "v.jsonl"
    runner = CliRunner()
    runner.invoke(main, ["score", str(samples), "--out", str(out)])
    refused = runner.invoke(main, ["score", str(samples), "--out", str(out)])
    assert refused.exit_code == 1 and "--resume" in refused.output
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:2]) + lines[2][:40])  # a crash mid-line
    result = runner.invoke(main, ["score", str(samples), "--out", str(out), "--resume"])
    assert "skipped 2 already written" in result.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in records] == ["agree", "split", "fake", "minority"]


def test_calibrate_and_chow(samples: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "v.jsonl"
    runner.invoke(main, ["score", str(samples), "--out", str(out)])
    cal = tmp_path / "cal.json"
    result = runner.invoke(main, ["calibrate", str(out), "--out", str(cal)])
    assert result.exit_code == 0, result.output
    assert json.loads(cal.read_text())["kind"] == "isotonic"
    chow = tmp_path / "chow.jsonl"
    runner.invoke(
        main, ["score", str(samples), "--out", str(chow), "--cost", "4", "--calibrator", str(cal)]
    )
    records = _records(chow)
    assert records["agree"]["action"] == "show"
    assert records["agree"]["policy"]["name"].startswith("chow(lambda=4")


@pytest.mark.parametrize(
    ("labels", "word"),
    [
        ('{"id": "agree", "label": 1}\n', "have no label"),
        ('{"id": "agree", "label": 1}\n{"id": "agree", "label": 0}\n', "repeats id 'agree'"),
        ('{"id": "agree", "label": 2}\n', "not 0 or 1"),
        ("nonsense\n", "is not"),
    ],
    ids=["missing", "duplicate", "not-binary", "not-json"],
)
def test_calibrate_bad_labels(samples: Path, tmp_path: Path, labels: str, word: str) -> None:
    runner = CliRunner()
    out = tmp_path / "v.jsonl"
    runner.invoke(main, ["score", str(samples), "--out", str(out)])
    path = tmp_path / "labels.jsonl"
    path.write_text(labels)
    result = runner.invoke(
        main, ["calibrate", str(out), "--labels", str(path), "--out", str(tmp_path / "c.json")]
    )
    assert result.exit_code == 1
    assert word in result.output


def test_cost_without_calibrator(samples: Path) -> None:
    result = CliRunner().invoke(main, ["score", str(samples), "--cost", "4"])
    assert result.exit_code == 1 and "go together" in result.output


def test_resume_without_out_is_a_usage_error_naming_the_fix(samples: Path) -> None:
    result = CliRunner().invoke(main, ["score", str(samples), "--resume"])
    assert result.exit_code == 2, result.output
    assert "--resume" in result.output and "--out" in result.output


def test_resume_drops_verdicts_of_ids_not_in_the_input(samples: Path, tmp_path: Path) -> None:
    out = tmp_path / "v.jsonl"
    runner = CliRunner()
    runner.invoke(main, ["score", str(samples), "--out", str(out)])
    lines = out.read_text().splitlines(keepends=True)
    stranger = json.loads(lines[0])
    stranger["id"] = "not-in-the-input"
    out.write_text(json.dumps(stranger) + "\n" + "".join(lines[:2]))
    result = runner.invoke(main, ["score", str(samples), "--out", str(out), "--resume"])
    assert "not-in-the-input" in result.output and "dropped 1" in result.output.lower()
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert "not-in-the-input" not in ids
    assert ids == ["agree", "split", "fake", "minority"]
