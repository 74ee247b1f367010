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
- ``signal.always_true_filter``: an OR of two conditions on one column that every value passes
  (``PetType <> 'cat' OR PetType <> 'dog'``, NOT IN written as ORs of ``<>``; ``x > 5 OR
  x < 10``): the filter keeps every row that has a value, whatever the question ("pets that
  are neither cats nor dogs" answered with all of them).
- ``signal.negation_dropped``: the question negates a value ("not made in 1972", "not large",
  "other than France") and the SQL keeps that value as a positive equality with no negation
  anywhere (no NOT, ``<>``, ``!=``, NOT IN, EXCEPT, NOT EXISTS, IS NULL); the reverse, a value
  asked for and excluded (``signal.negation_added``), lives in ``_negation_added``.

The two bound checks live in ``_bounds`` and run from this module's ``CONDITION_CHECKS``:

- ``signal.bound_strictness``: the question's bound on a number is strict ("after", "more
  than", "under") and the SQL's comparison on that number inclusive (``>=``), or the reverse
  ("at least", "or later" as ``>``).
- ``signal.bound_on_other_column``: the question bounds a column by name ("weight over 2000")
  and the SQL puts that number on another column (``Year > 2000``) while the named one is there
  in the tables it reads.

``signal.date_bound_strictness`` ("through December 31" as ``< '2016-12-31'``) reads the days
the question names with their own words and runs from here too; it lives in ``_date_bounds``.

The set-operation checks live in ``_negations`` and run from ``CONDITION_CHECKS`` too:
``signal.negation_missing`` (a negated verb, "don't have any car makers", answered with no
negation), ``signal.between_strictness`` ("strictly between" as ``BETWEEN``),
``signal.or_precedence`` (``a AND b OR c`` binding ``a`` to one branch of an OR on one column)
and ``signal.both_as_either`` ("both 2014 and 2015" as ``Year IN (2014, 2015)``); those of
``_set_ops`` too: ``signal.both_as_union``, ``signal.except_swapped`` and
``signal.share_comparison_flipped``.

About 440 lines: the three checks above read the WHERE with one set of helpers (the comparisons
of one column, their constants, the AND and OR chains of ``_where``), which a split would
export; the bound and negation checks, with readings of their own, live in ``_bounds``,
``_period_ends`` and ``_negations``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from sqlglot import exp

from assay.checks._bounds import bound_on_other_column, bound_strictness
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._date_bounds import date_bound_strictness
from assay.checks._day_end import day_end_dropped
from assay.checks._month_named import month_mismatch
from assay.checks._negation_added import negation_added
from assay.checks._negations import NEGATION_CHECKS, NEGATION_SIGNALS
from assay.checks._period_ends import period_end_included
from assay.checks._set_ops import SET_OP_CHECKS, SET_OP_SIGNALS
from assay.checks._where import (
    Const,
    comparison,
    conjuncts,
    const,
    disjuncts,
    finding,
    names_value,
    negated,
    outer_terms,
    tree_of,
)

__all__ = [
    "CONDITION_CHECKS",
    "CONDITION_SIGNALS",
    "always_true_filter",
    "bound_on_other_column",
    "bound_strictness",
    "negation_dropped",
    "unsatisfiable_filter",
]

CONDITION_SIGNALS = (
    "signal.unsatisfiable_filter",
    "signal.always_true_filter",
    "signal.negation_dropped",
    "signal.negation_added",  # a value asked for, excluded: _negation_added
    "signal.bound_strictness",
    "signal.date_bound_strictness",  # "through December 31" as < '2016-12-31': _date_bounds
    "signal.period_bound",
    "signal.bound_on_other_column",
    "signal.month_mismatch",  # "August" as month(d) = 7: _month_named
    "signal.day_end_dropped",  # BETWEEN .. AND '2024-03-31' over timestamps: _day_end
    *NEGATION_SIGNALS,  # negated verbs, ranges, OR precedence, "both": _negations
    *SET_OP_SIGNALS,  # "both" as UNION, EXCEPT swapped, share comparisons: _set_ops
)

# ---------------------------------------------------------------- unsatisfiable_filter


def _column_key(column: exp.Column) -> tuple[str, str]:
    return (column.table.lower(), column.name.lower())


@dataclass
class _Bounds:
    """What a conjunction asks of one column: equalities, IN lists, and a lower and upper
    bound (value, strict)."""

    equal: list[Const]
    within: list[list[Const]]
    lower: list[tuple[Const, bool]]
    upper: list[tuple[Const, bool]]


def _constraints(where: exp.Expr) -> dict[tuple[str, str], _Bounds]:
    found: dict[tuple[str, str], _Bounds] = {}

    def bounds(column: exp.Column) -> _Bounds:
        return found.setdefault(_column_key(column), _Bounds([], [], [], []))

    for term in conjuncts(where):
        compared = comparison(term)
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
            items = [const(e) for e in term.expressions]
            if items and term.args.get("query") is None and all(i is not None for i in items):
                bounds(term.this).within.append([i for i in items if i is not None])
        elif isinstance(term, exp.Between) and isinstance(term.this, exp.Column):
            low, high = const(term.args["low"]), const(term.args["high"])
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

    def k(c: Const) -> tuple[float, str]:
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
    tree = tree_of(ctx)
    if tree is None:
        return CheckOutcome()
    for select in tree.find_all(exp.Select):
        where = select.args.get("where")
        if not isinstance(where, exp.Where):
            continue
        for term in conjuncts(where.this):
            if isinstance(term, exp.EQ | exp.NEQ) and any(
                isinstance(side, exp.Null) for side in (term.this, term.expression)
            ):
                return CheckOutcome(
                    (
                        finding(
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
                        finding(
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


# ---------------------------------------------------------------- always_true_filter


def _covers_all(first: tuple[str, Const], second: tuple[str, Const]) -> bool:
    """Whether every value passes one of two comparisons with constants of one kind: two
    ``<>`` with different constants (text compared without case or edge spaces, so a
    case-insensitive collation cannot make them one), or a lower and an upper bound that meet
    or cross (``> 5`` or ``< 10``; ``>= 5`` or ``< 5``)."""
    (op1, c1), (op2, c2) = sorted((first, second), key=lambda pair: pair[0])
    if c1.kind != c2.kind:
        return False
    if op1 == op2 == "<>":
        if c1.kind == "num":
            return c1.number != c2.number
        return c1.text.casefold().strip() != c2.text.casefold().strip()
    if c1.kind != "num" or "<>" in (op1, op2) or op1[0] != "<" or op2[0] != ">":
        return False  # "<" sorts before ">": op1 is the upper bound, op2 the lower
    upper, lower = c1.number, c2.number
    return lower < upper or (lower == upper and (op1 == "<=" or op2 == ">="))


def _compared_with(term: exp.Expr) -> tuple[str, tuple[str, Const]] | None:
    """(the column, (its operator, the constant)) of ``column OP constant``; ``<>`` and
    ``!=`` read as ``<>``."""
    if isinstance(term, exp.NEQ) and not negated(term):
        sides = [(term.this, const(term.expression)), (term.expression, const(term.this))]
        for column, value in sides:
            if isinstance(column, exp.Column) and value is not None:
                return column.sql().lower(), ("<>", value)
        return None
    compared = comparison(term)
    if compared is None or not isinstance(compared[0], exp.Column) or compared[1] == "=":
        return None
    return compared[0].sql().lower(), (compared[1], compared[2])


def _always_true(node: exp.Expr) -> tuple[str, str] | None:
    """(the column, the two conditions) when two branches of an OR chain on one column
    together pass every value."""
    seen: dict[str, list[tuple[exp.Expr, tuple[str, Const]]]] = {}
    for branch in disjuncts(node):
        read = _compared_with(branch)
        if read is None:
            continue
        column, said = read
        for other, other_said in seen.get(column, []):
            if _covers_all(other_said, said):
                return column, f"{other.sql()} OR {branch.sql()}"
        seen.setdefault(column, []).append((branch, said))
    return None


def always_true_filter(ctx: CheckContext) -> CheckOutcome:
    """A WHERE term that every value passes: an OR of two conditions on one column that
    together cover every value (``PetType <> 'cat' OR PetType <> 'dog'``: any pet is not a cat
    or not a dog; ``x > 5 OR x < 10``). Only rows with no value (NULL) are left out, so the
    filter says nothing; "neither cats nor dogs" is ``PetType <> 'cat' AND PetType <> 'dog'``
    or ``NOT IN ('cat', 'dog')``. Read from the SQL alone, whatever the question."""
    tree = tree_of(ctx)
    if tree is None:
        return CheckOutcome()
    for where in tree.find_all(exp.Where):
        for term in conjuncts(where.this):
            found = _always_true(term) if not negated(term) else None
            if found is None:
                continue
            column, said = found
            return CheckOutcome(
                (
                    finding(
                        "signal.always_true_filter",
                        f"The WHERE's {said} is true for every value of {column}: it keeps "
                        "every row that has one, so it filters nothing. For 'neither ... nor' "
                        "join the conditions with AND (or write NOT IN).",
                        column=column,
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


def _negates(tree: exp.Expr) -> bool:
    """Whether the query negates anywhere: NOT (NOT IN, NOT EXISTS, NOT LIKE, IS NOT), ``<>``,
    EXCEPT, or IS NULL (an anti-join: LEFT JOIN ... WHERE key IS NULL); sqlglot writes NOT LIKE
    as a LIKE that negates."""
    if tree.find(exp.Not, exp.NEQ, exp.Except, exp.Is) is not None:
        return True
    return any(node.args.get("negate") for node in tree.walk())


def _positive_equalities(tree: exp.Expr) -> Iterator[tuple[exp.Expr, Const]]:
    """``column = constant`` and ``column IN (constants)`` (and LIKE without wildcards' text)
    among the AND-ed terms of the outer query's WHERE (each SELECT of a UNION)."""
    for term in outer_terms(tree):
        compared = comparison(term)
        if compared is not None and compared[1] == "=":
            yield term, compared[2]
        elif isinstance(term, exp.In) and term.args.get("query") is None:
            for item in term.expressions:
                value = const(item)
                if value is not None:
                    yield term, value
        elif isinstance(term, exp.Like | exp.ILike) and not term.args.get("negate"):
            value = const(term.expression)
            if value is not None and value.kind == "str":
                yield term, Const("str", 0.0, value.text.replace("%", " ").strip())


def negation_dropped(ctx: CheckContext) -> CheckOutcome:
    """The question negates a value ("not made in 1972", "items not large", "other than
    France") and the SQL asks for that value as a positive equality in its WHERE, with no
    negation anywhere in the query: it counts or lists exactly the rows the question excludes."""
    tree = tree_of(ctx)
    if tree is None or _negates(tree):
        return CheckOutcome()
    phrases = _negated_phrases(ctx.question)
    if not phrases:
        return CheckOutcome()
    for term, value in _positive_equalities(tree):
        for phrase in phrases:
            if names_value(phrase, value):
                return CheckOutcome(
                    (
                        finding(
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


CONDITION_CHECKS = (
    unsatisfiable_filter,
    always_true_filter,
    negation_dropped,
    negation_added,
    bound_strictness,
    date_bound_strictness,
    period_end_included,
    bound_on_other_column,
    month_mismatch,
    day_end_dropped,
    *NEGATION_CHECKS,
    *SET_OP_CHECKS,
)
