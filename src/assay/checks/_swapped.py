"""The value the question asks for swapped for another stored value of the same column.

"What was the total sales amount in the North region?" answered with ``... WHERE region =
'South'``, "the average account balance of customers in the AUTOMOBILE segment" with
``c_mktsegment = 'BUILDING'``: five samples agreeing on the wrong value were shown at 1.00
(outside tester, tryout 26, probes q1, q2, p10). ``value_dropped`` is silent (the SQL names the
column) and ``literal_not_in_data`` is silent (the wrong value is stored).

``value_swapped`` reads each string the SQL compares with ``=`` or ``IN`` against a short
categorical column (``_dropped._categories``: one bounded query) and says when that string is
one of the column's stored values the question never says, while the question does say another
of its stored values, which the SQL carries nowhere (``signal.value_swapped``). The stored value
the question says follows ``value_dropped``'s rules: one word of three letters or more, no word
that says nothing of the rows, and no word of the tables the query reads or of the columns it
names ("students" names the table, not a value). A word of a column the query never reads is
no name the question used: "customers with a college education" as ``cd_education_status = '4
yr Degree'`` says the stored 'College', though ``cd_dep_college_count`` beside it has the word
(agreed20, a development set: shown at 1.00). A stored value that codes its rank before its
word ('2-HIGH') says that word: "high priority orders" as ``o_orderpriority = '1-URGENT'``
(agreed23: shown at 1.00). A value the SQL excludes (``NOT IN ('cancellation',
'alteration')``) is no value compared: it keeps the others ("only buys and quick-buys",
agreed23: withheld). A question with a negation ("other
than North", "not in the South") may ask for the other values by naming one, so it is left
alone. Silence is never evidence of a right answer.
"""

from __future__ import annotations

import re
from dataclasses import replace

from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._cues import words
from assay.checks._dropped import (
    _EMPTY_WORDS,
    _categories,
    _said,
    _schema_words,
    _stored_categories,
)
from assay.checks._places import place_of, places_named
from assay.checks._sql import parse_query
from assay.checks._status_code import status_instead
from assay.checks._values import _compared, _owner
from assay.checks._where import finding, forms
from assay.types import Finding

__all__ = ["MAX_COMPARED", "value_swapped"]

# Each compared string costs one bounded query: a few are enough for any real question.
MAX_COMPARED = 6
MAX_NAMES = 50  # distinct values read of a compared column
MAX_PLACES = 300  # distinct codes read of a column compared with a place's code
# A question that excludes a value may name it and ask for the others ("regions other than
# North": ``region IN ('South', 'East')``).
_NEGATION = re.compile(
    r"\b(not|no|non|never|other than|except|excluding|exclude|besides|apart from|"
    r"instead of|rather than|outside|without|aren't|isn't|wasn't|weren't|didn't|don't|"
    r"doesn't)\b",
    re.IGNORECASE,
)


def _says(question_words: list[str], text: str) -> bool:
    """The question says the stored text, its words in a row, a final plural read as
    singular ("dogs" says 'dog', "north region" says 'North')."""
    wanted = words(text)
    if not wanted:
        return False
    for start in range(len(question_words) - len(wanted) + 1):
        window = question_words[start : start + len(wanted)]
        if window[:-1] == wanted[:-1] and wanted[-1] in forms(window[-1]):
            return True
    return False


def _read_words(tree: exp.Expr, catalog: Catalog) -> frozenset[str]:
    """The schema words the question may use as names here: those of the tables the query
    reads and of the columns it names (``_schema_words`` over that part of the catalogue)."""
    named = {c.name.lower() for c in tree.find_all(exp.Column)}
    tables = []
    for name in sorted({t.name.lower() for t in tree.find_all(exp.Table)}):
        info = catalog.table(name)
        if info is not None:
            columns = tuple(c for c in info.columns if c.name.lower() in named)
            tables.append(replace(info, columns=columns))
    return _schema_words(replace(catalog, tables=tuple(tables)))


_CODED = re.compile(r"\d+\s*[-.:)]\s*([a-z]+)")


# "above medium", "at least high", "medium or higher": a rank compared, not one value named
_RANKED = re.compile(
    r"\b(?:above|below|over|under|higher|lower|better|worse|at least|at most|than|or more|"
    r"or less|up to)\b",
    re.IGNORECASE,
)


def _word_of(value: str, question: str) -> str | None:
    """The one word a stored value says: the value itself ('north'), or the word after a
    number that codes its rank ('2-high' says "high": TPC-H's ``o_orderpriority``; agreed23:
    "high priority orders" as ``o_orderpriority = '1-URGENT'`` was shown), unless the question
    compares ranks ("priority above medium" keeps '1-URGENT' and '2-HIGH')."""
    if value.isalpha():
        return value
    coded = _CODED.fullmatch(value)
    return coded.group(1) if coded is not None and not _RANKED.search(question) else None


def _excluded(node: exp.Expr) -> bool:
    """The comparison sits under a NOT (``x NOT IN ('a', 'b')``): it drops the values."""
    parent = node.parent
    while isinstance(parent, exp.Paren):
        parent = parent.parent
    return isinstance(parent, exp.Not)


def _asked_instead(
    ctx: CheckContext, tree: exp.Expr, table: str, column: str, compared: str, carried: set[str]
) -> str | None:
    """The stored value of ``table.column`` the question says in place of the compared one,
    when the compared value is stored there and unsaid, and the SQL carries the said one
    nowhere."""
    # The compared string is itself a stored value: a column of names ('germany' for "Japan",
    # car_1's countries, one a row: outside tryout 27) swaps as a category does.
    stored = set(_categories(ctx, table, column, most=MAX_NAMES, repeated=False))
    question_words = words(ctx.question)
    if compared.strip().lower() not in stored or _says(question_words, compared):
        return None
    assert ctx.catalog is not None
    schema = _read_words(tree, ctx.catalog)
    said = set(question_words)
    asked = sorted(
        v
        for v, word in ((v, _word_of(v, ctx.question)) for v in stored)
        if word is not None
        and len(word) >= 3
        and word not in schema
        and word not in _EMPTY_WORDS
        and word not in carried
        and _said(said, word)
    )
    return asked[0] if asked else None


def compared_values(ctx: CheckContext) -> tuple[exp.Expr, list[tuple[str, str, str]]] | None:
    """The parsed SQL and each (table, column, string) it compares by ``=`` or ``IN``, once
    each, at most ``MAX_COMPARED``; None where no stored value can be read (no catalogue, no
    profiles, no SQL, a negated question: "not X" excludes a value on purpose)."""
    sql = ctx.candidate.final_sql
    catalog = ctx.catalog
    if catalog is None or ctx.profiles is None or not sql or _NEGATION.search(ctx.question):
        return None
    tree = parse_query(sql, ctx.dialect)
    if tree is None:
        return None
    found: list[tuple[str, str, str]] = []
    for node, compared in _compared(tree):
        if not isinstance(node.parent, (exp.EQ, exp.In)) or _excluded(node.parent):
            # `!=` or NOT IN excludes the value: another question ("only buys and quick-buys"
            # as NOT IN ('cancellation', 'alteration'), agreed23, was withheld as swapped)
            continue
        owner = _owner(node, tree, catalog)
        if owner is None or (*owner, compared) in found or len(found) >= MAX_COMPARED:
            continue
        found.append((*owner, compared))
    return tree, found


def value_swapped(ctx: CheckContext) -> CheckOutcome:
    """A string the SQL compares with a short categorical column is a stored value the
    question never says, and the question says another of that column's stored values
    (``signal.value_swapped``)."""
    read = compared_values(ctx)
    if read is None:
        return CheckOutcome()
    tree, comparisons = read
    # The words of the SQL's strings, not their letters: 'men' is not carried by 'Women'
    # (outside tryout 28, w03: "the Men category" as i_category = 'Women' was shown).
    carried = {w for lit in tree.find_all(exp.Literal) if lit.is_string for w in words(lit.name)}
    assert ctx.catalog is not None
    schema = _read_words(tree, ctx.catalog)
    for table, column, compared in comparisons:
        place = _place_instead(ctx, table, column, compared)
        if place is not None:
            return CheckOutcome((place,))
        asked = _asked_instead(ctx, tree, table, column, compared, carried)
        if asked is None:
            asked = _code_said_instead(ctx, table, column, compared)
        if asked is None:
            status = status_instead(ctx, tree, table, column, compared, schema)
            if status is not None:
                return CheckOutcome((status,))
            continue
        where = f"{table}.{column}"
        return CheckOutcome(
            (
                finding(
                    "signal.value_swapped",
                    f"The question says {asked!r}, a value of {where}, but the SQL compares "
                    f"{where} with {compared!r}, another stored value the question never "
                    "says: the answer is about other rows than those asked for.",
                    column=where,
                    asked=asked,
                    compared=compared,
                ),
            )
        )
    return CheckOutcome()


MAX_CODE_CHARS = 3  # a code said beside its column's name: 'R', 'F', 'NY', 'AIR'
_TOKEN = re.compile(r"[A-Za-z0-9]+")


def _beside_name(tokens: list[str], at: int, column: str) -> bool:
    """Whether a word of the column's name stands within two words of ``tokens[at]``: "return
    flag R" and "flag R" say ``l_returnflag``'s code, "status F" ``o_orderstatus``'s. A word
    says the name when its first four letters (all of it, when shorter) are in the name.

    Example:
        >>> _beside_name(["went", "by", "return", "flag", "R"], 4, "l_returnflag")
        True
        >>> _beside_name(["R", "went", "by", "air"], 0, "l_returnflag")
        False
    """
    name = column.lower()
    near = tokens[max(0, at - 2) : at] + tokens[at + 1 : at + 3]
    return any(len(w) >= 3 and w.lower()[:4] in name for w in near)


def _code_said_instead(ctx: CheckContext, table: str, column: str, compared: str) -> str | None:
    """The short code of ``table.column`` the question says in capitals beside the column's
    name ("returned line items (return flag R)"), when the SQL compares the column with
    another stored code the question never says ('A'): TPC-H's return flag, order status and
    ship modes, a state's postal code (agreed26 h26_h07: "return flag R" as ``l_returnflag =
    'A'`` was shown at 1.00; ``_asked_instead`` reads words of three letters or more only)."""
    tokens = _TOKEN.findall(ctx.question)
    if compared.strip() in tokens or not 0 < len(compared.strip()) <= MAX_CODE_CHARS:
        return None
    stored = set(_stored_categories(ctx, table, column, most=MAX_NAMES, repeated=False))
    if compared.strip() not in stored:
        return None
    said = sorted(
        t
        for at, t in enumerate(tokens)
        if t in stored
        and t.isupper()
        and len(t) <= MAX_CODE_CHARS
        and _beside_name(tokens, at, column)
    )
    return said[0] if said else None


def _place_instead(ctx: CheckContext, table: str, column: str, compared: str) -> Finding | None:
    """The question names a place ("Germany") that ``table.column`` stores by its code ('DE'),
    and the SQL compares the column with the code of another place ('FR', France) that the
    question never names (outside re-check of tryout 38: withheld, but as a code the question
    said nothing of). Codes are read as ``_places`` writes them: ISO 3166 for countries, postal
    codes for US states; one bounded query, only when the compared string is such a code."""
    others = place_of(compared)
    named = places_named(ctx.question)
    code = compared.strip().upper()
    if not others or not named or any(code in codes for _, _, codes in named):
        return None
    stored = {
        v.strip().upper(): v
        for v in _stored_categories(ctx, table, column, most=MAX_PLACES, repeated=False)
    }
    for _, name, codes in named:
        asked = sorted(c for c in codes if c in stored)
        if asked:
            where = f"{table}.{column}"
            place = name.title()
            return finding(
                "signal.value_swapped",
                f"The question names {place}, which {where} stores as {stored[asked[0]]!r}, but "
                f"the SQL keeps {where} = {compared!r} ({' or '.join(others)}): the answer is "
                f"about another place than the one asked for. Compare {where} with "
                f"{stored[asked[0]]!r}.",
                column=where,
                asked=stored[asked[0]],
                compared=compared,
                place=place,
            )
    return None
