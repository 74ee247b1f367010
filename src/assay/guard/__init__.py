"""Guard: the first wall. Static SQL validation as an AST allowlist, and question intent."""

from assay.guard._report import GuardReport, Violation
from assay.guard._rules import TEXT_RULES, TREE_RULES
from assay.guard._validate import DIALECTS, validate

__all__ = ["DIALECTS", "TEXT_RULES", "TREE_RULES", "GuardReport", "Violation", "validate"]
