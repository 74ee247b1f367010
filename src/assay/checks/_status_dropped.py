"""A state the question asks for ("still open") on a table whose status column the SQL never
reads.

"How many urgent orders placed in 1995 are still open?" answered with ``WHERE o_orderpriority =
'1-URGENT' AND o_orderdate BETWEEN ...`` counts the urgent orders of every status: TPC-H codes
an open order as ``o_orderstatus = 'O'`` (agreed20, a development set: five samples agreeing
were shown at 1.00). ``value_dropped`` is silent: "open" is no stored value, 'O' is its code.

``status_dropped`` reads the question's words for a state a row is in (open, closed, pending,
active, inactive, cancelled, suspended, expired) and, for each text column of a table the SQL
reads whose name says status (``o_orderstatus``, ``Status``) or is a flag named after the
state ("returned" and ``l_returnflag``, TPC-H coding a returned line 'R': agreed23), the column's
stored values (a
short category, ``_dropped._categories``: one bounded query each). When a stored value is the
word itself or its one-letter code (its first letter, 'O' for "open") and the SQL names the
column nowhere, the state is dropped (``signal.status_dropped``). A state said of another table
than those read, or a status column read anywhere in the query, is silent; so is any word that
says no state. Silence is never evidence of a right answer.
"""

from __future__ import annotations

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._cues import words
from assay.checks._dropped import _NOT_TEXT, _categories
from assay.checks._sql import parse_query
from assay.checks._where import finding, forms

__all__ = ["status_dropped"]

# Words that say which state a row is in, never what it is or when.
_STATES = frozenset(
    "open closed pending active inactive cancelled canceled suspended expired returned".split()
)
MAX_STATUS_COLUMNS = 4


def _state_words(question: str) -> list[str]:
    """The question's words for a state, in order, each once."""
    said = [w for w in words(question) if w in _STATES]
    return list(dict.fromkeys(said))


def _says_status(column: str, states: list[str]) -> bool:
    """A column's name says a status: ``o_orderstatus``, or a flag named after a state the
    question says (``l_returnflag`` for "returned": TPC-H codes a returned line 'R'; agreed23,
    "line items shipped by mail in 1994 were returned" answered without it was shown)."""
    name = column.lower()
    if "status" in name:
        return True
    stems = [state.removesuffix("ed") for state in states if state.endswith("ed")]
    return "flag" in name and any(len(stem) >= 4 and stem in name for stem in stems)


def _status_columns(ctx: CheckContext, tree: exp.Expr, states: list[str]) -> list[tuple[str, str]]:
    """(table, column) for each text column whose name says status, of the tables read, the
    query naming it nowhere."""
    assert ctx.catalog is not None
    named = {c.name.lower() for c in tree.find_all(exp.Column)}
    found = []
    for name in sorted({t.name.lower() for t in tree.find_all(exp.Table)}):
        table = ctx.catalog.table(name)
        if table is None:
            continue
        found += [
            (table.name, c.name)
            for c in table.columns
            if _says_status(c.name, states)
            and not _NOT_TEXT.search(c.type)
            and c.name.lower() not in named
        ]
    return found[:MAX_STATUS_COLUMNS]


def _coded(state: str, stored: list[str]) -> str | None:
    """The stored value saying the state: the word itself (or its singular), or its first
    letter as a one-letter code.

    Example:
        >>> _coded("open", ["f", "o", "p"]), _coded("active", ["active", "closed"])
        ('o', 'active')
    """
    for value in stored:
        if value in forms(state) or value == state[0]:
            return value
    return None


def status_dropped(ctx: CheckContext) -> CheckOutcome:
    """The question asks for rows in a state whose code a status column of a table read
    stores, and the SQL never reads that column (``signal.status_dropped``)."""
    sql = ctx.candidate.final_sql
    states = _state_words(ctx.question)
    if ctx.catalog is None or ctx.profiles is None or not sql or not states:
        return CheckOutcome()
    tree = parse_query(sql, ctx.dialect)
    if tree is None:
        return CheckOutcome()
    for table, column in _status_columns(ctx, tree, states):
        stored = _categories(ctx, table, column)
        for state in states:
            code = _coded(state, stored)
            if code is None:
                continue
            where = f"{table}.{column}"
            return CheckOutcome(
                (
                    finding(
                        "signal.status_dropped",
                        f"The question asks for {state} rows, and {where} stores the code "
                        f"{code!r} for that state, but the SQL never reads {where}: the answer "
                        "counts or lists rows of every status.",
                        column=where,
                        state=state,
                        stored=code,
                    ),
                )
            )
    return CheckOutcome()
