"""Same inputs, same outputs, byte for byte, under any ``PYTHONHASHSEED``.

Two fresh interpreters with different hash seeds each generate a small benchmark, profile every
column of its shop warehouse, measure a key overlap and ask a few questions; their outputs must
be identical. Within one process the hash seed is fixed, so only separate processes can show a
result that depends on set or dict-of-str iteration order.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = """
import dataclasses, hashlib, json, sys
from pathlib import Path
from assay.bench.warehouses import generate_benchmark
from assay.catalog import Profiles
from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import load_semantic

out = Path(sys.argv[1])
generate_benchmark(out, seed=3, scale=0.05)
# DuckDB files may differ in block layout on a busy machine; manifest.json holds their
# content digests (tests/bench/test_digests.py), so every other file is compared byte for byte.
files = {
    p.name: hashlib.sha256(p.read_bytes()).hexdigest()
    for p in sorted(out.iterdir())
    if p.suffix != ".duckdb"
}
with connect(str(out / "shop.duckdb")) as connector:
    catalog = connector.catalog()
    profiles = Profiles(connector, catalog)
    columns = [(t.name, c.name) for t in catalog.tables for c in t.columns]
    profiled = [dataclasses.asdict(profiles.profile(t, c)) for t, c in columns]
    overlap = dataclasses.asdict(
        profiles.overlap(("order_lines", "order_id"), ("orders", "order_id"))
    )
    agent = Agent(connector, load_semantic(out / "shop.yaml"))
    verdicts = [agent.ask(q).to_dict() for q in json.loads(sys.argv[2])]
record = {
    "hash": hash("assay"),
    "files": files,
    "profiles": profiled,
    "overlap": overlap,
    "verdicts": verdicts,
}
print(json.dumps(record, sort_keys=True, default=str).replace(str(out), "<out>"))
"""

QUESTIONS = [
    "What was the gross revenue in 2023?",
    "What was revenue in 2023?",
    "What was the number of orders per month in 2024?",
    "What was the latest ship date in 2023?",
    "Top 3 country by net revenue in 2023",
]


@pytest.mark.slow
def test_generation_profile_and_verdicts_ignore_the_hash_seed(tmp_path: Path) -> None:
    runs = {}
    for seed in ("1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        args = [sys.executable, "-c", SCRIPT, str(tmp_path / seed), json.dumps(QUESTIONS)]
        runs[seed] = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, text=True)
    outputs = {}
    for seed, process in runs.items():
        stdout, _ = process.communicate(timeout=120)
        assert process.returncode == 0, f"PYTHONHASHSEED={seed} failed"
        outputs[seed] = json.loads(stdout)
    one, two = outputs["1"], outputs["4242"]
    # The seeds took effect: str hashes differ between the two interpreters.
    assert one.pop("hash") != two.pop("hash")
    assert len(one["files"]) >= 6 and len(one["profiles"]) > 10  # 4 YAML, tasks, manifest
    assert [v["behaviour"] for v in one["verdicts"]][:2] == ["answer", "clarify"]
    for key in ("files", "profiles", "overlap", "verdicts"):
        assert one[key] == two[key], key
