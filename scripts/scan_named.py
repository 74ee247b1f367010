"""Fire the col15 readings (``assay.checks._named_fit``, ``_text_numbers``, ``_text_order``),
the checks that read stored values (``_coded.code_meaning``, ``_code_dropped.code_dropped``,
``_dropped.value_dropped``, ``_status_dropped.status_dropped``, ``_swapped.value_swapped``,
``_fuller_value.fuller_value_said``,
``_keyed.key_meaning``) and count16's
(``aggregate_fit`` with the database's profiles and the answer's rows, ``comparison_fit`` on
years said as ages),
dev20's ``twin_misread`` (a column read in place of its twin: ``_qualified``, ``_first_last``,
``_unit_summed``, ``_unasked_factor``) and ``date_keys_misread``,
agreed19's ``join_on_other_key``, ``average_of_ratios``, ``ranked_by_other_measure``,
``spelled_column_unread``, ``day_end_dropped`` and ``sum_fanned_out``, val26's
``columns_compared_backwards`` and ``bound_unasked``, try28's ``column_fit`` (its
word-for-word reading, abbreviations read in full), ``months_of_part``
and ``not_in_nulls``, try31's ``share_whole_dropped`` (a share's denominator dropping a
condition of the whole the question names), dev22d's ``reached_through_other_role`` (a place
said of a named table, reached through a table the question never names), agreed22's
``empty_groups_dropped`` ("include regions with none" and an inner join; tryout 36: "for each
category" and a derived list of the categories inner joined; ``aggregate_fit``
above reads its grouped repeats and counted totals), tryout 32's ``share_whole_joined`` (a
share's whole joined inner to a table only its part reads, losing rows: it reads the database,
so not on EHRSQL)
(a database's data: not on EHRSQL) (a join on another key
than the table's own, an overall rate averaged per row, a top-N ranked by a measure not named,
a column spelled by its initials and not read, a day's end dropped from timestamps, a sum over
a join that repeats its rows: the last two need a database, so not on EHRSQL), the whole
of ``grouping_fit``, ``literal_fit`` and ``table_fit`` (a time grain asked and another
grouped by; tryout 23: rows ranked by a total, a value compared on another table's attribute)
and of ``ranking_fit`` and ``result_shape`` (dev20: a top N kept by ROW_NUMBER, "X versus Y"),
agreed22's ``average_of_averages``, ``total_bound_on_rows`` and ``period_rows_averaged`` (one
average asked as an average of group averages, a bound on a total put on single rows, an
average per day over rows several to a day: the last needs a database, so not on EHRSQL),
flag20's ``code_unasked`` (an equality on a flag or a short code the question never says; it
reads stored values, so it runs with the stored-value checks) and ``sign_dropped`` ("a
positive account balance", ``c_acctbal`` never read)
and dev22a's ``growth_over_later`` (a change from one period to another divided by the later
period's value) and ``share_of_non_null`` (a share of all rows divided by ``COUNT(c)``, ``c``
holding NULLs: it reads the database, so not on EHRSQL)
and agreed23's ``date_part_impossible`` (a date part compared with a number it never takes),
``negation_on_rows`` ("never had a cancellation" as a row filter) and ``average_fanned_out``
(an average of a table's rows over a join that repeats them: it reads the database, so not on
EHRSQL)
on answers known right or wrong, with the loop of ``scan_conditions.py``: every firing on a
right answer is a false positive to read.

Usage:
    .venv/bin/python scripts/scan_named.py [--show]

Each reading is called directly, not through the check that hosts it (``ranking_fit`` adds the
direction problems only when it found none of its own; ``table_fit`` counts only when the
question's tables share a word with those read), so the counts are an upper bound. The number
readings need a database (``_text_order`` reruns the answer): they run on the Spider slice and
InterCode, not on EHRSQL (no database there). The stored-value checks run on EHRSQL against a
stand-in for its data: a column's values are the strings its gold SQL compares it with anywhere
in the set, and for the categorical columns of MIMIC-IV the values its documentation lists
(``_MIMIC``: gender 'f' and 'm', insurance, marital status, language, admission type). The
Spider slice was looked at while the readings were built (tuned on).
"""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from dataclasses import replace
from pathlib import Path

import scan_conditions as scan

from assay.catalog import Catalog, Profiles
from assay.checks import CheckContext
from assay.checks._averaged_averages import average_of_averages
from assay.checks._code_dropped import code_dropped
from assay.checks._coded import code_meaning
from assay.checks._column_order import columns_compared_backwards
from assay.checks._consistency import (
    _read,
    aggregate_fit,
    column_fit,
    comparison_fit,
    grouping_fit,
    literal_fit,
    ranking_fit,
    result_shape,
    table_fit,
)
from assay.checks._date_keys import date_keys_misread
from assay.checks._date_part_range import date_part_impossible
from assay.checks._day_end import day_end_dropped
from assay.checks._dropped import value_dropped
from assay.checks._empty_groups import empty_groups_dropped
from assay.checks._fuller_value import fuller_value_said
from assay.checks._growth_base import growth_over_later
from assay.checks._keyed import key_meaning
from assay.checks._loose_columns import columns_said_loosely
from assay.checks._named_fit import counted_elsewhere, direction_problems, one_word_columns
from assay.checks._negated_rows import negation_on_rows
from assay.checks._not_in_nulls import not_in_nulls
from assay.checks._other_key import join_on_other_key
from assay.checks._other_role import reached_through_other_role
from assay.checks._period_average import period_rows_averaged
from assay.checks._ranked_other import ranked_by_other_measure
from assay.checks._ratio_overall import average_of_ratios
from assay.checks._share_join import share_whole_joined
from assay.checks._share_of_non_null import share_of_non_null
from assay.checks._share_whole import share_whole_dropped
from assay.checks._sign_dropped import sign_dropped
from assay.checks._spelled_out import spelled_column_unread
from assay.checks._sql import parse_query
from assay.checks._status_dropped import status_dropped
from assay.checks._sum_fan_out import average_fanned_out, sum_fanned_out
from assay.checks._swapped import value_swapped
from assay.checks._text_numbers import numbers_in_text
from assay.checks._text_order import numbers_as_text
from assay.checks._total_bound import total_bound_on_rows
from assay.checks._twins import twin_misread
from assay.checks._unasked_bound import bound_unasked
from assay.checks._unasked_code import code_unasked
from assay.checks._values import _compared, _owner
from assay.checks._year_parts import months_of_part
from assay.errors import ExecutionFailed
from assay.types import Candidate, Result

_DBS: dict[int, Path] = {}
_catalog = scan._sqlite_catalog


def _remember(db: Path) -> Catalog:
    catalog = _catalog(db)
    _DBS[id(catalog)] = db
    return catalog


class _Runner:
    dialect = "sqlite"  # profile_column writes its SQL for it

    def __init__(self, db: Path) -> None:
        self.db = db

    def execute(self, sql: str, *, time_limit_ms: int, max_rows: int) -> Result:
        con = sqlite3.connect(self.db)
        con.text_factory = lambda b: b.decode(errors="replace")
        try:
            rows = con.execute(sql).fetchmany(max_rows)
        except sqlite3.Error as exc:  # as the connectors map it: a check's probe may fail
            raise ExecutionFailed(f"{exc} in {sql}") from exc
        finally:
            con.close()
        return Result(("v",), tuple(tuple(r) for r in rows), len(rows))


def _result(db: Path, sql: str) -> Result | None:
    """The answer's rows on SQLite, or ``None`` when the SQL fails there."""
    try:
        return _Runner(db).execute(sql, time_limit_ms=2_000, max_rows=1_000)
    except sqlite3.Error:
        return None


def _as_text(ctx: CheckContext, db: Path, sql: str) -> list[tuple[str, str]]:
    """``numbers_as_text`` on the answer's own rows (none when the SQL fails on SQLite)."""
    try:
        result = _Runner(db).execute(sql, time_limit_ms=2_000, max_rows=1_000)
    except sqlite3.Error:
        return []
    outcome = numbers_as_text(replace(ctx, candidate=Candidate(sql, result=result)))
    return [(f.code, f.message) for f in outcome.findings]


# MIMIC-IV's documented values of its short categorical columns (lower case, as EHRSQL stores)
_MIMIC = {
    ("patients", "gender"): {"f", "m"},
    ("admissions", "insurance"): {"medicaid", "medicare", "other"},
    ("admissions", "marital_status"): {"divorced", "married", "single", "widowed"},
    ("admissions", "language"): {"english", "?"},
    ("admissions", "admission_type"): {
        "ambulatory observation",
        "direct emer.",
        "direct observation",
        "elective",
        "eu observation",
        "ew emer.",
        "observation admit",
        "surgical same day admission",
        "urgent",
    },
}


class _GoldValues:
    """EHRSQL's stand-in data: answers the checks' ``SELECT DISTINCT "c" FROM "t"`` and
    ``SELECT "c", count(*) FROM (SELECT "c" FROM "t" ...) GROUP BY`` with the strings the set's
    gold SQL compares ``t.c`` with."""

    def __init__(self) -> None:
        self.values: dict[tuple[str, str], set[str]] = {k: set(v) for k, v in _MIMIC.items()}

    def learn(self, catalog: Catalog) -> None:
        root = scan.SHARED / "ehrsql-2024"
        for split in ("train", "valid"):
            if not (root / split).exists():
                continue
            for sql in json.loads((root / split / "label.json").read_text()).values():
                tree = parse_query(sql, "sqlite") if sql and sql != "null" else None
                for column, value in _compared(tree) if tree is not None else []:
                    owner = _owner(column, tree, catalog)
                    if owner is not None:
                        key = (owner[0].lower(), owner[1].lower())
                        self.values.setdefault(key, set()).add(value)

    def execute(self, sql: str, *, time_limit_ms: int, max_rows: int) -> Result:
        """Each value once (``DISTINCT``) or counted twice (``count(*)``: every value taken
        as stored in many rows, so every short column is a category)."""
        column = re.match(r'SELECT (DISTINCT )?"([^"]+)"(, count\(\*\))?', sql)
        table = re.search(r'FROM "([^"]+)"', sql)
        if column is None or table is None:
            return Result(("v",), (), 0)
        values = sorted(self.values.get((table.group(1).lower(), column.group(2).lower()), ()))
        rows = tuple((v, 2) if column.group(3) else (v,) for v in values)[:max_rows]
        return Result(("v",), rows, len(rows))


_GOLD = _GoldValues()


def _stored_value_checks(question: str, sql: str, catalog: Catalog) -> list[tuple[str, str]]:
    """code_meaning, code_dropped, value_dropped, status_dropped, value_swapped,
    fuller_value_said, key_meaning and code_unasked, on the database or on EHRSQL's stand-in."""
    db = _DBS.get(id(catalog))
    if db is None and len(_GOLD.values) == len(_MIMIC):
        _GOLD.learn(catalog)
    runner = _Runner(db) if db is not None else _GOLD
    ctx = CheckContext(
        question, Candidate(sql), "sqlite", catalog, profiles=Profiles(runner, catalog)
    )
    return [
        (f.code, f.message)
        for c in (
            code_meaning,
            code_dropped,
            value_dropped,
            status_dropped,  # agreed20: "still open", o_orderstatus never read
            value_swapped,
            fuller_value_said,  # agreed20: "regular air" as 'AIR', 'REG AIR' stored
            key_meaning,
            code_unasked,  # tryout 27: "singers from France" AND Is_male = 'T'
        )
        for f in c(ctx).findings
    ]


def _fired(question: str, sql: str, catalog: Catalog | None) -> list[tuple[str, str]]:
    tree = parse_query(sql, "sqlite")
    if tree is None or catalog is None:
        return []
    found = [(f.code, f.message) for f in one_word_columns(question, tree, catalog)]
    found += [(f.code, f.message) for f in columns_said_loosely(question, tree, catalog)]
    # dev20: a column read in place of its twin, and which of a table's dates is meant
    for reading in (twin_misread, date_keys_misread):
        found += [
            (f"{f.code} ({reading.__name__})", f.message) for f in reading(question, tree, catalog)
        ]
    found += _stored_value_checks(question, sql, catalog)
    ctx = CheckContext(question, Candidate(sql), "sqlite", catalog)
    read = _read(ctx)
    if read is not None:
        cues = read[0]
        wants_max = "max" in cues.aggregates and "min" not in cues.aggregates
        wants_min = "min" in cues.aggregates and "max" not in cues.aggregates
        for problem in direction_problems(question, tree, (wants_max, wants_min)):
            found.append(("signal.ranking_mismatch (direction)", problem))
    counted = counted_elsewhere(question, tree, catalog)
    if counted is not None:
        found.append((counted.code, counted.message))
    db = _DBS.get(id(catalog))
    if db is not None:
        profiled = CheckContext(
            question, Candidate(sql), "sqlite", catalog, profiles=Profiles(_Runner(db), catalog)
        )
        found += [(f.code, f.message) for f in numbers_in_text(profiled, tree, _owner)]
        found += _as_text(profiled, db, sql)
        found += [(f.code, f.message) for f in day_end_dropped(profiled).findings]
        found += [(f.code, f.message) for f in sum_fanned_out(profiled).findings]
        found += [(f.code, f.message) for f in average_fanned_out(profiled).findings]  # a23
        found += [(f.code, f.message) for f in not_in_nulls(profiled).findings]  # try28
        found += [(f.code, f.message) for f in period_rows_averaged(profiled).findings]
        found += [(f.code, f.message) for f in share_of_non_null(profiled).findings]  # dev22a
        found += [(f.code, f.message) for f in share_whole_joined(profiled).findings]  # try32
        # aggregate_fit reads which columns are keys from the profiles, and a count's own
        # value from the answer's rows (a join that repeats the counted rows: _fan_out)
        ctx = replace(profiled, candidate=Candidate(sql, result=_result(db, sql)))
    agreed19 = (
        join_on_other_key,
        average_of_ratios,
        ranked_by_other_measure,
        spelled_column_unread,
        columns_compared_backwards,  # val26: "shipped after commit" as commit > ship
        bound_unasked,  # val26: "clicks in total" with impressions > 8000
        sign_dropped,  # flag20: "a positive account balance", c_acctbal never read
        months_of_part,  # try28: "the first half" as months 1 to 7
        average_of_averages,  # agreed22: "the overall average" as an average of averages
        total_bound_on_rows,  # agreed22: "more than 5,000 in total" on single rows
        share_whole_dropped,  # try31: a share's denominator drops the whole's year
        growth_over_later,  # dev22a: growth from 1999 to 2000 over 2000's value
        reached_through_other_role,  # dev22d: "German suppliers" reached through the customer
        empty_groups_dropped,  # agreed22: "include regions with none", an inner join
        date_part_impossible,  # agreed23: dayofweek(d) IN (6, 7), 7 no day
        negation_on_rows,  # agreed23: "never had a cancellation" as <> 'cancellation'
    )
    for check in (aggregate_fit, comparison_fit, *agreed19):
        found += [(f.code, f.message) for f in check(ctx).findings]
    # whole checks, tagged: counted_elsewhere is above
    for check in (grouping_fit, table_fit, literal_fit, ranking_fit, result_shape, column_fit):
        found += [(f"{f.code} ({check.__name__})", f.message) for f in check(ctx).findings]
    return found


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    scan._sqlite_catalog = _remember
    scan._fired = _fired
    scan.main()
