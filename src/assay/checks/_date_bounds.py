"""A day the question bounds by, compared the other way round for its own day: "through December
31" as ``< '2016-12-31'``.

"How many customers placed their first order from November 1 through December 31, 2016?" as
``FIRST_ORDERED_AT >= DATE '2016-11-01' AND FIRST_ORDERED_AT < DATE '2016-12-31'`` leaves out
the orders of 31 December (agreed20, a development set: five samples agreeing were shown at
1.00). ``bound_strictness`` reads a bound on a number ("through 1979" as ``< 1979``); a day
said with its month's name is no number.

``date_bound_strictness`` reads each day the question names ("December 31, 2016", "Dec 31",
"31 December 2016", "2016-12-31", "12/31/2016" month first) with the words just before it:
inclusive ("through", "until", "up to", "on or before"; "from", "since", "on or after"; either
end of "between .. and ..") or strict ("before", "earlier than", "prior to"; "after", "later
than"). When the SQL compares a column with that same day (its year too, where the question
says one) only the other way (``< day`` for "through day", ``<= day`` for "before day", ``>
day`` for "from day", ``>= day`` for "after day"), the day is counted when it should not be, or
lost (``signal.date_bound_strictness``). A bound on the next day (``< '2017-01-01'`` for "through
December 31, 2016") or the day before is right and silent; so is any day the question does not
name with such words ("from March to July 7": "to" may or may not include, unless the
question says the range is inclusive: "June 15 to June 21 2025 inclusive", or "to" joins two
days, a range of days that names its last: "June 15 to July 7 2025").
"""

from __future__ import annotations

import datetime as dt
import re

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._where import finding, negated, tree_of

__all__ = ["date_bound_strictness"]

_MONTHS = (
    "january february march april may june july august september october november december"
).split()
_MONTH_NUMBER = {name: n for n, name in enumerate(_MONTHS, 1)}
_MONTH_NUMBER |= {name[:3]: n for name, n in _MONTH_NUMBER.items()} | {"sept": 9}
_MONTH = r"(?P<{0}>" + "|".join(sorted(_MONTH_NUMBER, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<{0}>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s+(?P<{0}>(?:19|20)\d\d))?"
_DAY_SAID = re.compile(
    r"\b(?:"
    + (_MONTH.format("m1") + r"\s+" + _DAY.format("d1") + _YEAR.format("y1"))
    + "|"
    + (_DAY.format("d2") + r"\s+(?:of\s+)?" + _MONTH.format("m2") + _YEAR.format("y2"))
    + r"|(?P<y3>\d{4})-(?P<m3>[01]\d)-(?P<d3>[0-3]\d)"
    + r"|(?P<m4>[01]?\d)/(?P<d4>[0-3]?\d)/(?P<y4>\d{4})"  # month first: "since 03/01/2100"
    + r")(?![\w/-])"
)
# The words just before a day, and the SQL comparison each asks for.
_BOUND_WORDS = {
    "<=": r"through|thru|until|till|up to|up until|up through|up to and including|"
    r"to and including|on or before|no later than|as late as",
    "<": r"before|earlier than|prior to",
    ">=": r"from|since|starting|starting from|starting on|beginning|on or after|"
    r"no earlier than|as early as",
    ">": r"after|later than",
}
_BEFORE = {op: re.compile(rf"\b(?:{said})\s+(?:the\s+)?$") for op, said in _BOUND_WORDS.items()}
_BETWEEN = re.compile(r"\bbetween\s+(?:the\s+)?$")
_BETWEEN_AND = re.compile(r"\bbetween\s+(?:the\s+)?(?P<first>.{1,30}?)\s+and\s+(?:the\s+)?$")
# The other way round from each asked comparison: the one that gets its own day wrong.
_OTHER = {"<=": "<", "<": "<=", ">=": ">", ">": ">="}
_FLIP = {">": "<", ">=": "<=", "<": ">", "<=": ">="}
_SQL_DAY = re.compile(r"(\d{4})-(\d\d)-(\d\d)(?:[ T]00:00(?::00)?)?")
_OPS: dict[type[exp.Expr], str] = {exp.GT: ">", exp.GTE: ">=", exp.LT: "<", exp.LTE: "<="}


def _asked_day(match: re.Match[str]) -> tuple[int | None, int, int] | None:
    """(year or None, month, day) of a day the question says."""
    for n in "1234":
        month = match.group(f"m{n}")
        if month is None:
            continue
        number = int(month) if month.isdigit() else _MONTH_NUMBER[month]
        year = match.group(f"y{n}")
        day = int(match.group(f"d{n}"))
        if 1 <= number <= 12 and 1 <= day <= 31:
            return (int(year) if year else None), number, day
    return None


def _op_before(text: str) -> str | None:
    """The comparison the words just before a day ask for ("between" the first day of a
    range, inclusive; "between <day> and" its last, inclusive).

    Example:
        >>> _op_before("shipped through "), _op_before("between may 1 and "), _op_before("in ")
        ('<=', '<=', None)
    """
    if _BETWEEN.search(text):
        return ">="
    between = _BETWEEN_AND.search(text)
    if between is not None and _DAY_SAID.search(between.group("first")):
        return "<="
    return next((op for op, pattern in _BEFORE.items() if pattern.search(text)), None)


# "June 15 to June 21 2025 inclusive": a range said to include its ends makes "to" (or a dash)
# before its last day inclusive (agreed25 h25_c04: ``< '2025-06-21'`` shown at 1.00)
_INCLUSIVE = re.compile(r"\b(?:inclusive|inclusively|both (?:days |dates |ends )?included)\b")
_TO = re.compile(r"(?:\bto|[-\u2013\u2014])\s*(?:the\s+)?$")
# A day right after another and "to" (or a dash): a range of days, "June 15 to July 7 2025",
# names the days it runs, its last too (agreed26 h26_c04: "while the campaign was running,
# June 15 to July 7 2025" as ``< '2025-07-07'`` was shown at 1.00). "To" after anything else
# ("from March to July 7") stays unread.
_RANGE_TO = re.compile(r"\s*(?:to|[-\u2013\u2014])\s*(?:the\s+)?")


def _question_days(question: str) -> list[tuple[str, tuple[int | None, int, int], str]]:
    """(the comparison asked, the day, the words that ask it) for each bounded day."""
    text = " ".join(question.lower().replace("\u2019", "'").split())
    inclusive = _INCLUSIVE.search(text) is not None
    found = []
    last_end = -1  # where the day before this one ends
    for match in _DAY_SAID.finditer(text):
        day = _asked_day(match)
        op = _op_before(text[: match.start()])
        ranged = last_end >= 0 and _RANGE_TO.fullmatch(text[last_end : match.start()])
        if op is None and (inclusive or ranged) and _TO.search(text[: match.start()]):
            op = "<="
        last_end = match.end()
        if day is not None and op is not None:
            found.append((op, day, match.group(0)))
    return found


def _sql_day(node: exp.Expr) -> dt.date | None:
    """A bound written as a day alone: ``'2016-12-31'``, ``DATE '2016-12-31'``,
    ``date('2016-12-31')``, ``CAST('2016-12-31' AS DATE)``, a midnight timestamp."""
    while isinstance(node, (exp.Cast, exp.Date, exp.TsOrDsToDate)) and node.this is not None:
        node = node.this
    if not isinstance(node, exp.Literal) or not node.is_string:
        return None
    match = _SQL_DAY.fullmatch(node.name.strip())
    try:
        return dt.date(*map(int, match.groups())) if match else None
    except ValueError:
        return None


def _sql_days(tree: exp.Expr) -> list[tuple[str, dt.date, exp.Expr]]:
    """(op, day, the node) for each comparison of an expression with a day, the day read on the
    right (``'2016-12-31' > d`` is ``d < '2016-12-31'``); none under NOT."""
    found = []
    for node in tree.find_all(*_OPS):
        if negated(node):
            continue
        op = _OPS[type(node)]
        right = _sql_day(node.expression)
        left = _sql_day(node.this)
        if right is not None and left is None:
            found.append((op, right, node))
        elif left is not None and right is None:
            found.append((_FLIP[op], left, node))
    return found


def _same(asked: tuple[int | None, int, int], day: dt.date) -> bool:
    year, month, number = asked
    return (year is None or year == day.year) and (month, number) == (day.month, day.day)


def date_bound_strictness(ctx: CheckContext) -> CheckOutcome:
    """``signal.date_bound_strictness``: "through December 31" as ``< '2016-12-31'`` (the
    module docstring). ``_bounds.bound_strictness``'s rule over days: a number's bound matches
    the SQL's equal number, a day's the SQL's same month and day (its year only where the
    question says one), so neither reading is a case of the other."""
    tree = tree_of(ctx)
    if tree is None:
        return CheckOutcome()
    compared = _sql_days(tree)
    if not compared:
        return CheckOutcome()
    for wanted, asked, said in _question_days(ctx.question):
        on_day = [(op, node) for op, day, node in compared if _same(asked, day)]
        ops = {op for op, _ in on_day}
        other = _OTHER[wanted]
        if other not in ops or wanted in ops:
            continue
        node = next(n for op, n in on_day if op == other)
        included = wanted in ("<=", ">=")
        return CheckOutcome(
            (
                finding(
                    "signal.date_bound_strictness",
                    f"The question bounds by {said!r} ({'including' if included else 'excluding'}"
                    f" that day) but the SQL compares {node.sql()} "
                    f"({'excluding' if included else 'including'} it): the rows of that day are "
                    f"{'lost' if included else 'counted'}.",
                    said=said,
                    wanted=wanted,
                    sql=node.sql(),
                ),
            )
        )
    return CheckOutcome()
