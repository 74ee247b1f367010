"""Training, freezing, saving with a hash, loading, and live decisions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.monitor import (
    MonitorFileError,
    Run,
    deliver,
    load_monitor,
    save_monitor,
    select_head_c,
    split_pools,
    train_monitor,
    watch,
)
from assay.monitor._heads import DEFAULT_C
from tests.monitor._runs import CATALOG, synthetic_runs

CATALOGS = {f"db{i}": CATALOG for i in range(3)}


@pytest.fixture(scope="module")
def monitor_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    monitor = train_monitor(synthetic_runs(160, seed=1), CATALOGS, seed=42)
    path = tmp_path_factory.mktemp("m") / "monitor.json"
    save_monitor(monitor, path)
    return path


def test_pools_share_no_group_or_database() -> None:
    runs = synthetic_runs(90)
    for by in ("group", "database"):
        train, cal = split_pools(runs, fraction=0.3, seed=0, group_by=by)  # type: ignore[arg-type]
        key = (lambda r: r.database) if by == "database" else (lambda r: r.group)
        assert train and cal and not {key(r) for r in train} & {key(r) for r in cal}
        assert len(train) + len(cal) == len(runs)


def test_training_freezes_every_decision(monitor_file: Path) -> None:
    monitor = load_monitor(monitor_file, CATALOGS)
    assert monitor.correctness is not None and monitor.answerability is None
    assert "one class" in monitor.info["answerability_reason"]
    assert monitor.theta is None  # no answerability head: no gate, said so
    assert set(monitor.stops) == {"1.0", "4.0", "9.0"}
    assert monitor.prefix_map is not None and monitor.delivery_map is not None
    assert monitor.estimator in {"head", "hybrid"}
    sel = monitor.info["selection"]
    if monitor.estimator == "hybrid":
        assert sel["auroc_hybrid"] > sel["auroc_head"] + 0.005


def test_leaking_runs_are_left_out_of_training() -> None:
    runs = [
        Run(**{**r.__dict__, "step_count_leaks": i % 2 == 0})
        for i, r in enumerate(synthetic_runs(120, seed=2))
    ]
    monitor = train_monitor(runs, CATALOGS)
    assert monitor.info["excluded_step_count_leaks"] == 60
    assert monitor.info["n_train"] + monitor.info["n_calibration"] == 60


def test_a_changed_monitor_file_is_refused(monitor_file: Path, tmp_path: Path) -> None:
    record = json.loads(monitor_file.read_text())
    record["body"]["theta"] = 0.99
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(record))
    with pytest.raises(MonitorFileError, match="does not match its sha256"):
        load_monitor(tampered)
    record = json.loads(monitor_file.read_text()) | {"version": "0"}
    other = tmp_path / "other.json"
    other.write_text(json.dumps(record))
    with pytest.raises(MonitorFileError, match="version '0'"):
        load_monitor(other)
    garbage = tmp_path / "garbage.json"
    garbage.write_bytes(b"\xff\xfe")
    with pytest.raises(MonitorFileError, match="Cannot read"):
        load_monitor(garbage)


def test_live_decisions_withhold_the_wrong_and_deliver_the_right(monitor_file: Path) -> None:
    monitor = load_monitor(monitor_file, CATALOGS)
    held = synthetic_runs(40, seed=9)
    right = next(r for r in held if r.correct)
    wrong = next(r for r in held if not r.correct)
    assert deliver(monitor, right, lam=1.0).action == "deliver"
    decision = deliver(monitor, wrong, lam=1.0)
    assert decision.action == "withhold" and decision.code == "monitor.withhold"
    assert decision.p_corr is not None and decision.p_corr < 0.5 == decision.threshold
    state = watch(
        monitor, Run(wrong.run_id, wrong.question, wrong.database, wrong.steps[:1]), lam=1.0
    )
    assert state.code in {"monitor.early_exit", "monitor.continue"}


def test_head_c_is_chosen_on_held_out_databases_of_the_given_runs_only() -> None:
    runs = synthetic_runs(90, seed=5)
    chosen, info = select_head_c(runs, candidates=(0.5, 2.0))
    assert info["groups"] == ["db0", "db1", "db2"]
    assert all(len(v) == 3 for v in info["auroc_by_group"].values())  # one AUROC per database
    means = info["mean_auroc"]
    best = max(means.values())
    # The highest mean wins; a tie goes to the smaller C.
    assert means[f"raw:{chosen:g}"] == best
    assert chosen == min(c for c in (0.5, 2.0) if means[f"raw:{c:g}"] == best)
    one_db = [r for r in runs if r.database == "db0"]
    c, why = select_head_c(one_db)
    assert c == DEFAULT_C and why["reason"] == "fewer than two groups"
    # By question template instead: one AUROC per template that has both classes.
    _, by_group = select_head_c(runs, candidates=(1.0,), group_by="group")
    assert len(by_group["groups"]) == 40


def test_the_chosen_c_reaches_the_correctness_head_and_is_frozen() -> None:
    monitor = train_monitor(synthetic_runs(90, seed=6), CATALOGS, head_c=0.5)
    assert monitor.correctness is not None and monitor.correctness.C == 0.5
    assert monitor.info["head_c"] == 0.5
    assert monitor.to_body()["correctness"]["C"] == 0.5
