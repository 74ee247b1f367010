"""Benchmark generation and scoring: all four domains at the default scale with 400 tasks
(time, and peak memory of a fresh process), and scoring a 400-task run. Also the two reference
baselines scored on the dev split (their numbers go in the closing note).

Reproduce: ``make bench BENCH_ARGS=wrb``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from assay.bench.runner import RunContext, load_run, make_system, run_benchmark, score_run
from assay.bench.warehouses import load_tasks
from assay.settings import load_settings
from benchmarks._common import report, write

GENERATE = """
import resource, sys, time
from pathlib import Path
from assay.bench.warehouses import generate_benchmark
started = time.perf_counter()
generate_benchmark(Path(sys.argv[1]), seed=0, scale=1.0)
elapsed = time.perf_counter() - started
print(elapsed, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def run() -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "bench"
        out = subprocess.run(
            [sys.executable, "-c", GENERATE, str(folder)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
        gen_s, rss_kib = float(out[0]), int(out[1])
        tasks, manifest = load_tasks(folder)
        record: dict[str, object] = {
            "generate_s": round(gen_s, 2),
            "generate_peak_rss_mib": round(rss_kib / 1024, 1),
            "tasks": len(tasks),
            "splits": manifest["splits"],
        }
        baselines = {}
        for name in ("always_abstain", "answer_first_reading"):
            for split in ("dev", "all"):
                chosen = [t for t in tasks if split == "all" or t.split == split]
                path = Path(tmp) / f"{name}-{split}.jsonl"
                ctx = RunContext(folder, load_settings({}))
                try:
                    run_benchmark(
                        chosen,
                        make_system(name),
                        path,
                        ctx,
                        task_set_hash=manifest["task_set_hash"],
                    )
                finally:
                    ctx.close()
                started = time.perf_counter()
                scored = score_run(load_run(path), tasks, manifest, folder)
                elapsed = time.perf_counter() - started
                if split == "all":
                    record[f"score_400_s_{name}"] = round(elapsed, 2)
                else:
                    baselines[name] = {
                        k: scored[k] for k in ("metrics", "strata", "outcomes", "intervals")
                    }
        record["dev_baselines"] = baselines
    write("wrb", record)
    slowest = max(float(str(record[f"score_400_s_{n}"])) for n in baselines)
    rows = [
        ("generate 4 domains + 400 tasks", f"{gen_s:.1f} s", "< 60 s", gen_s < 60),
        ("generation peak memory", f"{rss_kib / 1024:.0f} MiB", "< 2 GiB", rss_kib < 2 * 2**20),
        ("score a 400-task run", f"{slowest:.2f} s", "< 10 s", slowest < 10),
    ]
    for name, b in baselines.items():
        m = b["metrics"]
        rows.append(
            (
                f"dev {name}",
                json.dumps(
                    {
                        k: m[k]
                        for k in (
                            "business_truth_rate",
                            "false_success_rate",
                            "coverage",
                            "answer_accuracy",
                        )
                    }
                ),
                "reported",
                True,
            )
        )
    report("wrb", rows)
    return record
