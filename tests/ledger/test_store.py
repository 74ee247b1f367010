"""The append-only ledger: inserts only, refused updates and deletes, feedback on known verdicts
only, concurrent writers lose nothing."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa

from assay.errors import LedgerError
from assay.ledger import Ledger


def _verdict(ident: str, score: float | None = 0.9) -> dict[str, object]:
    return {
        "id": ident,
        "behaviour": "answer",
        "action": "show",
        "score": score,
        "rule": {"name": "agreement_first", "version": "2.1"},
        "policy": {"name": "thresholds", "version": "1.0"},
        "provenance": {"question": "q"},
    }


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    return Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")


def test_record_and_read_back(ledger: Ledger) -> None:
    ledger.record(_verdict("v1"), database="shop", question="q", client="ip:1")
    stored = ledger.verdict("v1")
    assert stored is not None and stored["verdict"] == _verdict("v1")
    assert stored["database"] == "shop" and stored["feedback"] == []
    assert ledger.verdict("v2") is None


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE verdicts SET action = 'warn'",
        "DELETE FROM verdicts",
        "DELETE FROM feedback",
        "UPDATE feedback SET label = 1",
    ],
    ids=["update-verdicts", "delete-verdicts", "delete-feedback", "update-feedback"],
)
def test_append_only_at_the_engine(ledger: Ledger, statement: str) -> None:
    ledger.record(_verdict("v1"), database="shop", question="q")
    ledger.add_feedback("v1", 0)
    with pytest.raises(sa.exc.IntegrityError, match="append-only"):
        with ledger._engine.begin() as conn:
            conn.exec_driver_sql(statement)
    assert ledger.counts().verdicts == 1 and ledger.labels() == {"v1": 0}


def test_ids_are_never_reused(ledger: Ledger) -> None:
    ledger.record(_verdict("v1"), database="shop", question="q")
    with pytest.raises(LedgerError, match="already holds"):
        ledger.record(_verdict("v1"), database="shop", question="q")
    assert ledger.counts().verdicts == 1
    ledger.record(_verdict("v2"), database="shop", question="q")  # the refused write left no
    assert ledger.ids() == ["v1", "v2"]  # open transaction behind


def test_a_recorded_verdict_is_committed_when_record_returns(tmp_path: Path) -> None:
    """Another connection (another process, after a crash) sees the row as soon as record
    returns: the one held writer commits each verdict; nothing waits for a later commit."""
    path = tmp_path / "ledger.db"
    ledger = Ledger(f"sqlite:///{path}")
    try:
        for n in range(3):
            ledger.record(_verdict(f"v{n}"), database="shop", question=f"q{n}")
            other = sqlite3.connect(path)
            try:
                rows = other.execute("SELECT id, question FROM verdicts ORDER BY seq").fetchall()
                mode = other.execute("PRAGMA journal_mode").fetchone()[0]
            finally:
                other.close()
            assert rows == [(f"v{i}", f"q{i}") for i in range(n + 1)]
            assert mode == "wal"
    finally:
        ledger.close()
    with pytest.raises(LedgerError, match="closed"):
        ledger.record(_verdict("late"), database="shop", question="q")


@pytest.mark.parametrize("held", [True, False], ids=["held-sqlite-writer", "sqlalchemy"])
def test_verdicts_recorded_together_are_all_committed_or_none(tmp_path: Path, held: bool) -> None:
    """``record_all`` (a score request's verdicts): one that cannot be written leaves none of
    the others behind, and a written set is committed, seen from another connection."""
    path = tmp_path / "ledger.db"
    ledger = Ledger(f"sqlite:///{path}")
    ledger._sqlite = held  # False: the SQLAlchemy path other stores take, here on SQLite
    try:
        ledger.record(_verdict("v1"), database="shop", question="q")
        with pytest.raises(LedgerError, match="already holds a verdict among 'v2', 'v1'"):
            ledger.record_all(
                [(_verdict("v2"), "q2"), (_verdict("v1"), "q1")], database="shop", kind="score"
            )
        assert ledger.ids() == ["v1"]
        ledger.record_all(
            [(_verdict("v2"), "q2"), (_verdict("v3"), "q3")], database="shop", kind="score"
        )
        other = sqlite3.connect(path)
        try:
            rows = other.execute("SELECT id, kind, question FROM verdicts ORDER BY seq").fetchall()
        finally:
            other.close()
        assert rows == [("v1", "ask", "q"), ("v2", "score", "q2"), ("v3", "score", "q3")]
        ledger.record(_verdict("v4"), database="shop", question="q")  # no transaction left open
        assert ledger.ids() == ["v1", "v2", "v3", "v4"]
    finally:
        ledger.close()


def test_feedback_needs_a_known_verdict_and_a_label(ledger: Ledger) -> None:
    with pytest.raises(LedgerError, match="No verdict 'nope'") as caught:
        ledger.add_feedback("nope", 1)
    assert caught.value.details == {"reason": "ledger.unknown_verdict"}
    ledger.record(_verdict("v1"), database="shop", question="q")
    for bad in (2, True, -1):
        with pytest.raises(LedgerError, match="not 0 or 1"):
            ledger.add_feedback("v1", bad)
    assert ledger.counts().feedback == 0


def test_latest_feedback_is_the_label(ledger: Ledger) -> None:
    ledger.record(_verdict("v1", 0.8), database="shop", question="q")
    ledger.record(_verdict("v2", None), database="shop", question="q")  # no score: not labelled
    ledger.record(_verdict("v3", 0.4), database="other", question="q")
    ledger.add_feedback("v1", 1)
    ledger.add_feedback("v1", 0, "changed my mind")
    ledger.add_feedback("v2", 1)
    ledger.add_feedback("v3", 1)
    assert [(a.id, a.label) for a in ledger.labelled("shop")] == [("v1", 0)]
    assert [a.id for a in ledger.labelled()] == ["v1", "v3"]
    ledger.record(_verdict("v4", 0.5), database="shop", question="q", kind="sql")
    ledger.add_feedback("v4", 1)
    assert [a.id for a in ledger.labelled("shop")] == ["v1"]  # a raw query is scored otherwise
    assert [a.id for a in ledger.labelled("shop", kind="sql")] == ["v4"]
    assert ledger.labelled("shop")[0].rule == "agreement_first"


def test_concurrent_writers_lose_nothing(ledger: Ledger) -> None:
    def write(start: int) -> None:
        for i in range(start, start + 50):
            ledger.record(_verdict(f"v{i}"), database="shop", question="q")

    threads = [threading.Thread(target=write, args=(n * 50,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    counts = ledger.counts()
    assert counts.verdicts == counts.distinct_ids == 400


def test_bad_url() -> None:
    with pytest.raises(LedgerError, match="Cannot open the ledger"):
        Ledger("nosuchdriver://x")
