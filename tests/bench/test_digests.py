"""The benchmark manifest digests DuckDB files by content: the same seed gives the same manifest
even on a loaded machine, where DuckDB's block layout can differ byte for byte (issue 9)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from assay.bench.warehouses import DIGESTS, content_digest

GENERATE = (
    "import sys; from pathlib import Path; from assay.bench.warehouses import "
    "generate_benchmark; generate_benchmark(Path(sys.argv[1]), seed=11, scale=0.2)"
)


@contextmanager
def _loaded_machine(n_burners: int = 2) -> Iterator[None]:
    """Processes spinning on the CPU for as long as the block runs."""
    burners = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n_burners)
    ]
    try:
        yield
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


def test_manifest_is_the_same_on_a_loaded_machine(tmp_path: Path) -> None:
    # The two generations run at once, each loading the machine for the other, with one process
    # spinning beside them: three busy processes, as the two burners and one generation at a time
    # were, in about half the wall time and a third less CPU.
    outs = [tmp_path / f"h{hash_seed}" for hash_seed in ("1", "4242")]
    with _loaded_machine(n_burners=1):
        runs = [
            subprocess.Popen(
                [sys.executable, "-c", GENERATE, str(out)],
                env={**os.environ, "PYTHONHASHSEED": out.name[1:]},
            )
            for out in outs
        ]
        assert [run.wait() for run in runs] == [0, 0]
    first, second = (json.loads((o / "manifest.json").read_text()) for o in outs)
    assert first == second
    assert first["digests"] == DIGESTS
    for name, digest in first["files"].items():
        path = outs[1] / name
        if name.endswith(".duckdb"):
            assert content_digest(path) == digest
        else:
            assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
    for name in ("tasks.jsonl", "shop.yaml"):
        assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes()


def _db(path: Path, *statements: str) -> Path:
    con = duckdb.connect(str(path))
    for statement in statements:
        con.execute(statement)
    con.close()
    return path


def test_content_digest_ignores_storage_order_and_sees_every_change(tmp_path: Path) -> None:
    rows = "SELECT i AS id, i * 1.5 AS amount, 'x' || i AS name FROM range(500) t(i)"
    base = content_digest(_db(tmp_path / "a.duckdb", f"CREATE TABLE t AS {rows}"))
    reordered = _db(tmp_path / "b.duckdb", f"CREATE TABLE t AS {rows} ORDER BY id DESC")
    assert content_digest(reordered) == base
    changed = _db(
        tmp_path / "c.duckdb", f"CREATE TABLE t AS {rows}", "UPDATE t SET amount = 0 WHERE id = 7"
    )
    assert content_digest(changed) != base
    retyped = _db(
        tmp_path / "d.duckdb",
        "CREATE TABLE t AS SELECT id, CAST(amount AS DOUBLE) AS amount, name FROM "
        f"({rows.replace('i * 1.5', 'CAST(i * 1.5 AS DECIMAL(10, 1))')})",
    )
    assert content_digest(retyped) != base  # same printed values, another column type
    renamed = _db(tmp_path / "e.duckdb", f"CREATE TABLE u AS {rows}")
    assert content_digest(renamed) != base
    extra = _db(tmp_path / "f.duckdb", f"CREATE TABLE t AS {rows}", "CREATE TABLE v (x INT)")
    assert content_digest(extra) != base
