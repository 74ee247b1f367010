"""Answer: written answers from rows, every number cited to a cell."""

from assay.answer._write import format_value, write_answer

__all__ = ["format_value", "write_answer"]
