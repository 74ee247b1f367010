"""A period the question names, closed in the SQL on the first day of the next one, or a few
days before its own last.

"Orders placed in the first quarter of 1994" as ``o_orderdate BETWEEN '1994-01-01' AND
'1994-04-01'`` counts the orders of 1 April; "customers born in the 1970s" as
``c_birth_year BETWEEN 1970 AND 1980`` counts those born in 1980 (agreed16, a blind set: both
shown at 1.00). The question's period is read (a decade, a quarter, a month or a year), and an
inclusive upper bound (``BETWEEN``, ``<=``) on the day or year just after it, beside a lower
bound on its first day or year, is ``signal.period_bound``: the SQL takes in one unit of the
next period. A bound written as the period's last day (``'1994-03-31'``, ``1979``), or an
exclusive one (``< '1994-04-01'``), is right and silent. So is the opposite slip: "in 2001"
as ``BETWEEN '2001-01-01' AND '2001-12-30'`` leaves out 31 December (outside tryout 23). A
range of months is a period too: "from January through March 2024" as ``< '2024-03-31'``
loses 31 March (outside tryout 38: shown at 1.00). And a date restriction that is not the
period at all: a range wholly outside it, one running over one of its ends, or a single bound
(``order_date < '2023-01-01'`` for "in 2023"), unless the question asks for another span
("since", "the 12 months up to", a fiscal year, another year beside it: ``_not_the_period``).
"""

from __future__ import annotations

import datetime as dt
import re

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._latest_full import latest_taken_as_full
from assay.checks._where import finding, tree_of
from assay.errors import ExecutionError
from assay.types import Finding

__all__ = ["period_end_included"]

_MONTHS = (
    "january february march april may june july august september october november december"
).split()
_PROBE_MS = 5_000
_ORDINAL = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3}
_ORDINAL |= {"fourth": 4, "4th": 4, "last": 4}
_DECADE = re.compile(r"\b(?:the\s+)?((?:1[89]|20)\d0)'?s\b")
_QUARTER = re.compile(
    r"\b(?:(first|second|third|fourth|last|1st|2nd|3rd|4th)\s+quarter\s+(?:of\s+)?|q([1-4])\s+)"
    r"((?:19|20)\d\d)\b"
)
_MONTH = re.compile(rf"\b({'|'.join(_MONTHS)})\s+(?:of\s+)?((?:19|20)\d\d)\b")
# A day number just before a month and year: "31 March 2024", "the 31st of March 2024".
_DAY_BEFORE = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?$")
_YEAR = re.compile(r"\b(?:in|during)\s+((?:19|20)\d\d)\b(?!\s*[-/])")
# A range of months, both ends included: "from January through March 2024", "between January
# and March 2024", "January-March 2024", "from November 2023 to February 2024" (tryout 38).
_NAMES = "|".join(_MONTHS)
_MONTHS_RANGE = re.compile(
    rf"\b(?:(?:from|between)\s+)?({_NAMES})(?:\s+((?:19|20)\d\d))?"
    rf"\s*(?:\s(?:through|thru|to|until|till|and)\s|[-\u2013])\s*({_NAMES})\s+((?:19|20)\d\d)\b"
)

# A window counted back from a period ("the 12 months up to March 2023"): its range ends with
# the period and starts long before it, on purpose.
_WINDOW = re.compile(
    r"\b(?:\d+|twelve|six|three)\s+(?:days|weeks|months|quarters|years)\b|\b(?:rolling|trailing)\b"
)

# A period: its first day and the day after its last, and the same in years when it is whole
# years (a bound on a year column).
Period = tuple[str, dt.date, dt.date, int | None, int | None]


def _periods(question: str) -> list[Period]:
    text = question.lower()
    found: list[Period] = []
    for m in _DECADE.finditer(text):
        start = int(m.group(1))
        found.append(
            (m.group(0), dt.date(start, 1, 1), dt.date(start + 10, 1, 1), start, start + 10)
        )
    for m in _QUARTER.finditer(text):
        q = _ORDINAL[m.group(1)] if m.group(1) else int(m.group(2))
        year = int(m.group(3))
        first = dt.date(year, 3 * q - 2, 1)
        after = dt.date(year + 1, 1, 1) if q == 4 else dt.date(year, 3 * q + 1, 1)
        found.append((m.group(0), first, after, None, None))
    for m in _MONTHS_RANGE.finditer(text):
        found.append(_months(m))
    for m in _MONTH.finditer(text):
        if _DAY_BEFORE.search(text, 0, m.start()):
            continue  # "31 March 2024" is a day, not the month (two merged branches misread it)
        month, year = _MONTHS.index(m.group(1)) + 1, int(m.group(2))
        after = dt.date(year + 1, 1, 1) if month == 12 else dt.date(year, month + 1, 1)
        found.append((m.group(0), dt.date(year, month, 1), after, None, None))
    if not found:
        for m in _YEAR.finditer(text):
            year = int(m.group(1))
            found.append((m.group(0), dt.date(year, 1, 1), dt.date(year + 1, 1, 1), year, year + 1))
    return found


def _months(match: re.Match[str]) -> Period:
    """A range of months, its first month's first day to the day after its last month; the
    first month's year, unsaid, is the last's (the year before when it comes later in it)."""
    first, last = _MONTHS.index(match.group(1)) + 1, _MONTHS.index(match.group(3)) + 1
    end_year = int(match.group(4))
    year = int(match.group(2)) if match.group(2) else end_year - (first > last)
    after = dt.date(end_year + 1, 1, 1) if last == 12 else dt.date(end_year, last + 1, 1)
    return match.group(0), dt.date(year, first, 1), after, None, None


def _value(node: exp.Expr | None) -> dt.date | int | None:
    """A literal bound as a date (``'1994-04-01'``, ``DATE '1994-04-01'``) or a whole year."""
    if isinstance(node, (exp.Cast, exp.TsOrDsToDate)) or (
        isinstance(node, exp.Anonymous) and node.name.lower() in {"date", "datetime"}
    ):
        node = (
            node.this if not isinstance(node, exp.Anonymous) else next(iter(node.expressions), None)
        )
    if not isinstance(node, exp.Literal):
        return None
    text = node.name.strip()
    if not node.is_string and re.fullmatch(r"(?:19|20)\d\d", text):
        return int(text)
    match = re.fullmatch(r"((?:19|20)\d\d)-(\d\d)-(\d\d)(?:[ T]00:00(?::00)?)?", text)
    if match is None:
        return None
    try:
        return dt.date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        return None


def _included(bound: exp.Binary) -> object:
    """The last value an upper bound lets in: a ``<`` on a date lets in the day before it
    ("March 2022" as ``ds < '2022-03-31'`` ends on 30 March; agreed19, shown at 1.00)."""
    value = _value(bound.expression)
    if isinstance(bound, exp.LT):
        return value - dt.timedelta(days=1) if isinstance(value, dt.date) else None
    return value


def _ranges(tree: exp.Expr) -> list[tuple[exp.Expr, object, object]]:
    """(column, lower bound, inclusive upper bound) of each BETWEEN, and of a ``>=``/``>`` paired
    with a ``<=`` (or a ``<`` on a date, read as the day before it) on the same column that
    holds with it (``_held_with``)."""
    out: list[tuple[exp.Expr, object, object]] = []
    for node in tree.find_all(exp.Between):
        out.append((node.this, _value(node.args.get("low")), _value(node.args.get("high"))))
    for le in tree.find_all(exp.LTE, exp.LT):
        if not isinstance(le.this, exp.Column):
            continue
        lows = [
            _value(ge.expression)
            for ge in _held_with(le)
            if isinstance(ge, (exp.GTE, exp.GT))
            and isinstance(ge.this, exp.Column)
            and ge.this.sql() == le.this.sql()
        ]
        for low in lows:
            out.append((le.this, low, _included(le)))
    return out


def _held_with(node: exp.Expr) -> list[exp.Expr]:
    """The conditions of the WHERE that hold on every row ``node`` lets in: those ANDed with it,
    or with an OR it is a branch of, never those of another branch of an OR. "Q1 and Q3 2024"
    as ``(d >= '2024-01-01' AND d < '2024-04-01') OR (d >= '2024-07-01' AND d < '2024-10-01')``
    is two ranges, not also 2024-07-01 to 2024-03-31 (outside tryout 39, F12: a false
    ``signal.period_bound`` under a right answer)."""
    out: list[exp.Expr] = []
    child, parent = node, node.parent
    while not isinstance(parent, exp.Where):
        if not isinstance(parent, (exp.And, exp.Or, exp.Paren)):
            return []  # a condition of a CASE, a join or a NOT: no range of the rows read
        if isinstance(parent, exp.And):
            for other in (parent.this, parent.expression):
                if other is not child:
                    out += _conjuncts(other)
        child, parent = parent, parent.parent
    return out


def _conjuncts(node: exp.Expr) -> list[exp.Expr]:
    """``node``'s conditions that all hold, down through AND and brackets (an OR's branches do
    not each hold)."""
    if isinstance(node, exp.And):
        return _conjuncts(node.this) + _conjuncts(node.expression)
    if isinstance(node, exp.Paren):
        return _conjuncts(node.this)
    return [node]


def period_end_included(ctx: CheckContext) -> CheckOutcome:
    """``signal.period_bound`` for "the first quarter of 1994" as ``BETWEEN '1994-01-01'
    AND '1994-04-01'`` (the module docstring), or "the last full year" as the latest year with
    data (``_latest_full``)."""
    latest = latest_taken_as_full(ctx)
    if latest:
        return CheckOutcome(tuple(latest))
    periods = _periods(ctx.question)
    if not periods:
        return CheckOutcome()
    tree = tree_of(ctx)
    if tree is None:
        return CheckOutcome()
    elsewhere = _outside_every_period(periods, _ranges(tree))
    if elsewhere is not None:
        return CheckOutcome((elsewhere,))
    window = _WINDOW.search(ctx.question) is not None
    for column, low, high in _ranges(tree):
        other = None if window else _other_end(periods, low, high)
        if other is not None:
            return CheckOutcome(
                (
                    finding(
                        "signal.period_bound",
                        f"The question asks for '{other[0]}', from {other[1]} to {other[2]}, but "
                        f"the SQL bounds {column.sql()} from {low} to {high}: it "
                        f"{other[3]}.",
                        said=other[0],
                        sql=column.sql(),
                        lower=str(low),
                        upper=str(high),
                    ),
                )
            )
        for said, first, after, first_year, after_year in periods:
            last_day = after - dt.timedelta(days=1)
            short = (
                low == first
                and isinstance(high, dt.date)
                and last_day - dt.timedelta(days=3) <= high < last_day
            )
            if short:  # "in 2001" as BETWEEN '2001-01-01' AND '2001-12-30' (outside tryout 23)
                return CheckOutcome(
                    (
                        finding(
                            "signal.period_bound",
                            f"The question asks for '{said}', which ends on {last_day}, but the "
                            f"SQL bounds {column.sql()} up to {high}: it leaves out the period's "
                            "last days.",
                            said=said,
                            sql=column.sql(),
                            upper=str(high),
                        ),
                    )
                )
            dates = low == first and high == after
            years = first_year is not None and low == first_year and high == after_year
            if dates or years:
                last = after - dt.timedelta(days=1) if dates else (after_year or 0) - 1
                return CheckOutcome(
                    (
                        finding(
                            "signal.period_bound",
                            f"The question asks for '{said}', which ends on {last}, but the SQL "
                            f"bounds {column.sql()} up to {high} included: it takes in the "
                            "first unit of the next period.",
                            said=said,
                            sql=column.sql(),
                            upper=str(high),
                        ),
                    )
                )
    uncovered = _not_the_period(ctx, periods, tree)
    return CheckOutcome((uncovered,) if uncovered is not None else ())


def _outside_every_period(
    periods: list[Period], ranges: list[tuple[exp.Expr, object, object]]
) -> Finding | None:
    """ "Gross revenue in 2023" as ``order_date >= '2022-01-01' AND order_date < '2023-01-01'``:
    every date range of the SQL lies wholly outside every period the question names (the
    literal 2023 is in the SQL, as the bound past 2022, so ``literal_missing`` is silent:
    outside re-check of tryout 38, shown, warned, on ``assay ask --agent``). Silent when any
    range touches an asked period (a comparison with another year beside it) or a bound is not
    a date."""
    dated = [
        (c, lo, hi) for c, lo, hi in ranges if isinstance(lo, dt.date) and isinstance(hi, dt.date)
    ]
    if not dated or len(dated) != len(ranges):
        return None
    for _, low, high in dated:
        assert isinstance(low, dt.date) and isinstance(high, dt.date)
        if any(high >= first and low < after for _, first, after, _, _ in periods):
            return None
    column, low, high = dated[0]
    said = " and ".join(f"'{p[0]}'" for p in periods)
    return finding(
        "signal.period_bound",
        f"The question asks for {said}, but the SQL bounds {column.sql()} from {low} to {high}: "
        "no day of the period asked is in the rows it reads.",
        said=said,
        sql=column.sql(),
        lower=str(low),
        upper=str(high),
    )


def _other_end(
    periods: list[Period], low: object, high: object
) -> tuple[str, dt.date, dt.date, str] | None:
    """The one quarter or month the question names, kept in the SQL with one end right and the
    other on another day: "the last quarter of 1997" as ``BETWEEN '1997-09-01' AND
    '1997-12-31'`` adds September (agreed18 h18_h11: shown at 1.00). Only when the question names
    one period and it is a quarter or a month (a year or a decade said may sit beside narrower
    words); the last day a few days short is the check's other rule. Returns the words said, the
    period's first and last days and what the SQL does; ``None`` when both ends are right or
    neither is."""
    if len(periods) != 1 or periods[0][3] is not None:
        return None
    said, first, after, _, _ = periods[0]
    last = after - dt.timedelta(days=1)
    if not isinstance(low, dt.date) or not isinstance(high, dt.date):
        return None
    if high in (last, after) and low != first:
        moved = "takes in days before it" if low < first else "leaves out its first days"
        return said, first, last, moved
    if low == first and high not in (last, after) and not last - dt.timedelta(days=3) <= high:
        moved = "takes in days after it" if high > last else "leaves out its last days"
        return said, first, last, moved
    return None


# Words that ask for another span than the period they name: a one-sided bound ("since 2023"),
# a window counted back ("the 12 months up to March 2023"), a fiscal year, a comparison.
_OTHER_SPAN = re.compile(
    r"\b(?:since|until|till|through|thru|before|after|up to|ending|ended|past|previous|prior|"
    r"trailing|rolling|fiscal|fy\w*|compared?|comparison|versus|vs|year[- ]over[- ]year|"
    r"months|weeks|days|cumulative|running|to date|ytd)\b",
    re.IGNORECASE,
)
# A year or a month written whole, or as a pattern (``year(d) = 2023``, ``LIKE '2023-03%'``).
_PERIOD_LITERAL = re.compile(r"(?:19|20)\d\d(?:-\d\d)?%?")


def _not_the_period(ctx: CheckContext, periods: list[Period], tree: exp.Expr) -> Finding | None:
    """The SQL's only date restrictions do not cover the period asked: a range that runs over
    one of its ends ("gross revenue in 2023" as ``order_date >= '2022-06-01' AND order_date <
    '2023-06-01'``), or a single bound that leaves out days of it (``order_date <
    '2023-01-01'``, which leaves out all of 2023: ``_one_sided``). Outside re-check of tryout
    38: both were shown, the literal 2023 in the SQL. Silent when a range lies within a period
    asked (narrower words may say so), when the period is written another way (``year(d) =
    2023``), and when the question asks for another span (``_OTHER_SPAN``) or names a year
    outside its periods (a comparison)."""
    question = ctx.question
    if _OTHER_SPAN.search(question):
        return None
    for year in re.findall(r"\b(?:19|20)\d\d\b", question):
        if not any(p[1].year <= int(year) < p[2].year or p[1].year == int(year) for p in periods):
            return None
    if any(_PERIOD_LITERAL.fullmatch(lit.name.strip()) for lit in tree.find_all(exp.Literal)):
        return None
    dated = [
        (c, lo, hi)
        for c, lo, hi in _ranges(tree)
        if isinstance(lo, dt.date) and isinstance(hi, dt.date)
    ]
    for _, low, high in dated:
        assert isinstance(low, dt.date) and isinstance(high, dt.date)
        if any(first <= low and high < after for _, first, after, _, _ in periods):
            return None
    for column, low, high in dated:
        assert isinstance(low, dt.date) and isinstance(high, dt.date)
        for said, first, after, _, _ in periods:
            if high >= first and low < after:
                return _period_finding(said, first, after, column, f"from {low} to {high}")
    return _one_sided(ctx, periods, tree)


def _one_sided(ctx: CheckContext, periods: list[Period], tree: exp.Expr) -> Finding | None:
    """A date column bounded on one side only, past the period's own end: a lower bound after
    its first day, an upper one before its last, leaves out days of it (``order_date <
    '2023-01-01'`` for "in 2023" leaves out all of them). A bound on the period's own first
    (or last) day is right when no row it reads lies past the period's other end ("in 1998"
    as ``o_orderdate >= DATE '1998-01-01'``, TPC-H ending in 1998: agreed22 h22_h09, right),
    and wrong when one does ("gross revenue in 2023" as ``order_date >= '2023-01-01'`` on the
    demo warehouse, whose orders run into 2024, sums 2024 too): the engine is asked
    (``_past_the_period``); unmeasured (no database, a probe that fails), it is silent. A
    bound of any value on the other side (a timestamp, a literal written first, a
    ``BETWEEN``) makes it two-sided."""
    sides: dict[str, set[str]] = {}
    dated: list[tuple[exp.Column, str, dt.date]] = []
    for node in tree.find_all(exp.GT, exp.GTE, exp.LT, exp.LTE, exp.Between):
        if isinstance(node, exp.Between):
            if isinstance(node.this, exp.Column):
                sides.setdefault(node.this.sql(), set()).update(("low", "high"))
            continue
        low = isinstance(node, (exp.GT, exp.GTE))
        column, other = node.this, node.expression
        if not isinstance(column, exp.Column):
            column, other, low = other, column, not low
        if not isinstance(column, exp.Column):
            continue
        side = "low" if low else "high"
        sides.setdefault(column.sql(), set()).add(side)
        value = _value(other)
        if isinstance(value, dt.date) and other is node.expression:
            step = 1 if isinstance(node, exp.GT) else -1 if isinstance(node, exp.LT) else 0
            dated.append((column, side, value + dt.timedelta(days=step)))
    said, first, after, _, _ = periods[0]
    for column, side, value in dated:
        if len(sides[column.sql()]) != 1:
            continue  # bounded on both sides: a range (``_ranges``)
        if value > first if side == "low" else value < after - dt.timedelta(days=1):
            kept = f"from {value} on" if side == "low" else f"up to {value}"
            return _period_finding(said, first, after, column, f"{kept}, with no other end")
        past = _past_the_period(ctx, column, side, first, after)
        if past is not None:
            kept = f"from {value} on" if side == "low" else f"up to {value}"
            bounds = f"{kept}, with no other end, and it reads rows dated {past}"
            return _period_finding(said, first, after, column, bounds)
    return None


def _past_the_period(
    ctx: CheckContext, column: exp.Column, side: str, first: dt.date, after: dt.date
) -> dt.date | None:
    """The latest date (``side`` "low") or the earliest (``side`` "high") ``column`` takes in
    the rows of the answer's own SELECT (its FROM and WHERE, the single bound included), when
    it lies past the period's other end: a bound on the period's first day alone then reads
    the rows after the period. ``None`` when it does not, or when it cannot be measured (no
    database, a probe that fails, a value not a date)."""
    select = column.find_ancestor(exp.Select)
    if ctx.profiles is None or select is None:
        return None
    probe = select.copy()
    for arg in ("group", "having", "order", "limit", "offset", "distinct", "qualify"):
        probe.set(arg, None)
    edge = exp.Max if side == "low" else exp.Min
    probe.set("expressions", [edge(this=column.copy())])
    root = column.root()
    if select is not root and root.args.get("with") is not None and not probe.args.get("with"):
        probe.set("with", root.args["with"].copy())
    try:
        rows = ctx.profiles.runner.execute(
            probe.sql(dialect=ctx.dialect), time_limit_ms=_PROBE_MS, max_rows=1
        ).rows
    except ExecutionError:
        return None
    value = rows[0][0] if rows and rows[0] else None
    if isinstance(value, dt.datetime):
        value = value.date()
    elif isinstance(value, str):
        try:
            value = dt.date.fromisoformat(value.strip()[:10])
        except ValueError:
            return None
    if not isinstance(value, dt.date):
        return None
    return value if (value >= after if side == "low" else value < first) else None


def _period_finding(
    said: str, first: dt.date, after: dt.date, column: exp.Expr, bounds: str
) -> Finding:
    last = after - dt.timedelta(days=1)
    return finding(
        "signal.period_bound",
        f"The question asks for '{said}', from {first} to {last}, but the SQL bounds "
        f"{column.sql()} {bounds}: the rows it reads are not those of the period asked. Bound "
        f"{column.sql()} from {first} to {last}.",
        said=said,
        sql=column.sql(),
        bounds=bounds,
    )
