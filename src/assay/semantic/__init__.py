"""Semantic layer: governed metrics, dimensions, joins and the rules that read them."""

from assay.semantic._model import ForbiddenJoin, RetiredColumn, SemanticLayer

__all__ = ["ForbiddenJoin", "RetiredColumn", "SemanticLayer"]
