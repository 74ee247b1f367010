"""The fact store: reconstructed metadata, appended, never rewritten (SQLite by default).

``FactStore.record`` is the one place a fact is committed, and the tier gate (Rosetta 4.1,
4.4) is enforced there and nowhere else:

- the tier must be earned by the evidence: PATTERN_VALIDATED needs ``evidence["checksum"]``,
  QUERY_VALIDATED needs at least three accepted downstream queries and no rejection,
  SME_AFFIRMED needs a live human acceptance of this exact value (``accept``);
- a checksum-backed fact is floored at PATTERN_VALIDATED;
- the stored confidence is ``min(raw, cap(tier))``;
- the fact commits when its tier reaches SIBLING_CONSISTENT; otherwise it is queued for review;
  a producer that looked and could not decide records an ``undetermined`` fact, which asserts
  nothing.

A human acceptance is value-specific and live: it lifts a later fact about the same subject and
predicate to SME_AFFIRMED only while the value is the same and the data it was computed from
has the same digest. When the data changes, the acceptance no longer applies (Rosetta 4.1's
hardening of ``_has_sme_affirmation``). Triggers make the tables append-only.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assay.catalog._tiers import (
    AUTO_COMMIT_TIER,
    QUERY_VALIDATED_MIN_ACCEPTED,
    FactProposal,
    FactStatus,
    Tier,
    cap_confidence,
)
from assay.errors import LedgerError
from assay.types import Fact

__all__ = ["FactStore", "StoredFact"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS facts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    subject TEXT NOT NULL,
    predicate TEXT NOT NULL,
    value TEXT NOT NULL,
    tier INTEGER NOT NULL,
    confidence REAL NOT NULL,
    status TEXT NOT NULL,
    evidence TEXT NOT NULL,
    source TEXT NOT NULL,
    data_digest TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS acceptances (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    fact_id INTEGER NOT NULL REFERENCES facts(id),
    subject TEXT NOT NULL,
    predicate TEXT NOT NULL,
    value TEXT NOT NULL,
    data_digest TEXT NOT NULL,
    accepted_by TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS facts_no_update BEFORE UPDATE ON facts
BEGIN SELECT RAISE(ABORT, 'the fact store is append-only'); END;
CREATE TRIGGER IF NOT EXISTS facts_no_delete BEFORE DELETE ON facts
BEGIN SELECT RAISE(ABORT, 'the fact store is append-only'); END;
CREATE TRIGGER IF NOT EXISTS acceptances_no_update BEFORE UPDATE ON acceptances
BEGIN SELECT RAISE(ABORT, 'the fact store is append-only'); END;
CREATE TRIGGER IF NOT EXISTS acceptances_no_delete BEFORE DELETE ON acceptances
BEGIN SELECT RAISE(ABORT, 'the fact store is append-only'); END;
"""
_HINT = "Give a fact store written by 'assay catalog profile --store'."


@dataclass(frozen=True)
class StoredFact:
    """A fact as stored: its id, status and capped confidence, and whether it is still live."""

    id: int
    subject: str
    predicate: str
    value: Any
    tier: Tier
    confidence: float
    status: FactStatus
    evidence: dict[str, Any] = field(default_factory=dict)
    source: str = ""
    data_digest: str = ""
    live: bool = True

    def to_fact(self) -> Fact:
        return Fact(
            self.subject,
            self.predicate,
            self.value,
            self.tier.name,
            self.confidence,
            dict(self.evidence),
            {"source": self.source, "fact_id": self.id, "data_digest": self.data_digest},
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "subject": self.subject,
            "predicate": self.predicate,
            "value": self.value,
            "tier": self.tier.name,
            "confidence": self.confidence,
            "status": self.status,
            "evidence": self.evidence,
            "source": self.source,
            "data_digest": self.data_digest,
            "live": self.live,
        }


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


class FactStore:
    """An append-only SQLite store of facts and human acceptances."""

    def __init__(self, path: str | Path = ":memory:"):
        self.path = str(path)
        try:
            self._con = sqlite3.connect(self.path, check_same_thread=False)
            self._con.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise LedgerError(
                f"Cannot open the fact store {self.path!r}: {exc}.", hint=_HINT
            ) from exc
        self._lock = threading.Lock()

    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> FactStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _affirmed(self, subject: str, predicate: str, value: str, digest: str) -> bool:
        row = self._con.execute(
            "SELECT 1 FROM acceptances WHERE subject = ? AND predicate = ? AND value = ? "
            "AND data_digest = ? LIMIT 1",
            (subject, predicate, value, digest),
        ).fetchone()
        return row is not None

    def _gate(self, proposal: FactProposal, value: str) -> tuple[Tier, FactStatus]:
        evidence = proposal.evidence
        tier = Tier(proposal.tier)
        if tier == Tier.SME_AFFIRMED:
            raise LedgerError(
                f"Fact {proposal.subject} {proposal.predicate} claims SME_AFFIRMED.",
                hint="Only a human acceptance ('assay catalog accept FACT') can reach tier 7.",
            )
        if tier == Tier.QUERY_VALIDATED and not (
            int(evidence.get("accepted_queries", 0)) >= QUERY_VALIDATED_MIN_ACCEPTED
            and int(evidence.get("rejected_queries", 0)) == 0
        ):
            raise LedgerError(
                f"Fact {proposal.subject} {proposal.predicate} claims QUERY_VALIDATED "
                f"without {QUERY_VALIDATED_MIN_ACCEPTED} accepted queries and no rejection.",
                hint="Record the accepted queries in the evidence, or propose a lower tier.",
            )
        if tier == Tier.PATTERN_VALIDATED and not evidence.get("checksum"):
            raise LedgerError(
                f"Fact {proposal.subject} {proposal.predicate} claims PATTERN_VALIDATED "
                "without a checksum.",
                hint="Only a checksum-backed pattern reaches tier 4.",
            )
        if evidence.get("checksum"):
            tier = max(tier, Tier.PATTERN_VALIDATED)
        if not proposal.undetermined and self._affirmed(
            proposal.subject, proposal.predicate, value, proposal.data_digest
        ):
            tier = Tier.SME_AFFIRMED
        if proposal.undetermined:
            return tier, "undetermined"
        return tier, "committed" if tier >= AUTO_COMMIT_TIER else "review"

    def record(self, proposal: FactProposal) -> StoredFact:
        """Gate and append one fact (see the module docstring); returns it as stored.

        Raises:
            LedgerError: the proposed tier is not earned by the evidence, or the store fails.
        """
        value = _dump(proposal.value)
        with self._lock:
            tier, status = self._gate(proposal, value)
            confidence = (
                0.0 if status == "undetermined" else cap_confidence(proposal.raw_confidence, tier)
            )
            try:
                cursor = self._con.execute(
                    "INSERT INTO facts (subject, predicate, value, tier, confidence, status, "
                    "evidence, source, data_digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        proposal.subject,
                        proposal.predicate,
                        value,
                        int(tier),
                        confidence,
                        status,
                        _dump(proposal.evidence),
                        proposal.source,
                        proposal.data_digest,
                    ),
                )
                self._con.commit()
            except sqlite3.Error as exc:
                raise LedgerError(f"Cannot append to {self.path!r}: {exc}.", hint=_HINT) from exc
            fact_id = int(cursor.lastrowid or 0)
        return self.get(fact_id)

    def accept(self, fact_id: int, *, accepted_by: str = "human") -> StoredFact:
        """Record a human acceptance of fact ``fact_id``'s exact value; returns the lifted fact.

        Raises:
            LedgerError: no such fact, or it is superseded or undetermined.
        """
        fact = self.get(fact_id)
        if not fact.live or fact.status == "undetermined":
            raise LedgerError(
                f"Fact {fact_id} is {'undetermined' if fact.live else 'superseded'}; "
                "an acceptance must name the current value.",
                hint="List the live facts with 'assay catalog facts' and accept one of them.",
            )
        value = _dump(fact.value)
        with self._lock:
            self._con.execute(
                "INSERT INTO acceptances (fact_id, subject, predicate, value, data_digest, "
                "accepted_by) VALUES (?, ?, ?, ?, ?, ?)",
                (fact_id, fact.subject, fact.predicate, value, fact.data_digest, accepted_by),
            )
            self._con.commit()
        lifted = FactProposal(
            fact.subject,
            fact.predicate,
            fact.value,
            min(fact.tier, Tier.DOC_CITED_STRONG),
            1.0,
            {**fact.evidence, "accepted_fact": fact_id, "accepted_by": accepted_by},
            "human",
            fact.data_digest,
        )
        return self.record(lifted)

    def _row(self, row: tuple[Any, ...]) -> StoredFact:
        fid, subject, predicate, value, tier, confidence, status, evidence, source, digest = row
        latest = self._con.execute(
            "SELECT max(id) FROM facts WHERE subject = ? AND predicate = ?", (subject, predicate)
        ).fetchone()[0]
        return StoredFact(
            int(fid),
            subject,
            predicate,
            json.loads(value),
            Tier(int(tier)),
            float(confidence),
            status,
            json.loads(evidence),
            source,
            digest,
            latest == fid,
        )

    def get(self, fact_id: int) -> StoredFact:
        """One fact by id.

        Raises:
            LedgerError: there is no fact with that id.
        """
        row = self._con.execute(
            "SELECT id, subject, predicate, value, tier, confidence, status, evidence, source, "
            "data_digest FROM facts WHERE id = ?",
            (int(fact_id),),
        ).fetchone()
        if row is None:
            raise LedgerError(
                f"No fact {fact_id} in {self.path!r}.",
                hint="List the facts with 'assay catalog facts --store PATH'.",
            )
        return self._row(row)

    def facts(self, *, live_only: bool = True) -> list[StoredFact]:
        """Facts in the order they were recorded (only the latest per subject and predicate)."""
        rows = self._con.execute(
            "SELECT id, subject, predicate, value, tier, confidence, status, evidence, source, "
            "data_digest FROM facts ORDER BY id"
        ).fetchall()
        found = [self._row(r) for r in rows]
        return [f for f in found if f.live] if live_only else found
