"""``CHECKS``: the one ordered registry of checks over sample 0, each a small pure function of
the one ``CheckContext``.

The semantic-layer checks of ``_verify`` run first (the plan's fit to the reading, required
filters, period, impossible values, stand-ins in the aggregate; they measure nothing for a
sampled answer, which carries no reading). Codes are stable: ``veto.missing_table``,
``veto.bad_join``, ``veto.stand_in_returned``, ``cap.uncited_number``, ``cap.unsupported_claim``,
``cap.incomplete``, ``cap.thin_evidence``, ``signal.empty_result``, ``signal.zero_count`` (a
lone count of 0),
``veto.groups_do_not_add_up`` (a breakdown whose groups miss or repeat rows of the total),
``cap.limit_cuts_tie`` (the row after a LIMIT ties the last row kept),
``note.unsupported_commentary``, ``note.judge_issue``, ``note.text_terms_absent``,
``veto.garbled_answer`` (a written answer showing None or a raw float),
``signal.code_flipped`` (the question asks for one sex, marital status or flag state, the
SQL's code selects another: ``_coded``), ``signal.code_dropped`` (the question asks for one
sex and the SQL never reads the column coding it: ``_code_dropped``),
``signal.value_dropped`` (a stored value the question says and the SQL drops: ``_dropped``),
``signal.status_dropped`` ("still open" asked, ``o_orderstatus`` coding it 'O' never read:
``_status_dropped``),
``signal.value_swapped`` (the SQL compares a column with a stored value the question never says,
in place of the one it does say, or a one-letter code other than the initial of the status
word it says, "returned" as ``l_returnflag = 'A'``: ``_swapped``, ``_status_code``),
``signal.fuller_value_said`` ("regular air" asked, ``l_shipmode = 'AIR'`` compared while 'REG
AIR' is stored: ``_fuller_value``),
``signal.columns_compared_backwards`` ("shipped after their commit date" as ``l_commitdate >
l_shipdate``; "sold below the list price" as ``ws_list_price < ws_sales_price``:
``_column_order``),
``signal.bound_unasked`` (a column the question never names bounded by a number it never says:
``_unasked_bound``), ``signal.code_unasked`` (an equality on a flag or a short code the question
says nothing of: ``_unasked_code``), ``signal.sign_dropped`` (a sign the question asks of a
column, "a positive account balance", the SQL never reading it: ``_sign_dropped``),
``signal.not_in_nulls`` (``NOT IN`` a subquery that returns a NULL: ``_not_in_nulls``),
``signal.months_of_part`` ("the first half of 2000" as months 1 to 7: ``_year_parts``),
``signal.average_of_averages`` (one average asked, per-group averages averaged:
``_averaged_averages``), ``signal.period_rows_averaged`` ("the average daily sales" as the
average of rows, several to a day: ``_period_average``), ``signal.total_bound_on_rows``
("spent more than 5,000 in total" as a WHERE on single rows: ``_total_bound``),
``signal.share_of_non_null`` (a share of all rows divided by ``COUNT(c)``, ``c`` holding NULLs:
``_share_of_non_null``), ``signal.growth_over_later`` (a change from one period to another
divided by the later period's value: ``_growth_base``),
``signal.average_fanned_out`` (an average over a table's rows taken over a join that repeats
them: ``_sum_fan_out``), ``signal.date_part_impossible`` (a date part compared with a number it
never takes, ``dayofweek(d) IN (6, 7)`` on DuckDB: ``_date_part_range``),
``signal.negation_on_rows`` ("customers who never had a cancellation" as a row filter ``<>
'cancellation'``: ``_negated_rows``),
``signal.empty_groups_dropped`` ("include regions with none", or every group named and a list
of them, and an inner join that drops them: ``_empty_groups``),
``signal.share_whole_joined`` (a share's whole joined inner to a table only its part reads,
losing rows: ``_share_join``),
``signal.key_misread`` (a foreign key compared with the number of another row than the one the
question names: ``_keyed``), ``signal.date_join`` (two tables joined on their dates alone while
they share a key: ``_date_joins``), ``signal.reached_through_other_role`` (a place said of a named
table reached through another's key: ``_other_role``), ``veto.check_failed`` (a check that raised),
``veto.check_timed_out`` (a check's query ran past its time limit), the layer codes of ``_verify``
and the question-SQL codes of ``_consistency`` and ``_values``; each code is emitted by one check
only.
Measured shares (``g_tab``, ``g_join``, ``g_val``, ``schema``, ``complete``) feed the designed
score; ``thin_evidence`` runs last and reads them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from sqlglot import exp

from assay.checks._averaged_averages import average_of_averages
from assay.checks._code_dropped import code_dropped
from assay.checks._coded import code_meaning
from assay.checks._column_order import columns_compared_backwards
from assay.checks._compared_spans import partial_comparison
from assay.checks._conditions import CONDITION_CHECKS
from assay.checks._consistency import QUESTION_CHECKS
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._cues import read_cues
from assay.checks._date_joins import date_join
from assay.checks._date_part_range import date_part_impossible
from assay.checks._dropped import value_dropped
from assay.checks._empty_groups import empty_groups_dropped
from assay.checks._fuller_value import fuller_value_said
from assay.checks._growth_base import growth_over_later
from assay.checks._keyed import key_meaning
from assay.checks._negated_rows import negation_on_rows
from assay.checks._not_in_nulls import not_in_nulls
from assay.checks._numbers import cited_by, extract_numbers, numeric_cells
from assay.checks._other_key import join_on_other_key
from assay.checks._other_role import reached_through_other_role
from assay.checks._partial_keys import partial_key_join
from assay.checks._period_average import period_rows_averaged
from assay.checks._ranked_buckets import partial_ranking
from assay.checks._ranked_other import ranked_by_other_measure
from assay.checks._ratio_overall import average_of_ratios
from assay.checks._share_join import share_whole_joined
from assay.checks._share_of_non_null import share_of_non_null
from assay.checks._share_whole import share_whole_dropped
from assay.checks._sign_dropped import sign_dropped
from assay.checks._spelled_out import spelled_column_unread
from assay.checks._sql import equi_join_pairs, output_sources, parse_query, referenced_tables
from assay.checks._status_dropped import status_dropped
from assay.checks._sum_fan_out import average_fanned_out, sum_fanned_out
from assay.checks._swapped import value_swapped
from assay.checks._text_order import numbers_as_text
from assay.checks._ties import limit_cuts_tie
from assay.checks._total_bound import total_bound_on_rows
from assay.checks._totals import groups_add_up
from assay.checks._unasked_bound import bound_unasked
from assay.checks._unasked_code import code_unasked
from assay.checks._values import literal_in_data
from assay.checks._verify import LAYER_CHECKS, PLAN_CHECKS
from assay.checks._year_parts import months_of_part
from assay.errors import ExecutionError, ExecutionTimeout
from assay.types import Finding

__all__ = [
    "CHECKS",
    "JOIN_MIN_OVERLAP",
    "PLAN_CHECKS",
    "RESULT_SIGNALS",
    "Check",
    "CheckReport",
    "run_checks",
]

Check = Callable[[CheckContext], CheckOutcome]
JOIN_MIN_OVERLAP = 0.85
IGNORED_INTEGERS = frozenset({1.0, 2.0, 3.0, 4.0, 5.0})
# Signals on the result built after the paper: assay-1.0 caps on them when the samples split,
# v3 does not count them.
RESULT_SIGNALS = ("signal.zero_count",)


def _queries(ctx: CheckContext) -> list[str]:
    queries = list(ctx.candidate.queries)
    final = ctx.candidate.final_sql
    if final and final not in queries:
        queries.append(final)
    return queries


def tables_exist(ctx: CheckContext) -> CheckOutcome:
    """g_tab: the share of parsed queries whose tables all exist."""
    if ctx.catalog is None:
        return CheckOutcome(measures={"g_tab": None})
    parsed = [(q, parse_query(q, ctx.dialect)) for q in _queries(ctx)]
    parsed = [(q, t) for q, t in parsed if t is not None]
    if not parsed:
        return CheckOutcome(measures={"g_tab": None})
    findings = []
    good = 0
    for index, (query, tree) in enumerate(parsed):
        assert tree is not None
        missing = [t for t in referenced_tables(tree) if ctx.catalog.table(t) is None]
        if not missing:
            good += 1
        for table in missing:
            findings.append(
                Finding(
                    "veto.missing_table",
                    "veto",
                    f"Table {table!r} does not exist in the database.",
                    {"table": table, "query_index": index, "query": query},
                )
            )
    return CheckOutcome(tuple(findings), {"g_tab": good / len(parsed)})


def join_readiness(ctx: CheckContext) -> CheckOutcome:
    """g_join: the share of equi-join column pairs whose key overlap rho is at least 0.85."""
    if ctx.catalog is None or ctx.profiles is None:
        return CheckOutcome(measures={"g_join": None})
    pairs = set()
    for query in _queries(ctx):
        tree = parse_query(query, ctx.dialect)
        if tree is not None:
            pairs.update(equi_join_pairs(tree, ctx.catalog))
    if not pairs:
        return CheckOutcome(measures={"g_join": None})
    # A layer join whose unmatched rows were counted at import (``unmatched``): its overlap is
    # low for that known reason, and the guard lets it into a query only where a filter keeps
    # the right table to values, which no unmatched row passes. Not measured here.
    known: set[tuple[str, str, str, str]] = set()
    for j in ctx.layer.joins if ctx.layer is not None else ():
        if j.unmatched:
            (lt, lc), (rt, rc) = j.left.lower().split(".", 1), j.right.lower().split(".", 1)
            known |= {(lt, lc, rt, rc), (rt, rc, lt, lc)}
    findings = []
    good = 0
    measured = 0
    for left, right in sorted(pairs):
        if (left[0].lower(), left[1].lower(), right[0].lower(), right[1].lower()) in known:
            continue
        try:
            overlap = ctx.profiles.overlap(left, right)
        except ExecutionError:
            overlap = None
        if overlap is None:
            continue
        measured += 1
        if overlap.rho >= JOIN_MIN_OVERLAP:
            good += 1
            continue
        findings.append(
            Finding(
                "veto.bad_join",
                "veto",
                f"Join {left[0]}.{left[1]} = {right[0]}.{right[1]} has key overlap "
                f"{overlap.rho:.2f}, below {JOIN_MIN_OVERLAP} in both directions.",
                {
                    "left": ".".join(left),
                    "right": ".".join(right),
                    "rho": round(overlap.rho, 4),
                    "n_left": overlap.n_left,
                    "n_right": overlap.n_right,
                    "n_both": overlap.n_both,
                },
            )
        )
    return CheckOutcome(tuple(findings), {"g_join": good / measured if measured else None})


def _stand_ins_by_column(ctx: CheckContext) -> dict[int, frozenset[Any]]:
    codes: dict[int, frozenset[Any]] = {i: frozenset(v) for i, v in ctx.recorded_stand_ins.items()}
    if ctx.catalog is None or ctx.profiles is None or not ctx.candidate.final_sql:
        return codes
    tree = parse_query(ctx.candidate.final_sql, ctx.dialect)
    if tree is None:
        return codes
    for index, source in enumerate(output_sources(tree, ctx.catalog)):
        if source is None:
            continue
        try:
            profile = ctx.profiles.profile(*source)
        except ExecutionError:
            continue
        if profile is not None and profile.stand_ins:
            codes[index] = codes.get(index, frozenset()) | profile.stand_in_values
    return codes


def _key(value: Any) -> Any:
    """Compare codes as numbers when they are numbers (-1 == -1.0 == Decimal('-1'))."""
    if isinstance(value, bool) or value is None:
        return value
    try:
        return float(value)
    except (TypeError, ValueError):
        return str(value)[:10]  # dates compare on their first ten characters


def stand_in_values(ctx: CheckContext) -> CheckOutcome:
    """g_val: of the returned columns that carry a stand-in code, the share returning none."""
    result = ctx.candidate.result
    if result is None:
        return CheckOutcome(measures={"g_val": None})
    by_column = _stand_ins_by_column(ctx)
    if not by_column:
        return CheckOutcome(measures={"g_val": None})
    findings = []
    clean = 0
    for index, codes in sorted(by_column.items()):
        wanted = {_key(c) for c in codes}
        hits = [
            row[index] for row in result.rows if index < len(row) and _key(row[index]) in wanted
        ]
        if not hits:
            clean += 1
            continue
        name = result.columns[index] if index < len(result.columns) else str(index)
        findings.append(
            Finding(
                "veto.stand_in_returned",
                "veto",
                f"Column {name!r} returns the stand-in code {hits[0]} as if it were a value "
                f"({len(hits)} of {len(result.rows)} rows).",
                {"column": name, "code": hits[0], "rows": len(hits)},
            )
        )
    return CheckOutcome(tuple(findings), {"g_val": clean / len(by_column)})


def numbers_cited(ctx: CheckContext) -> CheckOutcome:
    """SCHEMA: every number in the written answer must be a returned cell (or x100, or the row
    count); 1 when at least one is cited, unmeasured otherwise."""
    text = ctx.candidate.text
    if not text:
        return CheckOutcome(measures={"schema": None})
    result = ctx.candidate.result
    cells = numeric_cells(result.rows) if result else []
    row_count = None
    if result is not None:
        row_count = result.row_count if result.row_count is not None else len(result.rows)
    ignored = {n.value for n in extract_numbers(f"{ctx.question} {ctx.hint}")}
    # A number copied out of a text cell ("Product 12") is cited by that cell.
    texts = [v for row in (result.rows if result else ()) for v in row if isinstance(v, str)]
    cited = 0
    findings = []
    for number in extract_numbers(text):
        if number.value in ignored or (number.decimals == 0 and number.value in IGNORED_INTEGERS):
            continue
        if cited_by(number, cells, row_count) or any(number.text in t for t in texts):
            cited += 1
            continue
        findings.append(
            Finding(
                "cap.uncited_number",
                "cap",
                f"The answer says {number.text}, which no returned cell, cell x 100, or row count "
                "supports.",
                {"number": number.text, "position": number.start},
            )
        )
    return CheckOutcome(tuple(findings), {"schema": 1.0 if cited else None})


# What a governed answer must never show: Python's None, a float's raw repr (binary
# artefacts such as 1056956.0399999998, exponents) or a NaN/infinity. An exponent stands alone:
# '6e9' inside a key (the UUID 9d0a-46e9-b2f1) is part of a value, not a float's repr (it
# withheld an SMG per-customer answer whenever unordered rows put such a key in the text).
_GARBLED = re.compile(
    r"(?<![\w-])None(?![\w-])|(?<![\w.])\d+\.\d{6,}(?!\w)"
    r"|(?<![\w.-])-?\d(?:\.\d+)?e[+-]?\d+(?![\w-])"
    r"|(?<![\w-])(?:nan|NaN|inf|-inf)(?![\w-])"
)


def answer_well_formed(ctx: CheckContext) -> CheckOutcome:
    """A written answer from the governed path (one with a reading) states no ``None``, no
    raw float repr and no NaN: a sentence that shows one was put together wrong (two metrics
    written as one, found by an outside user), so it is vetoed rather than shown."""
    text = ctx.candidate.text
    if ctx.reading is None or not text:
        return CheckOutcome()
    found = [m.group(0) for m in _GARBLED.finditer(text)]
    if not found:
        return CheckOutcome()
    return CheckOutcome(
        (
            Finding(
                "veto.garbled_answer",
                "veto",
                f"The written answer shows {', '.join(repr(f) for f in found[:3])}, which no "
                "answer may show; it was put together wrong.",
                {"found": found[:3]},
            ),
        )
    )


def judge_findings(ctx: CheckContext) -> CheckOutcome:
    """COMPLETE and unsupported claims, from a judge that never saw a reference answer; without
    a judge, COMPLETE is the reading fit's (measured before, for a planned answer) or unmeasured.
    A COMPLETE below one half is ``cap.incomplete`` whichever measured it."""
    judge = ctx.judge
    if judge is None:
        complete = ctx.measures.get("complete")
        return CheckOutcome(_incomplete(complete), {"complete": complete})
    findings = []
    for claim in judge.claims:
        if claim.supported:
            continue
        if claim.about == "answer":
            findings.append(
                Finding(
                    "cap.unsupported_claim",
                    "cap",
                    f"Unsupported claim about the answer: {claim.text}",
                    {"claim": claim.text, "judge": judge.source},
                )
            )
        else:
            findings.append(
                Finding(
                    "note.unsupported_commentary",
                    "note",
                    f"Unsupported claim in commentary: {claim.text}",
                    {"claim": claim.text, "judge": judge.source},
                )
            )
    for issue in judge.issues:
        findings.append(
            Finding(
                "note.judge_issue",
                "note",
                f"Judge: {issue.kind} ({issue.about}). {issue.message}".strip(),
                {"kind": issue.kind, "about": issue.about},
            )
        )
    findings.extend(_incomplete(judge.complete))
    return CheckOutcome(tuple(findings), {"complete": judge.complete})


def _incomplete(complete: float | None) -> tuple[Finding, ...]:
    if complete is None or complete >= 0.5:
        return ()
    return (
        Finding(
            "cap.incomplete",
            "cap",
            f"The answer covers {complete:.0%} of the question's parts.",
            {"complete": complete},
        ),
    )


def empty_result(ctx: CheckContext) -> CheckOutcome:
    """The v3 signal: the final query returned no rows; for a planned metric (its value the last
    column), also a result whose values are all NULL: there is nothing to report."""
    result = ctx.candidate.result
    if result is None or result.truncated:
        return CheckOutcome()
    if not result.rows:
        message = "The final query returned no rows."
    elif ctx.metric is not None and all(v is None for row in result.rows for v in row[-1:]):
        message = f"The query returned only NULL for {ctx.metric.label}: nothing to report."
    else:
        return CheckOutcome()
    return CheckOutcome((Finding("signal.empty_result", "signal", message, {}),))


def zero_count(ctx: CheckContext) -> CheckOutcome:
    """``signal.zero_count``: the answer is one number, 0, counted or added up ("how many cars
    ... larger than ...?" answered 0 by different wrong queries that agree only on 0; outside
    tryout 17, Spider dev 159/160, gold 39). A true zero exists (4 of the slice's 179 gold
    answers), so assay-1.0 caps it at a warning, and only when another sample counted
    otherwise."""
    result = ctx.candidate.result
    sql = ctx.candidate.final_sql
    if result is None or result.truncated or len(result.rows) != 1 or len(result.rows[0]) != 1:
        return CheckOutcome()
    value = result.rows[0][0]
    if isinstance(value, bool) or not isinstance(value, int | float) or value != 0:
        return CheckOutcome()
    tree = parse_query(sql, ctx.dialect) if sql else None
    counted = isinstance(tree, exp.Select) and any(
        p.find(exp.Count, exp.Sum) is not None for p in tree.expressions
    )
    if not counted and "count" not in read_cues(ctx.question).aggregates:
        return CheckOutcome()
    return CheckOutcome(
        (
            Finding(
                "signal.zero_count",
                "signal",
                "The answer is a count of 0: nothing matched the query's conditions, which is "
                "also what a misread condition or value gives.",
                {},
            ),
        )
    )


def grounded(measures: dict[str, float | None] | Any) -> float | None:
    parts = [measures.get(k) for k in ("g_tab", "g_join", "g_val")]
    defined = [p for p in parts if p is not None]
    return sum(defined) / len(defined) if defined else None


def thin_evidence(ctx: CheckContext) -> CheckOutcome:
    """Evidence is thin when measurable evidence is missing: GROUNDED unmeasured, or fewer than
    three of the applicable designed terms measured. SAFETY is always measured (its checklist L1
    runs on every answer); RETRIEVE never is. For an SQL-only sample (no written text, no judge)
    SCHEMA and COMPLETE cannot be measured by construction: they leave the denominator, and a
    ``note.text_terms_absent`` says so in the verdict."""
    sql_only = not ctx.candidate.text and ctx.judge is None and ctx.reading is None
    measured = {
        "GROUNDED": grounded(ctx.measures) is not None,
        "SCHEMA": ctx.measures.get("schema") is not None,
        "SAFETY": True,
        "COMPLETE": ctx.measures.get("complete") is not None,
    }
    findings: list[Finding] = []
    if sql_only:
        del measured["SCHEMA"], measured["COMPLETE"]
        findings.append(
            Finding(
                "note.text_terms_absent",
                "note",
                "SQL-only sample: SCHEMA and COMPLETE need written text, so they are left out "
                "of the score's denominator (not counted as missing evidence).",
                {"absent": "SCHEMA, COMPLETE"},
            )
        )
    count = sum(measured.values())
    if measured["GROUNDED"] and count >= min(3, len(measured)):
        return CheckOutcome(tuple(findings))
    missing = ", ".join(k for k, v in measured.items() if not v)
    findings.append(
        Finding(
            "cap.thin_evidence",
            "cap",
            f"Evidence is thin: {count} of the {len(measured)} applicable terms measured "
            f"(unmeasured: {missing}).",
            {"measured": count, "applicable": len(measured), "unmeasured": missing},
        )
    )
    return CheckOutcome(tuple(findings))


CHECKS: tuple[Check, ...] = (
    *PLAN_CHECKS,
    *LAYER_CHECKS,
    partial_comparison,
    partial_ranking,
    tables_exist,
    join_readiness,
    stand_in_values,
    numbers_cited,
    answer_well_formed,
    judge_findings,
    empty_result,
    zero_count,
    groups_add_up,
    limit_cuts_tie,
    *QUESTION_CHECKS,
    *CONDITION_CHECKS,
    partial_key_join,
    date_join,
    reached_through_other_role,
    join_on_other_key,
    average_of_ratios,
    share_whole_dropped,
    share_whole_joined,
    ranked_by_other_measure,
    sum_fanned_out,
    average_fanned_out,
    spelled_column_unread,
    literal_in_data,
    numbers_as_text,
    code_meaning,
    code_dropped,
    value_dropped,
    status_dropped,
    value_swapped,
    fuller_value_said,
    columns_compared_backwards,
    bound_unasked,
    code_unasked,
    sign_dropped,
    key_meaning,
    not_in_nulls,
    months_of_part,
    average_of_averages,
    period_rows_averaged,
    total_bound_on_rows,
    share_of_non_null,
    growth_over_later,
    date_part_impossible,
    negation_on_rows,
    empty_groups_dropped,
    thin_evidence,
)


@dataclass(frozen=True)
class CheckReport:
    """Every finding in registry order, every measured share, and the checks' details."""

    findings: tuple[Finding, ...]
    measures: dict[str, float | None]
    details: dict[str, Any] = field(default_factory=dict)

    def codes(self) -> tuple[str, ...]:
        return tuple(f.code for f in self.findings)


def _timed_out(check: Check, exc: ExecutionTimeout) -> Finding:
    """``veto.check_timed_out``: a check's own query ran past its time limit (a busy machine
    or a slow database, not a fault found in the answer). Fail closed: the answer was not
    checked, so it is withheld, and the reason says that time ran out, and which limit."""
    name = getattr(check, "__name__", repr(check))
    limit = exc.details.get("time_limit_ms")
    within = f"its time limit of {limit:,} ms" if isinstance(limit, int) else "its time limit"
    return Finding(
        "veto.check_timed_out",
        "veto",
        f"The check {name!r} did not finish within {within}: the answer was not checked, so "
        "it is withheld. The machine or the database was slow; asking again may answer it.",
        {"check": name, "error": type(exc).__name__, "time_limit_ms": limit},
    )


def run_checks(ctx: CheckContext, checks: tuple[Check, ...] = CHECKS) -> CheckReport:
    """Run the registry in order, each check seeing the shares measured before it.

    A check that raises is a finding, never a crash: ``veto.check_failed`` names the check and
    the exception (fail closed: a check that could not run withholds), and the others still run.
    A check whose query ran past its time limit is ``veto.check_timed_out``, naming the limit.
    """
    findings: list[Finding] = []
    measures: dict[str, float | None] = {}
    details: dict[str, Any] = {}
    # One context for all checks, reading the shares measured so far through a read-only view.
    ctx = replace(ctx, measures=MappingProxyType(measures))
    for check in checks:
        try:
            outcome = check(ctx)
        except ExecutionTimeout as exc:  # slow, not wrong: said so, and still withheld
            findings.append(_timed_out(check, exc))
            continue
        except Exception as exc:  # any failure of one check is that check's finding
            name = getattr(check, "__name__", repr(check))
            findings.append(
                Finding(
                    "veto.check_failed",
                    "veto",
                    f"The check {name!r} could not run: {type(exc).__name__}: {str(exc)[:200]}.",
                    {"check": name, "error": type(exc).__name__},
                )
            )
            continue
        findings.extend(outcome.findings)
        measures.update(outcome.measures)
        details.update(outcome.details)
    return CheckReport(tuple(findings), dict(measures), details)
