"""Scoring: the rules registry (designed, v2, agreement_first, v3, assay) and calibrators."""

from assay.scoring._calibrate import IsotonicCalibrator, fit_isotonic, flat_map
from assay.scoring._confidence import FEATURES, ConfidenceModel, fit_confidence
from assay.scoring._reliability import SamplerReliability, fit_reliability
from assay.scoring._rules import (
    DEFAULT_RULE,
    HARD_CAP,
    RULES,
    SOFT_CAP,
    WEIGHTS,
    Rule,
    RuleScore,
    ScoreInputs,
    get_rule,
)

__all__ = [
    "DEFAULT_RULE",
    "FEATURES",
    "HARD_CAP",
    "RULES",
    "SOFT_CAP",
    "WEIGHTS",
    "ConfidenceModel",
    "IsotonicCalibrator",
    "Rule",
    "RuleScore",
    "SamplerReliability",
    "ScoreInputs",
    "fit_confidence",
    "fit_isotonic",
    "fit_reliability",
    "flat_map",
    "get_rule",
]
