"""Guard: the first wall. Static SQL validation as an AST allowlist, and question intent."""

from assay.guard._analysis import ColumnRef, QueryAnalysis, TableRef, analyse
from assay.guard._changes import Change, statement_change
from assay.guard._intent import INTENT_RULES, Refusal, refusal_reasons, refusals
from assay.guard._report import GuardReport, Violation
from assay.guard._rules import TEXT_RULES, TREE_RULES
from assay.guard._validate import DIALECTS, validate

__all__ = [
    "DIALECTS",
    "INTENT_RULES",
    "TEXT_RULES",
    "TREE_RULES",
    "Change",
    "ColumnRef",
    "GuardReport",
    "QueryAnalysis",
    "Refusal",
    "TableRef",
    "Violation",
    "analyse",
    "refusal_reasons",
    "refusals",
    "statement_change",
    "validate",
]
