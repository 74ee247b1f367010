"""Conditions the SQL gets wrong: deterministic checks of the WHERE against itself and against
the question's conditions.

Samples that all agree on one wrong condition are shown at full agreement (outside tryout 18:
"made in 1972 or 1973" as ``Year = 1972 AND Year = 1973``, "not made in 1972" as
``Year = 1972``, "after 1975" as ``Year >= 1975``, "weight over 2000" as ``Year > 2000``); only
a check of the condition itself can see them. Each check is a pure function of the context
returning ``signal`` findings with their evidence, silent when the SQL does not parse or the
question's cue is not read, so their silence is never evidence of a right answer:

- ``signal.unsatisfiable_filter``: a WHERE conjunction no row can pass (one column equal to two
  different constants, ``x > 5 AND x < 3``), read from the SQL alone, whatever the question.
- ``signal.negation_dropped``: the question negates a value ("not made in 1972", "not large",
  "other than France") and the SQL keeps that value as a positive equality with no negation
  anywhere (no NOT, ``<>``, ``!=``, NOT IN, EXCEPT, NOT EXISTS, IS NULL).
- ``signal.bound_strictness``: the question's bound on a number is strict ("after", "more
  than", "under") and the SQL's comparison on that number inclusive (``>=``), or the reverse
  ("at least", "or later" as ``>``).
- ``signal.bound_on_other_column``: the question bounds a column by name ("weight over 2000")
  and the SQL puts that number on another column (``Year > 2000``) while the named one is there
  in the tables it reads.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._cues import table_words, words
from assay.checks._sql import parse_query, referenced_tables
from assay.types import Finding

__all__ = [
    "CONDITION_CHECKS",
    "CONDITION_SIGNALS",
    "bound_on_other_column",
    "bound_strictness",
    "negation_dropped",
    "unsatisfiable_filter",
]

CONDITION_SIGNALS = (
    "signal.unsatisfiable_filter",
    "signal.negation_dropped",
    "signal.bound_strictness",
    "signal.bound_on_other_column",
)


def _finding(code: str, message: str, **evidence: object) -> Finding:
    return Finding(code, "signal", message, dict(evidence))


def _tree(ctx: CheckContext) -> exp.Expr | None:
    sql = ctx.candidate.final_sql
    return parse_query(sql, ctx.dialect) if sql else None


def _conjuncts(condition: exp.Expr) -> Iterator[exp.Expr]:
    """The terms of a top-level AND chain, through parentheses."""
    while isinstance(condition, exp.Paren):
        condition = condition.this
    if isinstance(condition, exp.And):
        yield from _conjuncts(condition.left)
        yield from _conjuncts(condition.right)
    else:
        yield condition


@dataclass(frozen=True)
class _Const:
    """A literal: its kind ("num" or "str"), its number (for "num") and its text."""

    kind: str
    number: float
    text: str


def _const(node: exp.Expr) -> _Const | None:
    negative = False
    if isinstance(node, exp.Neg):
        negative, node = True, node.this
    if not isinstance(node, exp.Literal):
        return None
    if node.is_string:
        return None if negative else _Const("str", 0.0, node.name)
    try:
        value = float(node.name)
    except ValueError:
        return None
    return _Const("num", -value if negative else value, ("-" if negative else "") + node.name)


_FLIP = {">": "<", ">=": "<=", "<": ">", "<=": ">=", "=": "="}
_OPS: dict[type[exp.Expr], str] = {
    exp.EQ: "=",
    exp.GT: ">",
    exp.GTE: ">=",
    exp.LT: "<",
    exp.LTE: "<=",
}


def _column_key(column: exp.Column) -> tuple[str, str]:
    return (column.table.lower(), column.name.lower())


def _comparison(node: exp.Expr) -> tuple[exp.Expr, str, _Const] | None:
    """``expression OP constant`` with the constant on the right (``1975 <= year`` is
    ``year >= 1975``), or ``None``."""
    op = _OPS.get(type(node))
    if op is None:
        return None
    left, right = node.args.get("this"), node.args.get("expression")
    if not isinstance(left, exp.Expr) or not isinstance(right, exp.Expr):
        return None
    value = _const(right)
    if value is not None and _const(left) is None:
        return left, op, value
    value = _const(left)
    if value is not None and _const(right) is None:
        return right, _FLIP[op], value
    return None


# ---------------------------------------------------------------- unsatisfiable_filter


@dataclass
class _Bounds:
    """What a conjunction asks of one column: equalities, IN lists, and a lower and upper
    bound (value, strict)."""

    equal: list[_Const]
    within: list[list[_Const]]
    lower: list[tuple[_Const, bool]]
    upper: list[tuple[_Const, bool]]


def _constraints(where: exp.Expr) -> dict[tuple[str, str], _Bounds]:
    found: dict[tuple[str, str], _Bounds] = {}

    def bounds(column: exp.Column) -> _Bounds:
        return found.setdefault(_column_key(column), _Bounds([], [], [], []))

    for term in _conjuncts(where):
        compared = _comparison(term)
        if compared is not None and isinstance(compared[0], exp.Column):
            column, op, value = compared
            assert isinstance(column, exp.Column)
            b = bounds(column)
            if op == "=":
                b.equal.append(value)
            elif op in (">", ">="):
                b.lower.append((value, op == ">"))
            else:
                b.upper.append((value, op == "<"))
        elif isinstance(term, exp.In) and isinstance(term.this, exp.Column):
            items = [_const(e) for e in term.expressions]
            if items and term.args.get("query") is None and all(i is not None for i in items):
                bounds(term.this).within.append([i for i in items if i is not None])
        elif isinstance(term, exp.Between) and isinstance(term.this, exp.Column):
            low, high = _const(term.args["low"]), _const(term.args["high"])
            if low is not None and high is not None:
                b = bounds(term.this)
                b.lower.append((low, False))
                b.upper.append((high, False))
    return found


def _possible(b: _Bounds, key: str) -> bool:
    """Whether some value passes every bound, comparing constants by ``key`` ("num": as
    numbers; "text": as their text, the way a text column compares them; "fold": text without
    case or edge spaces, for equality only). A dense domain is assumed (``x > 5 AND x < 6`` is
    possible), so only a true contradiction is impossible."""

    def k(c: _Const) -> tuple[float, str]:
        if key == "num":
            return (c.number, "")
        return (0.0, c.text.casefold().strip() if key == "fold" else c.text)

    def passes(value: tuple[float, str]) -> bool:
        for bound, strict in b.lower:
            if value < k(bound) or (strict and value == k(bound)):
                return False
        for bound, strict in b.upper:
            if value > k(bound) or (strict and value == k(bound)):
                return False
        return True

    candidates: set[tuple[float, str]] | None = None
    if b.equal:
        candidates = {k(c) for c in b.equal}
        if len(candidates) > 1:
            return False
    for items in b.within:
        keys = {k(c) for c in items}
        candidates = keys if candidates is None else candidates & keys
    if candidates is not None:
        return any(passes(v) for v in candidates)
    if not b.lower or not b.upper:
        return True
    for low, low_strict in b.lower:
        for high, high_strict in b.upper:
            if k(low) > k(high) or (k(low) == k(high) and (low_strict or high_strict)):
                return False
    return True


def _impossible(b: _Bounds) -> bool:
    constants = [*b.equal, *(c for items in b.within for c in items)]
    constants += [c for c, _ in (*b.lower, *b.upper)]
    kinds = {c.kind for c in constants}
    if kinds == {"num"}:
        # a number compared with a text column is compared as text on SQLite: impossible only
        # when it is impossible both ways
        return not _possible(b, "num") and not _possible(b, "text")
    if kinds == {"str"} and not b.lower and not b.upper:
        # a case-insensitive collation makes 'a' and 'A' equal: differ without case too
        return not _possible(b, "fold")
    return False


def _shown(column: tuple[str, str], b: _Bounds) -> str:
    name = ".".join(p for p in column if p)
    parts = [f"{name} = {c.text}" for c in b.equal]
    parts += [f"{name} IN ({', '.join(c.text for c in items)})" for items in b.within]
    parts += [f"{name} {'>' if s else '>='} {c.text}" for c, s in b.lower]
    parts += [f"{name} {'<' if s else '<='} {c.text}" for c, s in b.upper]
    return " AND ".join(parts)


def unsatisfiable_filter(ctx: CheckContext) -> CheckOutcome:
    """A WHERE whose AND-ed conditions on one column can never all hold (``Year = 1972 AND
    Year = 1973``; ``x > 5 AND x < 3``; ``x = NULL``): no row passes, so the answer is empty or a
    count of 0 by construction, whatever the question and the data. Read from the SQL alone;
    conditions under OR, on two columns, or mixing text and numbers say nothing."""
    tree = _tree(ctx)
    if tree is None:
        return CheckOutcome()
    for select in tree.find_all(exp.Select):
        where = select.args.get("where")
        if not isinstance(where, exp.Where):
            continue
        for term in _conjuncts(where.this):
            if isinstance(term, exp.EQ | exp.NEQ) and any(
                isinstance(side, exp.Null) for side in (term.this, term.expression)
            ):
                return CheckOutcome(
                    (
                        _finding(
                            "signal.unsatisfiable_filter",
                            f"The WHERE can never be true: {term.sql()} is never true (NULL "
                            "compares as unknown; IS NULL tests for it), so no row passes.",
                            column=term.this.sql(),
                            condition=term.sql(),
                        ),
                    )
                )
        for column, bounds in _constraints(where.this).items():
            if _impossible(bounds):
                said = _shown(column, bounds)
                return CheckOutcome(
                    (
                        _finding(
                            "signal.unsatisfiable_filter",
                            f"The WHERE can never be true: {said} cannot all hold for one "
                            "value, so no row passes and the answer is empty (or a count of 0) "
                            "by construction.",
                            column=".".join(p for p in column if p),
                            condition=said,
                        ),
                    )
                )
    return CheckOutcome()


# ---------------------------------------------------------------- negation_dropped

_NEGATION = re.compile(r"\b(?:not|never|except(?: for)?|excluding|other than|apart from)\b|n't\b")
# "except the id for dogs": the negation ends where another condition begins
_SCOPE_END = re.compile(r"[,;.?!]|\b(?:and|but|who|which|that|whose|where|while|with|for)\b")
_COMPARED = re.compile(
    r"\b(?:more|less|fewer|greater|larger|bigger|higher|lower|smaller|older|younger|heavier|"
    r"lighter|longer|shorter|earlier|later)\s+than\b|\b(?:above|below|over|under|at least|"
    r"at most|after|before|exceed\w*)\b"
)
_NEGATION_WINDOW = 6  # words after the negation that it can bear on


def _negated_phrases(question: str) -> list[str]:
    """The text each negation in the question bears on: up to six words after it, cut at the
    end of the clause; a negated comparison ("not older than 30") is the comparison checks'.

    Example:
        >>> _negated_phrases("How many cars were not made in 1972, and which?")
        ['made in 1972']
    """
    text = " ".join(question.lower().replace("\u2019", "'").split())
    phrases = []
    for match in _NEGATION.finditer(text):
        rest = text[match.end() :]
        end = _SCOPE_END.search(rest)
        scope = " ".join(rest[: end.start() if end else len(rest)].split()[:_NEGATION_WINDOW])
        if scope and not _COMPARED.search(scope):
            phrases.append(scope)
    return phrases


def _forms(word: str) -> set[str]:
    forms = {word}
    if word.endswith("ies") and len(word) > 4:
        forms.add(word[:-3] + "y")
    elif word.endswith("es") and len(word) > 4:
        forms |= {word[:-2], word[:-1]}
    elif word.endswith("s") and len(word) > 3:
        forms.add(word[:-1])
    return forms


def _names_value(phrase: str, value: _Const) -> bool:
    """Whether the negated phrase says the literal: the same number, or the text's words in
    a row (a final plural read as singular: "dogs" says 'dog')."""
    said = words(phrase)
    if value.kind == "num":
        return any(w.replace(".", "", 1).isdigit() and float(w) == value.number for w in said)
    wanted = words(value.text)
    if not wanted or not said:
        return False
    for start in range(len(said) - len(wanted) + 1):
        window = said[start : start + len(wanted)]
        if window[:-1] == wanted[:-1] and wanted[-1] in _forms(window[-1]):
            return True
    return False


def _negates(tree: exp.Expr) -> bool:
    """Whether the query negates anywhere: NOT (NOT IN, NOT EXISTS, NOT LIKE, IS NOT), ``<>``,
    EXCEPT, or IS NULL (an anti-join: LEFT JOIN ... WHERE key IS NULL); sqlglot writes NOT LIKE
    as a LIKE that negates."""
    if tree.find(exp.Not, exp.NEQ, exp.Except, exp.Is) is not None:
        return True
    return any(node.args.get("negate") for node in tree.walk())


def _positive_equalities(tree: exp.Expr) -> Iterator[tuple[exp.Expr, _Const]]:
    """``column = constant`` and ``column IN (constants)`` (and LIKE without wildcards' text)
    among the AND-ed terms of the outer query's WHERE (each SELECT of a UNION)."""
    selects = [tree] if isinstance(tree, exp.Select) else []
    if isinstance(tree, exp.Union):
        selects = [s for s in (tree.left, tree.right) if isinstance(s, exp.Select)]
    for select in selects:
        where = select.args.get("where")
        if not isinstance(where, exp.Where):
            continue
        for term in _conjuncts(where.this):
            compared = _comparison(term)
            if compared is not None and compared[1] == "=":
                yield term, compared[2]
            elif isinstance(term, exp.In) and term.args.get("query") is None:
                for item in term.expressions:
                    value = _const(item)
                    if value is not None:
                        yield term, value
            elif isinstance(term, exp.Like | exp.ILike) and not term.args.get("negate"):
                value = _const(term.expression)
                if value is not None and value.kind == "str":
                    yield term, _Const("str", 0.0, value.text.replace("%", " ").strip())


def negation_dropped(ctx: CheckContext) -> CheckOutcome:
    """The question negates a value ("not made in 1972", "items not large", "other than
    France") and the SQL asks for that value as a positive equality in its WHERE, with no
    negation anywhere in the query: it counts or lists exactly the rows the question excludes."""
    tree = _tree(ctx)
    if tree is None or _negates(tree):
        return CheckOutcome()
    phrases = _negated_phrases(ctx.question)
    if not phrases:
        return CheckOutcome()
    for term, value in _positive_equalities(tree):
        for phrase in phrases:
            if _names_value(phrase, value):
                return CheckOutcome(
                    (
                        _finding(
                            "signal.negation_dropped",
                            f"The question says 'not {phrase}' but the SQL keeps "
                            f"{term.sql()} with no negation anywhere: it selects the rows the "
                            "question excludes.",
                            value=value.text,
                            negated=phrase,
                            condition=term.sql(),
                        ),
                    )
                )
    return CheckOutcome()


# ---------------------------------------------------------------- bound_strictness

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
    r"up to|since|" + _STRICT_MORE + "|" + _STRICT_LESS + r")"
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
    elif phrase in ("at most", "no more than", "a maximum of", "up to"):
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
    text = " ".join(question.lower().replace("\u2019", "'").split())
    found = []
    for match in _NUM.finditer(text):
        bound = _bound(text[: match.start()], text[match.end() :])
        if bound is not None:
            found.append((float(match.group(1)), *bound))
    return found


def _numeric(value: _Const) -> _Const | None:
    """A number, or a string that is one (a text year compared as ``'2014'``)."""
    if value.kind == "num":
        return value
    try:
        return _Const("num", float(value.text), value.text)
    except ValueError:
        return None


def _sql_bounds(tree: exp.Expr) -> list[tuple[exp.Expr, str, _Const]]:
    found = []
    for node in tree.find_all(exp.GT, exp.GTE, exp.LT, exp.LTE):
        compared = _comparison(node)
        number = _numeric(compared[2]) if compared is not None else None
        if compared is not None and number is not None:
            found.append((compared[0], compared[1], number))
    return found


def bound_strictness(ctx: CheckContext) -> CheckOutcome:
    """The question bounds a number strictly ("after 1975", "more than 30", "under 3000") and
    every SQL comparison on that number is inclusive (``>= 1975``), or the question's bound is
    inclusive ("at least 30", "1975 or later", "since 1975") and the SQL's strict (``> 30``):
    the rows equal to the number are counted when they should not be, or left out."""
    tree = _tree(ctx)
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
                    _finding(
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


# ---------------------------------------------------------------- bound_on_other_column

_NAMED_BOUND = re.compile(
    r"\b(?P<word>[a-z]+)\s+(?:of\s+|is\s+|are\s+|was\s+|were\s+)?(?:(?:not|no)\s+)?"
    r"(?:more than|greater than|higher than|less than|fewer than|lower than|over|above|under|"
    r"below|at least|at most|exceeding|exceeds?)\s+\$?(?P<number>\d+(?:\.\d+)?)(?![\w.])"
)


def _name_words(column: str) -> set[str]:
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", column).replace("_", " ")
    return set(words(spaced)) | {column.lower()}


def _names(word: str, column: str) -> bool:
    """Whether a question's word names a column: one of the name's words (``i_size`` is
    "size"; ``Weight`` is "weight" or "weights")."""
    return bool(_forms(word) & _name_words(column))


def bound_on_other_column(ctx: CheckContext) -> CheckOutcome:
    """The question bounds a column by its name ("weight over 2000") and the SQL compares that
    number on another column (``Year > 2000``) although a column of that name is in the tables
    it reads. Silent without the catalogue, when the word names no column there (a synonym of
    the compared column), a key or a table read ("a singer below 30" bounds the singers' age),
    or when the compared column itself is the one named."""
    tree = _tree(ctx)
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
    for match in _NAMED_BOUND.finditer(text):
        word, number = match.group("word"), float(match.group("number"))
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
                _finding(
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


def _equalities(tree: exp.Expr) -> list[tuple[exp.Expr, str, _Const]]:
    found = []
    for node in tree.find_all(exp.EQ):
        compared = _comparison(node)
        if compared is not None and compared[2].kind == "num":
            found.append(compared)
    return found


CONDITION_CHECKS = (
    unsatisfiable_filter,
    negation_dropped,
    bound_strictness,
    bound_on_other_column,
)
