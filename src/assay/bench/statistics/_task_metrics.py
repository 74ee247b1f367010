"""The benchmark metrics of the warehouse reliability benchmark, each with its own denominator.

- Business Truth Rate: over all tasks, the share whose outcome is right (a correct answer for
  an answerable task, the required behaviour for the others).
- False Success Rate: over tasks the system answered, the share whose answer is wrong or was
  not warranted (the task required another behaviour).
- Coverage: over answerable tasks, the share answered.
- Answer accuracy: over answerable tasks, the share answered correctly.
- Cost per correct answer: total variable cost on answerable tasks divided by correct answers.
  A ratio of sums, not a mean: its paired bootstrap resamples numerator and denominator over the
  same task indices for both systems, and counts the usable resamples (a resample in which a
  system has no correct answer has no ratio).

A system failure is its own outcome: it is not an answer, an abstention or a refusal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from assay.bench.statistics._bootstrap import Estimate, Rng, estimate, nan_with_reason

__all__ = ["TaskOutcome", "cost_per_correct", "paired_cost_difference", "task_metrics"]


@dataclass(frozen=True)
class TaskOutcome:
    """One task's scored outcome."""

    required: str  # answer | clarify | abstain | refuse
    behaviour: str  # what the system did, or "failure"
    correct: bool  # the outcome is right (answer equivalent, or behaviour contract met)
    cost: float = 0.0

    @property
    def answerable(self) -> bool:
        return self.required == "answer"

    @property
    def answered(self) -> bool:
        return self.behaviour == "answer"


def _ratio(numerator: float, denominator: float, what: str) -> float:
    if denominator == 0:
        return nan_with_reason(f"{what} is undefined: its denominator is empty")
    return numerator / denominator


def task_metrics(outcomes: Sequence[TaskOutcome]) -> dict[str, float]:
    n = len(outcomes)
    answered = [o for o in outcomes if o.answered]
    answerable = [o for o in outcomes if o.answerable]
    return {
        "n_tasks": n,
        "business_truth_rate": _ratio(sum(o.correct for o in outcomes), n, "Business Truth Rate"),
        "false_success_rate": _ratio(
            sum(not (o.correct and o.answerable) for o in answered),
            len(answered),
            "False Success Rate",
        ),
        "coverage": _ratio(sum(o.answered for o in answerable), len(answerable), "coverage"),
        "answer_accuracy": _ratio(
            sum(o.answered and o.correct for o in answerable), len(answerable), "answer accuracy"
        ),
        "failures": sum(o.behaviour == "failure" for o in outcomes),
    }


def _cost_arrays(outcomes: Sequence[TaskOutcome]) -> tuple[np.ndarray, np.ndarray]:
    cost = np.array([o.cost if o.answerable else 0.0 for o in outcomes])
    right = np.array(
        [1.0 if (o.answerable and o.answered and o.correct) else 0.0 for o in outcomes]
    )
    return cost, right


def cost_per_correct(outcomes: Sequence[TaskOutcome]) -> float:
    cost, right = _cost_arrays(outcomes)
    return _ratio(float(cost.sum()), float(right.sum()), "cost per correct answer")


def paired_cost_difference(
    a: Sequence[TaskOutcome],
    b: Sequence[TaskOutcome],
    *,
    n_resamples: int = 2_000,
    confidence_level: float = 0.95,
    rng: Rng = 0,
) -> Estimate:
    """cost_per_correct(b) - cost_per_correct(a), resampling the same task indices for both."""
    if len(a) != len(b):
        raise ValueError("the two runs must cover the same tasks in the same order")
    cost_a, right_a = _cost_arrays(a)
    cost_b, right_b = _cost_arrays(b)
    point = cost_per_correct(b) - cost_per_correct(a)

    def diff(w: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            ra = (w @ cost_a) / (w @ right_a)
            rb = (w @ cost_b) / (w @ right_b)
        ra[(w @ right_a) == 0] = np.nan
        rb[(w @ right_b) == 0] = np.nan
        out: np.ndarray = rb - ra
        return out

    return estimate(
        point,
        diff,
        len(a),
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        rng=rng,
        method="paired percentile bootstrap of a ratio of sums",
    )
