"""Bounds the SQL gets wrong: the question's bound on a number against the SQL's comparison on it.

- ``signal.bound_strictness``: the question's bound is strict ("after", "more than", "under")
  and the SQL's comparison on that number inclusive (``>=``), or the reverse ("at least",
  "or later" as ``>``; "through 1979", "until 1979" as ``< 1979``).
- ``signal.bound_on_other_column``: the question bounds a column by name ("weight over 2000")
  and the SQL puts that number on another column (``Year > 2000``) while the named one is there
  in the tables it reads.

Both are silent when the SQL does not parse or the question's bound is not read.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._cues import table_words, time_words, words
from assay.checks._sql import referenced_tables
from assay.checks._where import Const, comparison, finding, forms, tree_of

__all__ = ["bound_flipped", "bound_on_other_column", "bound_strictness"]


_STRICT_MORE = (
    r"more than|greater than|larger than|bigger than|higher than|heavier than|older than|"
    r"longer than|later than|after|above|over|exceeding|exceeds?|beyond"
)
_STRICT_LESS = (
    r"less than|fewer than|smaller than|lower than|lighter than|younger than|shorter than|"
    r"earlier than|before|below|under"
)
# The words right before a number, read backwards from it ("$" and "the year" may sit between).
_BEFORE = re.compile(
    r"(?:(?P<neg>\bnot|\bno|n't)\s+)?\b(?P<phrase>"
    r"(?:in|on|at) or (?:after|later than|before|earlier than)|"
    r"at least|at most|no less than|no fewer than|no more than|a minimum of|a maximum of|"
    r"up to|up until|up through|through|until|till|since|"
    + _STRICT_MORE
    + "|"
    + _STRICT_LESS
    + r")"
    r"\s+(?:the (?:year|age) (?:of )?)?\$?$"
)
# "30 or older", "1975 and later": not "30 and less than 50" nor "1975 and before 1980"
_AFTER_MORE = re.compile(
    r"^(?:\s+[a-z]+)?\s+(?:or|and) (?:more|greater|higher|above|over|later|after|older|"
    r"larger|bigger|longer|heavier|up|beyond|onwards?)\b(?!\s+(?:than|\$?\d))"
)
_AFTER_LESS = re.compile(
    r"^(?:\s+[a-z]+)?\s+(?:or|and) (?:less|fewer|lower|below|under|earlier|before|younger|"
    r"smaller|shorter|lighter)\b(?!\s+(?:than|\$?\d))"
)
# "through 1979", "until 1979": the year named is in (outside tryout 23: "made through 1979" as
# ``Year < 1979`` was shown at 1.00)
_AT_MOST = frozenset(
    {"at most", "no more than", "a maximum of", "up to", "up until", "up through", "through"}
    | {"until", "till"}
)
_NUM = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?![\w.])")


def _bound(before: str, after: str) -> tuple[str, bool, str] | None:
    """The bound the words around a number say: direction ("more"/"less"), strict, and the
    words, or ``None``.

    Example:
        >>> _bound("made after ", "?"), _bound("aged ", " or older")
        (('more', True, 'after'), ('more', False, 'or older'))
    """
    tail = _AFTER_MORE.match(after) or _AFTER_LESS.match(after)
    if tail is not None:
        direction = "more" if tail.re is _AFTER_MORE else "less"
        return direction, False, tail.group(0).strip()
    match = _BEFORE.search(before)
    if match is None:
        return None
    phrase = match.group("phrase")
    if " or " in phrase:
        return ("more" if re.search(r"after|later", phrase) else "less"), False, phrase
    if phrase in ("at least", "no less than", "no fewer than", "a minimum of", "since"):
        direction, strict = "more", False
    elif phrase in _AT_MOST:
        direction, strict = "less", False
    elif re.fullmatch(_STRICT_MORE, phrase):
        direction, strict = "more", True
    else:
        direction, strict = "less", True
    if match.group("neg") and strict:  # "not older than 30": at most 30
        direction, strict = ("less" if direction == "more" else "more"), False
    elif match.group("neg"):
        return None
    return direction, strict, match.group(0).strip()


def _question_bounds(question: str) -> list[tuple[float, str, bool, str]]:
    text = time_words(" ".join(question.replace("\u2019", "'").split()))  # "older than 1975"
    found = []
    for match in _NUM.finditer(text):
        bound = _bound(text[: match.start()], text[match.end() :])
        if bound is not None:
            found.append((float(match.group(1)), *bound))
    return found


def _numeric(value: Const) -> Const | None:
    """A number, or a string that is one (a text year compared as ``'2014'``)."""
    if value.kind == "num":
        return value
    try:
        return Const("num", float(value.text), value.text)
    except ValueError:
        return None


def _sql_bounds(tree: exp.Expr) -> list[tuple[exp.Expr, str, Const]]:
    found = []
    for node in tree.find_all(exp.GT, exp.GTE, exp.LT, exp.LTE):
        compared = comparison(node)
        number = _numeric(compared[2]) if compared is not None else None
        if compared is not None and number is not None:
            found.append((compared[0], compared[1], number))
    return found


# A negation a few words before a bound ("cars that do not weigh less than 3000", "never more
# than 5"): the words' direction is not the rows' one, so such a bound is not read for its way.
_NEGATED_BEFORE = re.compile(r"\b(?:not|no|never|neither|nor)\b|n't\b")


# A sign said in words: a bound at zero ("customers with a negative account balance" is
# ``c_acctbal < 0``; outside tryout 40: five samples agreeing on ``c_acctbal > 0`` were shown at
# 1.00). "non-negative" and "non-positive" are read before their bare words.
_SIGN_WORDS = re.compile(
    r"\b(?P<more>non-?negative|positive|(?:above|over|more than|greater than) zero|in credit|"
    r"in the black|profitable|in profit|at a profit)\b"
    r"|\b(?P<less>non-?positive|negative|(?:below|under|less than) zero|in debit|in the red|"
    r"overdrawn|in deficit|at a loss|loss-making|unprofitable)\b",
    re.IGNORECASE,
)
# A column whose own name says the side ("loss > 0" for "at a loss") is not read as flipped.
_SIDE_NAMES = re.compile(r"loss|debit|deficit|credit|negative|positive", re.IGNORECASE)


def _sign_bounds(text: str) -> list[tuple[str, str, bool]]:
    """(direction, the words, negated) for each sign said in words ("a negative balance": less
    than zero; "not negative": negated).

    Example:
        >>> _sign_bounds("customers with a negative balance or a non-negative one")
        [('less', 'negative', False), ('more', 'non-negative', False)]
    """
    found = []
    for match in _SIGN_WORDS.finditer(text):
        if match.group("less") and text[: match.start()].lower().endswith(("non-", "non")):
            continue
        before = " ".join(text[: match.start()].split()[-4:])
        direction = "more" if match.group("more") else "less"
        found.append((direction, match.group(0), _NEGATED_BEFORE.search(before) is not None))
    return found


def bound_flipped(question: str, tree: exp.Expr) -> str | None:
    """A number the question bounds one way ("weigh less than 3000") that every SQL comparison
    on it bounds the other way (``Weight > 3000``), or ``None``. Read number by number, so a
    question bounding two columns in two directions ("less than 3000 and made after 1975") is
    judged on each; ``comparison_fit`` judges the question's direction words as a whole and says
    nothing when both directions are said.

    Silent for a number said with both directions, for a bound with a negation up to four words
    before it ("do not weigh less than 3000"), and for a comparison under a NOT of a subquery
    (``NOT IN``, ``NOT EXISTS``) or in an ``EXCEPT``: rows taken away are bounded the other way.

    Example:
        >>> from sqlglot import parse_one
        >>> sql = "SELECT count(*) FROM cars WHERE weight > 3000 AND year > 1975"
        >>> bound_flipped("Cars weighing less than 3000 made after 1975?", parse_one(sql))
        "'less than 3000' as weight > 3000"
    """
    if tree.find(exp.Except) is not None:
        return None
    text = time_words(" ".join(question.replace("\u2019", "'").split()))
    said: dict[float, set[str]] = {}
    words_of: dict[float, str] = {}
    for match in _NUM.finditer(text):
        bound = _bound(text[: match.start()], text[match.end() :])
        if bound is None:
            continue
        number, (direction, _, phrase) = float(match.group(1)), bound
        before = " ".join(text[: match.start()].split()[-(len(phrase.split()) + 4) :])
        if _NEGATED_BEFORE.search(before):
            said.setdefault(number, set()).add("negated")
        said.setdefault(number, set()).add(direction)
        words_of[number] = f"{phrase} {match.group(1)}"
    for direction, phrase, negated_sign in _sign_bounds(text):
        if negated_sign:
            said.setdefault(0.0, set()).add("negated")
        said.setdefault(0.0, set()).add(direction)
        words_of.setdefault(0.0, phrase)
    compared = [
        (node, op, value)
        for node, op, value in _sql_bounds(tree)
        if not any(isinstance(a, exp.Not) for a in _ancestors(node))
        and not (value.number == 0 and _SIDE_NAMES.search(node.sql()))
    ]
    for number, directions in said.items():
        if len(directions) != 1:
            continue
        wanted = ">" if "more" in directions else "<"
        ops = [(node, op) for node, op, value in compared if value.number == number]
        if ops and not any(op.startswith(wanted) for _, op in ops):
            node, op = ops[0]
            said_as = words_of[number]
            if not re.search(r"\d", said_as):  # a sign said in words: its bound is zero
                said_as = f"{said_as} (a bound at 0)"
            return f"'{said_as}' as {node.sql()} {op} {number:g}"
    return None


def _ancestors(node: exp.Expr) -> list[exp.Expr]:
    found = []
    parent = node.parent
    while parent is not None:
        found.append(parent)
        parent = parent.parent
    return found


def bound_strictness(ctx: CheckContext) -> CheckOutcome:
    """The question bounds a number strictly ("after 1975", "more than 30", "under 3000") and
    every SQL comparison on that number is inclusive (``>= 1975``), or the question's bound is
    inclusive ("at least 30", "1975 or later", "since 1975") and the SQL's strict (``> 30``):
    the rows equal to the number are counted when they should not be, or left out.

    ``_date_bounds.date_bound_strictness`` applies the same rule (only the other way round is
    compared) to a day said with its month's name ("through December 31"), which is no number:
    it reads other words from the question (a day, its year optional), matches the SQL's days by
    month and day, and names its own signal. Neither is a case of the other, so they stay two.
    """
    tree = tree_of(ctx)
    if tree is None:
        return CheckOutcome()
    compared = _sql_bounds(tree)
    if not compared:
        return CheckOutcome()
    for number, direction, strict, said in _question_bounds(ctx.question):
        ops = {op for _, op, value in compared if value.number == number}
        wanted = (">" if direction == "more" else "<") + ("" if strict else "=")
        other = (">" if direction == "more" else "<") + ("=" if strict else "")
        if other in ops and wanted not in ops:
            node = next(n for n, op, v in compared if v.number == number and op == other)
            return CheckOutcome(
                (
                    finding(
                        "signal.bound_strictness",
                        f"The question says '{said} {number:g}' ("
                        f"{'excluding' if strict else 'including'} {number:g}) but the SQL "
                        f"compares {node.sql()} {other} {number:g} ("
                        f"{'including' if strict else 'excluding'} it).",
                        said=said,
                        number=f"{number:g}",
                        sql=f"{node.sql()} {other} {number:g}",
                    ),
                )
            )
    return CheckOutcome()


_COMPARED = (
    r"(?:more than|greater than|higher than|less than|fewer than|lower than|over|above|under|"
    r"below|at least|at most|exceeding|exceeds?)"
)
_NAMED_BOUND = re.compile(
    r"\b(?P<word>[a-z]+)\s+(?:of\s+|is\s+|are\s+|was\s+|were\s+)?(?:(?:not|no)\s+)?"
    rf"{_COMPARED}\s+\$?(?P<number>\d+(?:\.\d+)?)(?![\w.])"
)
# "more than 4 cylinders": the word after the number names what is bounded (outside tryout 20)
_BOUND_NAMED_AFTER = re.compile(rf"\b{_COMPARED}\s+(?P<number>\d+(?:\.\d+)?)\s+(?P<word>[a-z]+)\b")
# A verb that says its column's name ("cars that weigh more than 4000": the weight)
_VERBS = {"weigh": "weight", "weighs": "weight", "weighed": "weight", "weighing": "weight"}


def _name_words(column: str) -> set[str]:
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", column).replace("_", " ")
    return set(words(spaced)) | {column.lower()}


def _names(word: str, column: str) -> bool:
    """Whether a question's word names a column: one of the name's words (``i_size`` is
    "size"; ``Weight`` is "weight" or "weights")."""
    return bool(forms(word) & _name_words(column))


def bound_on_other_column(ctx: CheckContext) -> CheckOutcome:
    """The question bounds a column by its name ("weight over 2000") and the SQL compares that
    number on another column (``Year > 2000``) although a column of that name is in the tables
    it reads. Silent without the catalogue, when the word names no column there (a synonym of
    the compared column), a key or a table read ("a singer below 30" bounds the singers' age),
    or when the compared column itself is the one named."""
    tree = tree_of(ctx)
    if tree is None or ctx.catalog is None:
        return CheckOutcome()
    compared = [
        (node, value)
        for node, op, value in (*_sql_bounds(tree), *_equalities(tree))
        if isinstance(node, exp.Column)
    ]
    if not compared:
        return CheckOutcome()
    columns = []
    stored = set()
    tables = referenced_tables(tree)
    for name in tables:
        table = ctx.catalog.table(name)
        if table is not None:
            stored |= {c.name.lower() for c in table.columns}
            # a key names its table ("singer" names Singer_ID): not a quantity the question bounds
            columns += [c.name for c in table.columns if "id" not in _name_words(c.name)]
    # an alias ("HAVING total > 100" for SUM(price)) is no stored column: it says nothing
    compared = [(n, v) for n, v in compared if n.name.lower() in stored]
    subjects = frozenset().union(*(table_words(t) for t in tables))
    text = " ".join(ctx.question.lower().split())
    matches = [*_NAMED_BOUND.finditer(text), *_BOUND_NAMED_AFTER.finditer(text)]
    for match in matches:
        word, number = match.group("word"), float(match.group("number"))
        word = _VERBS.get(word, word)
        on_number = [n for n, v in compared if v.number == number]
        if word in subjects or not on_number or any(_names(word, n.name) for n in on_number):
            continue  # "a singer below 30": the rows the bound picks, not the bounded column
        named = [c for c in columns if _names(word, c)]
        if not named:
            continue
        column = on_number[0]
        assert isinstance(column, exp.Column)
        return CheckOutcome(
            (
                finding(
                    "signal.bound_on_other_column",
                    f"The question bounds {word!r} ('{match.group(0)}') but the SQL compares "
                    f"{number:g} on {column.sql()}, not on {named[0]}.",
                    said=match.group(0),
                    named=named[0],
                    compared=column.sql(),
                ),
            )
        )
    return CheckOutcome()


def _equalities(tree: exp.Expr) -> list[tuple[exp.Expr, str, Const]]:
    found = []
    for node in tree.find_all(exp.EQ):
        compared = comparison(node)
        if compared is not None and compared[2].kind == "num":
            found.append(compared)
    return found
