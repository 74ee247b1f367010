"""Errors Assay raises, one subclass per stage, each with a stable dotted ``code``.

The tree::

    AssayError                      assay.error
    ├── ConfigError                 config.invalid
    ├── InputError                  input.invalid
    ├── ExecutionError              execution.error
    │   ├── ExecutionFailed         execution.error
    │   ├── ExecutionTimeout        execution.timeout
    │   ├── ConnectionFailed        execution.connection_failed
    │   └── ResourceLimit           execution.resource_limit
    ├── SemanticError               semantic.invalid
    ├── GenerationError             generation.error
    │   ├── FanOut                  plan.fan_out
    │   ├── NoJoinPath              plan.no_join_path
    │   ├── UnmatchedRows           plan.unmatched_rows
    │   └── LLMUnavailable          llm.unavailable
    ├── ScoringError                scoring.error
    ├── LedgerError                 ledger.error
    └── BenchError                  bench.error

Every message says what failed, the offending value, the rule and the fix; ``hint`` carries the
fix on its own so that the CLI and the HTTP error shape can show it apart.

Every class here is raised somewhere (tests/meta/test_errors.py checks it). The execution
errors cross a process boundary as codes: a worker reports ``execution.error`` for any statement
the engine refused, and ``error_for_code`` raises the most specific class, ``ExecutionFailed``.
The guard has no error: a refused statement is a ``GuardReport``, never an exception. Profiling
runs queries, so its failures are execution errors.
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = [
    "AssayError",
    "BenchError",
    "ConfigError",
    "ConnectionFailed",
    "ExecutionError",
    "ExecutionFailed",
    "ExecutionTimeout",
    "FanOut",
    "GenerationError",
    "InputError",
    "LLMUnavailable",
    "LedgerError",
    "NoJoinPath",
    "ResourceLimit",
    "ScoringError",
    "SemanticError",
    "UnmatchedRows",
    "error_for_code",
]


class AssayError(Exception):
    """Root of every error Assay raises on purpose."""

    code: ClassVar[str] = "assay.error"

    def __init__(self, message: str, *, hint: str = "", details: dict[str, Any] | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.details = dict(details or {})

    def __str__(self) -> str:
        return f"{self.message} {self.hint}".strip() if self.hint else self.message


class ConfigError(AssayError):
    """A setting has a value Assay cannot use."""

    code = "config.invalid"


class InputError(AssayError):
    """A file, argument or record given by the user is malformed."""

    code = "input.invalid"


class ExecutionError(AssayError):
    """Running a query failed."""

    code = "execution.error"


class ExecutionFailed(ExecutionError):
    """The engine raised an error for the statement (syntax, binder, type, permission)."""

    code = "execution.error"


class ExecutionTimeout(ExecutionError):
    """The statement ran past its time limit and was stopped."""

    code = "execution.timeout"


class ConnectionFailed(ExecutionError):
    """The database could not be opened or reached."""

    code = "execution.connection_failed"


class ResourceLimit(ExecutionError):
    """The statement exceeded a memory, CPU or size limit and was stopped."""

    code = "execution.resource_limit"


class SemanticError(AssayError):
    """The semantic layer is invalid or does not match its database."""

    code = "semantic.invalid"


class GenerationError(AssayError):
    """A generator could not produce a candidate."""

    code = "generation.error"


class FanOut(GenerationError):
    """The planner refused a join that would multiply the metric's rows (and inflate it)."""

    code = "plan.fan_out"


class NoJoinPath(GenerationError):
    """The layer declares no join from the metric's table to a table the question needs (a
    grouping or a filter on a dimension of that table)."""

    code = "plan.no_join_path"


class UnmatchedRows(GenerationError):
    """The planner refused a join that leaves rows of the metric's table without a partner
    (a NULL or missing key) where they would vanish from the answer (a total or a negated
    filter through it): a deliberate abstention, not a failure."""

    code = "plan.unmatched_rows"


class LLMUnavailable(GenerationError):
    """The model endpoint is down, timed out or answered garbage."""

    code = "llm.unavailable"


class ScoringError(AssayError):
    """A scoring rule or calibrator could not be applied."""

    code = "scoring.error"


class LedgerError(AssayError):
    """Reading or writing stored verdicts failed."""

    code = "ledger.error"


class BenchError(AssayError):
    """An evaluation input (run, labels, tasks) is inconsistent."""

    code = "bench.error"


_ALL_ERRORS: tuple[type[AssayError], ...] = (
    AssayError,
    ConfigError,
    InputError,
    ExecutionError,
    ExecutionFailed,
    ExecutionTimeout,
    ConnectionFailed,
    ResourceLimit,
    SemanticError,
    GenerationError,
    FanOut,
    NoJoinPath,
    UnmatchedRows,
    LLMUnavailable,
    ScoringError,
    LedgerError,
    BenchError,
)


def error_for_code(code: str) -> type[AssayError]:
    """Return the most specific error class whose ``code`` is ``code``.

    Used to re-raise, in the parent process, an error a worker process reported by code.

    Example:
        >>> error_for_code("execution.timeout").__name__
        'ExecutionTimeout'
    """
    matches = [cls for cls in _ALL_ERRORS if cls.code == code]
    if not matches:
        return AssayError
    # The last listed is the most specific (ExecutionFailed after ExecutionError).
    return matches[-1]
