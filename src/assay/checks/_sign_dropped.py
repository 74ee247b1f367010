"""A sign the question asks of a column the SQL never reads.

"How many customers in the BUILDING segment have a positive account balance?" answered with
``SELECT count(*) FROM customer WHERE c_mktsegment = 'BUILDING'`` counts every customer of the
segment: five samples agreeing on it were shown at 1.00 (outside tester, tryout 26, q4).
A bound said in digits and dropped is ``literal_missing``'s ("a total price above 300000");
a sign says its bound in a word, which no check read.

``sign_dropped`` reads each sign word of the question (positive, negative, non-negative,
non-positive, nonzero) and the words on either side of it (``WINDOW`` words: "a positive
account balance", "whose balance is negative"), and finds the columns of the tables the SQL
reads that those words name: the name less its table's prefix, at least four letters, spelled
by abbreviations of words said one after another, each beginning with its word's first letter
and taking the rest of its letters in order ("account balance" spells ``c_acctbal``, "balance"
spells ``balance``). When one of them is a number (or of unknown type) and the SQL names no
column so named, it says so (``signal.sign_dropped``); when the SQL names the column but
compares it only with numbers other than zero that the question does not say ("a negative
balance" as ``c_acctbal < 100``; outside recheck 41, F5), it says so too. Silence is never
evidence of a right answer.
"""

from __future__ import annotations

import re
from functools import cache

from sqlglot import exp

from assay.catalog import column_prefix
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._cues import words
from assay.checks._sql import referenced_tables
from assay.checks._where import finding, tree_of

__all__ = ["WINDOW", "sign_dropped", "spells"]

WINDOW = 4
_SIGNS = re.compile(r"\b(positive|negative|non-?negative|non-?positive|non-?zero)\b", re.IGNORECASE)
_MIN_NAME = 4
# Types that hold no number; an undeclared type may.
_NOT_NUMBER = re.compile(r"char|text|string|date|time|bool|blob", re.IGNORECASE)


def _abbreviates(piece: str, word: str) -> bool:
    """``piece`` begins with ``word``'s first letter and takes the rest of its letters in
    order, three at least (the whole word when shorter)."""
    if not piece or piece[0] != word[0] or len(piece) < min(3, len(word)):
        return False
    letters = iter(word)
    return all(c in letters for c in piece)


def _spelled(name: str, run: tuple[str, ...]) -> bool:
    """Whether the whole of ``name`` is spelled by an abbreviation of each word of ``run``."""

    @cache
    def rest(at: int, word: int) -> bool:
        if word == len(run):
            return at == len(name)
        return any(
            _abbreviates(name[at:end], run[word]) and rest(end, word + 1)
            for end in range(at + 1, len(name) + 1)
        )

    return rest(0, 0)


def spells(name: str, said: tuple[str, ...]) -> tuple[str, ...] | None:
    """The run of ``said``'s words, one after another, whose abbreviations spell ``name``
    (letters only, four at least), or ``None``.

    Example:
        >>> spells("acctbal", ("a", "positive", "account", "balance"))
        ('account', 'balance')
        >>> spells("acctbal", ("a", "positive", "balance")) is None
        True
    """
    if len(name) < _MIN_NAME:
        return None
    for start in range(len(said)):
        for end in range(start + 1, len(said) + 1):
            if _spelled(name, said[start:end]):
                return said[start:end]
    return None


def _near_signs(question: str) -> list[tuple[str, tuple[str, ...]]]:
    """(the sign word, the words on either side of it) for each sign word said."""
    said = words(question.replace("-", ""))
    found = []
    for index, word in enumerate(said):
        if _SIGNS.fullmatch(word):
            before = tuple(said[max(0, index - WINDOW) : index])
            after = tuple(said[index + 1 : index + 1 + WINDOW])
            found.extend([(word, before), (word, after)])
    return found


def _own_name(column: str, prefix: str) -> str:
    """The column's name less its table's prefix, letters only, lower case."""
    name = column.lower()
    if prefix and name.startswith(prefix + "_"):
        name = name[len(prefix) + 1 :]
    return re.sub(r"[^a-z]", "", name)


_COMPARED = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE)


def _number(node: exp.Expr) -> float | None:
    """A numeric literal's value (a negated one too), else ``None``."""
    negated = isinstance(node, exp.Neg)
    inner = node.this if negated else node
    if isinstance(inner, exp.Literal) and not inner.is_string:
        try:
            value = float(inner.name)
        except ValueError:
            return None
        return -value if negated else value
    return None


def _numbers_said(question: str) -> set[float]:
    """The numbers the question says in digits ("1,000" as 1000)."""
    return {float(n.replace(",", "")) for n in re.findall(r"\d[\d,]*(?:\.\d+)?", question)}


def _bounds(tree: exp.Expr, column: str) -> set[float]:
    """The numbers ``column`` is compared with (=, <>, <, <=, >, >=, BETWEEN) anywhere in the
    query. Outside recheck 41 (F5): "How many customers have a negative balance?" as
    ``c_acctbal < 100`` was shown by /api/score; the column was read, so no check looked at
    its bound."""
    name = column.lower()

    def is_column(node: exp.Expr) -> bool:
        return isinstance(node, exp.Column) and node.name.lower() == name

    found: set[float] = set()
    for node in tree.find_all(*_COMPARED):
        left, right = node.this, node.expression
        for side, other in ((left, right), (right, left)):
            if is_column(side) and (value := _number(other)) is not None:
                found.add(value)
    for between in tree.find_all(exp.Between):
        if is_column(between.this):
            for end in (between.args.get("low"), between.args.get("high")):
                if end is not None and (value := _number(end)) is not None:
                    found.add(value)
    return found


def sign_dropped(ctx: CheckContext) -> CheckOutcome:
    """A sign the question asks of a column of a table the SQL reads, while the SQL never names
    the column (``signal.sign_dropped``)."""
    tree = tree_of(ctx) if ctx.catalog is not None else None
    signs = _near_signs(ctx.question) if tree is not None else []
    if tree is None or ctx.catalog is None or not signs:
        return CheckOutcome()
    named = {c.name.lower() for c in tree.find_all(exp.Column)}
    for table in referenced_tables(tree):
        info = ctx.catalog.table(table)
        columns = info.columns if info is not None else ()
        prefix = column_prefix([c.name for c in columns])
        for column in columns:
            own = _own_name(column.name, prefix)
            if _NOT_NUMBER.search(column.type):
                continue
            if column.name.lower() in named:
                bounds = _bounds(tree, column.name)
                # a bound at zero, or one the question says ("a positive balance above 500")
                if not bounds or 0.0 in bounds or bounds & _numbers_said(ctx.question):
                    continue
                for sign, near in signs:
                    run = spells(own, near)
                    if run is None:
                        continue
                    said = ", ".join(f"{b:g}" for b in sorted(bounds))
                    return CheckOutcome(
                        (
                            finding(
                                "signal.sign_dropped",
                                f"The question asks for a {sign} {' '.join(run)} "
                                f"({table}.{column.name}), a bound at zero, but the SQL "
                                f"compares {column.name} with {said} only: the answer takes "
                                "in other rows than those asked for.",
                                column=f"{table}.{column.name}",
                                sign=sign,
                                bounds=sorted(bounds),
                            ),
                        )
                    )
                continue
            for sign, near in signs:
                run = spells(own, near)
                if run is None:
                    continue
                return CheckOutcome(
                    (
                        finding(
                            "signal.sign_dropped",
                            f"The question asks for a {sign} {' '.join(run)} "
                            f"({table}.{column.name}), but the SQL never reads "
                            f"{column.name}: the condition is dropped, so the answer takes in "
                            "rows it leaves out.",
                            column=f"{table}.{column.name}",
                            sign=sign,
                        ),
                    )
                )
    return CheckOutcome()
