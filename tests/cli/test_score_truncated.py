"""Results past the 100 rows kept as evidence (outside tryout 14: five samples of 12,858 rows,
two of them with a row left out, were shown at 1.00: every pair was "undetermined" and counted
as agreeing). The governed-score paper keeps 100 rows but knows each result's row count: a pair
is undetermined only "when either result is truncated and the row counts are equal". So a
truncated result carries its true count, and samples whose counts differ disagree."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from assay.cli import main

ALL = "SELECT id FROM orders ORDER BY id"
# One row fewer: the same first 100 rows, a different answer.
ONE_LESS = "SELECT id FROM orders WHERE id <> (SELECT max(id) FROM orders) ORDER BY id"


def _score(tmp_path: Path, db: Path, sqls: list[str]) -> dict:  # type: ignore[type-arg]
    samples = tmp_path / "s.jsonl"
    samples.write_text(
        json.dumps(
            {
                "id": "q",
                "db": str(db),
                "question": "Which orders are there?",
                "samples": [{"final_sql": s} for s in sqls],
            }
        )
        + "\n"
    )
    out = tmp_path / "v.jsonl"
    result = CliRunner().invoke(main, ["score", str(samples), "--out", str(out)])
    assert result.exit_code == 0, result.output
    record: dict = json.loads(out.read_text().splitlines()[0])  # type: ignore[type-arg]
    return record


def _agreement(record: dict) -> dict:  # type: ignore[type-arg]
    found: dict = record["agreement"]  # type: ignore[type-arg]
    return found


def test_truncated_samples_with_other_counts_disagree(tmp_path: Path, shop_duckdb: Path) -> None:
    record = _score(tmp_path, shop_duckdb, [ALL, ONE_LESS, ONE_LESS, ALL, ONE_LESS])
    agreement = _agreement(record)
    # Sample 3 is the same query: equal counts, undetermined (counted as agreeing); 1, 2 and 4
    # have a row fewer and disagree.
    assert agreement["agreeing"] == [0] and agreement["undetermined"] == [3]
    assert agreement["a"] == 0.4 and agreement["a_lower"] == 0.2
    assert record["action"] != "show"


def test_truncated_samples_with_equal_counts_stay_undetermined(
    tmp_path: Path, shop_duckdb: Path
) -> None:
    # The paper's pre-registered policy: equal counts, rows past the kept 100 unseen: counted
    # as agreeing, with the lower bound reported.
    record = _score(tmp_path, shop_duckdb, [ALL] * 5)
    agreement = _agreement(record)
    assert agreement["undetermined"] == [1, 2, 3, 4]
    assert agreement["a"] == 1.0 and agreement["a_lower"] == 0.2
