"""Profiles are byte-identical under four hash seeds (separate interpreters)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = """
import sys
from assay.catalog import proposals, reconstruct
from assay.connectors import connect

def main():
    with connect(sys.argv[1]) as connector:
        found = reconstruct(connector, connector.catalog(), rng=3, sample_rows=500)
    text = found.profile.to_json()
    facts = [(p.subject, p.predicate, repr(p.value), p.tier.name, p.raw_confidence,
              sorted(p.evidence.items()), p.data_digest) for p in proposals(found)]
    sys.stdout.write(text + repr(facts))

if __name__ == "__main__":
    main()
"""


@pytest.mark.slow
def test_profiles_identical_under_four_hash_seeds(tmp_path: Path, tpch_duckdb: Path) -> None:
    db = tpch_duckdb
    script = tmp_path / "profile.py"
    script.write_text(SCRIPT, encoding="utf-8")
    digests = set()
    for seed in ("0", "1", "42", "123456"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run(
            [sys.executable, str(script), str(db)],
            env=env,
            capture_output=True,
            check=True,
            timeout=300,
        ).stdout
        assert len(out) > 10_000
        digests.add(hashlib.sha256(out).hexdigest())
    assert len(digests) == 1
