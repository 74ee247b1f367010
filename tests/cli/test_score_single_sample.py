"""One sample is no agreement (outside tryout 14: scored with K = 1, 22 wrong Spider answers were
shown at 1.00; ``/api/sql`` and the MCP ``sql`` tool showed a count of pets for "How many
students?"). Agreement among samples is the score's evidence and one sample agrees with itself,
so a single sample answering a question is capped to a warning; a query run as given, with no
question, is not an answer and is not capped."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from assay.cli import main

COUNT = "SELECT count(*) AS n FROM orders"


def _score(tmp_path: Path, db: Path, k: int) -> dict:  # type: ignore[type-arg]
    samples = tmp_path / f"s{k}.jsonl"
    record = {
        "id": "q",
        "db": str(db),
        "question": "How many orders?",
        "samples": [{"final_sql": COUNT}] * k,
    }
    samples.write_text(json.dumps(record) + "\n")
    out = tmp_path / f"v{k}.jsonl"
    result = CliRunner().invoke(main, ["score", str(samples), "--out", str(out)])
    assert result.exit_code == 0, result.output
    verdict: dict = json.loads(out.read_text().splitlines()[0])  # type: ignore[type-arg]
    return verdict


def test_one_sample_is_warned_at_most(tmp_path: Path, shop_duckdb: Path) -> None:
    one = _score(tmp_path, shop_duckdb, 1)
    assert one["action"] == "warn" and one["score"] <= 0.79
    assert "cap.single_sample" in [f["code"] for f in one["findings"]]
    # The same answer with samples that agree is shown.
    five = _score(tmp_path, shop_duckdb, 5)
    assert five["action"] == "show"
    assert "cap.single_sample" not in [f["code"] for f in five["findings"]]
