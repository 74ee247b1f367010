"""Answer: written answers from rows, every number cited to a cell."""

from assay.answer._governed import Citation, GovernedAnswer, write_governed
from assay.answer._write import format_value, write_answer

__all__ = ["Citation", "GovernedAnswer", "format_value", "write_answer", "write_governed"]
