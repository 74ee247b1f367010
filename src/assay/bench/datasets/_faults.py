"""Planted errors (Appendix B of the governed-score paper), applied deterministically to
answers labelled correct.

Each ``plant_*`` takes sample 0 (already executed) and returns the changed sample, or ``None``
when the fault does not apply to that answer (no join to rewire, no numeric column). Faults
that change the query clear the result, so the scorer re-executes the changed SQL.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from sqlglot import exp

from assay.answer import write_answer
from assay.catalog import Catalog, Profiles
from assay.checks import (
    JOIN_MIN_OVERLAP,
    cited_by,
    extract_numbers,
    numeric_cells,
    parse_query,
)
from assay.checks import equi_join_pairs as _pairs
from assay.types import Candidate, Result

__all__ = ["DETERMINISTIC_FAULTS", "FAULTS", "Fault", "Planted", "plant"]

_DIALECTS = {"duckdb": "duckdb", "sqlite": "sqlite", "postgres": "postgres"}


@dataclass(frozen=True)
class Planted:
    """The changed sample 0, and stand-in codes recorded for result columns (if any)."""

    candidate: Candidate
    stand_ins: dict[int, frozenset[Any]] = field(default_factory=dict)
    detail: str = ""


@dataclass(frozen=True)
class PlantContext:
    candidate: Candidate
    dialect: str
    catalog: Catalog
    profiles: Profiles | None


PlantFn = Callable[[PlantContext], Planted | None]


@dataclass(frozen=True)
class Fault:
    """A kind of planted error and the finding code of the check built to catch it (``None``
    when only a judge model could), with further codes that also catch it (``also``)."""

    name: str
    check: str | None
    plant: PlantFn
    changes_query: bool
    also: tuple[str, ...] = ()

    @property
    def codes(self) -> tuple[str, ...]:
        return (self.check, *self.also) if self.check else self.also


def _tree(ctx: PlantContext) -> exp.Expr | None:
    sql = ctx.candidate.final_sql
    tree = parse_query(sql, ctx.dialect) if sql else None
    return tree.copy() if tree is not None else None


def _with_sql(ctx: PlantContext, tree: exp.Expr, detail: str) -> Planted:
    sql = tree.sql(dialect=_DIALECTS[ctx.dialect])
    return Planted(
        replace(ctx.candidate, final_sql=sql, queries=(), result=None, error=None, text=None),
        detail=detail,
    )


def plant_fake_table(ctx: PlantContext) -> Planted | None:
    tree = _tree(ctx)
    if tree is None:
        return None
    ctes = {c.alias.lower() for c in tree.find_all(exp.CTE)}
    for table in tree.find_all(exp.Table):
        if isinstance(table.this, exp.Identifier) and table.name.lower() not in ctes:
            old = table.name
            table.set("this", exp.to_identifier(f"{old}_archive"))
            return _with_sql(ctx, tree, f"{old} -> {old}_archive")
    return None


def plant_bad_join(ctx: PlantContext) -> Planted | None:
    """Rewire one side of an equi-join to a column of the same table whose key overlap with
    the other side is below 0.85 in both directions."""
    tree = _tree(ctx)
    if tree is None or ctx.profiles is None:
        return None
    for (lt, lc), (rt, rc) in _pairs(tree, ctx.catalog):
        info = ctx.catalog.table(lt)
        if info is None:
            continue
        for column in info.columns:
            if column.name.lower() == lc.lower():
                continue
            overlap = ctx.profiles.overlap((lt, column.name), (rt, rc))
            if overlap is None or overlap.rho >= JOIN_MIN_OVERLAP or not overlap.n_left:
                continue
            if _rewire(tree, (lt, lc), column.name, ctx.catalog):
                return _with_sql(
                    ctx, tree, f"{lt}.{lc} -> {lt}.{column.name} (rho {overlap.rho:.2f})"
                )
    return None


def _rewire(tree: exp.Expr, side: tuple[str, str], new: str, catalog: Catalog) -> bool:
    table, column = side
    aliases = {
        t.alias_or_name.lower() for t in tree.find_all(exp.Table) if t.name.lower() == table.lower()
    }
    for eq in tree.find_all(exp.EQ):
        for node in (eq.this, eq.expression):
            if not isinstance(node, exp.Column) or node.name.lower() != column.lower():
                continue
            if node.table and node.table.lower() not in aliases:
                continue
            other = eq.expression if node is eq.this else eq.this
            if isinstance(other, exp.Column):
                node.set("this", exp.to_identifier(new))
                return True
    return False


def plant_stand_in(ctx: PlantContext) -> Planted | None:
    """Write -1 into the first numeric result column's first row, recorded as its stand-in."""
    result = ctx.candidate.result
    if result is None or not result.rows:
        return None
    for index in range(len(result.columns)):
        values = [r[index] for r in result.rows]
        if numeric_cells([[v] for v in values]) and all(
            v is None or isinstance(v, (int, float)) for v in values
        ):
            rows = [list(r) for r in result.rows]
            rows[0][index] = -1
            changed = replace(result, rows=tuple(tuple(r) for r in rows))
            return Planted(
                replace(ctx.candidate, result=changed),
                {index: frozenset({-1})},
                f"row 0 of {result.columns[index]} -> -1",
            )
    return None


def plant_wrong_number(ctx: PlantContext) -> Planted | None:
    """Change one number in the written answer to a value in no returned row."""
    result = ctx.candidate.result
    text = ctx.candidate.text or write_answer(result)
    cells = numeric_cells(result.rows) if result else []
    count = result.row_count if result is not None else None
    for number in extract_numbers(text):
        if number.decimals == 0 and number.value in {1.0, 2.0, 3.0, 4.0, 5.0}:
            continue
        new = number.value + 7
        while cited_by(replace(number, value=new), cells, count):
            new += 7
        written = f"{new:.{number.decimals}f}"
        changed = text[: number.start] + written + text[number.start + len(number.text) :]
        return Planted(replace(ctx.candidate, text=changed), detail=f"{number.text} -> {written}")
    return None


_DATE = re.compile(r"^(\d{4})(-\d{2}-\d{2}.*)?$")


def plant_time_shift(ctx: PlantContext) -> Planted | None:
    """Shift a year or date literal in the filter by one year."""
    tree = _tree(ctx)
    where = tree.find(exp.Where) if tree is not None else None
    if tree is None or where is None:
        return None
    for literal in where.find_all(exp.Literal):
        match = _DATE.match(literal.name)
        if not match or not 1900 <= int(match.group(1)) <= 2100:
            continue
        shifted = f"{int(match.group(1)) + 1}{match.group(2) or ''}"
        new = exp.Literal.string(shifted) if literal.is_string else exp.Literal.number(shifted)
        literal.replace(new)
        return _with_sql(ctx, tree, f"{literal.name} -> {shifted}")
    return None


def plant_wrong_aggregate(ctx: PlantContext) -> Planted | None:
    """SUM <-> AVG, or COUNT <-> COUNT DISTINCT."""
    tree = _tree(ctx)
    if tree is None:
        return None
    for node in tree.find_all(exp.Sum, exp.Avg, exp.Count):
        if isinstance(node, exp.Sum):
            node.replace(exp.Avg(this=node.this))
            return _with_sql(ctx, tree, "SUM -> AVG")
        if isinstance(node, exp.Avg):
            node.replace(exp.Sum(this=node.this))
            return _with_sql(ctx, tree, "AVG -> SUM")
        inner = node.this
        if isinstance(inner, exp.Distinct):
            node.set("this", inner.expressions[0] if inner.expressions else exp.Star())
            return _with_sql(ctx, tree, "COUNT DISTINCT -> COUNT")
        if inner is not None and not isinstance(inner, exp.Star):
            node.set("this", exp.Distinct(expressions=[inner.copy()]))
            return _with_sql(ctx, tree, "COUNT -> COUNT DISTINCT")
    return None


_FLIP: dict[type[exp.Expr], type[exp.Binary]] = {
    exp.GT: exp.LT,
    exp.LT: exp.GT,
    exp.GTE: exp.LTE,
    exp.LTE: exp.GTE,
}


def plant_intent_flip(ctx: PlantContext) -> Planted | None:
    """Reverse the sort direction, swap MAX and MIN, or reverse a comparison."""
    tree = _tree(ctx)
    if tree is None:
        return None
    for ordered in tree.find_all(exp.Ordered):
        ordered.set("desc", not ordered.args.get("desc"))
        return _with_sql(ctx, tree, "sort direction flipped")
    for node in tree.find_all(exp.Max, exp.Min):
        swapped = exp.Min(this=node.this) if isinstance(node, exp.Max) else exp.Max(this=node.this)
        node.replace(swapped)
        return _with_sql(ctx, tree, "MAX <-> MIN")
    for cmp in tree.find_all(exp.GT, exp.LT, exp.GTE, exp.LTE):
        flipped = _FLIP[type(cmp)]
        cmp.replace(flipped(this=cmp.this, expression=cmp.expression))
        return _with_sql(ctx, tree, "comparison reversed")
    return None


def plant_partial(ctx: PlantContext) -> Planted | None:
    """Half the rows, or (for one row) the last column, left out."""
    result = ctx.candidate.result
    if result is None or not result.rows:
        return None
    if len(result.rows) >= 2:
        keep = result.rows[: len(result.rows) // 2]
        changed = Result(result.columns, keep, len(keep), False)
        return Planted(replace(ctx.candidate, result=changed, text=None), detail="half the rows")
    if len(result.columns) >= 2:
        changed = Result(result.columns[:-1], tuple(r[:-1] for r in result.rows), 1, False)
        return Planted(
            replace(ctx.candidate, result=changed, text=None), detail="last column dropped"
        )
    return None


FAULTS: dict[str, Fault] = {
    f.name: f
    for f in (
        Fault("fake_table", "veto.missing_table", plant_fake_table, True),
        Fault("bad_join", "veto.bad_join", plant_bad_join, True),
        Fault("stand_in", "veto.stand_in_returned", plant_stand_in, False),
        Fault("wrong_number", "cap.uncited_number", plant_wrong_number, False),
        # The question-SQL checks catch the kinds the paper left to a judge, where the question
        # says what was asked: the year it names, the quantity, the direction, the attributes.
        Fault("time_shift", "signal.literal_missing", plant_time_shift, True),
        Fault("wrong_aggregate", "signal.aggregate_mismatch", plant_wrong_aggregate, True),
        Fault(
            "intent_flip",
            "signal.ranking_mismatch",
            plant_intent_flip,
            True,
            ("signal.comparison_flipped",),
        ),
        # Half the rows left out has no deterministic check (only agreement sees it); a
        # dropped column does.
        Fault("partial_answer", "signal.projection_short", plant_partial, False),
    )
}
DETERMINISTIC_FAULTS = ("fake_table", "bad_join", "stand_in", "wrong_number")


def plant(
    kind: str, candidate: Candidate, *, dialect: str, catalog: Catalog, profiles: Profiles | None
) -> Planted | None:
    """Plant one fault of ``kind`` into sample 0, or ``None`` when it does not apply."""
    return FAULTS[kind].plant(PlantContext(candidate, dialect, catalog, profiles))
