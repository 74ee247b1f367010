"""Runner: systems run over a task set, each answer scored against the expected result, planted-
error runs and pre-registration bundles.
"""

from assay.bench.runner._prereg import (
    BUNDLE_PACKAGES,
    DEFAULT_HYPOTHESES,
    Hypothesis,
    bundle_hash,
    check_manifest,
    file_hash,
    freeze,
    load_hypotheses,
)
from assay.bench.runner._run_benchmark import (
    SYSTEMS,
    AssaySystem,
    RunContext,
    System,
    SystemAnswer,
    make_system,
    run_benchmark,
)
from assay.bench.runner._run_planted import FaultRow, PlantedReport, run_planted
from assay.bench.runner._score_run import (
    compare_runs,
    confidence_rows,
    expected_results,
    load_run,
    score_run,
)
from assay.bench.runner._score_task import (
    OUTCOMES,
    ScoredTask,
    prohibited,
    result_equivalent,
    score_task,
)

__all__ = [
    "BUNDLE_PACKAGES",
    "DEFAULT_HYPOTHESES",
    "OUTCOMES",
    "SYSTEMS",
    "AssaySystem",
    "FaultRow",
    "Hypothesis",
    "PlantedReport",
    "RunContext",
    "ScoredTask",
    "System",
    "SystemAnswer",
    "bundle_hash",
    "check_manifest",
    "compare_runs",
    "confidence_rows",
    "expected_results",
    "file_hash",
    "freeze",
    "load_hypotheses",
    "load_run",
    "make_system",
    "prohibited",
    "result_equivalent",
    "run_benchmark",
    "run_planted",
    "score_run",
    "score_task",
]
