"""A bound on a number the question never asks for.

"How many clicks did the Summer Fitness Campaign get in total?" answered with ``... AND
impressions > 8000``, "What is the average retail price of parts?" with ``WHERE p_size > 10``:
five samples agreeing on the extra condition were shown at 1.00 (outside tester, tryout 26,
s_w6 and q5). The answer leaves out rows the question asks about.

``bound_unasked`` reads each ``<``, ``<=``, ``>`` or ``>=`` of the WHERE between a bare column
and a number, and says when the question says neither the number nor any word of the column
(``signal.bound_unasked``). Implicit bounds are common ("adults", "expensive", "recent",
"positive balance"), so the check is silent when the question has any word of size, degree,
age, time or comparison (``_IMPLICIT``), any spelled number, or when the number is 0 or 1, but
for a bound at 0 on the very column the SQL averages ("the average account balance" over
``c_acctbal > 0`` drops the customers in debt from the average: agreed25 h25_h11, shown at
1.00), unless the question says some values are left out ("ignoring", "excluding", "recorded").
A comparison the question spells with a number the SQL bounds by ("more than 100 orders" as
``COUNT_LIFETIME_ORDERS > 100``) is accounted for and taken out before that test, so an extra
bound beside it is still read ("... AND LIFETIME_SPEND > 1000", agreed20, a development set:
shown at 1.00, five samples agreeing).
A year kept by an equality (``Year = 2014``, ``year(d) = 2014``), at any depth, where the
question says no number and no word of time, is the same extra condition: "Which stadiums
have never hosted a concert?" as ``NOT IN (SELECT Stadium_ID FROM concert WHERE Year = 2014)``
(agreed26 h26_s07: shown at 1.00).
A word of the question names the column loosely: its first four letters anywhere in the
column's name, or the first four letters of a name part anywhere in the question. Silence is
never evidence of a right answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._cues import words
from assay.checks._sql import parse_query
from assay.checks._where import finding

__all__ = ["bound_unasked"]

# Words that may carry a bound the question does not spell out as a number.
_IMPLICIT = re.compile(
    r"\b(more|less|fewer|over|under|above|below|beyond|exceed\w*|at least|at most|than|"
    r"between|within|up to|greater|larger|smaller|higher|lower|bigger|older|younger|newer|"
    r"earlier|later|before|after|since|until|recent\w*|expensive|cheap\w*|costly|large|small|"
    r"big|high|low|long|short|heavy|light|old|young|adults?|seniors?|minors?|teen\w*|"
    r"positive|negative|nonzero|non-zero|zero|empty|full|some|any|only|most|least|top|"
    r"bottom|best|worst|popular|rich|poor|major|minor|significant|active|valid|real|paid|"
    r"profitable|loss\w*|late|early|overdue|delayed|fast|slow|hot|cold|tall|"
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|"
    r"fifty|hundred|thousand|million|billion|dozen|half|double|twice|percent|%|"
    # a quarter of a year bounds its months (outside tryout 28: "the second quarter" as
    # d_moy >= 4 AND d_moy < 7); "half" is above
    r"quarter\w*|q[1-4]|h[12])\b",
    re.IGNORECASE,
)
# A comparison spelled with its number: "more than 100", "at least $5,000", "over 20%".
_COMPARED = re.compile(
    r"\b(?:(?:more|less|fewer|greater|larger|smaller|higher|lower)\s+than|at\s+(?:least|most)|"
    r"over|under|above|below|exceed(?:s|ed|ing)?|up\s+to)\s+\$?(\d[\d,]*(?:\.\d+)?)\s*%?",
    re.IGNORECASE,
)
_STOP = frozenset(
    "the and for with what which how many much are was were did does get got has have had "
    "from that this these those there their its total all each every give list show find "
    "number count average sum of in on at by to".split()
)


def _said_numbers(question: str) -> set[float]:
    """Every number written in digits in the question ("8,000" is 8000); a decade ("the
    1970s", "in their 30s") says its ends too, either way round: 1970 to 1979, bounded as
    ``< 1980`` or ``> 1969`` (agreed18 h18_d03: "born in the 1970s" as ``c_birth_year >= 1970
    AND c_birth_year < 1980`` was withheld, 1980 read as unasked).

    Example:
        >>> sorted(_said_numbers("Customers born in the 1970s?"))
        [1969.0, 1970.0, 1979.0, 1980.0]
    """
    found = set()
    for match in re.finditer(r"\d[\d,]*(?:\.\d+)?(s\b)?", question):
        text = match.group(0).removesuffix("s")
        try:
            number = float(text.replace(",", ""))
        except ValueError:
            continue
        found.add(number)
        if match.group(1) and number % 10 == 0:
            found |= {number - 1, number + 9, number + 10}
    return found


def _unaccounted(question: str, bounded: set[float]) -> str:
    """The question less each comparison it spells with a number the SQL bounds by: that
    comparison is the SQL's, so its words say nothing of another bound."""

    def drop(match: re.Match[str]) -> str:
        number = float(match.group(1).replace(",", ""))
        return " " if number in bounded else match.group(0)

    return _COMPARED.sub(drop, question)


def _named(question: str, column: str) -> bool:
    """A word of the question names the column, loosely."""
    name = column.lower()
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", column)
    parts = [p for p in re.split(r"[^a-z0-9]+", spaced.lower()) if len(p) >= 3]
    text = question.lower()
    said = [w for w in words(question) if len(w) >= 3 and w not in _STOP]
    return any(w[:4] in name for w in said) or any(p[:4] in text for p in parts)


def _number(node: exp.Expr) -> float | None:
    """The value of a numeric literal, a leading minus read."""
    if isinstance(node, exp.Neg):
        inner = _number(node.this)
        return -inner if inner is not None else None
    if isinstance(node, exp.Literal) and not node.is_string:
        try:
            return float(node.name)
        except ValueError:
            return None
    return None


def _bounds(tree: exp.Expr) -> list[tuple[str, float]]:
    """(column name, number) for each bound of a WHERE between a bare column and a number."""
    found = []
    for where in tree.find_all(exp.Where):
        for node in where.find_all(exp.GT, exp.GTE, exp.LT, exp.LTE):
            for column, other in ((node.this, node.expression), (node.expression, node.this)):
                number = _number(other)
                if isinstance(column, exp.Column) and number is not None:
                    found.append((column.name, number))
    return found


# Words that say some values are left out of an average ("ignoring the ones with no mpg
# recorded", "excluding blanks"): a bound at 0 may be how the SQL says them
_KEPT_OUT = re.compile(
    r"\b(?:ignor\w*|exclud\w*|skip\w*|omit\w*|leav\w* out|missing|without|unknown|known|"
    r"recorded|blank\w*|null\w*|non\w*|real|actual|valid)\b",
    re.IGNORECASE,
)


def _averaged(tree: exp.Expr) -> set[str]:
    """The names of the bare columns the SQL averages (``avg(c_acctbal)``)."""
    return {
        node.this.name.lower()
        for node in tree.find_all(exp.Avg)
        if isinstance(node.this, exp.Column)
    }


# Words that say or imply a period: a year compared may be how the SQL says them
_PERIOD_SAID = re.compile(
    r"\b(?:years?|yearly|annual\w*|months?|monthly|quarter\w*|weeks?|weekly|days?|daily|"
    r"dates?|dated|seasons?|periods?|recent\w*|latest|last|this|current\w*|since|before|"
    r"after|during|until|till|ago|past|previous|prior|today|now|new|newest|old\w*|decades?|"
    r"century|when|time|era|first|season|edition|then)\b|\d",
    re.IGNORECASE,
)
_YEAR_COLUMN = re.compile(r"year", re.IGNORECASE)


def _year_kept(tree: exp.Expr) -> str | None:
    """The first ``year = 2014`` of a WHERE, at any depth: a column named for a year, or a
    date's year (``year(d)``, ``EXTRACT(year FROM d)``), equal to a year's number (or its
    text); ``None`` when there is none.

    Example:
        >>> from sqlglot import parse_one
        >>> sql = "SELECT a FROM s WHERE id NOT IN (SELECT id FROM c WHERE Year = 2014)"
        >>> _year_kept(parse_one(sql))
        'Year = 2014'
        >>> _year_kept(parse_one("SELECT a FROM s WHERE id NOT IN (SELECT id FROM c)")) is None
        True
    """
    for where in tree.find_all(exp.Where):
        for node in where.find_all(exp.EQ):
            for side, other in ((node.this, node.expression), (node.expression, node.this)):
                yearly = (isinstance(side, exp.Column) and _YEAR_COLUMN.search(side.name)) or (
                    isinstance(side, exp.Year)
                    or (isinstance(side, exp.Extract) and side.name.lower() == "year")
                )
                text = other.name if isinstance(other, exp.Literal) else ""
                if yearly and re.fullmatch(r"(?:1[89]|20)\d\d", text.strip()):
                    return node.sql()
    return None


def bound_unasked(ctx: CheckContext) -> CheckOutcome:
    """A WHERE bounds a column the question never names by a number it never says
    (``signal.bound_unasked``); or keeps one year where the question says no number and no
    word of time ("Which stadiums have never hosted a concert?" as ``NOT IN (SELECT Stadium_ID
    FROM concert WHERE Year = 2014)`` answers "none in 2014": agreed26 h26_s07, shown at 1.00,
    five samples agreeing)."""
    sql = ctx.candidate.final_sql
    tree = parse_query(sql, ctx.dialect) if sql else None
    if tree is None:
        return CheckOutcome()
    year = _year_kept(tree) if not _PERIOD_SAID.search(ctx.question) else None
    if year is not None:
        message = (
            f"The SQL keeps only the rows where {year}, but the question names no year and "
            "no period: the answer covers one year where the question asks about all of "
            "them. Drop the condition, or say the year in the question."
        )
        return CheckOutcome((finding("signal.bound_unasked", message, condition=year),))
    bounds = _bounds(tree)
    if _IMPLICIT.search(_unaccounted(ctx.question, {n for _, n in bounds})):
        return CheckOutcome()
    said = _said_numbers(ctx.question)
    averaged = _averaged(tree) if not _KEPT_OUT.search(ctx.question) else set()
    for column, number in bounds:
        shown = f"{number:g}"
        if number == 0.0 and column.lower() in averaged:
            # "average account balance" over c_acctbal > 0: the average loses its own rows
            message = (
                f"The SQL averages {column} but keeps only the rows whose {column} is bounded "
                "by 0, which the question never asks: the rows left out (zero or negative "
                "values) change the average. Drop the condition."
            )
        elif number in (0.0, 1.0) or number in said or _named(ctx.question, column):
            continue
        else:
            message = (
                f"The SQL keeps only the rows whose {column} is bounded by {shown}, but the "
                f"question names neither {column} nor {shown}: the extra condition leaves "
                "out rows the question asks about."
            )
        return CheckOutcome(
            (finding("signal.bound_unasked", message, column=column, number=shown),)
        )
    return CheckOutcome()
