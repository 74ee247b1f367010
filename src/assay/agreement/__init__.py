"""Agreement: result normalisation, strict and relaxed matching, A, and the entropy L2."""

from assay.agreement._agreement import (
    KEEP_ROWS,
    Agreement,
    MatchingPolicy,
    Prepared,
    agreement,
    prepare,
)
from assay.agreement._match import NormalisedResult, relaxed_match, strict_match
from assay.agreement._normalise import NULL, normalise_row, normalise_value

__all__ = [
    "KEEP_ROWS",
    "NULL",
    "Agreement",
    "MatchingPolicy",
    "NormalisedResult",
    "Prepared",
    "agreement",
    "normalise_row",
    "normalise_value",
    "prepare",
    "relaxed_match",
    "strict_match",
]
