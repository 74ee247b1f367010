"""Loading a semantic layer from YAML and checking it against its database.

Every problem is reported at once, each with its path in the file (``metrics[2].expression``):
first the shape (pydantic), then every table and column the layer names against the
catalogue.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import sqlglot
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from sqlglot import exp

from assay.catalog import CAPS, Catalog, Tier
from assay.errors import SemanticError
from assay.semantic._model import (
    Dimension,
    ForbiddenJoin,
    JoinPath,
    Metric,
    RetiredColumn,
    SemanticLayer,
    TrustedExample,
)

__all__ = ["check_against", "load_semantic", "parse_semantic"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Authority(_Strict):
    """The authority of a drafted element: its tier, capped confidence and fact."""

    tier: str = ""
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    fact: str = ""

    @model_validator(mode="after")
    def _capped(self) -> _Authority:
        if not self.tier:
            return self
        if self.tier not in Tier.__members__:
            raise ValueError(
                f"tier {self.tier!r} is not a tier; use one of {', '.join(Tier.__members__)}"
            )
        cap = CAPS[Tier[self.tier]]
        if self.confidence is not None and self.confidence > cap:
            raise ValueError(
                f"confidence {self.confidence} exceeds the cap {cap} of tier {self.tier}"
            )
        return self


class _Coverage(_Strict):
    start: dt.date
    end: dt.date


class _Metric(_Authority):
    name: str
    label: str = ""
    synonyms: list[str] = Field(default_factory=list)
    table: str
    expression: str
    time_column: str = ""
    required_filters: list[str] = Field(default_factory=list)
    coverage: _Coverage | None = None
    filter: str = ""

    @model_validator(mode="after")
    def _ordered(self) -> _Metric:
        if self.coverage is not None and self.coverage.start > self.coverage.end:
            raise ValueError(f"coverage starts ({self.coverage.start}) after it ends")
        if self.coverage is not None and not self.time_column:
            raise ValueError("coverage needs a time_column (an untimed metric has no dates)")
        return self


class _Dimension(_Authority):
    name: str
    column: str
    synonyms: list[str] = Field(default_factory=list)
    values: list[str] = Field(default_factory=list)
    value_synonyms: dict[str, str] = Field(default_factory=dict)
    expression: str = ""

    @model_validator(mode="after")
    def _own_table(self) -> _Dimension:
        if self.expression:
            table = self.column.split(".")[0]
            names = _columns_in(self.expression)
            if not names or any(t != table for t, _ in names):
                raise ValueError(
                    f"expression {self.expression!r} must read columns of its own table "
                    f"{table!r} only, written as {table}.column"
                )
        return self


class _Join(_Authority):
    left: str
    right: str
    relationship: str = "many_to_one"
    unmatched: int = Field(default=0, ge=0)


class _Forbidden(_Strict):
    left: str
    right: str
    reason: str = ""


class _Retired(_Strict):
    table: str
    column: str
    replacement: str = ""
    reason: str = ""
    synonyms: list[str] = Field(default_factory=list)


class _Trusted(_Strict):
    name: str = ""
    question: str = Field(min_length=1)
    sql: str = Field(min_length=1)
    source: str = ""


class _Layer(_Strict):
    name: str
    description: str = ""
    clock: dt.date | None = None
    coverage: _Coverage | None = None
    fiscal_year_start_month: int = Field(default=1, ge=1, le=12)
    tables: dict[str, dict[str, Any]] = Field(default_factory=dict)
    joins: list[_Join] = Field(default_factory=list)
    forbidden_joins: list[_Forbidden] = Field(default_factory=list)
    retired_columns: list[_Retired] = Field(default_factory=list)
    metrics: list[_Metric] = Field(min_length=1)
    dimensions: list[_Dimension] = Field(default_factory=list)
    undefined_concepts: list[str] = Field(default_factory=list)
    pii: dict[str, str] = Field(default_factory=dict)
    allow_pii: list[str] = Field(default_factory=list)
    trusted_examples: list[_Trusted] = Field(default_factory=list)

    @model_validator(mode="after")
    def _clocked(self) -> _Layer:
        timed = [m.name for m in self.metrics if m.time_column]
        if timed and self.clock is None:
            raise ValueError(
                f"clock is required when a metric has a time_column ({', '.join(timed)}); "
                "give the date 'now' means, or drop the time columns for data without dates"
            )
        return self


def _where(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top)"


def parse_semantic(raw: Any, source: str = "semantic layer") -> SemanticLayer:
    """A validated layer from parsed YAML; every shape problem reported at once."""
    try:
        layer = _Layer.model_validate(raw)
    except ValidationError as exc:
        problems = [f"{_where(e['loc'])}: {e['msg']}" for e in exc.errors()]
        raise SemanticError(
            f"{source} is invalid: " + "; ".join(problems) + ".",
            hint="Fix each named entry (see docs/semantic.md).",
            details={"problems": problems},
        ) from None
    return SemanticLayer(
        name=layer.name,
        description=layer.description,
        retired_columns=tuple(
            RetiredColumn(r.table, r.column, r.replacement, r.reason, tuple(r.synonyms))
            for r in layer.retired_columns
        ),
        forbidden_joins=tuple(
            ForbiddenJoin(f.left, f.right, f.reason) for f in layer.forbidden_joins
        ),
        metrics=tuple(
            Metric(
                m.name,
                m.label or m.name.replace("_", " "),
                tuple(m.synonyms),
                m.table,
                m.expression,
                m.time_column,
                tuple(m.required_filters),
                m.tier,
                m.confidence,
                m.fact,
                (m.coverage.start, m.coverage.end) if m.coverage else None,
                m.filter,
            )
            for m in layer.metrics
        ),
        dimensions=tuple(
            Dimension(
                d.name,
                d.column,
                tuple(d.synonyms),
                tuple(d.values),
                tuple(sorted(d.value_synonyms.items())),
                d.tier,
                d.confidence,
                d.fact,
                d.expression,
            )
            for d in layer.dimensions
        ),
        joins=tuple(
            JoinPath(j.left, j.right, j.relationship, j.tier, j.confidence, j.fact, j.unmatched)
            for j in layer.joins
        ),
        coverage=(layer.coverage.start, layer.coverage.end) if layer.coverage else None,
        clock=layer.clock,
        fiscal_year_start_month=layer.fiscal_year_start_month,
        undefined_concepts=tuple(layer.undefined_concepts),
        tables=tuple(sorted(layer.tables)),
        pii=tuple(sorted(layer.pii.items())),
        allow_pii=tuple(sorted(layer.allow_pii)),
        trusted_examples=tuple(
            TrustedExample(t.question, t.sql, t.name, t.source) for t in layer.trusted_examples
        ),
    )


def load_semantic(path: Path) -> SemanticLayer:
    try:
        raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise SemanticError(
            f"Cannot read semantic layer {str(path)!r}: {exc.strerror}.",
            hint="Check the path given with --semantic.",
        ) from exc
    except yaml.YAMLError as exc:
        raise SemanticError(
            f"Semantic layer {str(path)!r} is not valid YAML: {exc}.", hint="Fix the YAML syntax."
        ) from exc
    return parse_semantic(raw, source=f"Semantic layer {str(path)!r}")


def _columns_in(expression: str) -> list[tuple[str, str]]:
    try:
        tree = sqlglot.parse_one(expression, read="duckdb")
    except Exception:  # an expression that does not parse is reported by the caller
        return [("", "")]
    return [(c.table, c.name) for c in tree.find_all(exp.Column)]


def check_against(layer: SemanticLayer, catalog: Catalog) -> list[str]:
    """Every table and column the layer names that the database lacks, with its path."""
    problems: list[str] = []

    def column(path: str, ref: str) -> None:
        if "." not in ref:
            problems.append(f"{path}: {ref!r} is not written as table.column")
            return
        table, name = ref.split(".", 1)
        info = catalog.table(table)
        if info is None:
            problems.append(f"{path}: table {table!r} does not exist")
        elif info.column(name) is None:
            problems.append(f"{path}: column {ref!r} does not exist")

    for i, m in enumerate(layer.metrics):
        if catalog.table(m.table) is None:
            problems.append(f"metrics[{i}].table: table {m.table!r} does not exist")
        if m.time_column:
            column(f"metrics[{i}].time_column", m.time_column)
        for where, text in (
            [("expression", m.expression)]
            + [(f"required_filters[{k}]", f) for k, f in enumerate(m.required_filters)]
            + ([("filter", m.filter)] if m.filter else [])
        ):
            for table, name in _columns_in(text):
                if not table:
                    problems.append(
                        f"metrics[{i}].{where}: write columns as table.column ({name or text!r})"
                    )
                else:
                    column(f"metrics[{i}].{where}", f"{table}.{name}")
    for i, d in enumerate(layer.dimensions):
        if d.expression:  # its columns are read, not the name it is given
            for table, name in _columns_in(d.expression):
                column(f"dimensions[{i}].expression", f"{table}.{name}")
        else:
            column(f"dimensions[{i}].column", d.column)
    for i, j in enumerate(layer.joins):
        column(f"joins[{i}].left", j.left)
        column(f"joins[{i}].right", j.right)
    for i, r in enumerate(layer.retired_columns):
        if r.replacement:
            column(f"retired_columns[{i}].replacement", r.replacement)
    for ref, _ in layer.pii:
        column(f"pii.{ref}", ref)
    return problems
