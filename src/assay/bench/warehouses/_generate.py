"""``generate_benchmark``: every domain's warehouse, the tasks and the manifest, from a seed."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from assay.bench._phrasing import PHRASING_DIR, load_phrasing
from assay.bench._tasks import SPLITS, Task, assign_splits, domain_tasks, task_set_hash
from assay.bench.warehouses._build import Warehouse, write_warehouse
from assay.bench.warehouses._retail import saas, shop
from assay.bench.warehouses._risk import clinic, insurance

__all__ = ["BENCHMARK_VERSION", "DOMAINS", "build_domain", "generate_benchmark", "load_tasks"]

BENCHMARK_VERSION = "assay-wrb-1.0"
DOMAINS = {"shop": shop, "saas": saas, "insurance": insurance, "clinic": clinic}


def build_domain(name: str, seed: int, scale: float = 1.0) -> Warehouse:
    """One domain's warehouse, with its own stream of the seed (order-independent)."""
    index = list(DOMAINS).index(name)
    return DOMAINS[name](np.random.default_rng([seed, index]), scale)


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def generate_benchmark(
    out: Path,
    seed: int = 0,
    scale: float = 1.0,
    sizes: dict[str, int] = SPLITS,
    phrasing: Path | None = PHRASING_DIR,
) -> dict[str, Any]:
    """Write ``<domain>.duckdb`` and ``<domain>.yaml`` per domain, ``tasks.jsonl`` and
    ``manifest.json`` into ``out``; return the manifest.

    The template tasks come first, unchanged; then every free-phrased record of the domains
    generated (``phrasing/<domain>.jsonl``, stratum ``phrasing``, its stored split), unless
    ``phrasing`` is None."""
    out.mkdir(parents=True, exist_ok=True)
    tasks: list[Task] = []
    files: dict[str, str] = {}
    traps: list[dict[str, Any]] = []
    for name in DOMAINS:
        warehouse = build_domain(name, seed, scale)
        db_path, yaml_path = write_warehouse(warehouse, out)
        files[db_path.name] = _sha(db_path)
        files[yaml_path.name] = _sha(yaml_path)
        traps.extend({"domain": name, **asdict(t)} for t in warehouse.traps)
        tasks.extend(domain_tasks(name, warehouse.facts))
    tasks = assign_splits(tasks, sizes)
    if phrasing is not None:
        tasks.extend(load_phrasing(phrasing, DOMAINS))
    with (out / "tasks.jsonl").open("w", encoding="utf-8") as handle:
        for task in tasks:
            handle.write(json.dumps(task.to_dict(), sort_keys=True) + "\n")
    manifest = {
        "benchmark": BENCHMARK_VERSION,
        "seed": seed,
        "scale": scale,
        "task_set_hash": task_set_hash(tasks, seed, scale),
        "splits": dict(sorted(Counter(t.split for t in tasks).items())),
        "types": dict(sorted(Counter(t.type for t in tasks).items())),
        "files": dict(sorted(files.items())),
        "traps": traps,
    }
    (out / "manifest.json").write_text(
        json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8"
    )
    return manifest


def load_tasks(folder: Path) -> tuple[list[Task], dict[str, Any]]:
    from assay.errors import BenchError

    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        lines = (folder / "tasks.jsonl").read_text(encoding="utf-8").splitlines()
    except (OSError, json.JSONDecodeError) as exc:
        raise BenchError(
            f"No benchmark in {str(folder)!r}: {exc}.",
            hint="Generate one with 'assay bench generate --seed 0 --out DIR'.",
        ) from exc
    tasks = [Task.from_dict(json.loads(line)) for line in lines if line.strip()]
    if task_set_hash(tasks, manifest.get("seed", 0), manifest.get("scale", 1.0)) != manifest.get(
        "task_set_hash"
    ):
        raise BenchError(
            f"tasks.jsonl in {str(folder)!r} does not match its manifest.",
            hint="Regenerate the benchmark; do not edit tasks by hand.",
        )
    return tasks, manifest
