"""Question answering speed: the reading of a whole question (``read``) and the planner path
(intent, read, decide, plan) per question at the median, excluding SQL execution, over the
benchmark's questions; and ``assay ask`` on a simple question from a cold start (a fresh
process, the warehouse already generated)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from assay.bench.warehouses import generate_benchmark, load_tasks
from assay.generators import plan
from assay.guard import refusal_reasons
from assay.semantic import Lexicon, decide, load_semantic, read
from benchmarks._common import median, percentile, report, write


def run() -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "bench"
        generate_benchmark(folder, seed=0, scale=1.0)
        tasks, _ = load_tasks(folder)
        layers = {d: load_semantic(folder / f"{d}.yaml") for d in {t.domain for t in tasks}}
        lexicons = {d: Lexicon(layer) for d, layer in layers.items()}
        timings: list[float] = []
        readings: list[float] = []
        for _ in range(3):
            for task in tasks:
                layer = layers[task.domain]
                started = time.perf_counter()
                read(task.question, layer, lexicons[task.domain])
                readings.append((time.perf_counter() - started) * 1000)
        for _ in range(3):
            for task in tasks:
                layer = layers[task.domain]
                started = time.perf_counter()
                refusal = refusal_reasons(task.question)
                resolution = read(task.question, layer, lexicons[task.domain])
                if decide(resolution, layer, refusal).behaviour == "answer":
                    plan(resolution, layer)
                timings.append((time.perf_counter() - started) * 1000)
        env = {**os.environ, "ASSAY_CACHE_DIR": str(Path(tmp) / "cache")}
        assay = str(Path(sys.executable).parent / "assay")
        subprocess.run(
            [assay, "ask", "What was the gross revenue in 2023?"],
            env=env,
            check=True,
            capture_output=True,
        )  # builds the demo warehouse once
        cold: list[float] = []
        for _ in range(3):
            started = time.perf_counter()
            subprocess.run(
                [assay, "ask", "What was the gross revenue in 2023?"],
                env=env,
                check=True,
                capture_output=True,
            )
            cold.append(time.perf_counter() - started)
    record = {
        "questions": len(timings),
        "reading_median_ms": round(median(readings), 3),
        "reading_p95_ms": round(percentile(readings, 95), 3),
        "planner_path_median_ms": round(median(timings), 3),
        "planner_path_p95_ms": round(percentile(timings, 95), 3),
        "ask_cold_start_median_s": round(median(cold), 3),
    }
    write("ask", record)
    report(
        "ask",
        [
            (
                "reading of a question (median)",
                f"{record['reading_median_ms']} ms",
                "< 30 ms",
                median(readings) < 30,
            ),
            (
                "planner path per question (median)",
                f"{record['planner_path_median_ms']} ms",
                "< 30 ms",
                median(timings) < 30,
            ),
            (
                "assay ask, cold start (median of 3)",
                f"{record['ask_cold_start_median_s']} s",
                "< 2 s",
                median(cold) < 2,
            ),
        ],
    )
    return record
