"""A time grain asked ("per year") against the one the SQL groups by (a month).

"What was the total store sales net paid per year?" as ``GROUP BY d_moy`` returns twelve
month-of-year rows, not one row a year: five samples agreeing on it were shown at 1.00 (outside
tryout 23). The question's grain is read from "per / by / each / every / for each" before year,
quarter, month, week or day, or from "yearly", "annual", "quarterly", "monthly", "weekly",
"daily"; the SQL's from each GROUP BY expression: a function of a date (``year(d)``,
``EXTRACT(MONTH FROM d)``, ``date_trunc('quarter', d)``, ``strftime('%Y', d)``) or a column
whose name says its grain (``d_year``, ``d_moy``, ``d_qoy``, ``d_dom``, ``Year``, ``order_date``).
When the SQL groups by a time grain and by none the question asks, ``grain_mismatch`` names both.

Silent when the question asks no grain or "day of the week" (a weekday is no day), when no
grouped expression has a grain, and when one of them is the one asked (``GROUP BY d_year,
d_moy`` for "per year"): never evidence of a right answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._sql import referenced_tables

__all__ = ["grain_mismatch"]

_GRAINS = ("year", "quarter", "month", "week", "day")
# "per year", "by month", "for each quarter", "every week"; not "sorted by year"
_ASKED = re.compile(
    r"(?<!sorted )(?<!ordered )(?<!order )(?<!sort )\b(?:per|by|each|every)\s+"
    r"(year|quarter|month|week|day)s?\b(?!\s+of\s+(?:the\s+)?week)"
)
_ADVERB = {
    "yearly": "year",
    "annual": "year",
    "annually": "year",
    "quarterly": "quarter",
    "monthly": "month",
    "weekly": "week",
    "daily": "day",
}
# The parts of a column's name that say its grain (TPC-DS: d_moy month of year, d_qoy quarter
# of year, d_dom day of month; a date is a day); a weekday (d_dow, d_day_name) is none of them.
_NAME_PARTS = {
    "year": "year",
    "yr": "year",
    "qoy": "quarter",
    "quarter": "quarter",
    "qtr": "quarter",
    "moy": "month",
    "month": "month",
    "week": "week",
    "woy": "week",
    "dom": "day",
    "date": "day",
    "day": "day",
}
_FUNCTIONS: dict[type[exp.Expr], str] = {
    exp.Year: "year",
    exp.Quarter: "quarter",
    exp.Month: "month",
    exp.Week: "week",
    exp.WeekOfYear: "week",
    exp.Day: "day",
    exp.DayOfMonth: "day",
}
_FORMATS = (("%d", "day"), ("%W", "week"), ("%U", "week"), ("%m", "month"), ("%Y", "year"))


def _asked(question: str) -> set[str]:
    """The time grains the question asks a value for.

    Example:
        >>> sorted(_asked("What was the total net paid per year?")), _asked("Sorted by year?")
        (['year'], set())
    """
    text = question.lower()
    if re.search(r"\bday of (?:the )?week\b|\bweekdays?\b", text):
        return set()
    found = {m.group(1) for m in _ASKED.finditer(text)}
    found |= {_ADVERB[w] for w in re.findall(r"[a-z]+", text) if w in _ADVERB}
    return found


def _name_grain(name: str) -> str | None:
    """The grain a column's name says, or ``None`` (``d_day_name``, ``d_dow``: weekdays)."""
    parts = [p for p in re.split(r"[^a-z0-9]+", name.lower()) if p]
    if "dow" in parts or ("name" in parts and "day" in parts):
        return None
    grains = {_NAME_PARTS[p] for p in parts if p in _NAME_PARTS}
    return grains.pop() if len(grains) == 1 else None


def _unit(node: exp.Expr) -> str | None:
    unit = node.args.get("unit") if not isinstance(node, exp.Extract) else node.this
    text = unit.name.lower() if isinstance(unit, (exp.Var, exp.Literal)) else ""
    return text if text in _GRAINS else None


def _grain(node: exp.Expr) -> str | None:
    """The time grain of one grouped expression, or ``None`` when it has none."""
    if isinstance(node, exp.Paren):
        return _grain(node.this)
    for kind, grain in _FUNCTIONS.items():
        if type(node) is kind:
            return grain
    if isinstance(node, (exp.Extract, exp.DateTrunc, exp.TimestampTrunc, exp.TimeTrunc)):
        return _unit(node)
    if isinstance(node, exp.TimeToStr):
        fmt = node.args.get("format")
        text = fmt.name if isinstance(fmt, exp.Literal) else ""
        return next((g for code, g in _FORMATS if code in text), None)
    if isinstance(node, exp.Column):
        return _name_grain(node.name)
    return None


def _grouped(tree: exp.Select) -> list[exp.Expr]:
    """The GROUP BY's expressions, an ordinal or a projection's alias read as the projection."""
    group = tree.args.get("group")
    projections = tree.expressions
    by_alias = {p.alias.lower(): p.this for p in projections if isinstance(p, exp.Alias)}
    out: list[exp.Expr] = []
    for node in group.expressions if group is not None else ():
        if isinstance(node, exp.Literal) and node.is_int and 0 < int(node.name) <= len(projections):
            picked = projections[int(node.name) - 1]
            out.append(picked.this if isinstance(picked, exp.Alias) else picked)
        elif isinstance(node, exp.Column) and not node.table and node.name.lower() in by_alias:
            out.append(by_alias[node.name.lower()])
        else:
            out.append(node)
    return out


def grain_mismatch(question: str, tree: exp.Expr, catalog: Catalog | None = None) -> str | None:
    """What is wrong with "per year" grouped by month (the module docstring), or with "per
    year" grouped by other columns only while the SQL reads no time at all, or ``None``."""
    asked = _asked(question)
    if not asked or not isinstance(tree, exp.Select):
        return None
    grouped = _grouped(tree)
    grains = {g for g in (_grain(n) for n in grouped) if g is not None}
    if grains & asked:
        return _years_merged(question, tree, grouped, asked & grains)
    if not grains:
        if catalog is None or _reads_time(tree, catalog):
            return None
        said = ", ".join(n.sql() for n in grouped)
        return (
            f"The question asks for a value per {' and '.join(sorted(asked))} but the SQL groups "
            f"by {said} alone and reads no date: its rows add up every "
            f"{' and '.join(sorted(asked))} together."
        )
    return (
        f"The question asks for a value per {' and '.join(sorted(asked))} but the SQL groups by "
        f"{' and '.join(sorted(grains))}: its rows are not the periods asked."
    )


# "by month of the year", "calendar month", "across the years", "seasonal": parts of a year
# compared across years on purpose
_OF_YEAR_SAID = re.compile(
    r"\b(?:of|in) (?:the|a|each|any) year\b|\bcalendar (?:month|quarter|week)s?\b|"
    r"\bacross (?:the |both |all |those )?years\b|\bcombined\b|\bseason",
    re.IGNORECASE,
)
_YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)\b")
_TRUNCATIONS = (exp.DateTrunc, exp.TimestampTrunc, exp.TimeTrunc)


def _part_of_year(node: exp.Expr) -> bool:
    """A month, quarter or week numbered within its year (``d_moy``, ``month(d)``,
    ``strftime('%m', d)``), not one that keeps its year (``date_trunc('month', d)``,
    ``strftime('%Y-%m', d)``)."""
    if isinstance(node, exp.Paren):
        return _part_of_year(node.this)
    if isinstance(node, _TRUNCATIONS):
        return False
    if isinstance(node, exp.TimeToStr):
        fmt = node.args.get("format")
        return isinstance(fmt, exp.Literal) and "%Y" not in fmt.name and "%y" not in fmt.name
    return _grain(node) in {"month", "quarter", "week"}


def _years_merged(
    question: str, tree: exp.Select, grouped: list[exp.Expr], grains: set[str]
) -> str | None:
    """ "Net paid by month from January 2001 through June 2002" as ``GROUP BY d_moy``: the
    question's period spans years it names, the SQL groups by the month of the year and by no
    year, so each row adds the same month of two years (agreed23, a development set: shown at
    1.00, five samples agreeing). Silent when the question asks the part of the year as such
    ("by month of the year", "across the years", "seasonal"), names fewer than two years, or
    the SQL splits the years elsewhere (a year grouped, read inside an aggregate: ``sum(CASE
    WHEN d_year = 2001 ...)`` side by side)."""
    years = sorted(set(_YEAR.findall(question)))
    if len(years) < 2 or _OF_YEAR_SAID.search(question) or "year" in grains:
        return None
    if any(_grain(n) == "year" for n in grouped):
        return None
    parts = [n for n in grouped if _grain(n) in grains]
    if not parts or not all(_part_of_year(n) for n in parts):
        return None
    for agg in tree.find_all(exp.AggFunc):
        if any(_grain(n) == "year" for n in agg.find_all(exp.Column, exp.Year, exp.Extract)):
            return None
    grain = sorted(grains)[0]
    return (
        f"The question asks for a value per {grain} over a period from {years[0]} to "
        f"{years[-1]}, but the SQL groups by the {grain} of the year alone "
        f"({', '.join(n.sql() for n in parts)}) and by no year: each row adds up the same "
        f"{grain} of different years. Group by the year too."
    )


# A column's name that says a time, whole or in part ("o_orderdate", "created_at", "Year",
# "annual_income"): a SQL reading one may hold the period another way, so it is not judged.
_TIME_NAME = re.compile(
    r"date|time|year|yr|quarter|qtr|month|week|day|annual|season|period|hour|_at$|^at_"
)
_TIME_TYPES = re.compile(r"date|time|interval", re.IGNORECASE)


def _reads_time(tree: exp.Expr, catalog: Catalog) -> bool:
    """Whether the SQL reads anything that may hold a period: a column whose name or stored type
    says a time, a function of a date, or a table the catalogue does not know (its columns'
    types unknown). "How much per year, by priority" grouped by the priority alone, with no date
    read anywhere, cannot be per year (agreed18 h18_h12, h18_s19: shown)."""
    if any(_grain(node) is not None for node in tree.find_all(*_FUNCTIONS, exp.Extract)):
        return True
    if tree.find(exp.DateTrunc, exp.TimestampTrunc, exp.TimeTrunc, exp.TimeToStr) is not None:
        return True
    if any(_TIME_NAME.search(c.name.lower()) for c in tree.find_all(exp.Column)):
        return True
    for name in referenced_tables(tree):
        info = catalog.table(name)
        if info is None:
            return True
        read = {c.name.lower() for c in tree.find_all(exp.Column)}
        if any(c.name.lower() in read and _TIME_TYPES.search(c.type) for c in info.columns):
            return True
    return False
