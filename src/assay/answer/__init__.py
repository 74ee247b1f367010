"""Answer: written answers from rows, every number cited to a cell."""

from assay.answer._governed import (
    GRAINS,
    Citation,
    GovernedAnswer,
    format_label,
    format_quantity,
    spoken_name,
    write_governed,
)
from assay.answer._write import column_grain, format_value, write_answer

__all__ = [
    "GRAINS",
    "Citation",
    "GovernedAnswer",
    "column_grain",
    "format_label",
    "format_quantity",
    "format_value",
    "spoken_name",
    "write_answer",
    "write_governed",
]
