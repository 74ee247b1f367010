"""``generate_benchmark``: every domain's warehouse, the tasks and the manifest, from a seed.

The manifest digests a DuckDB file by its CONTENT (:func:`content_digest`: each table's name,
column names and types, row count, and its rows as JSON in sorted order, computed in DuckDB),
because DuckDB's block layout can differ byte for byte between two runs of the same seed on a
busy machine while every table holds the same rows (issue 9). YAML and JSONL files keep the
sha256 of their bytes, which are deterministic.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from assay.bench.datasets._phrasing import PHRASING_DIR, load_phrasing
from assay.bench.datasets._tasks import SPLITS, Task, assign_splits, domain_tasks, task_set_hash
from assay.bench.warehouses._build import Warehouse, write_warehouse
from assay.bench.warehouses._retail import saas, shop
from assay.bench.warehouses._risk import clinic, insurance

__all__ = [
    "BENCHMARK_VERSION",
    "DIGESTS",
    "DOMAINS",
    "build_domain",
    "content_digest",
    "generate_benchmark",
    "load_tasks",
]

BENCHMARK_VERSION = "assay-wrb-1.0"
DOMAINS = {"shop": shop, "saas": saas, "insurance": insurance, "clinic": clinic}
DIGESTS = {
    ".duckdb": "content-sha256: tables by name; columns, types, row count, md5 of sorted JSON rows",
    ".yaml": "sha256 of the bytes",
}


def build_domain(name: str, seed: int, scale: float = 1.0) -> Warehouse:
    """One domain's warehouse, with its own stream of the seed (order-independent)."""
    index = list(DOMAINS).index(name)
    return DOMAINS[name](np.random.default_rng([seed, index]), scale)


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def content_digest(db_path: Path) -> str:
    """The sha256 of a DuckDB file's content, the same for any two files holding the same tables.

    Each table (in name order) contributes its name, its columns and types in order, its row
    count, and DuckDB's md5 of its rows written as JSON and sorted, so neither the file's block
    layout nor the order rows were stored in changes the digest.
    """
    import duckdb

    digest = hashlib.sha256()
    con = duckdb.connect(str(db_path), read_only=True)
    try:
        tables = con.execute(
            "SELECT schema_name, table_name FROM duckdb_tables() ORDER BY schema_name, table_name"
        ).fetchall()
        for schema, table in tables:
            columns = con.execute(
                "SELECT column_name, data_type FROM duckdb_columns() WHERE schema_name = ? "
                "AND table_name = ? ORDER BY column_index",
                [schema, table],
            ).fetchall()
            name = f'"{schema}"."{table}"'
            count, rows = con.execute(
                "SELECT count(*), md5(coalesce(string_agg(r, chr(10) ORDER BY r), '')) "
                f"FROM (SELECT CAST(to_json(t) AS VARCHAR) AS r FROM {name} AS t)"
            ).fetchone() or (0, "")
            record = [schema, table, [list(c) for c in columns], count, rows]
            digest.update((json.dumps(record) + "\n").encode("utf-8"))
    finally:
        con.close()
    return digest.hexdigest()


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
        files[db_path.name] = content_digest(db_path)
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
        "digests": DIGESTS,
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
