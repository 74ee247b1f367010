"""The blind phrasing sets beside the main one (``fresh/``, ``fresh3/``, ``dev4/`` and any later
one): data for ``scripts/eval_phrasing.py``, not tasks of the benchmark, so nothing else reads
them. Each record must keep the main set's format and every accepted statement must run on the
benchmark's warehouses, so that a set scored once at the end is not found broken then."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from assay.bench.datasets import PHRASING_DIR

FIELDS = {
    "id",
    "domain",
    "question",
    "required",
    "accepted_sql",
    "ordered",
    "readings",
    "constructs",
    "reason",
    "split",
}
BEHAVIOURS = {"answer", "clarify", "abstain", "refuse"}
SETS = sorted(p for p in PHRASING_DIR.iterdir() if p.is_dir() and any(p.glob("*.jsonl")))


def _records(folder: Path) -> list[dict[str, object]]:
    return [
        json.loads(line)
        for path in sorted(folder.glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


def test_the_blind_sets_are_there() -> None:
    assert {"fresh", "fresh3", "dev4"} <= {p.name for p in SETS}


@pytest.mark.parametrize("folder", SETS, ids=[p.name for p in SETS])
def test_records_keep_the_format(folder: Path) -> None:
    records = _records(folder)
    assert len(records) >= 100
    ids = [r["id"] for r in records]
    assert len(set(ids)) == len(ids)
    for r in records:
        assert set(r) == FIELDS, r["id"]
        assert str(r["id"]).startswith(f"{folder.name}.{r['domain']}."), r["id"]
        assert r["required"] in BEHAVIOURS, r["id"]
        assert r["split"] in {"dev", "test"}, r["id"]
        assert isinstance(r["ordered"], bool), r["id"]
        assert bool(r["accepted_sql"]) == (r["required"] == "answer"), r["id"]
        if r["required"] == "clarify":
            readings = r["readings"]
            assert isinstance(readings, list) and readings, r["id"]
            assert all(reading["tokens"] for reading in readings), r["id"]


@pytest.mark.parametrize("folder", SETS, ids=[p.name for p in SETS])
def test_every_accepted_statement_runs(folder: Path, wrb: Path) -> None:
    """On the session's warehouses (another seed and scale than the sets were written on, so
    rows may differ; the statements must still be valid SQL over the same schema)."""
    by_domain: dict[str, list[tuple[str, str]]] = {}
    for r in _records(folder):
        sqls = r["accepted_sql"]
        assert isinstance(sqls, list), r["id"]
        for sql in sqls:
            by_domain.setdefault(str(r["domain"]), []).append((str(r["id"]), sql))
    for domain, statements in by_domain.items():
        with duckdb.connect(str(wrb / f"{domain}.duckdb"), read_only=True) as con:
            for record_id, sql in statements:
                try:
                    con.execute(sql).fetchall()
                except duckdb.Error as exc:
                    pytest.fail(f"{record_id}: {exc}")
