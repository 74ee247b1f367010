"""Request bodies, validated strictly: wrong types and unknown fields are refused, and a field
that would name a connection, a file or a layer is refused by name."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from assay.pipeline import MAX_QUESTION_CHARS
from assay.scoring import DEFAULT_RULE, RULES

__all__ = [
    "FORBIDDEN_FIELDS",
    "AskBody",
    "FeedbackBody",
    "ScoreBody",
    "SqlBody",
]

# Keys that would let a request choose what the server opens; refused wherever they appear.
FORBIDDEN_FIELDS = frozenset(
    {"db", "url", "dsn", "path", "file", "semantic", "layer", "connection", "ledger"}
)
_KEY = r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$"
_ID = r"^[A-Za-z0-9_.:-]{1,80}$"


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class AskBody(_Body):
    """A question in plain words; a follow-up names the answer it follows."""

    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS)
    database: str | None = Field(None, max_length=200)
    follow_up_of: str | None = Field(None, pattern=_ID)

    @field_validator("question")
    @classmethod
    def _words(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the question has no words")
        return value


class SqlBody(_Body):
    """One read-only query, guarded, executed, checked and gated."""

    sql: str = Field(min_length=1, max_length=20_000)
    database: str | None = Field(None, max_length=200)
    question: str = Field("", max_length=MAX_QUESTION_CHARS)


class ScoreBody(_Body):
    """Sampled answers in the samples format (docs: generators/_samples.py) without ``db``."""

    records: list[dict[str, Any]] = Field(min_length=1, max_length=100)
    database: str | None = Field(None, max_length=200)
    rule: str = DEFAULT_RULE

    @field_validator("rule")
    @classmethod
    def _known_rule(cls, value: str) -> str:
        if value not in RULES:
            raise ValueError(f"rule {value[:40]!r} is not one of {sorted(RULES)}")
        return value


class FeedbackBody(_Body):
    """Thumbs up (1) or down (0) on a verdict, with an optional comment."""

    verdict_id: str = Field(pattern=_ID)
    label: Literal[0, 1]
    comment: str = Field("", max_length=2_000)

    @field_validator("label", mode="before")
    @classmethod
    def _not_bool(cls, value: Any) -> Any:
        # true == 1 in Python; a label is a number, as in label files.
        if isinstance(value, bool):
            raise ValueError("a label is 1 (right) or 0 (wrong), not a boolean")
        return value
