"""Bench: generated warehouses, evaluation and reports."""

from assay.bench._faults import DETERMINISTIC_FAULTS, FAULTS, Fault, Planted, plant
from assay.bench._gate_metrics import RS_LAMBDAS, always_abstain_rs, gate_table, reliability_score
from assay.bench._metrics import (
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
from assay.bench._planted import FaultRow, PlantedReport, run_planted
from assay.bench._spider import (
    SPIDER_SYSTEMS,
    default_spider_root,
    execution_match,
    spider_records,
)
from assay.bench._stats import Estimate, UndefinedStatisticWarning, bootstrap_counts
from assay.bench._task_metrics import (
    TaskOutcome,
    cost_per_correct,
    paired_cost_difference,
    task_metrics,
)
from assay.bench._tpc import TPC_BENCHMARKS, build_tpc, tpc_extension_path, tpc_queries

__all__ = [
    "DETERMINISTIC_FAULTS",
    "FAULTS",
    "RS_LAMBDAS",
    "SPIDER_SYSTEMS",
    "TPC_BENCHMARKS",
    "Estimate",
    "Fault",
    "FaultRow",
    "Planted",
    "PlantedReport",
    "RiskCoverage",
    "TaskOutcome",
    "UndefinedStatisticWarning",
    "accuracy_at_coverage",
    "always_abstain_rs",
    "aurc",
    "auroc",
    "auroc_interval",
    "bootstrap_counts",
    "brier",
    "build_tpc",
    "cost_per_correct",
    "default_spider_root",
    "ece",
    "execution_match",
    "gate_table",
    "mcnemar_exact",
    "paired_auroc_difference",
    "paired_cost_difference",
    "plant",
    "reliability_bins",
    "reliability_score",
    "risk_coverage",
    "run_planted",
    "spider_records",
    "task_metrics",
    "tpc_extension_path",
    "tpc_queries",
]
