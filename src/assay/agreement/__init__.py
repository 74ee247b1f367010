"""Agreement: result normalisation, strict, permuted and relaxed matching, A, and L2."""

from assay.agreement._agreement import (
    KEEP_ROWS,
    MATCHERS,
    Agreement,
    MatchingPolicy,
    Prepared,
    agreement,
    prepare,
)
from assay.agreement._match import (
    NormalisedResult,
    permuted_match,
    relaxed_match,
    strict_match,
)
from assay.agreement._normalise import NULL, normalise_row, normalise_value

__all__ = [
    "KEEP_ROWS",
    "MATCHERS",
    "NULL",
    "Agreement",
    "MatchingPolicy",
    "NormalisedResult",
    "Prepared",
    "agreement",
    "normalise_row",
    "normalise_value",
    "permuted_match",
    "prepare",
    "relaxed_match",
    "strict_match",
]
