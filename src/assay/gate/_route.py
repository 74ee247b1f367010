"""``route``: Rosetta 4.3's calibrated routing, answer / confirm-first / refuse.

The L4 score is a clipped linear sum of features. The paper publishes five weights, and only
those are used here: ``execution_ok`` +0.20, ``link_calibrated_probability`` +0.20,
``catalog_entry_mean_confidence`` +0.18, ``magnitude_cohort_outlier_penalty`` -0.30 and
``row_count_implausible_penalty`` -0.15. Its other features (critic, trap codes, bonuses) are
not published, so the sum is divided by the published positive mass (0.58) before clipping to
[0, 1]: an answer with every published feature at its best scores 1, as a fully evidenced answer
does in the paper. That normalisation is ours, and it is the one departure from the paper.

The route is pure thresholded arithmetic: execution failed -> refuse; score below the refuse
threshold -> refuse; below the confirm threshold -> confirm-first; else answer. The thresholds
are the paper's per mode (``QueryPolicy``): DOCUMENTED_STRONG 0.60 / 0.20, AMBIGUOUS_DOC
0.60 / 0.05, CRYPTIC_LEGACY 0.65 / 0.20. ``detect_mode`` is a rule (no model): every fact the
answer rests on at DOC_CITED_STRONG or above (or written by the layer's author) is
DOCUMENTED_STRONG; any below the commit tier is CRYPTIC_LEGACY; otherwise AMBIGUOUS_DOC.

Two escalations sit outside the score, as in the paper: a soft pin (a fact below the commit
tier) forces confirm-first unless the score already refuses, and a forcing PII class (SSN,
payment card, medical record) forces refuse. A calibrator (isotonic, fitted per deployment with
``assay calibrate --route``) maps the raw score to a probability of being right before the
thresholds apply, as the paper's per-layer calibration does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from assay.types import Route

__all__ = [
    "POLICIES",
    "WEIGHTS",
    "QueryPolicy",
    "RouteDecision",
    "detect_mode",
    "route",
    "route_score",
]

WEIGHTS: dict[str, float] = {
    "execution_ok": 0.20,
    "link_calibrated_probability": 0.20,
    "catalog_entry_mean_confidence": 0.18,
    "magnitude_cohort_outlier_penalty": -0.30,
    "row_count_implausible_penalty": -0.15,
}
_POSITIVE_MASS = sum(w for w in WEIGHTS.values() if w > 0)


@dataclass(frozen=True)
class QueryPolicy:
    """The thresholds of one grounding regime: confirm below ``confirm_at``, refuse below
    ``refuse_at``."""

    mode: str
    confirm_at: float
    refuse_at: float


POLICIES: dict[str, QueryPolicy] = {
    "DOCUMENTED_STRONG": QueryPolicy("DOCUMENTED_STRONG", 0.60, 0.20),
    "AMBIGUOUS_DOC": QueryPolicy("AMBIGUOUS_DOC", 0.60, 0.05),
    "CRYPTIC_LEGACY": QueryPolicy("CRYPTIC_LEGACY", 0.65, 0.20),
}


@dataclass(frozen=True)
class RouteDecision:
    """The route, the score it came from and why."""

    route: Route
    score: float
    raw: float
    policy: QueryPolicy
    reasons: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "route": self.route,
            "score": self.score,
            "raw": self.raw,
            "mode": self.policy.mode,
            "confirm_at": self.policy.confirm_at,
            "refuse_at": self.policy.refuse_at,
            "reasons": list(self.reasons),
        }


def route_score(features: Mapping[str, float]) -> float:
    """The clipped, normalised weighted sum of the published features (missing ones are 0).

    Example:
        >>> route_score({"execution_ok": 1, "link_calibrated_probability": 1,
        ...              "catalog_entry_mean_confidence": 1})
        1.0
        >>> route_score({"execution_ok": 1, "link_calibrated_probability": 1,
        ...              "catalog_entry_mean_confidence": 1,
        ...              "magnitude_cohort_outlier_penalty": 1})
        0.482759
    """
    total = sum(w * float(features.get(name, 0.0)) for name, w in WEIGHTS.items())
    return round(min(1.0, max(0.0, total / _POSITIVE_MASS)), 6)


def detect_mode(tiers: list[int | None], commit_tier: int, documented_tier: int) -> str:
    """The grounding regime from the tiers of the facts an answer rests on (``None``: written
    by the layer's author).

    Example:
        >>> detect_mode([None, 5], commit_tier=3, documented_tier=5)
        'DOCUMENTED_STRONG'
        >>> detect_mode([5, 1], commit_tier=3, documented_tier=5)
        'CRYPTIC_LEGACY'
    """
    known = [t for t in tiers if t is not None]
    if any(t < commit_tier for t in known):
        return "CRYPTIC_LEGACY"
    if all(t >= documented_tier for t in known):
        return "DOCUMENTED_STRONG"
    return "AMBIGUOUS_DOC"


def route(
    features: Mapping[str, float],
    mode: str,
    *,
    soft_pin: bool = False,
    forcing_pii: bool = False,
    calibrator: Callable[[float], float] | None = None,
) -> RouteDecision:
    """The route for one executed (or failed) answer, by the rules in the module docstring."""
    policy = POLICIES[mode]
    raw = route_score(features)
    score = round(float(calibrator(raw)), 6) if calibrator is not None else raw
    if forcing_pii:
        return RouteDecision("refuse", score, raw, policy, ("route.forcing_pii",))
    if not features.get("execution_ok"):
        return RouteDecision("refuse", score, raw, policy, ("route.execution_failed",))
    if score < policy.refuse_at:
        return RouteDecision("refuse", score, raw, policy, ("route.below_refuse",))
    if score < policy.confirm_at:
        return RouteDecision("confirm_first", score, raw, policy, ("route.below_confirm",))
    if soft_pin:
        return RouteDecision("confirm_first", score, raw, policy, ("route.unconfirmed_fact",))
    return RouteDecision("answer", score, raw, policy, ())
