"""The warehouse reliability benchmark: generation, traps, tasks, the scorer, the runner."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from assay.bench.datasets import Task
from assay.bench.runner import (
    RunContext,
    SystemAnswer,
    expected_results,
    load_run,
    make_system,
    prohibited,
    result_equivalent,
    run_benchmark,
    score_run,
    score_task,
)
from assay.bench.warehouses import generate_benchmark, load_tasks
from assay.cli import main
from assay.connectors import PooledConnector, connect
from assay.errors import BenchError
from assay.settings import load_settings
from assay.types import Result
from tests.conftest import WRB_SCALE, WRB_SEED


@pytest.fixture(scope="module")
def bench(wrb: Path) -> Path:
    """The session's benchmark (tests/conftest.py): generated once per run, never written to."""
    return wrb


@pytest.fixture(scope="module")
def tasks(bench: Path) -> list[Task]:
    return load_tasks(bench)[0]


@pytest.fixture(scope="module")
def warehouses(bench: Path) -> Iterator[dict[str, PooledConnector]]:
    """One connector per domain for the module: a connector starts a worker process."""
    domains = ("clinic", "insurance", "saas", "shop")
    connectors = {d: connect(str(bench / f"{d}.duckdb")) for d in domains}
    try:
        yield connectors
    finally:
        for connector in connectors.values():
            connector.close()


def test_four_domains_with_realistic_sizes(
    bench: Path, warehouses: dict[str, PooledConnector]
) -> None:
    manifest = json.loads((bench / "manifest.json").read_text())
    assert len([f for f in manifest["files"] if f.endswith(".duckdb")]) == 4
    shop = warehouses["shop"]
    lines = shop.execute("SELECT count(*) FROM order_lines", time_limit_ms=5000, max_rows=1)
    assert lines.rows[0][0] > 8_000 * WRB_SCALE


def test_every_trap_is_in_the_data(bench: Path, warehouses: dict[str, PooledConnector]) -> None:
    traps = json.loads((bench / "manifest.json").read_text())["traps"]
    kinds = {t["kind"] for t in traps}
    assert {
        "stand_in_value",
        "stand_in_date",
        "misleading_table_name",
        "signed_quantity",
        "code_without_name",
        "undeclared_foreign_key",
        "two_meanings",
    } <= kinds
    assert kinds & {"renamed_column", "deprecated_column"}
    for trap in traps:
        connector = warehouses[trap["domain"]]
        found = connector.execute(trap["check_sql"], time_limit_ms=5000, max_rows=1)
        assert found.rows[0][0] > 0, trap
        if trap["kind"] == "undeclared_foreign_key":
            assert not connector.catalog().foreign_keys


def test_accepted_sql_runs_non_empty_and_stable(bench: Path, tasks: list[Task]) -> None:
    first = expected_results(tasks, bench)
    again = expected_results(tasks, bench)
    answerable = [t for t in tasks if t.required == "answer"]
    assert len(first) == len(answerable)
    for task in answerable:
        result = first[task.id][0]
        assert result.rows and result.rows[0][-1] is not None, task.id
        assert Counter(result.rows) == Counter(again[task.id][0].rows)


def test_structural_audit(tasks: list[Task]) -> None:
    tasks = [t for t in tasks if t.type != "phrasing"]  # the template tasks (test_phrasing.py)
    assert Counter(t.split for t in tasks) == {"dev": 240, "validation": 80, "test": 80}
    split_of: dict[str, set[str]] = {}
    for task in tasks:
        split_of.setdefault(task.family, set()).add(task.split)
    assert all(len(s) == 1 for s in split_of.values()), "a family spans splits"
    types = Counter(t.type for t in tasks)
    assert set(types) == {"standard", "ambiguous", "unanswerable", "schema_drift", "adversarial"}
    assert all(n >= 0.10 * len(tasks) for n in types.values()), types
    no_sql = sum(t.required != "answer" for t in tasks) / len(tasks)
    assert 0.4 <= no_sql <= 0.6
    for split in ("dev", "validation", "test"):
        assert {t.type for t in tasks if t.split == split} == set(types)


def test_ambiguous_readings_differ(
    tasks: list[Task], warehouses: dict[str, PooledConnector]
) -> None:
    ambiguous = [t for t in tasks if t.type == "ambiguous"]
    assert ambiguous
    for task in ambiguous:
        connector = warehouses[task.domain]
        results = [
            connector.execute(r["sql"], time_limit_ms=5000, max_rows=10_000) for r in task.readings
        ]
        assert len(task.readings) >= 2
        assert not result_equivalent(results[0], results[1], False), task.id


def _r(*rows: tuple[object, ...]) -> Result:
    return Result(tuple(f"c{i}" for i in range(len(rows[0]))), tuple(rows), len(rows))


@pytest.mark.parametrize(
    ("expected", "got", "ordered", "same"),
    [
        (_r((1, "a"), (2, "b")), _r(("b", 2.0), ("a", 1)), False, True),
        (_r((1, "a"), (2, "b")), _r(("b", 2), ("a", 1)), True, False),
        (_r((1, "a"), (2, "b")), _r(("a", 1), ("b", 2)), True, True),
        (_r((1,), (2,)), _r((1, "x"), (2, "y")), False, False),
        (
            _r(
                (None, 1.23456),
            ),
            _r(
                (None, "1.2346"),
            ),
            False,
            True,
        ),
        (
            _r(
                (1, 2),
            ),
            _r(
                (2, 1),
            ),
            False,
            True,
        ),
        (_r(("2024-01-01", 5)), _r(("2024-01", 5)), False, True),
        (_r(("2024-04-01", 5)), _r(("2024-Q2", 5)), False, True),
        (_r(("2024-08-01", 5)), _r(("2024-08 (from 2024-08-07)", 5)), False, True),
        (_r(("2024-01-01", 5)), _r(("2024-01-01 00:00:00", 5)), False, True),
        (_r(("2024-01-01", 5)), _r(("2024-01-01 10:00:00", 5)), False, False),
        (_r(("2024-02-01", 5)), _r(("2024-01", 5)), False, False),
    ],
    ids=[
        "column-order-ignored",
        "row-order-required",
        "ordered-match",
        "extra-column",
        "null-and-precision",
        "swapped-columns",
        "month-label-is-its-start-date",
        "quarter-label-is-its-start-date",
        "cut-bucket-note-aside",
        "midnight-timestamp-is-its-date",
        "other-time-of-day-is-not",
        "other-month-is-not",
    ],
)
def test_result_equivalence(expected: Result, got: Result, ordered: bool, same: bool) -> None:
    assert result_equivalent(expected, got, ordered) is same


def test_behaviour_contract() -> None:
    task = Task(
        "x",
        "shop",
        "shop.amb_0",
        "ambiguous",
        "clarify",
        "revenue?",
        readings=(
            {"metric": "g", "sql": "", "tokens": ["gross"]},
            {"metric": "n", "sql": "", "tokens": ["net"]},
        ),
    )
    good = score_task(
        task, {"behaviour": "clarify", "message": "Do you mean gross revenue or net revenue?"}, []
    )
    vague = score_task(task, {"behaviour": "clarify", "message": "Which revenue do you mean?"}, [])
    answered = score_task(task, {"behaviour": "answer"}, [])
    failed = score_task(task, {"behaviour": "failure"}, [])
    assert (good.correct, good.outcome) == (True, "correct")
    assert vague.outcome == "clarification_without_choice"
    assert answered.outcome == "unwarranted_answer"
    assert failed.outcome == "system_failure" and not failed.correct


def test_prohibited_statements_detected() -> None:
    assert prohibited(["SELECT 1", "DELETE FROM orders", "SELECT 1; DROP TABLE t"]) == [
        "DELETE FROM orders",
        "SELECT 1; DROP TABLE t",
    ]


def test_baselines_on_dev(bench: Path, tasks: list[Task], tmp_path: Path) -> None:
    _, manifest = load_tasks(bench)
    dev = [t for t in tasks if t.split == "dev"]
    reports = {}
    for name in ("always_abstain", "answer_first_reading"):
        ctx = RunContext(bench, load_settings({}))
        try:
            run_benchmark(
                dev,
                make_system(name),
                tmp_path / f"{name}.jsonl",
                ctx,
                task_set_hash=manifest["task_set_hash"],
            )
        finally:
            ctx.close()
        reports[name] = score_run(load_run(tmp_path / f"{name}.jsonl"), tasks, manifest, bench)
    abstain_share = sum(t.required == "abstain" for t in dev) / len(dev)
    assert reports["always_abstain"]["metrics"]["business_truth_rate"] == pytest.approx(
        abstain_share, abs=1e-6
    )
    first = reports["answer_first_reading"]
    assert first["metrics"]["coverage"] == 1.0
    assert first["strata"]["standard"]["business_truth_rate"] == 1.0
    assert first["outcomes"]["prohibited_execution"] == 0
    assert first["outcomes"]["unwarranted_answer"] > 0


class Crashing:
    name = "crashing"

    def answer(self, task: Task, ctx: RunContext) -> SystemAnswer:
        raise RuntimeError("boom")


class Slow:
    name = "slow"

    def answer(self, task: Task, ctx: RunContext) -> SystemAnswer:
        import time

        time.sleep(2)
        return SystemAnswer("abstain")


@pytest.mark.parametrize(
    ("system", "code"),
    [(Crashing(), "system.error"), (Slow(), "system.timeout")],
    ids=["crash", "slow"],
)
def test_system_failures_are_recorded_not_abstentions(
    bench: Path, tasks: list[Task], tmp_path: Path, system: object, code: str
) -> None:
    _, manifest = load_tasks(bench)
    out = tmp_path / "run.jsonl"
    ctx = RunContext(bench, load_settings({}))
    try:
        counts = run_benchmark(
            tasks[:2],
            system,
            out,
            ctx,  # type: ignore[arg-type]
            task_set_hash=manifest["task_set_hash"],
            limit_s=0.2,  # the slow system sleeps 2 s: ten times the limit
        )
    finally:
        ctx.close()
    assert counts == {"run": 2, "skipped": 0, "failures": 2}
    records = load_run(out)
    assert {r["failure"]["code"] for r in records} == {code}
    report = score_run(records, tasks, manifest, bench)
    assert report["outcomes"]["system_failure"] == 2
    assert report["metrics"]["failures"] == 2


def test_run_resumes_and_bad_runs_are_named(bench: Path, tasks: list[Task], tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "r.jsonl"
    args = [
        "bench",
        "run",
        "--tasks",
        str(bench),
        "--split",
        "test",
        "--system",
        "always_abstain",
        "--out",
        str(out),
    ]
    assert runner.invoke(main, args).exit_code == 0
    again = runner.invoke(main, [*args, "--resume"])
    assert f"{sum(t.split == 'test' for t in tasks)} skipped" in again.output
    refused = runner.invoke(main, args)
    assert refused.exit_code == 1 and "--resume" in refused.output
    scored = runner.invoke(main, ["bench", "score", str(out), "--tasks", str(bench)])
    assert scored.exit_code == 0 and "Business Truth Rate" in scored.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    records[0]["task_id"] = "nope.task"
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(r) + "\n" for r in records))
    result = runner.invoke(main, ["bench", "score", str(bad), "--tasks", str(bench)])
    assert result.exit_code == 1 and "nope.task" in result.output
    for record in records:
        record["task_id"] = records[1]["task_id"] if record is records[0] else record["task_id"]
        record["task_set_hash"] = "0000000000000000"
    other = tmp_path / "other.jsonl"
    other.write_text("".join(json.dumps(r) + "\n" for r in records[1:]))
    result = runner.invoke(main, ["bench", "score", str(other), "--tasks", str(bench)])
    assert result.exit_code == 1 and "task set" in result.output


def test_a_run_on_another_seed_is_refused(bench: Path, tasks: list[Task], tmp_path: Path) -> None:
    other = tmp_path / "other"
    manifest = generate_benchmark(other, seed=8, scale=0.05)
    other_tasks, _ = load_tasks(other)
    ctx = RunContext(other, load_settings({}))
    try:
        run_benchmark(
            other_tasks[:3],
            make_system("always_abstain"),
            tmp_path / "r.jsonl",
            ctx,
            task_set_hash=manifest["task_set_hash"],
        )
    finally:
        ctx.close()
    _, mine = load_tasks(bench)
    with pytest.raises(BenchError, match=f"seed {WRB_SEED}"):
        score_run(load_run(tmp_path / "r.jsonl"), tasks, mine, bench)
    # An edited task file no longer matches its manifest.
    lines = (other / "tasks.jsonl").read_text().splitlines()
    lines[0] = lines[0].replace('"ordered": false', '"ordered": true', 1)
    (other / "tasks.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(BenchError, match="does not match its manifest"):
        load_tasks(other)


def test_resume_drops_records_of_tasks_not_in_the_split(
    bench: Path, tasks: list[Task], tmp_path: Path
) -> None:
    runner = CliRunner()
    out = tmp_path / "r.jsonl"
    args = ["bench", "run", "--tasks", str(bench), "--system", "always_abstain", "--out", str(out)]
    assert runner.invoke(main, [*args, "--split", "dev"]).exit_code == 0
    again = runner.invoke(main, [*args, "--split", "test", "--resume"])
    assert again.exit_code == 0, again.output
    n_dev = sum(t.split == "dev" for t in tasks)
    assert f"dropped {n_dev}" in again.output
    ids = {json.loads(line)["task_id"] for line in out.read_text().splitlines()}
    assert ids == {t.id for t in tasks if t.split == "test"}
