"""Two columns compared the other way round from the question.

"How many line items were shipped after their commit date?" answered with ``WHERE
l_commitdate > l_shipdate`` counts the items shipped before it; five samples agreeing on it were
shown at 1.00 (outside tester, tryout 26, probe p11). ``comparison_fit`` reads "more than" /
"less than" against a number and says nothing of two columns.

``columns_compared_backwards`` reads "A after B" / "A later than B" (A the larger) and "A before
B" / "A earlier than B" (A the smaller), where the few words before the cue name exactly one
column of a comparison of two columns in the SQL and the few words after it name exactly the
other, and says when the SQL makes the other one the larger
(``signal.columns_compared_backwards``). Amounts read the same way: "A below B", "A under B",
"A less than B" (A the smaller), "A above B", "A over B", "A more than B" (A the larger). "How
many web sales lines were sold at a discount, below the list price?" as ``ws_list_price <
ws_sales_price`` counts the lines sold above it (agreed20, a development set: shown at 1.00):
the words before the cue name neither column ("at a discount"), so the column the words after
it name is compared with the comparison's other one, the question's unsaid subject.

A word (three letters or more) names a column when one of the column's name parts begins with
the word's first four letters ("shipped" names ``l_shipdate``, "commit" names
``l_commitdate``); a word naming both columns ("date") names neither. A question with a
negation is left alone. Silence is never evidence of a right answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._cues import words
from assay.checks._sql import parse_query
from assay.checks._values import _owner
from assay.checks._where import finding

__all__ = ["columns_compared_backwards"]

# "A after B": A is the larger; "A before B": A is the smaller.
_CUE = re.compile(
    r"\b(after|later than|before|earlier than|below|under|less than|lower than|smaller than|"
    r"cheaper than|above|over|more than|higher than|greater than|larger than|exceeding|"
    r"exceeds?)\b",
    re.IGNORECASE,
)
_LARGER_FIRST = frozenset(
    "after|later than|above|over|more than|higher than|greater than|larger than|exceeding|"
    "exceeds|exceed".split("|")
)
# Verbs of amounts: their direction turns between dates ("beat the deadline": earlier).
_VERB = re.compile(
    r"\b(beat|beats|outperform(?:s|ed)?|surpass(?:es|ed)?|tops|topped|"
    r"f[ae]ll short of|falls short of|miss(?:es|ed)?|trail(?:s|ed)?|"
    r"lag(?:s|ged)?(?: behind)?|underperform(?:s|ed)?)\b",
    re.IGNORECASE,
)
_VERB_LARGER = re.compile(r"beat|outperform|surpass|top", re.IGNORECASE)
_DATED = re.compile(r"date|time", re.IGNORECASE)
_NEGATION = re.compile(r"\b(not|no|never|didn't|wasn't|weren't|isn't|aren't)\b", re.IGNORECASE)
# Words between the cue and what it compares with ("after their commit date").
_FILLER = frozenset("their its the his her a an was were is are been being".split())
WINDOW = 3
PREFIX = 4


def _parts(column: str) -> list[str]:
    """A column's name parts, lower case, a one- or two-letter table prefix dropped
    (``l_shipdate``: 'shipdate'; ``ShipDate``: 'ship', 'date')."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", column)
    parts = [p for p in re.split(r"[^a-z0-9]+", spaced.lower()) if p]
    return parts[1:] if len(parts) > 1 and len(parts[0]) <= 2 else parts


def _named(phrase: list[str], columns: tuple[str, str]) -> str | None:
    """The one column of the two the phrase's words name; None when they name neither or both."""
    hits: set[str] = set()
    for word in phrase:
        if len(word) < 3 or word in _FILLER:
            continue
        named = {c for c in columns if any(p.startswith(word[:PREFIX]) for p in _parts(c))}
        if len(named) == 1:  # "date" names both: no help
            hits |= named
    return hits.pop() if len(hits) == 1 else None


def _larger(node: exp.Expr) -> tuple[str, str] | None:
    """(the larger column, the smaller) of a comparison of two bare columns."""
    left, right = node.this, node.expression
    if not isinstance(left, exp.Column) or not isinstance(right, exp.Column):
        return None
    if left.name.lower() == right.name.lower():
        return None
    if isinstance(node, (exp.GT, exp.GTE)):
        return left.name, right.name
    return right.name, left.name


def _asked(question: str) -> list[tuple[list[str], bool, list[str], bool]]:
    """(the words before the cue, whether they name the larger, the words after the cue,
    whether the cue is a verb of amounts)."""
    found = []
    for pattern, verb in ((_CUE, False), (_VERB, True)):
        for match in pattern.finditer(question):
            before = words(question[: match.start()])[-WINDOW:]
            after = [w for w in words(question[match.end() :])[: WINDOW + 1] if w not in _FILLER]
            cue = match.group(1).lower()
            larger = bool(_VERB_LARGER.match(cue)) if verb else cue in _LARGER_FIRST
            found.append((before, larger, after[:WINDOW], verb))
    return found


def _dated(ctx: CheckContext, tree: exp.Expr, node: exp.Expr) -> bool:
    """Either column of the comparison holds dates (its type, or its name when the type is
    unknown): a verb of amounts reads the other way round there."""
    for column in (node.this, node.expression):
        owner = _owner(column, tree, ctx.catalog) if ctx.catalog is not None else None
        info = ctx.catalog.table(owner[0]) if ctx.catalog is not None and owner else None
        col = info.column(owner[1]) if info is not None and owner is not None else None
        if _DATED.search(col.type if col is not None and col.type else column.name):
            return True
    return False


def columns_compared_backwards(ctx: CheckContext) -> CheckOutcome:
    """ "A after B" asked, the SQL's comparison of A and B makes B the larger (or "before",
    the other way) (``signal.columns_compared_backwards``)."""
    sql = ctx.candidate.final_sql
    if not sql or _NEGATION.search(ctx.question):
        return CheckOutcome()
    asked = _asked(ctx.question)
    tree = parse_query(sql, ctx.dialect) if asked else None
    if tree is None:
        return CheckOutcome()
    for node in tree.find_all(exp.GT, exp.GTE, exp.LT, exp.LTE):
        pair = _larger(node)
        if pair is None:
            continue
        for before, larger_first, after, verb in asked:
            first, second = _named(before, pair), _named(after, pair)
            if second is None or (verb and _dated(ctx, tree, node)):
                continue
            if first is None:  # "sold below the list price": the other column is the subject
                first = pair[1] if second == pair[0] else pair[0]
            if first == second:
                continue
            wanted_larger = first if larger_first else second
            if wanted_larger == pair[0]:
                continue
            return CheckOutcome(
                (
                    finding(
                        "signal.columns_compared_backwards",
                        f"The question asks for rows whose {pair[1]} is later (larger) than "
                        f"their {pair[0]}, but the SQL keeps those whose {pair[0]} is larger "
                        f"than {pair[1]}: the comparison is the wrong way round (swap the two "
                        "columns).",
                        larger_asked=wanted_larger,
                        larger_in_sql=pair[0],
                    ),
                )
            )
    return CheckOutcome()
