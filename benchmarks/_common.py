"""Shared helpers for the benchmarks: timing, percentiles, and writing results."""

from __future__ import annotations

import json
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).parent / "results"


def timings(func: Callable[[], object], repeat: int) -> list[float]:
    """Wall times in milliseconds of ``repeat`` calls."""
    out = []
    for _ in range(repeat):
        started = time.perf_counter()
        func()
        out.append((time.perf_counter() - started) * 1000.0)
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def median(values: list[float]) -> float:
    return statistics.median(values)


def write(name: str, record: dict[str, Any]) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    record = {
        "benchmark": name,
        "machine": platform.machine(),
        "python": platform.python_version(),
        **record,
    }
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


def report(name: str, rows: list[tuple[str, str, str, bool]]) -> None:
    """Print ``(what, measured, target, met)`` rows."""
    print(f"\n== {name}")
    for what, measured, target, met in rows:
        flag = "ok  " if met else "MISS"
        print(f"  [{flag}] {what}: {measured} (target {target})")
