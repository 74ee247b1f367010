"""Checks: one registry (``CHECKS``) of small pure functions over one context, returning
findings."""

from assay.checks._checks import (
    CHECKS,
    JOIN_MIN_OVERLAP,
    PLAN_CHECKS,
    RESULT_SIGNALS,
    Check,
    CheckReport,
    grounded,
    run_checks,
)
from assay.checks._consistency import QUESTION_CHECKS, QUESTION_SIGNALS
from assay.checks._context import CheckContext, CheckOutcome, Claim, JudgeIssue, JudgeReport
from assay.checks._fit import FitReport, fit_check
from assay.checks._judge import JUDGE_PROMPT, ModelJudge, parse_judge_reply
from assay.checks._numbers import WrittenNumber, cited_by, extract_numbers, numeric_cells
from assay.checks._sql import equi_join_pairs, output_sources, parse_query, referenced_tables
from assay.checks._values import literal_in_data
from assay.checks._verify import VERIFICATION_CODES

__all__ = [
    "CHECKS",
    "JOIN_MIN_OVERLAP",
    "JUDGE_PROMPT",
    "PLAN_CHECKS",
    "QUESTION_CHECKS",
    "QUESTION_SIGNALS",
    "RESULT_SIGNALS",
    "VERIFICATION_CODES",
    "Check",
    "CheckContext",
    "CheckOutcome",
    "CheckReport",
    "Claim",
    "FitReport",
    "JudgeIssue",
    "JudgeReport",
    "ModelJudge",
    "WrittenNumber",
    "cited_by",
    "equi_join_pairs",
    "extract_numbers",
    "fit_check",
    "grounded",
    "literal_in_data",
    "numeric_cells",
    "output_sources",
    "parse_judge_reply",
    "parse_query",
    "referenced_tables",
    "run_checks",
]
