"""Statistics: AUROC, AURC, ECE, Brier, risk-coverage, bootstrap intervals, gate and task metrics,
rule choice by leave-one-out.
"""

from assay.bench.statistics._bootstrap import Estimate, UndefinedStatisticWarning, bootstrap_counts
from assay.bench.statistics._gate_metrics import (
    RS_LAMBDAS,
    always_abstain_rs,
    gate_table,
    reliability_score,
)
from assay.bench.statistics._metrics import (
    RiskCoverage,
    accuracy_at_coverage,
    aurc,
    auroc,
    auroc_interval,
    brier,
    ece,
    mcnemar_exact,
    paired_auroc_difference,
    reliability_bins,
    risk_coverage,
)
from assay.bench.statistics._rule_choice import (
    CHOICE_VARIANTS,
    VARIANTS,
    ChoiceRow,
    RuleVariant,
    choose,
    gate_summary,
    leave_one_out,
)
from assay.bench.statistics._task_metrics import (
    TaskOutcome,
    cost_per_correct,
    paired_cost_difference,
    task_metrics,
)

__all__ = [
    "CHOICE_VARIANTS",
    "RS_LAMBDAS",
    "VARIANTS",
    "ChoiceRow",
    "Estimate",
    "RiskCoverage",
    "RuleVariant",
    "TaskOutcome",
    "UndefinedStatisticWarning",
    "accuracy_at_coverage",
    "always_abstain_rs",
    "aurc",
    "auroc",
    "auroc_interval",
    "bootstrap_counts",
    "brier",
    "choose",
    "cost_per_correct",
    "ece",
    "gate_summary",
    "gate_table",
    "leave_one_out",
    "mcnemar_exact",
    "paired_auroc_difference",
    "paired_cost_difference",
    "reliability_bins",
    "reliability_score",
    "risk_coverage",
    "task_metrics",
]
