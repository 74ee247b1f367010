"""``GatePolicy`` and ``decide``: a score becomes show, warn or withhold, with its reasons.

The threshold policy is the papers' gate: show (pass) at >= 0.80, warn (flag) at >= 0.60,
withhold (abstain) below. Chow's policy shows when a calibrated probability of being right is
at least ``lambda / (1 + lambda)``, where ``lambda`` is the cost of showing a wrong answer
relative to withholding a right one. Every warn and withhold names the finding codes that caused
it, and a low score names itself (``score.below_show``, ``score.below_warn``).

Chow's rule never shows what the thresholds could not: an answer held at the hard cap (a veto, a
question-SQL signal: the rule's "min(s, 0.59)") is withheld under every policy, and a score below
every score the calibrator was fitted on (it has seen nothing like it) is decided by the
thresholds (``chow.outside_calibration``). Outside tryout 41: a calibrator fitted on feedback for
answers that all scored 1.0 mapped every score to P(right) = 0.85, and vetoed answers ("latest
ship date was 9999-12-31", scored 0.59) were shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from assay.errors import ConfigError
from assay.scoring import HARD_CAP, IsotonicCalibrator, RuleScore
from assay.types import Action

__all__ = ["Decision", "GatePolicy", "chow_threshold", "decide"]


def chow_threshold(cost: float) -> float:
    """Chow's rule: accept when P(right) >= lambda / (1 + lambda).

    Example:
        >>> chow_threshold(4)
        0.8
    """
    if cost <= 0:
        raise ConfigError(
            f"Chow cost lambda must be positive, got {cost}.",
            hint="Give --cost as the cost of a wrong answer shown, e.g. 4.",
        )
    return cost / (1.0 + cost)


@dataclass(frozen=True)
class GatePolicy:
    """A frozen, versioned policy."""

    kind: Literal["thresholds", "chow"] = "thresholds"
    show_at: float = 0.80
    warn_at: float = 0.60
    cost: float | None = None
    calibrator: IsotonicCalibrator | None = field(default=None, compare=False)
    version: str = "1.0"

    @property
    def name(self) -> str:
        if self.kind == "chow":
            digest = self.calibrator.digest if self.calibrator else "none"
            return f"chow(lambda={self.cost:g}, calibrator={digest})"
        return f"thresholds(show>={self.show_at:.2f}, warn>={self.warn_at:.2f})"

    @classmethod
    def chow(cls, cost: float, calibrator: IsotonicCalibrator) -> GatePolicy:
        chow_threshold(cost)
        return cls(kind="chow", cost=cost, calibrator=calibrator)


@dataclass(frozen=True)
class Decision:
    action: Action
    reasons: tuple[str, ...]
    probability: float | None = None


def decide(policy: GatePolicy, scored: RuleScore) -> Decision:
    """The action for one rule score, with the codes that caused anything but show."""
    causes = tuple(scored.capped_by)
    if policy.kind == "chow":
        assert policy.calibrator is not None and policy.cost is not None
        probability = policy.calibrator(scored.score)
        if causes and scored.score <= HARD_CAP:
            return Decision("withhold", causes, probability)
        if scored.score < policy.calibrator.x[0]:
            fallback = decide(GatePolicy(), scored)
            return Decision(
                fallback.action, (*fallback.reasons, "chow.outside_calibration"), probability
            )
        if probability >= chow_threshold(policy.cost):
            return Decision("warn" if causes else "show", causes, probability)
        return Decision("withhold", (*causes, "chow.below_threshold"), probability)
    if scored.score >= policy.show_at:
        return Decision("show", ())
    own = (
        "score.below_warn"
        if scored.raw < policy.warn_at
        else ("score.below_show" if scored.raw < policy.show_at else "")
    )
    reasons = tuple(r for r in (*causes, own) if r)
    action: Action = "warn" if scored.score >= policy.warn_at else "withhold"
    return Decision(action, reasons)
