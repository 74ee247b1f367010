"""Semantic layer: governed metrics, dimensions, joins and the rules that read them."""

from assay.semantic._behaviour import BehaviourDecision, decide
from assay.semantic._load import check_against, load_semantic, parse_semantic
from assay.semantic._model import (
    Dimension,
    ForbiddenJoin,
    JoinPath,
    Metric,
    RetiredColumn,
    SemanticLayer,
)
from assay.semantic._periods import Period, parse_period
from assay.semantic._resolve import Lexicon, Match, Resolution, resolve

__all__ = [
    "BehaviourDecision",
    "Dimension",
    "ForbiddenJoin",
    "JoinPath",
    "Lexicon",
    "Match",
    "Metric",
    "Period",
    "Resolution",
    "RetiredColumn",
    "SemanticLayer",
    "check_against",
    "decide",
    "load_semantic",
    "parse_period",
    "parse_semantic",
    "resolve",
]
