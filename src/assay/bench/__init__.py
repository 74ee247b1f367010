"""Bench: generated warehouses, evaluation and reports.

Re-exported here: what the CLI's bench commands, the benchmarks and the tests use. The
product imports nothing from this package (tests/meta/test_layers.py).
"""

from assay.bench._faults import DETERMINISTIC_FAULTS, FAULTS
from assay.bench._gate_metrics import always_abstain_rs, gate_table, reliability_score
from assay.bench._metrics import (
    accuracy_at_coverage,
    aurc,
    auroc,
    auroc_interval,
    brier,
    ece,
    mcnemar_exact,
    paired_auroc_difference,
    reliability_bins,
)
from assay.bench._phrasing import PHRASING_DIR, load_phrasing, phrasing_splits, phrasing_task
from assay.bench._planted import run_planted
from assay.bench._prereg import (
    Hypothesis,
    bundle_hash,
    check_manifest,
    file_hash,
    freeze,
    load_hypotheses,
)
from assay.bench._report import build_report, rounded
from assay.bench._runner import RunContext, SystemAnswer, make_system, run_benchmark
from assay.bench._spider import default_spider_root, spider_records
from assay.bench._stats import UndefinedStatisticWarning, bootstrap_counts
from assay.bench._task_metrics import (
    TaskOutcome,
    cost_per_correct,
    paired_cost_difference,
    task_metrics,
)
from assay.bench._tasks import Task
from assay.bench._tpc import build_tpc, tpc_queries
from assay.bench._wrb_report import (
    compare_runs,
    confidence_rows,
    expected_results,
    load_run,
    score_run,
)
from assay.bench._wrb_score import prohibited, result_equivalent, score_task
from assay.bench._write_report import write_report

__all__ = [
    "DETERMINISTIC_FAULTS",
    "FAULTS",
    "PHRASING_DIR",
    "Hypothesis",
    "RunContext",
    "SystemAnswer",
    "Task",
    "TaskOutcome",
    "UndefinedStatisticWarning",
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
    "compare_runs",
    "confidence_rows",
    "cost_per_correct",
    "default_spider_root",
    "ece",
    "expected_results",
    "file_hash",
    "freeze",
    "gate_table",
    "load_hypotheses",
    "load_phrasing",
    "load_run",
    "make_system",
    "mcnemar_exact",
    "paired_auroc_difference",
    "paired_cost_difference",
    "phrasing_splits",
    "phrasing_task",
    "prohibited",
    "reliability_bins",
    "reliability_score",
    "result_equivalent",
    "rounded",
    "run_benchmark",
    "run_planted",
    "score_run",
    "score_task",
    "spider_records",
    "task_metrics",
    "tpc_queries",
    "write_report",
]
