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
from assay.bench._prereg import (
    BUNDLE_PACKAGES,
    DEFAULT_HYPOTHESES,
    Hypothesis,
    bundle_hash,
    check_manifest,
    file_hash,
    freeze,
    load_hypotheses,
)
from assay.bench._report import (
    VerdictSet,
    build_report,
    load_labels,
    load_verdicts,
    read_labels,
    rounded,
)
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
from assay.bench._write_report import write_report

__all__ = [
    "BUNDLE_PACKAGES",
    "DEFAULT_HYPOTHESES",
    "DETERMINISTIC_FAULTS",
    "FAULTS",
    "RS_LAMBDAS",
    "SPIDER_SYSTEMS",
    "TPC_BENCHMARKS",
    "Estimate",
    "Fault",
    "FaultRow",
    "Hypothesis",
    "Planted",
    "PlantedReport",
    "RiskCoverage",
    "TaskOutcome",
    "UndefinedStatisticWarning",
    "VerdictSet",
    "accuracy_at_coverage",
    "always_abstain_rs",
    "aurc",
    "auroc",
    "auroc_interval",
    "bootstrap_counts",
    "brier",
    "build_report",
    "build_tpc",
    "bundle_hash",
    "check_manifest",
    "cost_per_correct",
    "default_spider_root",
    "ece",
    "execution_match",
    "file_hash",
    "freeze",
    "gate_table",
    "load_hypotheses",
    "load_labels",
    "load_verdicts",
    "mcnemar_exact",
    "paired_auroc_difference",
    "paired_cost_difference",
    "plant",
    "read_labels",
    "reliability_bins",
    "reliability_score",
    "risk_coverage",
    "rounded",
    "run_planted",
    "spider_records",
    "task_metrics",
    "tpc_extension_path",
    "tpc_queries",
    "write_report",
]
