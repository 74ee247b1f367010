"""Set operations the SQL gets wrong: a negated verb read as a positive one, an exclusive range
read as BETWEEN, an OR that AND binds tighter than meant, "both" read as "either".

Samples that all agree on one of these readings are shown at full agreement; only a check of the
question against the SQL's shape can see them. Each check is a pure function of the context
returning ``signal`` findings with their evidence, silent when the SQL does not parse or the
question's cue is not read, so their silence is never evidence of a right answer:

- ``signal.negation_missing``: the question negates existence or a verb ("countries that don't
  have any car makers", "stadiums that have never hosted a concert", "singers without any
  concert") and the SQL has no negation anywhere (no NOT, ``<>``, EXCEPT, IS NULL, a count
  compared with 0). A negated comparison ("not older than 30") is the comparison checks'.
- ``signal.between_strictness``: the question's range is exclusive ("strictly between 5000 and
  10000", "between 5000 and 10000 exclusive") and the SQL keeps both ends (``BETWEEN``,
  ``>= ... AND <= ...``), or the range is inclusive ("... inclusive") and the SQL drops an end.
- ``signal.or_precedence``: a WHERE written ``a AND b OR c`` without parentheses, whose OR
  compares one column with constants on both branches while ``a`` sits on one branch only
  ("male students from PIT or BAL" as ``Sex = 'M' AND city = 'PIT' OR city = 'BAL'``: AND binds
  first, so the BAL students of either sex pass).
- ``signal.both_as_either``: the question asks for rows with both of two values ("stadiums with
  concerts in both 2014 and 2015") and the SQL keeps rows with either (``Year = 2014 OR
  Year = 2015``, ``Year IN (2014, 2015)``) with no INTERSECT, no ``HAVING count(DISTINCT ...)``
  and no table read twice.

One module for the four (a little over 400 lines) so that they stay out of the modules other
checks are being added to; split it by check if it grows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._cues import words
from assay.checks._empty_groups import empty_groups_dropped
from assay.checks._inclusive import asks_zero_rows, kept_without
from assay.checks._where import (
    Const,
    comparison,
    conjuncts,
    const,
    disjuncts,
    finding,
    forms,
    tree_of,
)

__all__ = [
    "NEGATION_CHECKS",
    "NEGATION_SIGNALS",
    "between_strictness",
    "both_as_either",
    "negation_missing",
    "or_precedence",
]

NEGATION_SIGNALS = (
    "signal.negation_missing",
    "signal.between_strictness",
    "signal.or_precedence",
    "signal.both_as_either",
)


def _text(question: str) -> str:
    return " ".join(question.lower().replace("\u2019", "'").split())


# ---------------------------------------------------------------- negation_missing

# a negated verb or existence: "do not have", "didn't own", "have never hosted", "without any",
# "with no", "there is not a single"; a bare "not" before an adjective or a value ("not large",
# "not made in 1972") is negation_dropped's
_NEGATED = re.compile(
    r"\b(?:(?:do|does|did|have|has|had)\s*(?:n't|\bnot)|never|without|"
    r"(?:with|have|has|had|having|there (?:is|are|was|were))\s+(?:no|zero|not a single|"
    r"not any)|"
    r"none of|neither|excluding|except(?: for)?|other than|apart from|aside from|but not)\b"
)
_SCOPE_END = re.compile(r"[,;.?!]|\b(?:and|but|or|who|which|that|whose|where|while)\b")
# "do not have more than 3 cylinders" is a comparison; "do not have the minimum horsepower" a
# superlative, which the SQL says with a subquery; "do not repeat", "do not include duplicates"
# instruct the reader
_NOT_EXISTENCE = re.compile(
    r"^(?:\w+\s+){0,2}(?:(?:more|less|fewer|greater|larger|bigger|higher|lower|smaller|"
    r"older|younger|heavier|lighter|longer|shorter|earlier|later)\s+than|above|below|over|"
    r"under|at least|at most|exceed\w*|before|after|since|until)\b|"
    r"\b(?:the|a|an)\s+(?:minimum|maximum|most|least|highest|lowest|largest|smallest|"
    r"biggest|oldest|youngest|average|same)\b|"
    r"^(?:repeat\w*|repetitions?|include\w*|show\w*|list\w*|return\w*|count\w*|consider\w*|"
    r"duplicat\w*|need\w*|know\w*|care|matter\w*|sort\w*)\b"
)


def _negated_verbs(question: str, named: tuple[str, ...] = ()) -> list[str]:
    """The negated verb phrases of the question ("don't have any car makers"), each cut at
    the end of its clause; negated comparisons, superlatives and instructions left out, and
    a negation inside a value the SQL names ("diabetes without mention of complication",
    "do not resuscitate status" as a string literal) is that value's words, not a negation.

    Example:
        >>> _negated_verbs("Which countries don't have any car makers?")
        ["don't have any car makers"]
    """
    text = _text(question)
    found = []
    for match in _NEGATED.finditer(text):
        rest = text[match.end() :]
        end = _SCOPE_END.search(rest)
        scope = " ".join(rest[: end.start() if end else len(rest)].split()[:6])
        head = " ".join([match.group(0), *scope.split()[:1]])
        if scope and not _NOT_EXISTENCE.search(scope) and not any(head in v for v in named):
            found.append(f"{match.group(0)} {scope}")
    return found


def _named_values(tree: exp.Expr) -> tuple[str, ...]:
    """The query's string literals, lower-cased with their spaces collapsed."""
    return tuple(
        " ".join(node.name.lower().split()) for node in tree.find_all(exp.Literal) if node.is_string
    )


def _count_zero(node: exp.Expr) -> bool:
    """``count(...) = 0`` (or ``< 1``, ``<= 0``): no rows, said as a count."""
    compared = comparison(node)
    if compared is None or compared[0].find(exp.Count) is None:
        return False
    _, op, value = compared
    return value.kind == "num" and (
        (op in ("=", "<=") and value.number == 0) or (op == "<" and value.number == 1)
    )


def negates(tree: exp.Expr) -> bool:
    """Whether the query says "no row" anywhere: NOT (NOT IN, NOT EXISTS, NOT LIKE, IS NOT),
    ``<>``, EXCEPT, IS NULL (an anti-join), or a count compared with 0."""
    if tree.find(exp.Not, exp.NEQ, exp.Except, exp.Is) is not None:
        return True
    return any(node.args.get("negate") or _count_zero(node) for node in tree.walk())


def negation_missing(ctx: CheckContext) -> CheckOutcome:
    """The question negates existence or a verb ("which countries don't have any car makers",
    "students who do not own a pet") and the query says "no row" nowhere: it lists the rows
    that have what the question excludes (a plain join, ``IN (SELECT ...)``)."""
    tree = tree_of(ctx)
    if tree is None or negates(tree) or kept_without(ctx.question, tree):  # _inclusive
        return CheckOutcome()
    if asks_zero_rows(ctx.question) and empty_groups_dropped(ctx).findings:
        return CheckOutcome()  # rows asked kept, and dropped: empty_groups_dropped says why
    said = _negated_verbs(ctx.question, _named_values(tree))
    if not said:
        return CheckOutcome()
    return CheckOutcome(
        (
            finding(
                "signal.negation_missing",
                f"The question says '{said[0]}' but the SQL negates nothing (no NOT, NOT IN, "
                "NOT EXISTS, <>, EXCEPT, IS NULL or count = 0): it keeps the rows that have "
                "what the question excludes.",
                negated=said[0],
            ),
        )
    )


# ---------------------------------------------------------------- between_strictness

_NUMBER = r"\$?(\d+(?:\.\d+)?)"
_RANGE = re.compile(
    r"(?P<strict>strictly\s+)?between\s+"
    + _NUMBER
    + r"\s+and\s+"
    + _NUMBER
    + r"(?P<tail>\s*[,(]?\s*(?:both\s+)?(?:exclusive(?:ly)?|inclusive(?:ly)?|not including"
    r"|excluding|including)\b)?"
)


def _question_ranges(question: str) -> Iterator[tuple[float, float, bool, str]]:
    """(low, high, exclusive, the words) for each range the question says is exclusive or
    inclusive; a plain "between" says neither and is left out."""
    for match in _RANGE.finditer(_text(question)):
        tail = (match.group("tail") or "").strip(" ,(")
        if match.group("strict") or re.search(r"exclusive|not including|excluding", tail):
            exclusive = True
        elif tail:
            exclusive = False
        else:
            continue
        low, high = sorted((float(match.group(2)), float(match.group(3))))
        yield low, high, exclusive, match.group(0).strip()


def _number_of(value: Const) -> float | None:
    if value.kind == "num":
        return value.number
    try:
        return float(value.text)
    except ValueError:
        return None


def _sql_ends(tree: exp.Expr) -> dict[float, set[str]]:
    """The SQL's comparisons with each number: ``>=``/``<=`` (inclusive) or ``>``/``<``;
    BETWEEN counts as both ends inclusive."""
    ends: dict[float, set[str]] = {}
    for between in tree.find_all(exp.Between):
        for side, op in (("low", ">="), ("high", "<=")):
            value = const(between.args[side])
            number = _number_of(value) if value is not None else None
            if number is not None:
                ends.setdefault(number, set()).add(op)
    for node in tree.find_all(exp.GT, exp.GTE, exp.LT, exp.LTE):
        compared = comparison(node)
        number = _number_of(compared[2]) if compared is not None else None
        if compared is not None and number is not None:
            ends.setdefault(number, set()).add(compared[1])
    return ends


def between_strictness(ctx: CheckContext) -> CheckOutcome:
    """The question's range excludes its ends ("strictly between 5000 and 10000") and the SQL
    keeps an end (``BETWEEN 5000 AND 10000`` is inclusive), or the range includes its ends
    ("between 5000 and 10000 inclusive") and the SQL drops one (``> 5000``)."""
    tree = tree_of(ctx)
    if tree is None:
        return CheckOutcome()
    ends = _sql_ends(tree)
    for low, high, exclusive, said in _question_ranges(ctx.question):
        wrong = [(low, ">=" if exclusive else ">"), (high, "<=" if exclusive else "<")]
        right = [(low, ">" if exclusive else ">="), (high, "<" if exclusive else "<=")]
        for (number, bad), (_, good) in zip(wrong, right, strict=True):
            ops = ends.get(number, set())
            if bad in ops and good not in ops:
                return CheckOutcome(
                    (
                        finding(
                            "signal.between_strictness",
                            f"The question says '{said}' ("
                            f"{'excluding' if exclusive else 'including'} {number:g}) but the "
                            f"SQL compares {bad} {number:g} ("
                            f"{'including' if exclusive else 'excluding'} it; BETWEEN includes "
                            "both ends).",
                            said=said,
                            number=f"{number:g}",
                        ),
                    )
                )
    return CheckOutcome()


# ---------------------------------------------------------------- or_precedence


def _on_column(term: exp.Expr) -> str | None:
    """The column a term compares with constants (``=``, IN a list, LIKE), or ``None``."""
    compared = comparison(term)
    if compared is not None and isinstance(compared[0], exp.Column):
        return compared[0].sql().lower()
    if isinstance(term, exp.In | exp.Like | exp.ILike) and isinstance(term.this, exp.Column):
        items = term.expressions if isinstance(term, exp.In) else [term.expression]
        if items and term.args.get("query") is None and all(const(i) is not None for i in items):
            return term.this.sql().lower()
    return None


def _branches(node: exp.Expr) -> Iterator[exp.Expr]:
    """The branches of an OR chain written without parentheses (a parenthesised OR is one
    branch: the writer grouped it)."""
    if isinstance(node, exp.Or):
        yield from _branches(node.left)
        yield from _branches(node.right)
    else:
        yield node


def _misbound(node: exp.Or) -> tuple[str, str] | None:
    """(the column, a conjunct on some branches only) when ``a AND b OR c`` binds ``a`` to one
    branch of an OR on one column, written without parentheses."""
    sides = list(_branches(node))
    if not any(isinstance(s, exp.And) for s in sides):
        return None  # "(a AND b) OR c" says the grouping; "a OR b" has none to misread
    terms = [list(conjuncts(s)) if isinstance(s, exp.And) else [s] for s in sides]
    on = [{c for c in map(_on_column, ts) if c is not None} for ts in terms]
    shared = on[0].intersection(*on[1:])
    if not shared:
        return None
    others = [{t.sql() for t in ts if _on_column(t) not in shared} for ts in terms]
    alone = others[0].union(*others[1:]) - others[0].intersection(*others[1:])
    if not alone:
        return None
    return sorted(shared)[0], sorted(alone)[0]


def or_precedence(ctx: CheckContext) -> CheckOutcome:
    """A WHERE written ``a AND b OR c`` without parentheses whose OR compares one column with
    constants on both branches (``city = 'PIT' OR city = 'BAL'``) and whose other condition
    (``Sex = 'M'``) sits on one branch only: AND binds before OR, so that condition holds for
    one value and not for the other."""
    tree = tree_of(ctx)
    if tree is None:
        return CheckOutcome()
    for where in tree.find_all(exp.Where):
        for term in conjuncts(where.this):
            misbound = _misbound(term) if isinstance(term, exp.Or) else None
            if misbound is None:
                continue
            column, alone = misbound
            return CheckOutcome(
                (
                    finding(
                        "signal.or_precedence",
                        f"The WHERE's {term.sql()} binds AND before OR: {alone} holds for "
                        f"one branch of the OR on {column} only. Parenthesise the OR if the "
                        "condition is meant for both.",
                        condition=term.sql(),
                        column=column,
                        one_branch=alone,
                    ),
                )
            )
    return CheckOutcome()


# ---------------------------------------------------------------- both_as_either

_BOTH = re.compile(r"\bboth\s+((?:[\w'$.-]+\s+){0,3}?[\w'$.-]+)\s+and\s+((?:[\w'$.-]+\s*){1,4})")


def _says(phrase: str, value: Const) -> bool:
    """Whether a phrase says a constant: the same number, or its words in a row (a final
    plural read as singular: "cats" says 'cat')."""
    said = words(phrase)
    if value.kind == "num":
        return any(w.replace(".", "", 1).isdigit() and float(w) == value.number for w in said)
    wanted = words(value.text)
    for start in range(len(said) - len(wanted) + 1):
        window = said[start : start + len(wanted)]
        if wanted and window[:-1] == wanted[:-1] and wanted[-1] in forms(window[-1]):
            return True
    return False


def _either(condition: exp.Expr) -> Iterator[tuple[exp.Expr, list[Const]]]:
    """Each OR of equalities on one column (``col = X OR col = Y``) and each ``col IN (X, Y)``
    among the conditions, with their constants."""
    for node in condition.find_all(exp.Or, exp.In):
        if isinstance(node, exp.In):
            items = [const(e) for e in node.expressions]
            if node.args.get("query") is None and all(i is not None for i in items):
                yield node, [i for i in items if i is not None]
            continue
        if isinstance(node.parent, exp.Or):
            continue  # the top of an OR chain reads all of it
        branches = list(disjuncts(node))
        compared = [comparison(b) for b in branches]
        if all(c is not None and c[1] == "=" for c in compared):
            columns = {c[0].sql().lower() for c in compared if c is not None}
            if len(columns) == 1:
                yield node, [c[2] for c in compared if c is not None]


def _both_construct(tree: exp.Expr) -> bool:
    """INTERSECT, a HAVING on a count of distinct values, or a table read twice (a self-join
    or a subquery over the same table): each can keep only rows with both values."""
    if tree.find(exp.Intersect) is not None:
        return True
    for having in tree.find_all(exp.Having):
        if any(isinstance(c.this, exp.Distinct) for c in having.find_all(exp.Count)):
            return True
    names = [t.name.lower() for t in tree.find_all(exp.Table)]
    return len(names) != len(set(names))


def both_as_either(ctx: CheckContext) -> CheckOutcome:
    """The question asks for rows with both of two values ("concerts in both 2014 and 2015",
    "both cat and dog pets") and the SQL keeps rows with either of them (``Year = 2014 OR
    Year = 2015``, ``pettype IN ('cat', 'dog')``) with nothing that requires both."""
    tree = tree_of(ctx)
    if tree is None or _both_construct(tree):
        return CheckOutcome()
    pairs = [(m.group(1), m.group(2)) for m in _BOTH.finditer(_text(ctx.question))]
    if not pairs:
        return CheckOutcome()
    for where in tree.find_all(exp.Where):
        for node, values in _either(where.this):
            for first, second in pairs:
                one = [v for v in values if _says(first, v)]
                two = [v for v in values if _says(second, v) and v not in one]
                if one and two:
                    return CheckOutcome(
                        (
                            finding(
                                "signal.both_as_either",
                                f"The question asks for both {first} and {second} but the SQL "
                                f"keeps rows with either ({node.sql()}) and nothing requires "
                                "both (no INTERSECT, HAVING count(DISTINCT ...) or self-join).",
                                condition=node.sql(),
                                both=f"{first} and {second}",
                            ),
                        )
                    )
    return CheckOutcome()


NEGATION_CHECKS = (negation_missing, between_strictness, or_precedence, both_as_either)
