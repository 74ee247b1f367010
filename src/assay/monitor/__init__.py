"""monitor: the trajectory monitor of the Sentinel paper.

Run records and their importers, the rendered prefix, the Appendix I features, the text head
and the gradient-boosted hybrid, isotonic calibration, the exit gate, early exit, Chow's rule at
delivery, and grouped held-out evaluation. It reads agents' runs; it never runs an agent itself.
"""

from assay.monitor._decisions import (
    LAMBDAS,
    IsotonicMap,
    Outcome,
    Trace,
    auroc,
    chow_tau,
    ece,
    gate_theta,
    reliability_score,
    simulate,
)
from assay.monitor._evaluate import clustered_bootstrap, evaluate
from assay.monitor._features import FEATURE_NAMES, FeatureExtractor
from assay.monitor._heads import BoostedHybrid, TextHead, fit_hybrid, fit_text_head, text_counts
from assay.monitor._importers import import_ehrsql, import_intercode, parse_observation
from assay.monitor._monitor import (
    HEAD_C_CANDIDATES,
    MONITOR_VERSION,
    Monitor,
    MonitorFileError,
    View,
    load_monitor,
    save_monitor,
    select_head_c,
    select_view_and_c,
    split_pools,
    train_monitor,
)
from assay.monitor._render import render_prefix
from assay.monitor._report import render_html
from assay.monitor._schema import load_schemas, parse_ddl
from assay.monitor._trajectory import (
    FORMAT,
    ActionKind,
    Run,
    RunReject,
    Step,
    read_runs,
    write_jsonl,
)
from assay.monitor._watch import Decision, deliver, watch

__all__ = [
    "FEATURE_NAMES",
    "FORMAT",
    "HEAD_C_CANDIDATES",
    "LAMBDAS",
    "MONITOR_VERSION",
    "ActionKind",
    "BoostedHybrid",
    "Decision",
    "FeatureExtractor",
    "IsotonicMap",
    "Monitor",
    "MonitorFileError",
    "Outcome",
    "Run",
    "RunReject",
    "Step",
    "TextHead",
    "Trace",
    "View",
    "auroc",
    "chow_tau",
    "clustered_bootstrap",
    "deliver",
    "ece",
    "evaluate",
    "fit_hybrid",
    "fit_text_head",
    "gate_theta",
    "import_ehrsql",
    "import_intercode",
    "load_monitor",
    "load_schemas",
    "parse_ddl",
    "parse_observation",
    "read_runs",
    "reliability_score",
    "render_html",
    "render_prefix",
    "save_monitor",
    "select_head_c",
    "select_view_and_c",
    "simulate",
    "split_pools",
    "text_counts",
    "train_monitor",
    "watch",
    "write_jsonl",
]
