"""The rule choice: variants score as defined, and the choice is made on the training groups."""

from __future__ import annotations

import math

import pytest

from assay.bench.statistics import (
    VARIANTS,
    ChoiceRow,
    RuleVariant,
    choose,
    gate_summary,
    leave_one_out,
)
from assay.bench.statistics._rule_choice import variant_score


def _row(group: str, label: int, a: float, signal: bool = False) -> ChoiceRow:
    return ChoiceRow(group, label, a, a, a, signal, False, False)


def test_variant_scores() -> None:
    row = _row("g", 1, 0.64, signal=True)
    assert variant_score(row, RuleVariant("strict", 0.5, "ignore")) == pytest.approx(0.8)
    assert variant_score(row, RuleVariant("strict", 0.5, "cap")) == 0.79
    assert variant_score(row, RuleVariant("strict", 0.5, "veto")) == 0.59
    assert variant_score(_row("g", 0, 0.0), RuleVariant("strict", 0.5, "ignore")) == 0.0


def test_gate_summary_counts() -> None:
    summary = gate_summary([0.9, 0.9, 0.7, 0.1], [1, 0, 1, 1])
    assert summary["pass_accuracy"] == 0.5
    assert summary["right_withheld"] == pytest.approx(1 / 3)
    assert summary["right_shown"] == pytest.approx(1 / 3)


def test_choice_prefers_vetoing_a_signal_that_marks_wrong_answers() -> None:
    rows = [_row(g, 1, 1.0) for g in "abc" for _ in range(30)]
    rows += [_row(g, 0, 1.0, signal=True) for g in "abc" for _ in range(3)]
    rows += [_row(g, 0, 0.2) for g in "abc" for _ in range(5)]
    # Right answers two of five agree on: above a 0.59 veto, below a 0.79 cap.
    rows += [_row(g, 1, 0.4) for g in "abc" for _ in range(3)]
    assert choose(rows).signals == "veto"
    folds = leave_one_out(rows)
    assert [f["held_out"] for f in folds] == ["a", "b", "c"]
    assert all(f["variant"]["signals"] == "veto" for f in folds)
    assert all(f["held_out_metrics"]["pass_accuracy"] == 1.0 for f in folds)
    assert len(VARIANTS) == len(set(VARIANTS))


def test_undefined_auroc_is_nan_not_zero() -> None:
    with pytest.warns(Warning):
        summary = gate_summary([0.9, 0.8], [1, 1])
    assert math.isnan(summary["auroc"])
