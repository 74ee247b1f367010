"""The authority ladder (Rosetta 4.1): each tier names a class of evidence and caps confidence.

A fact's committed confidence is ``min(raw, cap(tier))``: the authority of the evidence bounds
the confidence whatever the producer claims. A fact commits to the catalog only when its tier
reaches ``AUTO_COMMIT_TIER`` (SIBLING_CONSISTENT, Rosetta 4.4); otherwise it is queued for review.
The gate that applies this lives in one place, ``assay.ledger.FactStore.record``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, Literal

__all__ = [
    "AUTO_COMMIT_TIER",
    "CAPS",
    "QUERY_VALIDATED_MIN_ACCEPTED",
    "FactProposal",
    "FactStatus",
    "Tier",
    "cap_confidence",
    "tier_for_evidence",
]


class Tier(IntEnum):
    """Rosetta's grounding tiers, lowest authority first."""

    INTERPRETER_ONLY = 0
    PATTERN_CONFIRMED = 1
    DOC_CITED_WEAK = 2
    SIBLING_CONSISTENT = 3
    PATTERN_VALIDATED = 4
    DOC_CITED_STRONG = 5
    QUERY_VALIDATED = 6
    SME_AFFIRMED = 7


CAPS: dict[Tier, float] = {
    Tier.INTERPRETER_ONLY: 0.50,
    Tier.PATTERN_CONFIRMED: 0.60,
    Tier.DOC_CITED_WEAK: 0.70,
    Tier.SIBLING_CONSISTENT: 0.75,
    Tier.PATTERN_VALIDATED: 0.85,
    Tier.DOC_CITED_STRONG: 0.90,
    Tier.QUERY_VALIDATED: 0.95,
    Tier.SME_AFFIRMED: 1.00,
}
AUTO_COMMIT_TIER = Tier.SIBLING_CONSISTENT
QUERY_VALIDATED_MIN_ACCEPTED = 3

FactStatus = Literal["committed", "review", "undetermined"]


def cap_confidence(raw: float, tier: Tier) -> float:
    """``min(raw, cap(tier))``, clipped to [0, 1].

    Example:
        >>> cap_confidence(0.97, Tier.PATTERN_VALIDATED)
        0.85
    """
    return round(max(0.0, min(float(raw), CAPS[tier])), 6)


def tier_for_evidence(
    base: Tier,
    *,
    human_accepted: bool = False,
    accepted_queries: int = 0,
    rejected_queries: int = 0,
    checksum: bool = False,
) -> Tier:
    """The tier of a fact from its evidence class, with Rosetta's three short-circuits.

    A live, value-specific human acceptance routes to SME_AFFIRMED; three or more accepted
    downstream queries and no rejection route to QUERY_VALIDATED; a checksum-backed pattern
    floors the tier at PATTERN_VALIDATED.

    Example:
        >>> tier_for_evidence(Tier.PATTERN_CONFIRMED, checksum=True).name
        'PATTERN_VALIDATED'
    """
    if human_accepted:
        return Tier.SME_AFFIRMED
    tier = base
    if accepted_queries >= QUERY_VALIDATED_MIN_ACCEPTED and rejected_queries == 0:
        tier = max(tier, Tier.QUERY_VALIDATED)
    if checksum:
        tier = max(tier, Tier.PATTERN_VALIDATED)
    return Tier(tier)


@dataclass(frozen=True)
class FactProposal:
    """A fact as a producer proposes it, before the tier gate decides what is stored.

    ``subject`` is dotted (``table`` or ``table.column``), ``predicate`` a stable word
    (``pattern``, ``pii``, ``foreign_key``, ``rollup``, ``entity``, ...), ``value`` JSON-able.
    ``raw_confidence`` is the producer's own confidence; the store caps it by ``tier``.
    ``data_digest`` fingerprints the data the fact was computed from, so that a human
    acceptance of it is superseded when the data changes. ``value`` ``None`` with ``undetermined``
    set records that the producer looked and could not decide.
    """

    subject: str
    predicate: str
    value: Any
    tier: Tier
    raw_confidence: float
    evidence: dict[str, Any] = field(default_factory=dict)
    source: str = "assay.catalog"
    data_digest: str = ""
    undetermined: bool = False
