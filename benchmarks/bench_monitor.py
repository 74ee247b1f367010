"""The trajectory monitor on the shared data: training time, scoring time per prefix, and the
held-out numbers of issue 13.

InterCode-SQL: pools split by database (three folds, each database held out once; the heads never
saw it) and, inside training, train and calibration pools split by question template. Runs from
the ``multiturn_*_10_turns`` files are left out (the step count is the label there), so the
correctness claims rest on gpt-3.5 ReAct, gpt-3.5 plan-and-solve (and refine), and the one-turn
gpt-3.5 / gpt-4 files. EHRSQL 2024: the answerability head at t = 0, trained on the train split
(its own train and calibration pools by question), evaluated on the valid split.

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
    render_prefix,
    train_monitor,
    watch,
)
from benchmarks._common import median, percentile, report, write

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
DATABASES = ("car_1", "concert_singer", "pets_1")


def _fold(runs: list[Any], catalogs: dict[str, Any], held: str) -> tuple[dict[str, Any], Any]:
    started = time.perf_counter()
    monitor = train_monitor([r for r in runs if r.database != held], catalogs, seed=42)
    seconds = time.perf_counter() - started
    result = evaluate(monitor, [r for r in runs if r.database == held], seed=42)
    corr = result["correctness"]
    return {
        "held_out_database": held,
        "train_s": round(seconds, 2),
        "estimator": monitor.estimator,
        "selection": monitor.info.get("selection"),
        "n_evaluated": result["n_evaluated"],
        "excluded_step_count_leaks": result["excluded_step_count_leaks"],
        "correctness_auroc": corr["auroc"]["value"],
        "auroc_by_step": [(s["t"], s["value"], s["n"]) for s in corr["auroc_by_step"]],
        "ece_before": corr["ece_before"],
        "ece_after": corr["ece_after"],
        "rs": result["rs"],
        "coverage": result["coverage"],
        "delivered_accuracy": result["delivered_accuracy"],
        "steps_saved": result["steps_saved"],
    }, monitor


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
        fold, monitors[held] = _fold(runs, catalogs, held)
        folds.append(fold)
    started = time.perf_counter()
    train_monitor(runs, catalogs, seed=42)
    train_all_s = time.perf_counter() - started
    # EHRSQL answerability at t = 0.
    q_train, _ = import_ehrsql(eh / "train" / "data.json", eh / "train" / "label.json")
    q_valid, _ = import_ehrsql(eh / "valid" / "data.json", eh / "valid" / "label.json")
    started = time.perf_counter()
    ans_monitor = train_monitor(q_train, {}, seed=42)
    train_ans_s = time.perf_counter() - started
    ans = evaluate(ans_monitor, q_valid, seed=42)["answerability"]
    # Scoring one prefix live: the gate and early exit (both heads) on held-out prefixes.
    monitor = monitors["car_1"]
    # Every prefix of every held-out run (multi-step ReAct and plan-and-solve runs included).
    held = [r for r in runs if r.database == "car_1" and not r.step_count_leaks]
    prefixes = [(r, t) for r in held for t in range(len(r.steps))]
    per_prefix: list[float] = []
    from dataclasses import replace

    for r, t in prefixes:
        partial = replace(r, steps=r.steps[:t], final="none", final_sql=None)
        started = time.perf_counter()
        watch(monitor, partial, lam=1.0)
        ans_monitor.p_ans([render_prefix(partial, t)])
        per_prefix.append((time.perf_counter() - started) * 1000)
    record = {
        "intercode_runs": len(runs),
        "intercode_rejects": len(rejects),
        "folds": folds,
        "train_all_intercode_s": round(train_all_s, 2),
        "ehrsql_answerability": ans,
        "ehrsql_train_s": round(train_ans_s, 2),
        "prefixes_timed": len(per_prefix),
        "prefix_median_ms": round(median(per_prefix), 3),
        "prefix_p95_ms": round(percentile(per_prefix, 95), 3),
    }
    write("monitor", record)
    rows = []
    for fold in folds:
        rs1 = fold["rs"]["1"]
        rows.append(
            (
                f"correctness AUROC, held-out {fold['held_out_database']}",
                f"{fold['correctness_auroc']:.3f}",
                ">= 0.80",
                fold["correctness_auroc"] >= 0.80,
            )
        )
        rows.append(
            (
                f"RS(1) gain, held-out {fold['held_out_database']}",
                f"{rs1['difference']['mean']:+.3f} CI {rs1['difference']['ci']}",
                "CI excludes 0",
                rs1["difference"]["ci"][0] > 0,
            )
        )
        saved = fold["steps_saved"]["1"]["fraction"]
        rows.append(
            (
                f"steps saved at lambda 1, held-out {fold['held_out_database']}",
                f"{saved:.1%}",
                ">= 10%",
                saved >= 0.10,
            )
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
            "scoring one prefix (median)",
            f"{record['prefix_median_ms']} ms",
            "< 5 ms",
            record["prefix_median_ms"] < 5,
        )
    )
    slowest = max(train_all_s, train_ans_s)
    rows.append(("training on the shared data", f"{slowest:.1f} s", "< 120 s", slowest < 120))
    report("monitor", rows)
    return record


if __name__ == "__main__":
    run()
