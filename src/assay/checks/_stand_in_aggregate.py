"""``stand_in_in_aggregate``: does the answer's aggregate take a stand-in code as a value?

A column can hold a stand-in code such as ``-1`` or ``9999-12-31`` "that a sum treats as a
value" (governed-score paper, section 1.3, one of the failures "too serious to average away";
a stand-in returned as a value is a veto, equation 5). The metric's definition names the
columns it aggregates; the profile names their codes. Whether the codes reach this answer is
measured in the engine: the executed query's own FROM and WHERE (the period, the filters, the
metric's required filters), counting the rows whose column holds a code.

- A value aggregate (``AVG``, ``SUM``, ``MIN``, ``MAX``, any aggregate but ``COUNT``) over such
  rows gives a number that means nothing (an average delivery of 160 years): it is
  ``veto.stand_in_in_aggregate`` and withheld, naming the code, the rows and the fix (a
  required filter in the layer that excludes the code). The stand-ins are never dropped
  silently: excluding them is the layer's decision, not the checker's.
- A ``COUNT`` over such rows still counts real rows (the rows whose value is unknown among
  them), and a column that only tests which rows are taken (``CASE WHEN col ...``) is not
  aggregated as a value: ``cap.stand_in_in_aggregate`` warns.
- No such row in the answer's rows (a period or a required filter keeps none): no finding.
- A probe that cannot be built (no query block aggregating the column) fails closed: the veto
  (or, for a count, the cap) with the reason; one that fails in the engine raises, and the
  registry withholds (``veto.check_failed`` / ``veto.check_timed_out``).
"""

from __future__ import annotations

from typing import Any

import sqlglot
from sqlglot import exp

from assay.catalog import ColumnProfile
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._sql import in_condition
from assay.errors import ExecutionError
from assay.types import Finding

__all__ = ["stand_in_in_aggregate"]

TIME_LIMIT_MS = 5_000


def _literal(value: Any, profile: ColumnProfile) -> exp.Expr:
    if isinstance(value, str):
        kind = next((k for k in ("DATE", "TIMESTAMP") if profile.type.upper().startswith(k)), None)
        literal = exp.Literal.string(value)
        return exp.cast(literal, kind) if kind else literal
    return exp.convert(value)


def _holds_code(column: exp.Column, profile: ColumnProfile) -> exp.Expr:
    """The column holds one of its codes, matched as the profile found them (a date code on
    the first ten characters of the value as text, so a timestamp at any time of that day)."""
    texts = [exp.Literal.string(s.value) for s in profile.stand_ins if isinstance(s.value, str)]
    numbers = [exp.convert(s.value) for s in profile.stand_ins if not isinstance(s.value, str)]
    tests: list[exp.Expr] = []
    if texts:
        text = exp.cast(column.copy(), "VARCHAR")
        day = exp.Substring(this=text, start=exp.convert(1), length=exp.convert(10))
        tests.append(exp.In(this=day, expressions=texts))
    if numbers:
        tests.append(exp.In(this=column.copy(), expressions=numbers))
    return exp.or_(*tests) if len(tests) > 1 else tests[0]


def _sources(select: exp.Select) -> dict[str, str]:
    """The tables read directly by one query block: alias (or name) -> table name, lower."""
    out: dict[str, str] = {}
    nodes = [select.args.get("from_") or select.args.get("from")]
    nodes += list(select.args.get("joins") or [])
    for node in nodes:
        table = node.this if node is not None else None
        if isinstance(table, exp.Table):
            out[table.alias_or_name.lower()] = table.name.lower()
    return out


def _stand_in_rows(
    ctx: CheckContext, table: str, column: str, profile: ColumnProfile
) -> int | None:
    """Rows aggregated by the executed query whose ``table.column`` holds a stand-in code,
    summed over the query blocks that aggregate it; ``None`` when no block does."""
    assert ctx.profiles is not None
    tree = sqlglot.parse_one(ctx.candidate.final_sql or "", read=ctx.dialect)
    with_ = tree.args.get("with_") or tree.args.get("with")
    total: int | None = None
    for select in tree.find_all(exp.Select):
        sources = _sources(select)
        refs = [
            c
            for c in select.find_all(exp.Column)
            if c.name.lower() == column.lower()
            and c.find_ancestor(exp.AggFunc) is not None
            and c.find_ancestor(exp.Select) is select
            and (
                sources.get(c.table.lower()) == table.lower()
                if c.table
                else list(sources.values()) == [table.lower()]
            )
        ]
        if not refs:
            continue
        probe = select.copy()
        for arg in ("group", "having", "order", "limit", "offset", "qualify", "distinct"):
            probe.set(arg, None)
        probe.set("expressions", [exp.Count(this=exp.Star())])
        probe = probe.where(_holds_code(refs[0], profile), copy=False)
        if with_ is not None and probe.args.get("with_") is None and select is not tree:
            probe.set("with_", with_.copy())
        sql = probe.sql(dialect=ctx.dialect)
        rows = ctx.profiles.runner.execute(sql, time_limit_ms=TIME_LIMIT_MS, max_rows=1).rows
        total = (total or 0) + int(rows[0][0] or 0)
    return total


def stand_in_in_aggregate(ctx: CheckContext) -> CheckOutcome:
    """A column of the metric's definition holding stand-in codes, aggregated over rows of this
    answer that hold them: a veto for a value aggregate, a cap for a count (module docstring)."""
    metric = ctx.metric
    if metric is None or ctx.profiles is None or ctx.candidate.result is None:
        return CheckOutcome()
    tree = sqlglot.parse_one(metric.expression, read="duckdb")
    found: list[Finding] = []
    seen: set[tuple[str, str]] = set()
    for column in tree.find_all(exp.Column):
        key = (column.table.lower(), column.name.lower())
        if key in seen:
            continue
        seen.add(key)
        try:
            profile = ctx.profiles.profile(column.table, column.name)
        except ExecutionError:
            continue
        if profile is None or not profile.stand_ins:
            continue
        agg = column.find_ancestor(exp.AggFunc)
        # counted, or only testing which rows are taken (CASE WHEN col ...): not a value
        counted = isinstance(agg, exp.Count) or (agg is not None and in_condition(column, agg))
        rows = _stand_in_rows(ctx, column.table, column.name, profile)
        if rows == 0:
            continue  # the answer's own rows hold none (a period or a filter keeps them out)
        found.append(_finding(ctx, column, profile, rows, counted))
    return CheckOutcome(tuple(found))


def _finding(
    ctx: CheckContext, column: exp.Column, profile: ColumnProfile, rows: int | None, counted: bool
) -> Finding:
    assert ctx.metric is not None
    metric, name = ctx.metric, f"{column.table}.{column.name}"
    codes = ", ".join(str(s.value) for s in profile.stand_ins)
    where = (
        f"{rows:,} of the rows it aggregates hold them"
        if rows is not None
        else "whether this answer's rows hold them could not be measured"
    )
    evidence: dict[str, Any] = {"column": name, "codes": codes, "rows": rows}
    if counted:
        return Finding(
            "cap.stand_in_in_aggregate",
            "cap",
            f"{name} holds stand-in codes ({codes}) for unknown values and {where}: "
            f"{metric.label} counts them as values.",
            evidence,
        )
    excluded = " AND ".join(
        f"{name} <> {_literal(s.value, profile).sql(dialect='duckdb')}" for s in profile.stand_ins
    )
    return Finding(
        "veto.stand_in_in_aggregate",
        "veto",
        f"{name} holds stand-in codes ({codes}) for unknown values and {where}: {metric.label} "
        f"({metric.expression}) takes them as values, so the number means nothing. Withheld; "
        f"to answer without them, add {excluded} to the metric's required_filters in the "
        "semantic layer.",
        {**evidence, "fix": excluded},
    )
