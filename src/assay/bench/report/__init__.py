"""Report: the evaluation report built from verdict sets and written as HTML with PNG figures."""

from assay.bench.report._build_report import build_report, rounded
from assay.bench.report._write_report import write_report

__all__ = [
    "build_report",
    "rounded",
    "write_report",
]
