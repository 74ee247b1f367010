"""Reading periods out of a question, against the warehouse's own clock and fiscal year.

``find_periods`` returns every period a question names, each with the characters it was read
from, so that the reader can account for those words. Spellings read: years (``2023``, ``CY2023``),
quarters (``Q2 2023``, ``2023-Q2``, ``Q2 '23``, ``second quarter of 2023``, ``Q4`` alone: this
year's), halves (``H1 2023``, ``first half of 2023``), months (``March 2024``, ``Mar '24``,
``2024-03``, ``March`` alone: its latest occurrence by the clock), relative periods (``last
year``, ``last yr``, ``this quarter``, ``year to date``, ``so far this month``, ``past 3
months``, ``last 6 full months``, ``next year``), ``since <period>``, and fiscal years and
quarters (``FY2024``, ``FY24``, ``fiscal 2023/24``, ``fiscal year 2024``, ``fiscal Q2 this
year``, ``this fiscal year to date``, ``Q1 of fiscal 2024``, ``fiscal H1 2024``) resolved
against the layer's fiscal start month; a fiscal year is named by the calendar year it ends in.

The spellings are a table of regular expressions over the lower-cased question (dates are
lexical tokens; the sentence structure around them is read by the grammar in ``_grammar``).

Why one module of about 1,090 lines, over the house aim of 400: ``_Rules`` (about 360 lines) is
that table, one list kept whole so its order (the most specific spelling first) reads in one
place; after it, ``find_periods`` runs the passes that relate the periods found to each other,
in order (a range "from Jan to Jun", "the previous N days" after "the last N days", a year
shared by a list "Feb vs Apr 2023", "the other half"). Each pass reads what the table found and
the one before it left; split apart, the order of the passes, which the tests pin, would be
spread over modules sharing ``Period``'s private helpers.
"""

from __future__ import annotations

import calendar
import dataclasses
import datetime as dt
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["MONTHS", "NO_CLOCK", "Period", "backwards_ranges", "find_periods", "parse_period"]

# The stand-in 'now' for a layer without a clock (data without dates): periods are still found,
# so the behaviour rules can abstain on them, but nothing read against it is ever applied.
NO_CLOCK = dt.date(2000, 1, 1)

MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
_ABBR = {m[:3]: i + 1 for i, m in enumerate(MONTHS)} | {"sept": 9}
_ORD = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_NUM = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}
_MONTH_RE = (
    r"(?P<mon>january|february|march|april|may|june|july|august|september|october|november|"
    r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?"
)
# Words that may follow a quarter's bare two-digit year ("Q1 24 by channel"); any other word
# makes the two digits a count ("Q1 24 stores"), not a year
_AFTER_YY = r"(?:by|vs|versus|and|or|compared|for|per|across|with|to|through|than)\b"
_YEAR_RE = r"(?P<year>(?:19|20|21)\d{2}|'\d{2})"
# "the last 3 months of 2023", "the last week of March": counted back from another period than
# the clock; no spelling reads that, so the words are left unread (asked back), never read as
# the last months before the clock beside 2023.
_WHOLE = r"(?:full |complete |whole |calendar )?"  # "the last full quarter": the last quarter
_NOT_OF = (
    r"(?!,? (?:of|in|during|for) (?:the )?(?:year )?(?:(?:19|20|21)\d\d|'\d\d|q[1-4]\b|h[12]\b|"
    r"fy|fiscal|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))(?! of\b)"
)


@dataclass(frozen=True)
class Period:
    """``[start, end)`` with the words it was read from and where they are."""

    start: dt.date
    end: dt.date
    label: str
    text: str
    span: tuple[int, int] = (0, 0)
    relative_previous: bool = False  # "the previous year": relative to another period named
    ranged: bool = False  # "from 2022 to 2024": one span made of two named ends
    ends: tuple[Period, ...] = ()  # the two periods a ranged span was made from
    # "before 2023": from the first date the data holds (the layer's coverage start, or
    # ``EARLIEST`` when it declares none) to the period said, that period left out
    open_start: bool = False

    def overlaps(self, start: dt.date, end_inclusive: dt.date) -> bool:
        return self.start <= end_inclusive and self.end > start

    @property
    def kind(self) -> str | None:
        """``year``, ``quarter`` or ``month`` when the period is exactly one, else ``None``."""
        if self.start.day != 1:
            return None
        for name, months in (("year", 12), ("quarter", 3), ("month", 1)):
            aligned = (
                (self.start.month - 1) % months == 0 if name != "year" else self.start.month == 1
            )
            if aligned and self.end == _add_months(self.start, months):
                return name
        return None

    @property
    def whole_year(self) -> bool:
        return (
            self.start.month == 1
            and self.start.day == 1
            and self.end == dt.date(self.start.year + 1, 1, 1)
        )


def _add_months(day: dt.date, months: int) -> dt.date:
    index = day.year * 12 + day.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, 1)


def _year(text: str) -> int:
    text = text.strip("'’")
    return int(text) + 2000 if len(text) == 2 else int(text)


def _month_number(name: str) -> int:
    return _ABBR[name[:3]]


def _fy(year: int, fiscal: int) -> tuple[dt.date, dt.date, str]:
    """Fiscal year ``year`` (named by the calendar year it ends in)."""
    start = dt.date(year - (1 if fiscal > 1 else 0), fiscal, 1)
    return start, _add_months(start, 12), f"fiscal year {year}"


def _fy_of(day: dt.date, fiscal: int) -> int:
    return day.year + (1 if fiscal > 1 and day.month >= fiscal else 0)


# A half or a quarter, as the fiscal spellings below say it: "H1", "first half", "Q2",
# "second quarter", "second fiscal quarter".
_HALF = r"(?:(?P<o>first|1st|second|2nd) half|(?P<h>h[12]))"
_QUARTER = r"(?:q(?P<q>[1-4])|(?P<o>first|1st|second|2nd|third|3rd|fourth|4th) (?:fiscal )?quarter)"


def _fiscal_spellings(part: str) -> list[str]:
    """The spellings of a half or quarter (``part``) of a numbered fiscal year.

    Once the word "fiscal" (or "FY") is said of the part or of its year, the year said is the
    fiscal year and the part is that year's: "fiscal H1 2024" was read as the calendar half
    (the agent's own label for the fiscal half, so a user copying it got another period), and
    "Q1 of fiscal 2024" as the whole fiscal year joined to calendar Q1 2024."""
    fiscal_year = r"(?:the )?(?:fiscal (?:year |yr )?|fy ?)'?(?P<y>\d{4}|\d{2})"
    return [
        # "Q1 of fiscal 2024", "first quarter of FY24", "H2 of the fiscal year 2024"
        rf"\b(?:fiscal )?{part} (?:of )?{fiscal_year}\b",
        # "FY2024 Q1", "fiscal 2024 H1"
        rf"\b{fiscal_year} {part}\b",
        # "fiscal H1 2024", "fiscal first quarter of 2024", "first fiscal quarter of 2024"
        rf"\b(?:fiscal |(?=\w+ fiscal quarter)){part} (?:of )?(?:the )?(?:year )?"
        rf"(?P<y>\d{{4}}|'\d{{2}})\b",
    ]


class _Rules:
    """The spelling table, bound to a clock and a fiscal start month."""

    def __init__(self, clock: dt.date, fiscal: int):
        self.clock, self.fiscal = clock, fiscal
        self.tomorrow = clock + dt.timedelta(days=1)
        self.month0 = dt.date(clock.year, clock.month, 1)
        q_now = (clock.month - 1) // 3
        self.quarter0 = dt.date(clock.year, 3 * q_now + 1, 1)
        self.week0 = clock - dt.timedelta(days=clock.weekday())  # this week's Monday

    def table(self) -> list[tuple[str, Callable[[re.Match[str]], tuple[dt.date, dt.date, str]]]]:
        c, f = self.clock, self.fiscal
        rel = r"(?P<rel>this|current|last|previous|prior|next)"
        return [
            *[(pattern, self._fiscal_half) for pattern in _fiscal_spellings(_HALF)],
            (
                rf"\b{rel} fiscal (?:quarter|qtr)\b",
                lambda m: self._fiscal_quarter_rel(m["rel"]),
            ),
            (
                r"\b(?:(?:this|current) fiscal year|fiscal year|fiscal) to date\b|\bfytd\b",
                lambda m: (_fy(_fy_of(c, f), f)[0], self.tomorrow, "this fiscal year to date"),
            ),
            (
                rf"\b(?:(?:fiscal )?q(?P<q>[1-4])|(?P<o>first|1st|second|2nd|third|3rd|fourth|4th)"
                rf" fiscal quarter) (?:of )?(?:the )?{rel} (?:fiscal year|fiscal yr|fy)\b",
                lambda m: self._fq(
                    int(m["q"] or _ORD.get(m["o"] or "", 0)), _fy_of(c, f) + self._shift(m["rel"])
                ),
            ),
            (
                rf"\b(?:the )?(?:fiscal year|fiscal yr|fy) end(?:ing|ed|s)? (?:in )?{_MONTH_RE},? "
                rf"(?:of )?{_YEAR_RE}",
                lambda m: self._fy_ending(_month_number(m["mon"]), _year(m["year"])),
            ),
            (
                rf"\b(?:the )?first (?P<n>two|three|four|five|six|seven|eight|nine|ten|eleven|"
                rf"[2-9]|1[01]) months (?:of )?{_YEAR_RE}",
                lambda m: self._first_months(_NUM.get(m["n"]) or int(m["n"]), _year(m["year"])),
            ),
            (
                rf"\bfiscal (?:q|quarter )(?P<q>[1-4]) (?:of )?{rel} (?:fiscal )?(?:year|yr)\b",
                lambda m: self._fq(int(m["q"]), _fy_of(c, f) + self._shift(m["rel"])),
            ),
            *[(pattern, self._fiscal_quarter) for pattern in _fiscal_spellings(_QUARTER)],
            (
                r"\bfiscal q(?P<q>[1-4])\b",
                lambda m: self._fq(int(m["q"]), _fy_of(c, f)),
            ),
            (
                r"\b(?:fiscal (?:year )?|fy ?)(?P<a>\d{4}|\d{2}) ?(?:/|-) ?(?P<b>\d{4}|\d{2})\b",
                lambda m: self._split_fy(_year(m["a"]) + 1),
            ),
            (
                r"\b(?:fiscal year|fiscal|fy) ?'?(?P<y>\d{4}|\d{2})\b",
                lambda m: _fy(_year(m["y"]), f),
            ),
            (
                r"\bq(?P<a>[1-4]) ?(?:-|–|to|through|thru) ?q(?P<b>[1-4]),? (?:of )?"
                r"(?P<y>(?:19|20|21)\d{2}|'\d{2})\b",
                lambda m: self._quarters(int(m["a"]), int(m["b"]), _year(m["y"])),
            ),
            (
                rf"\b{_MONTH_RE} ?(?:-|–|to|through|thru|until) ?"
                rf"{_MONTH_RE.replace('mon>', 'mon2>')},? (?:of )?{_YEAR_RE}\b",
                lambda m: self._months(
                    _month_number(m["mon"]), _month_number(m["mon2"]), _year(m["year"])
                ),
            ),
            (
                rf"\b{rel} (?:fiscal year|fiscal yr|fy)\b",
                lambda m: _fy(_fy_of(c, f) + self._shift(m["rel"]), f),
            ),
            (
                r"\b(?:(?P<h>h[12]) (?:of )?(?P<y>\d{4}|'\d{2})|(?P<y2>\d{4}) (?P<h2>h[12])|"
                r"(?P<o>first|1st|second|2nd) half (?:of )?(?P<y3>\d{4}))\b",
                lambda m: self._half(m),
            ),
            (
                rf"\b(?:(?P<h>h[12])|(?P<o>first|1st|second|2nd) half) (?:of )?{rel} (?:year|yr)\b",
                lambda m: self._half_rel(m),
            ),
            (
                # "Q1 2024", "Q1-2024", "Q1/2024", "Q1 '24", "Q1 24", "2024Q1", and the
                # quarter first as analysts write it: "1Q24", "1Q 2024", "1Q-24" (a bare two
                # digits only right after the quarter: "Q1 24" is no count of 24)
                r"\b(?:q(?P<q>[1-4])(?: of)?(?:[ /-]?(?P<y>\d{4}|['’]\d{2})"
                rf"|[ /-]?(?P<y4>\d{{2}})\b(?! (?!{_AFTER_YY})[a-z]))"
                r"|(?P<y2>\d{4})[ -]?q(?P<q2>[1-4])"
                r"|(?P<q3>[1-4])q(?:[ /-]?(?P<y5>\d{4}|['’]?\d{2}))"
                r"|(?P<o>first|1st|second|2nd|third|3rd|fourth|4th) quarter (?:of )?"
                r"(?P<y3>\d{4}))\b",
                lambda m: self._quarter(
                    int(m["q"] or m["q2"] or m["q3"] or _ORD.get(m["o"] or "", 0)),
                    _year(m["y"] or m["y2"] or m["y3"] or m["y4"] or m["y5"]),
                ),
            ),
            (
                rf"\b(?:q(?P<q>[1-4])|(?P<o>first|1st|second|2nd|third|3rd|fourth|4th) quarter)"
                rf" (?:of )?{rel} (?:year|yr)\b",
                lambda m: self._quarter(
                    int(m["q"] or _ORD.get(m["o"] or "", 0)), c.year + self._shift(m["rel"])
                ),
            ),
            (
                r"\b(?P<y>(?:19|20|21)\d{2})-(?P<m>0[1-9]|1[0-2])\b(?!-)",
                lambda m: self._month(int(m["m"]), int(m["y"])),
            ),
            (
                # "March 3-9 2024", "Mar 3 to 9, 2024": days of one month, both ends kept
                rf"\b{_MONTH_RE} (?P<d>[0-3]?\d)(?:st|nd|rd|th)? ?(?:-|–|to|through|thru) ?"
                rf"(?P<d2>[0-3]?\d)(?:st|nd|rd|th)?,? (?:of )?{_YEAR_RE}\b",
                lambda m: self._days(
                    _year(m["year"]), _month_number(m["mon"]), int(m["d"]), int(m["d2"])
                ),
            ),
            (
                rf"\b(?P<d>[0-3]?\d)(?:st|nd|rd|th)? (?:of )?{_MONTH_RE},? ?"
                rf"(?P<y>(?:19|20|21)\d{{2}})\b"
                rf"|\b{_MONTH_RE.replace('mon>', 'mon2>')} (?P<d2>[0-3]?\d)(?:st|nd|rd|th)?,? "
                rf"(?P<y2>(?:19|20|21)\d{{2}})\b",
                lambda m: self._date(
                    int(m["y"] or m["y2"]),
                    _month_number(m["mon"] or m["mon2"]),
                    int(m["d"] or m["d2"]),
                ),
            ),
            (
                rf"\b(?P<d>[0-3]?\d)(?:st|nd|rd|th)? (?:of )?{_MONTH_RE}\b(?! ?(?:19|20|21)\d\d)"
                rf"|\b{_MONTH_RE.replace('mon>', 'mon2>')} (?P<d2>[0-3]?\d)(?:st|nd|rd|th)?\b"
                rf"(?!,? ?(?:19|20|21)\d\d)",
                lambda m: self._date_latest(
                    _month_number(m["mon"] or m["mon2"]), int(m["d"] or m["d2"])
                ),
            ),
            (
                rf"\b{_MONTH_RE},? ?(?:of )?{_YEAR_RE}\b",
                lambda m: self._month(_month_number(m["mon"]), _year(m["year"])),
            ),
            (
                r"\b(?:so far )?(?:this|current) month(?: so far| to date)?\b|\bmonth to date\b"
                r"|\bmtd\b",
                lambda m: (self.month0, self.tomorrow, "this month to date"),
            ),
            (
                r"\b(?:so far )?(?:this|current) quarter(?: so far| to date)?\b"
                r"|\bquarter to date\b|\bqtd\b",
                lambda m: (self.quarter0, self.tomorrow, "this quarter to date"),
            ),
            (
                r"\b(?:so far )?(?:this|current) (?:year|yr)(?: so far| to date)?\b"
                r"|\byear to date\b|\bytd\b|\bso far this year\b",
                lambda m: (dt.date(c.year, 1, 1), self.tomorrow, f"{c.year} to date"),
            ),
            (
                r"\b(?:last|past|previous|prior|trailing) (?P<n>\d+|one|two|three|four|five|six|"
                r"seven|eight|nine|ten|eleven|twelve) (?P<full>full |complete |whole )?"
                r"(?P<unit>months|quarters|years|weeks|days|month|quarter|year|week|day)\b"
                + _NOT_OF,
                lambda m: self._last_n(m),
            ),
            (
                # "the past year": a rolling year, the twelve months up to the clock, as "the
                # past 12 months" (outside tryout 39, F8: 'past' was read as a value)
                rf"\b(?:past|trailing|rolling) (?:year|yr|twelve months)\b{_NOT_OF}",
                lambda m: self._past_months(12),
            ),
            (
                # "the year before last": two calendar years back, whole (F8: 'last' unread)
                r"\bthe (?P<unit>year|yr|quarter|month) before last\b",
                lambda m: self._before_last(m["unit"]),
            ),
            (
                rf"\b(?:last|previous|prior) {_WHOLE}(?:year|yr)\b{_NOT_OF}|\bthe year before\b",
                lambda m: (dt.date(c.year - 1, 1, 1), dt.date(c.year, 1, 1), str(c.year - 1)),
            ),
            (
                r"\bnext (?:year|yr)\b",
                lambda m: (dt.date(c.year + 1, 1, 1), dt.date(c.year + 2, 1, 1), str(c.year + 1)),
            ),
            (
                rf"\b(?:last|previous|prior) {_WHOLE}quarter\b{_NOT_OF}",
                lambda m: self._quarter_at(_add_months(self.quarter0, -3)),
            ),
            (
                r"\bnext quarter\b",
                lambda m: self._quarter_at(_add_months(self.quarter0, 3)),
            ),
            (
                rf"\b(?:last|previous|prior) {_WHOLE}month\b{_NOT_OF}",
                lambda m: self._month_at(_add_months(self.month0, -1)),
            ),
            (
                r"\bnext month\b",
                lambda m: self._month_at(_add_months(self.month0, 1)),
            ),
            (
                r"\b(?:so far )?(?:this|current) week(?: so far| to date)?\b|\bweek to date\b"
                r"|\bwtd\b",
                lambda m: (self.week0, self.tomorrow, "this week to date"),
            ),
            (
                rf"\b(?:last|previous|prior) {_WHOLE}week\b{_NOT_OF}",
                lambda m: (
                    self.week0 - dt.timedelta(days=7),
                    self.week0,
                    f"the week of {self.week0 - dt.timedelta(days=7)}",
                ),
            ),
            (
                r"\byesterday\b",
                lambda m: (c - dt.timedelta(days=1), c, str(c - dt.timedelta(days=1))),
            ),
            (
                # "as of today", "up to today" name when, not a day to keep to
                r"(?<!as of )(?<!up to )(?<!until )(?<!till )(?<!through )\btoday\b",
                lambda m: (c, self.tomorrow, str(c)),
            ),
            (
                r"\bq(?P<q>[1-4])\b",
                lambda m: self._quarter(int(m["q"]), c.year),
            ),
            (
                r"\bcy ?(?P<y>\d{4})\b|\b(?P<y2>(?:19|20|21)\d{2})\b(?![-/]\d)",
                lambda m: (
                    dt.date(int(m["y"] or m["y2"]), 1, 1),
                    dt.date(int(m["y"] or m["y2"]) + 1, 1, 1),
                    str(m["y"] or m["y2"]),
                ),
            ),
            (
                r"\b(?P<y>(?:19|20|21)\d{2})-(?P<m>\d{2})-(?P<d>\d{2})\b",
                lambda m: self._day(m),
            ),
            (
                rf"(?:(?<=\bin )|(?<=\bfor )|(?<=\bduring )|(?<=\bsince )|(?<=\bof )|(?<=\bfrom )"
                rf"|(?<=\bto )|(?<=\bthrough )|(?<=\buntil )|(?<=\bvs )|(?<=\band )"
                rf"|(?<=\bbetween ))"
                rf"{_MONTH_RE}(?= |$|\?|\.|,)",
                lambda m: self._month_latest(_month_number(m["mon"])),
            ),
            (
                rf"\b(?!may\b|mar\b|jan\b|dec\b){_MONTH_RE}(?= |$|\?|\.|,)",
                lambda m: self._month_latest(_month_number(m["mon"])),
            ),
        ]

    @staticmethod
    def _shift(rel: str) -> int:
        return {"last": -1, "previous": -1, "prior": -1, "next": 1}.get(rel, 0)

    def _fy_ending(self, month: int, year: int) -> tuple[dt.date, dt.date, str]:
        """ "the fiscal year ending March 2024": the fiscal year whose last month that is; a
        month no fiscal year ends in leaves the words unread (asked back, never guessed)."""
        if month != (self.fiscal - 2) % 12 + 1:
            raise _NoPeriodHere
        return _fy(year, self.fiscal)

    def _first_months(self, n: int, year: int) -> tuple[dt.date, dt.date, str]:
        """ "the first six months of 2024": January to the n-th month of that year."""
        start = dt.date(year, 1, 1)
        return start, _add_months(start, n), f"{MONTHS[0].title()}-{MONTHS[n - 1].title()} {year}"

    def _split_fy(self, fy: int) -> tuple[dt.date, dt.date, str]:
        """A fiscal year written across two years ("fiscal 2023/24"). Where the fiscal year is
        the calendar year, that spelling names no period here: its words are left unread, so
        the question is asked back instead of guessed (found by the held-out phrasing half)."""
        if self.fiscal == 1:
            raise _NoPeriodHere
        return _fy(fy, self.fiscal)

    def _fq(self, q: int, fy: int) -> tuple[dt.date, dt.date, str]:
        start = _add_months(_fy(fy, self.fiscal)[0], 3 * (q - 1))
        return start, _add_months(start, 3), f"fiscal Q{q} {fy}"

    def _fiscal_quarter(self, m: re.Match[str]) -> tuple[dt.date, dt.date, str]:
        """ "Q1 of fiscal 2024", "first quarter of FY24", "fiscal 2024 Q1": a quarter of the
        fiscal year said."""
        return self._fq(int(m["q"] or _ORD[m["o"]]), _year(m["y"]))

    def _quarter(self, q: int, year: int) -> tuple[dt.date, dt.date, str]:
        start = dt.date(year, 3 * q - 2, 1)
        return start, _add_months(start, 3), f"Q{q} {year}"

    def _quarters(self, a: int, b: int, year: int) -> tuple[dt.date, dt.date, str]:
        if b < a:
            raise ValueError("a quarter range that runs backwards")
        start = dt.date(year, 3 * a - 2, 1)
        return start, _add_months(dt.date(year, 3 * b - 2, 1), 3), f"Q{a}-Q{b} {year}"

    def _months(self, a: int, b: int, year: int) -> tuple[dt.date, dt.date, str]:
        if b < a:
            raise ValueError("a month range that runs backwards")
        label = f"{MONTHS[a - 1].title()}-{MONTHS[b - 1].title()} {year}"
        return dt.date(year, a, 1), _add_months(dt.date(year, b, 1), 1), label

    def _quarter_at(self, start: dt.date) -> tuple[dt.date, dt.date, str]:
        return self._quarter((start.month - 1) // 3 + 1, start.year)

    def _half(self, m: re.Match[str]) -> tuple[dt.date, dt.date, str]:
        half = m["h"] or m["h2"] or ("h1" if m["o"] in {"first", "1st"} else "h2")
        year = _year(m["y"] or m["y2"] or m["y3"])
        start = dt.date(year, 1 if half == "h1" else 7, 1)
        return start, _add_months(start, 6), f"{half.upper()} {year}"

    def _fiscal_half(self, m: re.Match[str]) -> tuple[dt.date, dt.date, str]:
        """ "first half of fiscal 2025", "H2 FY24", "fiscal H1 2024": six months from the
        fiscal year's start."""
        half = (m["h"] or ("h1" if m["o"] in {"first", "1st"} else "h2")).upper()
        year = _year(m["y"])
        start = _fy(year, self.fiscal)[0]
        if half == "H2":
            start = _add_months(start, 6)
        return start, _add_months(start, 6), f"fiscal {half} {year}"

    def _fiscal_quarter_rel(self, rel: str) -> tuple[dt.date, dt.date, str]:
        """ "last fiscal quarter": the fiscal quarter before the clock's, and so on."""
        fy = _fy_of(self.clock, self.fiscal)
        index = (fy * 4 + (self.clock.month - self.fiscal) % 12 // 3) + self._shift(rel)
        return self._fq(index % 4 + 1, index // 4)

    def _half_rel(self, m: re.Match[str]) -> tuple[dt.date, dt.date, str]:
        half = m["h"] or ("h1" if m["o"] in {"first", "1st"} else "h2")
        year = self.clock.year + self._shift(m["rel"])
        start = dt.date(year, 1 if half == "h1" else 7, 1)
        return start, _add_months(start, 6), f"{half.upper()} {year}"

    def _month(self, month: int, year: int) -> tuple[dt.date, dt.date, str]:
        start = dt.date(year, month, 1)
        return start, _add_months(start, 1), f"{MONTHS[month - 1].title()} {year}"

    def _month_at(self, start: dt.date) -> tuple[dt.date, dt.date, str]:
        return self._month(start.month, start.year)

    def _month_latest(self, month: int) -> tuple[dt.date, dt.date, str]:
        year = self.clock.year if month <= self.clock.month else self.clock.year - 1
        return self._month(month, year)

    def _date(self, year: int, month: int, day_of: int) -> tuple[dt.date, dt.date, str]:
        day = dt.date(year, month, day_of)
        return day, day + dt.timedelta(days=1), str(day)

    def _days(self, year: int, month: int, first: int, last: int) -> tuple[dt.date, dt.date, str]:
        """Days ``first`` to ``last`` of one month; said backwards ("March 9-3 2024") no range
        (its words left unread and asked back)."""
        start, end = dt.date(year, month, first), dt.date(year, month, last)
        if end <= start:
            raise _NoPeriodHere
        return start, end + dt.timedelta(days=1), f"{start} to {end}"

    def _date_latest(self, month: int, day_of: int) -> tuple[dt.date, dt.date, str]:
        day = dt.date(self.clock.year, month, day_of)
        if day > self.clock:
            day = dt.date(self.clock.year - 1, month, day_of)
        return day, day + dt.timedelta(days=1), str(day)

    def _day(self, m: re.Match[str]) -> tuple[dt.date, dt.date, str]:
        day = dt.date(int(m["y"]), int(m["m"]), int(m["d"]))
        return day, day + dt.timedelta(days=1), str(day)

    def _last_n(self, m: re.Match[str]) -> tuple[dt.date, dt.date, str]:
        n = int(m["n"]) if m["n"].isdigit() else _NUM[m["n"]]
        unit = m["unit"].rstrip("s")
        if unit in {"day", "week"}:
            # "the last 7 days": seven days, the clock's day the last of them (an outside tryout
            # found eight counted); "the last 2 full weeks": the whole weeks (Monday first)
            # before this one
            if m["full"] and unit == "day":
                raise _NoPeriodHere  # whole days before today, or with it? asked back
            days = n * (7 if unit == "week" else 1)
            if m["full"]:
                return self.week0 - dt.timedelta(days=days), self.week0, f"the last {n} full weeks"
            return self.tomorrow - dt.timedelta(days=days), self.tomorrow, f"the past {n} {unit}s"
        months = n * {"month": 1, "quarter": 3, "year": 12}[unit]
        if m["full"] or unit != "month":
            anchor = {"month": self.month0, "quarter": self.quarter0}.get(
                unit, dt.date(self.clock.year, 1, 1)
            )
            return (
                _add_months(anchor, -months),
                anchor,
                f"the last {n} full {unit}s",
            )
        # "the past 3 months": the clock's day the last of them and the day three months back
        # left out, as "the past 30 days" counts 30 days (from 2024-11-07: 2024-08-08 to
        # 2024-11-07, 92 days; outside tryout 39 counted 93, the start day too). Quarters and
        # years ("the last 2 years") are whole calendar ones, said so ("full"), above.
        return self._past_months(months)

    def _past_months(self, months: int) -> tuple[dt.date, dt.date, str]:
        """The ``months`` months up to the clock, its day the last of them."""
        first = _add_months(dt.date(self.clock.year, self.clock.month, 1), -months)
        back = first.replace(
            day=min(self.clock.day, calendar.monthrange(first.year, first.month)[1])
        )
        return back + dt.timedelta(days=1), self.tomorrow, f"the past {months} months"

    def _before_last(self, unit: str) -> tuple[dt.date, dt.date, str]:
        """ "the year (quarter, month) before last": the whole one before the last one."""
        if unit == "quarter":
            return self._quarter_at(_add_months(self.quarter0, -6))
        if unit == "month":
            return self._month_at(_add_months(self.month0, -2))
        year = self.clock.year - 2
        return dt.date(year, 1, 1), dt.date(year + 1, 1, 1), str(year)


_PREVIOUS = re.compile(
    r"\b(?:the )?(?:previous|prior|preceding) (?:year|yr|period)\b|\bthe year before\b(?! last)"
    r"|\bsame (?:period|time|quarter|month) (?:last|a) year\b|\byear[- ]over[- ]year\b|\byoy\b"
    r"|\b(?:vs\.?|versus|against|compared (?:with|to)) (?:the )?last (?:year|yr)\b"
)
_Spelling = Callable[[re.Match[str]], tuple[dt.date, dt.date, str]]
_CACHE: dict[tuple[dt.date, int], list[tuple[re.Pattern[str], _Spelling]]] = {}


class _NoPeriodHere(Exception):
    """A spelling that names no period under this layer's fiscal year."""


def find_periods(
    question: str, clock: dt.date, fiscal_start_month: int = 1, first_day: dt.date | None = None
) -> list[Period]:
    """Every period the question names, in order, none overlapping another's words.

    "since 2022" runs from 2022-01-01 to the clock; "before 2023" from ``first_day`` (the
    first date the data holds; ``EARLIEST`` when unknown) up to 2023-01-01, left out.

    Example:
        >>> [p.label for p in find_periods("Q1 2024 vs Q1 2023", dt.date(2024, 11, 15))]
        ['Q1 2024', 'Q1 2023']
    """
    text = question.lower()
    taken: list[tuple[int, int]] = []
    found = _said(text, clock, fiscal_start_month, taken)
    found = _preceding(_join(_other_half(_share_year(found, text), text, taken), text))
    if any(_SAYS_YEAR.search(p.text) for p in found):
        # "revenue on September 1 vs September 15, 2023": a day said without its year beside
        # a period that says one never takes the clock's year silently; it is left unread
        # (never answered: its words are named back)
        found = [p for p in found if not (_undated(p) and p.end - p.start == _ONE_DAY)]
    out: list[Period] = []
    for period in found:
        since = re.search(
            r"\b(since|from|after)\s+(?:the\s+)?(?:(?:very\s+)?(?:beginning|start)\s+of\s+"
            r"(?:the\s+)?)?$",
            text[: period.span[0]],
        )
        before = re.search(r"\bbefore\s+$", text[: period.span[0]])
        if before and _UNIT_BEFORE.search(text[: before.start()]):
            before = None  # "the month before March 2023": one month, not every day before it
        if before and not since and not period.relative_previous:
            period = _before(period, text, before.start(), first_day or EARLIEST)
        elif since and since.group(1) in {"since", "after"} and not period.relative_previous:
            start = period.end if since.group(1) == "after" else period.start
            period = Period(
                start,
                clock + dt.timedelta(days=1),
                f"{since.group(1)} {period.label}",  # "after 2023" starts in 2024
                text[since.start() : period.span[1]],
                (since.start(), period.span[1]),
            )
        out.append(period)
    return out


def _said(
    text: str, clock: dt.date, fiscal_start_month: int, taken: list[tuple[int, int]]
) -> list[Period]:
    """Each period the rules read in ``text``, in order, none overlapping another's words
    (``taken`` gets their spans), before any is joined with another."""
    key = (clock, fiscal_start_month)
    if key not in _CACHE:
        _CACHE[key] = [(re.compile(p), fn) for p, fn in _Rules(clock, fiscal_start_month).table()]
    found: list[Period] = []
    for match in _PREVIOUS.finditer(text):
        taken.append(match.span())
        found.append(Period(clock, clock, "the previous year", match.group(0), match.span(), True))
    for pattern, fn in _CACHE[key]:
        for match in pattern.finditer(text):
            lo, hi = match.span()
            if any(lo < b and hi > a for a, b in taken):
                continue
            try:
                start, end, label = fn(match)
            except _NoPeriodHere:  # words that name no period here: taken, and left unread
                taken.append((lo, hi))
                continue
            except (ValueError, KeyError):  # an impossible date: not a period
                continue
            taken.append((lo, hi))
            found.append(Period(start, end, label, match.group(0), (lo, hi)))
    found.sort(key=lambda p: p.span)
    return found


# The first day of a period said with no start ("before 2023") when the data's is unknown.
EARLIEST = dt.date(1, 1, 1)
# "the day before yesterday", "the year before 2023", "two months before": a unit (or a
# number) said before "before" counts back from the period, which no open span reads
_UNIT_BEFORE = re.compile(
    r"\b(?:days?|weeks?|months?|quarters?|years?|yrs?|periods?|times?|one|two|three|\d+)\s+$"
)


def _before(period: Period, text: str, said: int, first_day: dt.date) -> Period:
    """ "before 2023": the days from ``first_day`` up to the period said, that period left
    out (an outside tryout saw "orders before 2023" asked back, while "since 2022" was read).
    Data that begins on or after the period has none of these days: the span is then the one
    day before the period, which the coverage rules find outside the data."""
    start = first_day if first_day < period.start else period.start - dt.timedelta(days=1)
    return Period(
        start,
        period.start,
        f"before {period.label}",
        text[said : period.span[1]],
        (said, period.span[1]),
        open_start=True,
    )


_RANGE = re.compile(r"^\s*(?:-|to|through|thru|until|till|and)\s*$")


_HALF_YEAR = dt.timedelta(days=183)


def _said_as_range(gap: str, lead: str, first: Period) -> bool:
    """Whether two periods are said as the ends of one range: "between A and B", "from A to
    B", "A through B", "Q3 2024 - Q1 2024" (a dash between whole months, quarters or years,
    as ``_join`` reads one said forwards; "A to B" alone may compare them: "Q1 2024 to Q1
    2023")."""
    said = gap.strip()
    if said == "-":
        return first.kind is not None
    if said == "and":
        return lead.endswith("between")
    if said == "to":
        return lead.endswith("from")
    return said in {"through", "thru", "until", "till"}


def _join(found: list[Period], text: str) -> list[Period]:
    """Adjacent periods, one inside the other ("2024 YTD"), read as the narrower; "from A to
    B", "A through B", "between A and B" read as one span."""
    out: list[Period] = []
    for period in found:
        prev = out[-1] if out else None
        if prev is None or prev.relative_previous or period.relative_previous:
            out.append(period)
            continue
        gap = text[prev.span[1] : period.span[0]]
        lead = text[: prev.span[0]].rstrip()
        if re.fullmatch(r"[\s,]*", gap) and (
            (prev.start <= period.start and period.end <= prev.end)
            or (period.start <= prev.start and prev.end <= period.end)
        ):
            narrow = period if period.end - period.start < prev.end - prev.start else prev
            out[-1] = Period(
                narrow.start,
                narrow.end,
                narrow.label,
                text[prev.span[0] : period.span[1]],
                (prev.span[0], period.span[1]),
            )
            continue
        ranged = _RANGE.match(gap) and (gap.strip() != "and" or lead.endswith("between"))
        if ranged and (prev.start >= period.end or (_undated(prev) and not _undated(period))):
            # "between Feb and Apr 2023", "from September 1 to September 15, 2023": a month
            # or day said without its year takes the year of the range's end, never the
            # latest such one (the clock's year: outside tryout 40 read 2024-09-01 and
            # 2023-09-15 as two days and found no rows)
            moved = _month_before(prev, period)
            if _undated(prev) and period.end - moved.start > _HALF_YEAR:
                # "between March 9 and March 3 2024": the ends said backwards, never read as
                # the year from 2023-03-09 (outside recheck 40b showed it at 1.00); the
                # yearless end is left unread
                ranged = None
            else:
                prev = moved
        if (
            ranged
            and prev.start >= period.end
            and all(_SAYS_YEAR.search(p.text) for p in (prev, period))
            and _said_as_range(gap, lead, prev)
        ):
            # "between 2024-03-09 and 2024-03-03", "from Q2 2024 to Q1 2024": the ends said
            # backwards, never read as two separate periods (outside recheck 41 showed the two
            # days); the first end is left unread, asked back (``backwards_ranges``)
            out.pop()
            out.append(period)
            continue
        if ranged and _undated(period) and not _undated(prev):
            # "from September 1, 2023 to September 15": the end takes the start's year
            period = _day_after(period, prev)
        dashed_days = _undated(prev) and prev.end - prev.start == _ONE_DAY
        if ranged and prev.start < period.end and (gap.strip() != "-" or prev.kind or dashed_days):
            out[-1] = Period(
                prev.start,
                period.end,
                f"{prev.label} to {period.label}",
                text[prev.span[0] : period.span[1]],
                (prev.span[0], period.span[1]),
                ranged=True,
                ends=(prev, period),
            )
            continue
        out.append(period)
    return out


_LAST_N = re.compile(
    r"^(?:the )?(?P<rel>last|past|trailing|previous|prior) (?P<n>\w+) (?P<full>full |complete "
    r"|whole )?(?P<unit>day|week|month|quarter|year)s?\b"
)


def _preceding(found: list[Period]) -> list[Period]:
    """ "the last 14 days compared to the previous 14 days": "the previous N units" said after
    "the last N units" is the N units before them, never the same N units again (found by an
    outside tryout: both read as the last 14 days, and asked back as one inside the other).
    Only the same N and unit said both times; any other pairing is left as read."""
    out: list[Period] = []
    for period in found:
        said = _LAST_N.match(period.text)
        earlier = next(
            (
                (p, m)
                for p in reversed(out)
                if (m := _LAST_N.match(p.text)) is not None
                and m["rel"] not in {"previous", "prior"}
            ),
            None,
        )
        if said is None or said["rel"] not in {"previous", "prior"} or earlier is None:
            out.append(period)
            continue
        before, first = earlier
        if (said["n"], said["unit"], said["full"]) != (first["n"], first["unit"], first["full"]):
            out.append(period)
            continue
        unit = said["unit"]
        if unit in {"day", "week"}:
            start = before.start - (before.end - before.start)
        else:
            months = (before.end.year * 12 + before.end.month) - (
                before.start.year * 12 + before.start.month
            )
            month0 = _add_months(before.start, -months)
            last_day = calendar.monthrange(month0.year, month0.month)[1]
            start = month0.replace(day=min(before.start.day, last_day))
        label = f"the previous {said['n']} {said['full'] or ''}{unit}s"
        out.append(Period(start, before.start, label, period.text, period.span))
    return out


_LISTED = re.compile(r"^\s*(?:,|vs\.?|versus|v|and|or|compared (?:with|to)|against)\s*$")


def _share_year(found: list[Period], text: str) -> list[Period]:
    """ "Feb vs Apr 2023", "Jan, Feb and Mar 2023", "Q1 vs Q2 2023": a month or quarter said
    without its year, listed or compared beside one that names its year, takes that year
    (never the clock's or the latest such month, which would compare two different years).
    Said out of order ("Dec vs Jan 2024": December 2023 or 2024?), the yearless one is dropped:
    its words are left unread and asked back; unless it is the one right next to the other in
    that year ("Q2 2023 vs Q1": Q1 2023, the quarter before; ``_next_in_year``)."""
    out: list[Period | None] = list(found)
    for order in (range(len(out) - 2, -1, -1), range(1, len(out))):
        for i in order:
            j = i + 1 if order.step < 0 else i - 1
            one, other = out[i], out[j]
            if one is None or other is None or one is not found[i]:
                continue  # dropped, or given its year already
            lo, hi = sorted((one.span, other.span))
            if not (_yearless(one) and _LISTED.match(text[lo[1] : hi[0]])):
                continue
            if other.kind not in {"month", "quarter"} or (_yearless(other) and other is found[j]):
                continue
            before = one.span < other.span
            out_of_order = (
                (one.start.month > other.start.month)
                if before
                else (one.start.month < other.start.month)
            )
            unit = 3 if one.kind == "quarter" else 1
            if out_of_order and not _next_in_year(one.start.month, other.start.month, unit):
                out[i] = None
                continue
            start = dt.date(other.start.year, one.start.month, 1)
            label = one.label.replace(str(one.start.year), str(start.year))
            months = 1 if one.kind == "month" else 3
            out[i] = dataclasses.replace(
                one, start=start, end=_add_months(start, months), label=label
            )
    return [p for p in out if p is not None]


_BACKWARDS = re.compile(
    rf"\b(?:between|from) (?P<a>{_MONTH_RE} (?P<d>[0-3]?\d)(?:st|nd|rd|th)?),? "
    r"(?:and|to|through|thru|until|till|-) "
    rf"(?P<b>{_MONTH_RE.replace('mon>', 'mon2>')} (?P<d2>[0-3]?\d)(?:st|nd|rd|th)?),? "
    rf"{_YEAR_RE}\b"
)


_BACKWARD_DAYS = re.compile(
    rf"\b{_MONTH_RE} (?P<d>[0-3]?\d) ?(?:-|–) ?(?P<d2>[0-3]?\d),? (?:of )?{_YEAR_RE}\b"
)


def backwards_ranges(question: str) -> list[tuple[str, str]]:
    """A range of days said with its end first ("between March 9 and March 3 2024"): its first
    end's words, as the question says them, and why it is not read, with how to ask. A range
    crossing a year ("from Dec 20 to Jan 5, 2024") is no such range (``_join`` reads it).

    Example:
        >>> [w for w, _ in backwards_ranges("revenue between March 9 and March 3 2024")]
        ['March 9']
        >>> backwards_ranges("revenue from Dec 20 to Jan 5, 2024")
        []
    """
    out = []
    for m in _BACKWARD_DAYS.finditer(question.lower()):  # "March 9-3 2024"
        if int(m["d2"]) < int(m["d"]):
            a = question[m.start() : m.end("d")]
            b = f"{question[m.start('mon') : m.end('mon')]} {m['d2']}"
            out.append((question[m.start() : m.end()], _ends_first(a, b, m["year"])))
    for m in _BACKWARDS.finditer(question.lower()):
        try:
            year = _year(m["year"])
            first = dt.date(year, _month_number(m["mon"]), int(m["d"]))
            last = dt.date(year, _month_number(m["mon2"]), int(m["d2"]))
            crossing = dt.date(year - 1, first.month, first.day)
        except ValueError:
            continue
        if last >= first or last - crossing <= _HALF_YEAR:
            continue
        a, b = question[m.start("a") : m.end("a")], question[m.start("b") : m.end("b")]
        out.append((a, _ends_first(a, b, m["year"])))
    return out + _dated_backwards(question)


def _dated_backwards(question: str) -> list[tuple[str, str]]:
    """A range whose two ends each say their year, said with its end first ("between
    2024-03-09 and 2024-03-03", "from Q2 2024 to Q1 2024"): the first end's words and why it
    is not read (``_join`` leaves them unread rather than read two separate periods).

    Example:
        >>> [w for w, _ in _dated_backwards("orders from 2024-03-09 to 2024-03-03")]
        ['2024-03-09']
        >>> _dated_backwards("orders from 2024-03-03 to 2024-03-09")
        []
    """
    text = question.lower()
    taken: list[tuple[int, int]] = []
    found = _said(text, NO_CLOCK, 1, taken)
    found = _other_half(_share_year(found, text), text, taken)  # as ``find_periods`` joins
    out = []
    for prev, period in itertools.pairwise(found):
        gap, lead = text[prev.span[1] : period.span[0]], text[: prev.span[0]].rstrip()
        if (
            prev.relative_previous
            or period.relative_previous
            or not all(_SAYS_YEAR.search(p.text) for p in (prev, period))
            or prev.start < period.end
            or not _said_as_range(gap, lead, prev)
        ):
            continue
        a, b = question[prev.span[0] : prev.span[1]], question[period.span[0] : period.span[1]]
        unit = "day" if prev.end - prev.start == period.end - period.start == _ONE_DAY else "period"
        out.append(
            (
                a,
                f"The range from {a} to {b} ends before it starts, so which days are meant is "
                f"not certain. Ask with the earlier {unit} first (for example 'between {b} and "
                f"{a}').",
            )
        )
    return out


def _ends_first(a: str, b: str, year: str) -> str:
    return (
        f"The range from {a} to {b} {year} ends before it starts, so which days are meant is "
        f"not certain. Ask with the earlier day first (for example 'between {b} and {a} "
        f"{year}')."
    )


def _next_in_year(month: int, other: int, unit: int) -> bool:
    """Whether a yearless month (or quarter, ``unit`` 3 months) said out of order beside
    ``other`` (the first month of one of a named year) is the one right next to it in that
    year: "Q2 2023 vs Q1" is Q1 2023, the quarter before (outside recheck 40b saw it abstained
    on). Farther apart it could be either year's ("Apr 2023 vs Feb", "Dec 2023 vs Jan"):
    asked back.

    Example:
        >>> _next_in_year(1, 4, 3), _next_in_year(2, 4, 1), _next_in_year(1, 12, 1)
        (True, False, False)
    """
    return abs(month - other) == unit


_OTHER_HALF = re.compile(
    r"\s*,?\s*(?:vs\.?|versus|and|compared (?:with|to)|against)\s+"
    r"(?P<w>(?:the\s+)?(?P<o>first|1st|second|2nd) half)\b(?!\s+of\b)"
)


def _other_half(found: list[Period], text: str, taken: list[tuple[int, int]]) -> list[Period]:
    """ "the first half of FY24 vs the second half": a half said without its year, compared
    with a half that names one, is the other half of that same (fiscal) year."""
    out: list[Period] = []
    for period in found:
        out.append(period)
        half = re.match(r"(?:fiscal )?H([12]) ", period.label)
        said = _OTHER_HALF.match(text, period.span[1])
        if half is None or said is None:
            continue
        span = said.span("w")
        if any(a < span[1] and span[0] < b for a, b in taken):
            continue  # the words are part of another period already
        second = said["o"] in {"second", "2nd"}
        if second == (half[1] == "2"):
            continue  # the same half said twice: no other half named
        start = _add_months(period.start, 6 if second else -6)
        label = period.label.replace(f"H{half[1]}", "H2" if second else "H1", 1)
        out.append(Period(start, _add_months(start, 6), label, text[span[0] : span[1]], span))
    return out


def _yearless(period: Period) -> bool:
    """A month or quarter written without its year ("Feb", "Q1")."""
    return period.kind in {"month", "quarter"} and not re.search(
        r"(?:19|20|21)\d\d|'\d\d|\bfy|fiscal", period.text
    )


_ONE_DAY = dt.timedelta(days=1)
_SAYS_YEAR = re.compile(r"(?:19|20|21)\d\d|'\d\d|\bfy|fiscal|\d{1,2}[/-]\d{1,2}[/-]\d")


def _undated(period: Period) -> bool:
    """One day, or one calendar month, written without its year ("September 1", "Feb")."""
    one_day = period.end - period.start == dt.timedelta(days=1)
    one_month = period.start.day == 1 and _add_months(period.start, 1) == period.end
    return (one_day or one_month) and not _SAYS_YEAR.search(period.text)


def _day_after(said: Period, start: Period) -> Period:
    """``said`` (one day or month written without a year) moved to the first such day or
    month that ends after ``start`` begins; any other period is returned as it is."""
    if not _undated(said):
        return said
    for year in (start.start.year, start.start.year + 1):
        try:
            moved = said.start.replace(year=year)
        except ValueError:  # 29 February
            continue
        end = moved + (said.end - said.start)
        if said.start.day == 1 and _add_months(said.start, 1) == said.end:
            end = _add_months(moved, 1)
        if end > start.start:
            label = said.label.replace(str(said.start.year), str(year))
            return dataclasses.replace(said, start=moved, end=end, label=label)
    return said


def _month_before(month: Period, end: Period) -> Period:
    """``month`` (one calendar month, or one day, written without a year) moved to the last
    such month or day starting before ``end`` ends; any other period is returned as it is."""
    one_day = month.end - month.start == dt.timedelta(days=1)
    if one_day and _undated(month):
        for year in (end.end.year, end.end.year - 1, end.end.year - 2):
            try:
                moved = month.start.replace(year=year)
            except ValueError:  # 29 February
                continue
            if moved < end.end:
                label = month.label.replace(str(month.start.year), str(year))
                return dataclasses.replace(
                    month, start=moved, end=moved + dt.timedelta(days=1), label=label
                )
        return month
    one_month = month.start.day == 1 and _add_months(month.start, 1) == month.end
    if not one_month or re.search(r"\d", month.text):
        return month
    start = dt.date(end.start.year, month.start.month, 1)
    if start >= end.end:
        start = dt.date(start.year - 1, start.month, 1)
    label = month.label.replace(str(month.start.year), str(start.year))
    return dataclasses.replace(month, start=start, end=_add_months(start, 1), label=label)


def parse_period(question: str, clock: dt.date, fiscal_start_month: int = 1) -> Period | None:
    """The one period a question asks about (the span of all it names), or ``None``.

    Example:
        >>> parse_period("revenue in Q2 2023?", dt.date(2024, 11, 15)).label
        'Q2 2023'
        >>> parse_period("orders last quarter", dt.date(2024, 11, 15)).start
        datetime.date(2024, 7, 1)
    """
    periods = [p for p in find_periods(question, clock, fiscal_start_month)]
    periods = [p for p in periods if not p.relative_previous]
    if not periods:
        return None
    if len(periods) == 1:
        return periods[0]
    start = min(p.start for p in periods)
    end = max(p.end for p in periods)
    return Period(
        start, end, " to ".join(p.label for p in periods), periods[0].text, periods[0].span
    )
