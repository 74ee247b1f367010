"""The fact store: the tier gate, caps, review queue, value-specific live acceptance."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from assay.catalog import CAPS, FactProposal, Tier, cap_confidence, tier_for_evidence
from assay.errors import LedgerError
from assay.ledger import FactStore


def _fact(
    tier: Tier = Tier.PATTERN_CONFIRMED, value: object = "x", digest: str = "d1", **evidence: object
) -> FactProposal:
    return FactProposal("t.c", "semantic_type", value, tier, 0.99, dict(evidence), "test", digest)


def test_caps_are_the_papers_ladder() -> None:
    assert [CAPS[t] for t in Tier] == [0.50, 0.60, 0.70, 0.75, 0.85, 0.90, 0.95, 1.00]
    assert cap_confidence(0.99, Tier.PATTERN_CONFIRMED) == 0.60
    assert cap_confidence(0.40, Tier.DOC_CITED_STRONG) == 0.40


def test_short_circuits() -> None:
    assert tier_for_evidence(Tier.INTERPRETER_ONLY, human_accepted=True) == Tier.SME_AFFIRMED
    assert tier_for_evidence(Tier.PATTERN_CONFIRMED, accepted_queries=3) == Tier.QUERY_VALIDATED
    assert (
        tier_for_evidence(Tier.PATTERN_CONFIRMED, accepted_queries=3, rejected_queries=1)
        == Tier.PATTERN_CONFIRMED
    )
    assert tier_for_evidence(Tier.INTERPRETER_ONLY, checksum=True) == Tier.PATTERN_VALIDATED


def test_confidence_is_capped_and_low_tiers_wait_for_review() -> None:
    with FactStore() as store:
        low = store.record(_fact(Tier.PATTERN_CONFIRMED))
        assert (low.confidence, low.status) == (0.60, "review")
        high = store.record(_fact(Tier.DOC_CITED_STRONG))
        assert (high.confidence, high.status) == (0.90, "committed")


@pytest.mark.parametrize(
    "tier,evidence",
    [
        (Tier.SME_AFFIRMED, {}),
        (Tier.QUERY_VALIDATED, {"accepted_queries": 2}),
        (Tier.PATTERN_VALIDATED, {}),
    ],
    ids=["sme-without-acceptance", "query-without-three", "validated-without-checksum"],
)
def test_unearned_tiers_are_refused(tier: Tier, evidence: dict[str, object]) -> None:
    with FactStore() as store, pytest.raises(LedgerError):
        store.record(_fact(tier, **evidence))


def test_checksum_floors_the_tier() -> None:
    with FactStore() as store:
        fact = store.record(_fact(Tier.INTERPRETER_ONLY, checksum=True))
        assert fact.tier == Tier.PATTERN_VALIDATED and fact.status == "committed"


def test_acceptance_is_value_specific_and_superseded_when_data_changes() -> None:
    with FactStore() as store:
        first = store.record(_fact(value="email"))
        lifted = store.accept(first.id)
        assert lifted.tier == Tier.SME_AFFIRMED and lifted.confidence == 1.0
        assert not store.get(first.id).live
        # the same value on the same data: still affirmed
        again = store.record(_fact(value="email"))
        assert again.tier == Tier.SME_AFFIRMED
        # a different value does not inherit the acceptance
        other = store.record(_fact(value="phone"))
        assert other.tier == Tier.PATTERN_CONFIRMED and other.confidence == 0.60
        # the data changed: the old acceptance no longer applies
        changed = store.record(_fact(value="email", digest="d2"))
        assert changed.tier == Tier.PATTERN_CONFIRMED
        with pytest.raises(LedgerError):
            store.accept(first.id)  # superseded


def test_undetermined_asserts_nothing() -> None:
    with FactStore() as store:
        fact = store.record(
            FactProposal("t", "entity", None, Tier.INTERPRETER_ONLY, 0.9, undetermined=True)
        )
        assert fact.status == "undetermined" and fact.confidence == 0.0
        with pytest.raises(LedgerError):
            store.accept(fact.id)


def test_store_is_append_only(tmp_path: Path) -> None:
    path = tmp_path / "facts.sqlite"
    with FactStore(path) as store:
        store.record(_fact())
    con = sqlite3.connect(path)
    with pytest.raises(sqlite3.IntegrityError):
        con.execute("UPDATE facts SET confidence = 1.0")
    with pytest.raises(sqlite3.IntegrityError):
        con.execute("DELETE FROM facts")
    con.close()
    with FactStore(path) as store:
        assert [f.confidence for f in store.facts()] == [0.60]


def test_missing_fact_is_a_clear_error() -> None:
    with FactStore() as store, pytest.raises(LedgerError, match="No fact 9"):
        store.get(9)
