"""Run records: round trip, rendering as Appendix L, and bad input named per record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.errors import InputError
from assay.monitor import FORMAT, Run, Step, read_runs, render_prefix, write_jsonl
from assay.monitor._trajectory import run_from_dict
from tests.monitor._runs import synthetic_runs


def test_round_trip_keeps_every_field(tmp_path: Path) -> None:
    runs = synthetic_runs(5)
    path = tmp_path / "runs.jsonl"
    write_jsonl(path, (r.to_dict() for r in runs))
    back, rejects = read_runs([path])
    assert rejects == [] and back == runs


def test_render_matches_appendix_l_and_hides_the_final_line_until_the_end() -> None:
    run = Run(
        "r",
        "How many pets?",
        "pets_1",
        (
            Step("sql", thought="count", sql="SELECT count(*) FROM pets", row_count=0),
            Step("final_null", thought="cannot"),
        ),
        final="abstain",
    )
    assert render_prefix(run, 0) == "QUESTION: How many pets?"
    assert render_prefix(run, 1).splitlines()[1:] == [
        "STEP 1 THOUGHT: count",
        "STEP 1 SQL: SELECT count(*) FROM pets",
        "STEP 1 RESULT: empty (0 rows)",
    ]
    assert "FINAL" not in render_prefix(run, 1)
    assert render_prefix(run, 2).endswith("STEP 2 THOUGHT: cannot\nFINAL: null (abstained)")


def test_left_truncation_keeps_the_latest_steps() -> None:
    steps = tuple(Step("sql", thought=f"t{i} " * 50, sql="SELECT 1", row_count=1) for i in range(9))
    text = render_prefix(Run("r", "q", "db", steps), 9, max_tokens=100)
    assert len(text.split()) == 100 and "t8" in text and "QUESTION" not in text


def _record(**changes: object) -> dict[str, object]:
    base = synthetic_runs(1)[0].to_dict()
    base.update(changes)
    return base


@pytest.mark.parametrize(
    ("record", "reason"),
    [
        (_record(format="other/1"), "is not 'assay.trajectory/1'"),
        (_record(database=""), "'database' is missing"),
        (_record(steps=[]), "has no steps"),
        (_record(steps=[{"action": "dance"}]), "action 'dance'"),
        (_record(labels={"correct": "yes"}), "Label 'correct'"),
        (_record(final={"kind": "answer", "sql": None}), "no final SQL"),
    ],
    ids=["format", "no-database", "no-steps", "bad-action", "bad-label", "no-final-sql"],
)
def test_a_malformed_record_is_a_named_error(record: dict[str, object], reason: str) -> None:
    with pytest.raises(InputError, match=reason):
        run_from_dict(record)


def test_bad_lines_are_rejected_by_line_and_the_rest_read(tmp_path: Path) -> None:
    good = synthetic_runs(3)
    lines = [json.dumps(r.to_dict()).encode() for r in good]
    bad_utf8 = (
        json.dumps(good[0].to_dict() | {"run_id": "x"}).encode().replace(b"Which", b"Wh\xffich")
    )
    data = b"\n".join([lines[0], b"{not json", bad_utf8, lines[1], lines[1], lines[2]])
    path = tmp_path / "runs.jsonl"
    path.write_bytes(data)
    runs, rejects = read_runs([path])
    assert [r.run_id for r in runs] == ["r0", "r1", "r2"]
    assert [(j.line, j.reason.split(":")[0].split(" '")[0]) for j in rejects] == [
        (2, "not JSON"),
        (3, "not UTF-8 at byte 63"),
        (5, "duplicate run id"),
    ]


def test_question_only_runs_are_valid() -> None:
    run = run_from_dict(
        {
            "format": FORMAT,
            "run_id": "q1",
            "question": "q?",
            "database": "d",
            "final": {"kind": "none"},
            "labels": {"answerable": False},
        }
    )
    assert run.steps == () and run.answerable is False and run.delivered_correct is None
