"""Bring your own samples: the JSONL format any outside agent can feed Assay.

One question a line, with exactly these keys::

    {"id": "q1", "db": "shop.duckdb", "question": "How many orders?", "hint": "...",
     "samples": [{"final_sql": "SELECT count(*) FROM orders",
                  "queries": ["SELECT ...", "SELECT count(*) FROM orders"],
                  "text": "There are 200 orders.",
                  "result": {"columns": ["n"], "rows": [[200]], "row_count": 1,
                             "truncated": false},
                  "judge": {"complete": 1.0, "claims": [...], "issues": [...]}}],
     "label": 1}

``db`` is a DuckDB or SQLite file path (relative to the samples file, then to the working
folder) or an SQLAlchemy URL. Sample 0 is the answer shown. A sample needs ``final_sql`` or
``result``; when ``result`` is absent Assay executes ``final_sql`` itself, read-only. ``label``
is 1 when sample 0 is right and 0 when it is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from assay.errors import InputError
from assay.types import Candidate, Result

__all__ = ["ResultModel", "SampleLine", "SampleModel", "SampleRecord", "read_samples"]


class ResultModel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    columns: list[str]
    rows: list[list[Any]]
    row_count: int | None = None
    truncated: bool = False

    def to_result(self) -> Result:
        count = self.row_count
        if count is None and not self.truncated:
            count = len(self.rows)
        return Result(
            tuple(self.columns), tuple(tuple(r) for r in self.rows), count, self.truncated
        )


class SampleModel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    final_sql: str | None = None
    sampler: str | None = None  # which system, prompt or model drew it (reliability weights)
    queries: list[str] = Field(default_factory=list)
    text: str | None = None
    result: ResultModel | None = None
    judge: dict[str, Any] | None = None

    def to_candidate(self) -> Candidate:
        return Candidate(
            final_sql=self.final_sql,
            queries=tuple(self.queries),
            text=self.text,
            result=self.result.to_result() if self.result else None,
            judge=self.judge,
        )


class SampleRecord(BaseModel):
    """One question with its K samples."""

    model_config = ConfigDict(extra="forbid")

    id: str
    db: str
    question: str
    hint: str = ""
    samples: list[SampleModel] = Field(min_length=1)
    label: int | None = None

    @field_validator("id", "db", "question")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return value

    @field_validator("label")
    @classmethod
    def _binary(cls, value: int | None) -> int | None:
        if value not in (None, 0, 1):
            raise ValueError("must be 0 or 1")
        return value


@dataclass(frozen=True)
class SampleLine:
    """One line of the file: its number, its id when readable, and the record or the error."""

    line_no: int
    id: str | None
    record: SampleRecord | None
    error: InputError | None


# The keys a line may hold, read from the models so that the hint names every one (it left
# out ``sampler``: outside tryout 26).
_KEYS_HINT = (
    "Keys: "
    + ", ".join(
        f"samples[{', '.join(SampleModel.model_fields)}]" if name == "samples" else name
        for name in SampleRecord.model_fields
    )
    + "."
)


def _problems(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error["loc"]) or "(line)"
        parts.append(f"{where}: {error['msg']}")
    return "; ".join(parts)


def read_samples(path: Path) -> Iterator[SampleLine]:
    """Read a samples file line by line; a bad line becomes a ``SampleLine`` with an error
    naming the line, the key and the fix, and reading goes on."""
    try:
        handle = Path(path).open("rb")  # decoded line by line: a bad byte fails one line only
    except OSError as exc:
        raise InputError(
            f"Cannot read samples file {str(path)!r}: {exc.strerror}.", hint="Check the path."
        ) from exc
    with handle:
        for line_no, raw_line in enumerate(handle, start=1):
            try:
                line = raw_line.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield SampleLine(
                    line_no,
                    None,
                    None,
                    InputError(
                        f"Line {line_no} of {path} is not UTF-8: byte "
                        f"0x{raw_line[exc.start]:02x} at position {exc.start}.",
                        hint="Write the samples file in UTF-8.",
                    ),
                )
                continue
            if not line.strip():
                continue
            try:
                raw = json.loads(line)
            except json.JSONDecodeError as exc:
                yield SampleLine(
                    line_no,
                    None,
                    None,
                    InputError(
                        f"Line {line_no} of {path} is not JSON: {exc.msg} at column {exc.colno}.",
                        hint="Write one JSON object per line.",
                    ),
                )
                continue
            ident = str(raw["id"]) if isinstance(raw, dict) and "id" in raw else None
            try:
                record = SampleRecord.model_validate(raw)
            except ValidationError as exc:
                yield SampleLine(
                    line_no,
                    ident,
                    None,
                    InputError(
                        f"Line {line_no} of {path} (id {ident!r}) is not a valid record: "
                        f"{_problems(exc)}.",
                        hint=_KEYS_HINT,
                    ),
                )
                continue
            for index, sample in enumerate(record.samples):
                if sample.final_sql is None and sample.result is None:
                    yield SampleLine(
                        line_no,
                        ident,
                        None,
                        InputError(
                            f"Line {line_no} (id {ident!r}): sample {index} has neither final_sql "
                            "nor result.",
                            hint="Give the SQL the sample ran, or its result.",
                        ),
                    )
                    break
            else:
                yield SampleLine(line_no, record.id, record, None)
