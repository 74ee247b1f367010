"""The trajectory monitor on the shared data: training time, scoring time per prefix, and the
held-out numbers of issue 13.

InterCode-SQL: pools split by database (three folds, each database held out once; the heads never
saw it) and, inside training, train and calibration pools split by question template. Runs from
the ``multiturn_*_10_turns`` files are left out (the step count is the label there), so the
correctness claims rest on gpt-3.5 ReAct, gpt-3.5 plan-and-solve (and refine), and the one-turn
gpt-3.5 / gpt-4 files. EHRSQL 2024: the answerability head at t = 0, trained on the train split
(its own train and calibration pools by question), evaluated on the valid split.

Model selection never sees the held-out database: in each fold the heads' view (raw or
delexicalised prefixes) and the correctness head's C are chosen by ``select_view_and_c``
(leave-one-database-out on the two training databases only, the rule fixed in code before this
version's held-out numbers were looked at), then the monitor is trained on them (train and
calibration pools by template, every threshold and map frozen on calibration) and evaluated once
on the held-out database. These three held-out databases are not untouched: earlier versions
(raw prefixes, C fixed at 4, then C chosen among four values) were evaluated on them, and the
delexicalisation was designed after seeing that the raw head did not carry to concert_singer.

A second split is the paper's own setting (Section 4.1): held-out question templates (here
Spider questions) on the same three databases, so that calibration is tested where its pool
shares the databases with the held-out pool.

Scoring one prefix is timed as a live monitor runs it: both heads (the InterCode correctness head
and the EHRSQL answerability head, combined as one monitor with no gate) on one vectorisation of
the prefix, after one warm-up call (a live monitor is loaded once).

Run: ``python -m benchmarks monitor`` (needs ../shared/data; skipped when absent).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from assay.monitor import (
    evaluate,
    import_ehrsql,
    import_intercode,
    load_schemas,
    select_view_and_c,
    split_pools,
    train_monitor,
    watch,
)
from assay.monitor._delex import clear_caches
from benchmarks._common import median, percentile, report, write

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
DATABASES = ("car_1", "concert_singer", "pets_1")


def _fold(
    train_runs: list[Any], held_runs: list[Any], catalogs: dict[str, Any], held: str
) -> tuple[dict[str, Any], Any]:
    started = time.perf_counter()
    view, head_c, c_info = select_view_and_c(train_runs, catalogs, group_by="database")
    select_s = time.perf_counter() - started
    started = time.perf_counter()
    monitor = train_monitor(train_runs, catalogs, seed=42, head_c=head_c, view=view)
    seconds = time.perf_counter() - started
    result = evaluate(monitor, held_runs, seed=42)
    corr = result["correctness"]
    return {
        "held_out": held,
        "train_s": round(seconds, 2),
        "select_c_s": round(select_s, 2),
        "view": view,
        "head_c": head_c,
        "head_c_selection": c_info,
        "calibration_pool": monitor.info.get("calibration_pool"),
        "n_train": monitor.info["n_train"],
        "n_calibration": monitor.info["n_calibration"],
        "estimator": monitor.estimator,
        "selection": monitor.info.get("selection"),
        "n_evaluated": result["n_evaluated"],
        "excluded_step_count_leaks": result["excluded_step_count_leaks"],
        "correctness_auroc": corr["auroc"]["value"],
        "correctness_auroc_by_source": corr["auroc_by_source"],
        "auroc_by_step": [(s["t"], s["value"], s["n"]) for s in corr["auroc_by_step"]],
        "ece_before": corr["ece_before"],
        "ece_after": corr["ece_after"],
        "reliability": corr["reliability"],
        "base_rate_held_out": corr["base_rate"],
        "base_rate_calibration": _base_rate(train_runs, monitor),
        "stops": monitor.stops,
        "rs": result["rs"],
        "coverage": result["coverage"],
        "delivered_accuracy": result["delivered_accuracy"],
        "steps_saved": result["steps_saved"],
    }, monitor


def _base_rate(train_runs: list[Any], monitor: Any) -> float:
    """Accuracy of the calibration pool the monitor froze its maps on (same split as training)."""
    usable = [r for r in train_runs if not r.step_count_leaks]
    _, cal = split_pools(usable, fraction=0.3, seed=monitor.info["seed"])
    return sum(bool(r.correct) for r in cal) / len(cal) if cal else float("nan")


def _pooled_saved(folds: list[dict[str, Any]]) -> dict[str, Any]:
    out = {}
    for lam in ("1", "4", "9"):
        steps = sum(f["steps_saved"][lam]["steps"] for f in folds)
        total = sum(f["steps_saved"][lam]["of"] for f in folds)
        out[lam] = {"steps": steps, "of": total, "fraction": steps / total if total else None}
    return out


def run() -> dict[str, Any]:
    ic, eh = DATA / "intercode-sql", DATA / "ehrsql-2024"
    if not ic.is_dir() or not eh.is_dir():
        print("bench_monitor: ../shared/data is absent; skipped")
        return {}
    runs, rejects = import_intercode(
        sorted((ic / "trajectories").glob("*.jsonl")), ic / "tasks.jsonl"
    )
    catalogs = load_schemas([ic / "schema.mysql.sql"])
    folds = []
    monitors = {}
    for held in DATABASES:
        fold, monitors[held] = _fold(
            [r for r in runs if r.database != held],
            [r for r in runs if r.database == held],
            catalogs,
            held,
        )
        folds.append(fold)
        print(f"bench_monitor: fold {held} done", flush=True)
    # The paper's setting: held-out templates (questions) on the same databases.
    honest = [r for r in runs if not r.step_count_leaks]
    rest, held_q = split_pools(honest, fraction=0.3, seed=7)
    template_fold, _ = _fold(rest, held_q, catalogs, "30% of questions (seed 7), all databases")
    clear_caches()  # delexicalisation timed from cold, as in a fresh training process
    started, started_cpu = time.perf_counter(), time.process_time()  # selection included
    view_all, c_all, _ = select_view_and_c(runs, catalogs)
    train_monitor(runs, catalogs, seed=42, head_c=c_all, view=view_all)
    train_all_s = time.perf_counter() - started
    train_all_cpu_s = time.process_time() - started_cpu
    # EHRSQL answerability at t = 0.
    q_train, _ = import_ehrsql(eh / "train" / "data.json", eh / "train" / "label.json")
    q_valid, _ = import_ehrsql(eh / "valid" / "data.json", eh / "valid" / "label.json")
    started = time.perf_counter()
    ans_monitor = train_monitor(q_train, {}, seed=42)
    train_ans_s = time.perf_counter() - started
    ans = evaluate(ans_monitor, q_valid, seed=42)["answerability"]
    # Scoring one prefix live: both heads on one vectorisation, as one monitor (no gate, so
    # that every prefix is scored by both heads), on every held-out prefix. The combined monitor
    # reads car_1's fold view (delexicalisation included in the time).
    from dataclasses import replace

    monitor = replace(monitors["car_1"], answerability=ans_monitor.answerability, theta=None)
    # Every prefix of every held-out run (multi-step ReAct and plan-and-solve runs included).
    held = [r for r in runs if r.database == "car_1" and not r.step_count_leaks]
    prefixes = [(r, t) for r in held for t in range(len(r.steps))]
    per_prefix: list[float] = []
    per_prefix_wall: list[float] = []
    watch(monitor, prefixes[0][0], lam=1.0)  # warm-up: the heads' weight tables are built once
    for r, t in prefixes:
        partial = replace(r, steps=r.steps[:t], final="none", final_sql=None)
        started, started_wall = time.thread_time(), time.perf_counter()
        watch(monitor, partial, lam=1.0)
        per_prefix.append((time.thread_time() - started) * 1000)
        per_prefix_wall.append((time.perf_counter() - started_wall) * 1000)
    record = {
        "intercode_runs": len(runs),
        "intercode_rejects": len(rejects),
        "folds": folds,
        "steps_saved_pooled": _pooled_saved(folds),
        "template_split": template_fold,
        "train_all_intercode_s": round(train_all_s, 2),
        "ehrsql_answerability": ans,
        "ehrsql_train_s": round(train_ans_s, 2),
        "prefixes_timed": len(per_prefix),
        # CPU time of the scoring thread: the machine is shared, so wall time measures the
        # neighbours as much as the monitor; both are kept.
        "prefix_median_ms": round(median(per_prefix), 3),
        "prefix_p95_ms": round(percentile(per_prefix, 95), 3),
        "prefix_max_ms": round(max(per_prefix), 3),
        "prefix_wall_median_ms": round(median(per_prefix_wall), 3),
        "prefix_wall_p95_ms": round(percentile(per_prefix_wall, 95), 3),
        "train_all_intercode_cpu_s": round(train_all_cpu_s, 2),
    }
    write("monitor", record)
    rows = []
    for fold in [*folds, template_fold]:
        rs1 = fold["rs"]["1"]
        rows.append(
            (
                f"correctness AUROC, held-out {fold['held_out']}",
                f"{fold['correctness_auroc']:.3f}",
                ">= 0.80",
                fold["correctness_auroc"] >= 0.80,
            )
        )
        rows.append(
            (
                f"RS(1) gain, held-out {fold['held_out']}",
                f"{rs1['difference']['mean']:+.3f} CI {rs1['difference']['ci']}",
                "CI excludes 0",
                rs1["difference"]["ci"][0] > 0,
            )
        )
        saved = fold["steps_saved"]["1"]["fraction"]
        rows.append(
            (
                f"steps saved at lambda 1, held-out {fold['held_out']}",
                f"{saved:.1%}",
                ">= 10%",
                saved >= 0.10,
            )
        )
        gain = rs1["gain_over_abstain"]
        rows.append(
            (
                f"RS(1) over always abstaining, held-out {fold['held_out']}",
                f"{gain['mean']:+.3f} CI {gain['ci']}",
                "CI excludes 0 (paper Table 4)",
                gain["ci"][0] > 0,
            )
        )
    pooled = record["steps_saved_pooled"]["1"]["fraction"]
    rows.append(
        ("steps saved at lambda 1, three folds pooled", f"{pooled:.1%}", ">= 10%", pooled >= 0.10)
    )
    rows.append(
        (
            "answerability AUROC t=0, EHRSQL valid",
            f"{ans['value']:.3f}",
            ">= 0.90",
            ans["value"] >= 0.90,
        )
    )
    rows.append(
        (
            "scoring one prefix (median, CPU)",
            f"{record['prefix_median_ms']} ms",
            "< 5 ms",
            record["prefix_median_ms"] < 5,
        )
    )
    rows.append(
        (
            "scoring one prefix (p95, CPU)",
            f"{record['prefix_p95_ms']} ms",
            "< 5 ms",
            record["prefix_p95_ms"] < 5,
        )
    )
    slowest = max(train_all_s, train_ans_s)
    rows.append(
        ("training on the shared data (wall)", f"{slowest:.1f} s", "< 120 s", slowest < 120)
    )
    rows.append(
        (
            "training on the shared data (CPU)",
            f"{train_all_cpu_s:.1f} s",
            "< 120 s",
            train_all_cpu_s < 120,
        )
    )
    report("monitor", rows)
    return record


if __name__ == "__main__":
    run()
