"""Choosing a scoring rule honestly: a small grid of variants, chosen on some groups of
questions and measured on the others (leave one database out).

A variant is the agreement share A under a matching policy (strict, permuted, relaxed),
raised to an exponent (monotone alone, it moves where the gate's fixed thresholds and caps fall
among the agreement levels), with the question-SQL signals ignored, capping at 0.79, or vetoing
at 0.59; the paper's vetoes and caps always apply. The objective is lexicographic: meet the gate
targets (accuracy of shown answers >= 0.97, right answers withheld <= 0.05), then the highest
AUROC, then the simplest variant (grid order).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from assay.bench.statistics._metrics import auroc

__all__ = [
    "CHOICE_VARIANTS",
    "VARIANTS",
    "ChoiceRow",
    "RuleVariant",
    "choose",
    "gate_summary",
    "leave_one_out",
]

SHOW_AT = 0.80
WARN_AT = 0.60
HARD_CAP = 0.59
SOFT_CAP = 0.79
TARGET_PASS_ACCURACY = 0.97
TARGET_RIGHT_WITHHELD = 0.05


@dataclass(frozen=True)
class RuleVariant:
    matching: Literal["strict", "permuted", "relaxed"]
    exponent: float
    signals: Literal["ignore", "cap", "veto"]

    @property
    def name(self) -> str:
        return f"{self.matching}/A^{self.exponent:g}/signals-{self.signals}"


VARIANTS: tuple[RuleVariant, ...] = tuple(
    RuleVariant(m, e, s)
    for m in ("strict", "permuted", "relaxed")
    for e in (1.0, 0.5)
    for s in ("ignore", "cap", "veto")
)
# The choice leaves relaxed matching out before looking: on 793 Spider questions outside the
# slice (issue 10) it counted wrong answers as agreeing (A 0.835 against 0.873 for strict).
# Its variants are still measured and reported.
CHOICE_VARIANTS: tuple[RuleVariant, ...] = tuple(v for v in VARIANTS if v.matching != "relaxed")


@dataclass(frozen=True)
class ChoiceRow:
    """One question: its group (database), label, its agreement share under each matching
    policy, and what fired."""

    group: str
    label: int
    a_strict: float
    a_permuted: float
    a_relaxed: float
    signal: bool
    veto: bool
    cap: bool


def variant_score(row: ChoiceRow, variant: RuleVariant) -> float:
    a = {"strict": row.a_strict, "permuted": row.a_permuted, "relaxed": row.a_relaxed}[
        variant.matching
    ]
    s = a**variant.exponent if a > 0 else 0.0
    if row.veto or (row.signal and variant.signals == "veto"):
        s = min(s, HARD_CAP)
    if row.cap or (row.signal and variant.signals == "cap"):
        s = min(s, SOFT_CAP)
    return s


def gate_summary(scores: Sequence[float], labels: Sequence[int]) -> dict[str, float]:
    """AUROC, accuracy of shown answers, and the shares of right answers withheld and shown."""
    shown = [y for s, y in zip(scores, labels, strict=True) if s >= SHOW_AT]
    right = [s for s, y in zip(scores, labels, strict=True) if y == 1]
    return {
        "auroc": auroc(scores, labels),
        "pass_accuracy": sum(shown) / len(shown) if shown else math.nan,
        "n_shown": float(len(shown)),
        "right_withheld": sum(s < WARN_AT for s in right) / len(right) if right else math.nan,
        "right_shown": sum(s >= SHOW_AT for s in right) / len(right) if right else math.nan,
    }


def _objective(summary: dict[str, float], index: int) -> tuple[float, ...]:
    meets = summary["pass_accuracy"] >= TARGET_PASS_ACCURACY and (
        summary["right_withheld"] <= TARGET_RIGHT_WITHHELD
    )
    value = summary["auroc"]
    return (float(meets), -math.inf if math.isnan(value) else value, -index)


def choose(
    rows: Sequence[ChoiceRow], variants: Sequence[RuleVariant] = CHOICE_VARIANTS
) -> RuleVariant:
    """The best variant on ``rows`` by the lexicographic objective."""
    labels = [r.label for r in rows]
    best = max(
        range(len(variants)),
        key=lambda i: _objective(
            gate_summary([variant_score(r, variants[i]) for r in rows], labels), i
        ),
    )
    return variants[best]


def leave_one_out(
    rows: Sequence[ChoiceRow], variants: Sequence[RuleVariant] = CHOICE_VARIANTS
) -> list[dict[str, Any]]:
    """For each group: the variant chosen on the other groups, measured on this one."""
    out = []
    for group in sorted({r.group for r in rows}):
        train = [r for r in rows if r.group != group]
        test = [r for r in rows if r.group == group]
        chosen = choose(train, variants)
        labels = [r.label for r in test]
        out.append(
            {
                "held_out": group,
                "n": len(test),
                "n_right": sum(labels),
                "chosen": chosen.name,
                "variant": asdict(chosen),
                "held_out_metrics": gate_summary([variant_score(r, chosen) for r in test], labels),
                "plain_agreement": gate_summary([r.a_permuted for r in test], labels),
            }
        )
    return out
