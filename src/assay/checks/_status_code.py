"""A status said in a word, against a one-letter code of another status.

TPC-H's ``l_returnflag`` stores 'R', 'A' and 'N', ``o_orderstatus`` 'F', 'O' and 'P': a column
of one-letter codes names each status by its initial. "How many line items were returned?"
answered with ``WHERE l_returnflag = 'A'`` (five samples agreeing) was shown at 1.00 (outside
tryout 40 F-2, recheck 40): the question says no code in capitals (``_code_said_instead``) and no
stored value as a word (``_asked_instead`` reads words of three letters or more).

``status_instead`` reads a status word: a word of the question ending in "-ed" ("returned",
"delivered", "fulfilled") that is no word of the tables or columns the query reads, and that
says a state, not an event with its time or place: its first four letters are in the column's
name ("returned" beside ``l_returnflag``), or it says a last state (``_STATES``), or no
preposition or number follows it ("orders placed in 1995" says when, not status 'P'; "orders
fulfilled in 1995" says 'F'); an adverb before it says the status with it, by
its own initial ("partially fulfilled": 'P'; agreed25 h25_h09). When such a word begins with
a stored code the SQL never compares, while no status word begins with the code the SQL
compares and the question does not say that code in capitals, the answer is about other rows
than those asked for (``signal.value_swapped``). A column qualifies only when every stored
value read is one capital letter (two to ``MAX_CODES`` of them). Silence is never evidence of
a right answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._context import CheckContext
from assay.checks._dropped import _stored_categories
from assay.checks._where import finding
from assay.types import Finding

__all__ = ["status_instead"]

MAX_CODES = 12
_TOKEN = re.compile(r"[A-Za-z0-9]+")
# after an "-ed" word, these say it names an event ("placed in 1995", "shipped by air")
_PREPOSITIONS = frozenset(
    "in on by at from to during before after between since within for via through per into "
    "across under over than as with until".split()
)
# "-ed" words of an order's or a case's last state: followed by a preposition or a number they
# still say the state ("orders fulfilled in 1995": 'F'; outside recheck 41, F4, 'O' compared
# was shown); any other "-ed" word so followed says an event with its time or place ("orders
# placed in 1995", "parcels dispatched in March")
_STATES = frozenset(
    "fulfilled returned cancelled canceled completed delivered refunded rejected approved "
    "declined failed finished resolved settled expired suspended".split()
)
# words in "-ly" that say when or how much, not which status ("only returned", "early shipped")
_NOT_MANNER = frozenset("only early daily weekly monthly quarterly yearly likely really".split())


def _status_words(tokens: list[str], column: str, schema: frozenset[str]) -> list[str]:
    """The question's words that say a status, lower case, in order; a status qualified by an
    adverb before it is said with it ("partially fulfilled": its code is the adverb's
    initial, TPC-H's 'P', not 'F')."""
    name = column.lower()
    found = []
    for at, token in enumerate(tokens):
        word = token.lower()
        if len(word) < 5 or not word.isalpha() or not word.endswith("ed") or word in schema:
            continue
        after = tokens[at + 1].lower() if at + 1 < len(tokens) else ""
        event = word not in _STATES and (after in _PREPOSITIONS or after.isdigit())
        if word[:4] in name or not event:
            before = tokens[at - 1].lower() if at > 0 else ""
            manner = before.endswith("ly") and len(before) > 4 and before not in _NOT_MANNER
            found.append(f"{before} {word}" if manner else word)
    return found


def status_instead(
    ctx: CheckContext,
    tree: exp.Expr,
    table: str,
    column: str,
    compared: str,
    schema: frozenset[str],
) -> Finding | None:
    """The ``signal.value_swapped`` finding when the question says a status word whose initial
    is a one-letter code of ``table.column`` and the SQL compares the column with another code
    (``compared``) that nothing in the question says."""
    code = compared.strip()
    if len(code) != 1 or not code.isupper():
        return None
    stored = set(_stored_categories(ctx, table, column, most=MAX_CODES, repeated=False))
    if (
        code not in stored
        or len(stored) < 2
        or not all(len(v) == 1 and v.isupper() for v in stored)
    ):
        return None
    tokens = _TOKEN.findall(ctx.question)
    said = _status_words(tokens, column, schema)
    if code in tokens or any(w[0].upper() == code for w in said):
        return None
    carried = {lit.name.strip() for lit in tree.find_all(exp.Literal) if lit.is_string}
    asked = [w for w in said if w[0].upper() in stored and w[0].upper() not in carried]
    if not asked:
        return None
    word, where = asked[0], f"{table}.{column}"
    letters = ", ".join(repr(v) for v in sorted(stored))
    return finding(
        "signal.value_swapped",
        f"The question says {word!r}, and {where} stores one-letter codes ({letters}), likely "
        f"{word[0].upper()!r} for it, but the SQL compares {where} with {code!r}, a "
        "code no word of the question says: the answer is likely about other rows than those "
        f"asked for. Check which code means {word!r} and compare {where} with it.",
        column=where,
        asked=word[0].upper(),
        compared=code,
        word=word,
    )
