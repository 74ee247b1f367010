"""The COUNT(DISTINCT ...) an answer returns and whose DISTINCT changes what it counts.

``aggregate_fit`` says a COUNT(DISTINCT) disagrees with a question that does not say
"distinct". Two kinds of them are not the answer's quantity, and right answers written with
them were withheld on the Spider slice:

- one that only picks or ranks rows: in a WHERE, HAVING or ORDER BY, at any depth ("makers
  that produced cars in both 1970 and 1971" as ``HAVING count(DISTINCT Year) = 2``; "the
  country with the most car makers" as ``ORDER BY COUNT(DISTINCT Maker) DESC LIMIT 1``);
- one over a column whose values are all different and never null in its table (a key): its
  distinct values are the table's rows, so it counts the entities and the DISTINCT only undoes a
  join's repeats ("How many car makers are there in france?" as
  ``COUNT(DISTINCT car_makers.id)`` over a join);
- one over a declared foreign key to the table the question counts, named right after "how
  many", "number of" or a share's "share of" (a hyphened modifier before it left aside): it
  counts those entities ("How many students have a dog?" as ``count(DISTINCT Has_Pet.StuID)``,
  "What share of pet-owning students own a dog?" as two such counts; "How many pets do students
  have?" so written still fires).

The declared key and a DATE's days are read from the catalog alone; whether a column is a key
without being declared one needs the database's profiles, and without them such a COUNT(DISTINCT)
is kept: the check then fires, as it did before (fail closed). EHRSQL's gold, scanned with its
schema and no data, counts "how many patients" as ``COUNT(DISTINCT admissions.subject_id)``, a
declared key to ``patients``: 387 of its 611 firings were that reading left unread.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import ForeignKey, KeyOverlap
from assay.checks._context import CheckContext
from assay.checks._cues import named_tables
from assay.checks._key_names import says_noun, unglued
from assay.checks._sql import column_reads
from assay.errors import ExecutionError

__all__ = ["counted_words", "counts_keys_of", "unasked_distinct_counts", "uncounted_distinct"]

# Clauses that pick or rank rows: an aggregate under them is never a returned value.
_FILTERS = (exp.Where, exp.Having, exp.Order)
# The thing counted: the one or two words after the count's cue ("how many car makers"); "count
# the number of patients" counts the patients, not a "number of" (EHRSQL gold, 50 withheld). A
# share counts its whole's things as well ("What share of pet-owning students own a dog?" as
# count(DISTINCT Has_Pet.StuID) over count(DISTINCT Has_Pet.StuID): dist36, withheld), and a
# hyphened modifier before the noun ("pet-owning") is not the thing counted.
_COUNTED = re.compile(
    r"\b(?:how many|number of|count of|count the(?!\s+(?:total\s+)?number\b)"
    r"|(?:share|fraction|proportion|percentage|percent) of(?:\s+(?:the|all))?)"
    r"(?:\s+[a-z_]+(?:-[a-z_]+)+)*((?:\s+[a-z_]+){1,2})"
)
# "how many different customers", "the number of unique items"
_COUNT_DISTINCT = re.compile(
    r"\b(?:how many|number of|count of|count the)\s+(?:distinct|different|unique)\b"
)
# "how many customers placed at least one order": each customer counted once, however many
# orders (outside tryout 26, t_w1: count(o_custkey) over orders was shown at 1.00)
_AT_LEAST_ONE = re.compile(
    r"\b(?:how many|number of|count of|count the)\s+[a-z_]+(?:\s+[a-z_']+){0,4}?\s+"
    r"at least (?:one|1|a single)\b"
)


def counted_words(question: str) -> str:
    """The words right after each count's or share's cue ("What share of students own a
    pet?": " students own"), joined.

    Example:
        >>> counted_words("What share of pet-owning students own a dog?")
        ' students own'
    """
    return " ".join(m.group(1) for m in _COUNTED.finditer(question.lower()))


def unasked_distinct_counts(ctx: CheckContext, tree: exp.Expr) -> list[exp.Count]:
    """The COUNT(DISTINCT) nodes whose DISTINCT can change the answer's value (docstring)."""
    return [
        count
        for count in tree.find_all(exp.Count)
        if isinstance(count.this, exp.Distinct)
        and count.find_ancestor(*_FILTERS) is None
        and not _counts_entities(ctx, tree, count.this)
    ]


def _counts_entities(ctx: CheckContext, tree: exp.Expr, distinct: exp.Distinct) -> bool:
    """Whether the one counted column is unique and never null in its one base table, or a
    declared foreign key to the table the question counts."""
    if ctx.catalog is None or len(distinct.expressions) != 1:
        return False
    column = distinct.expressions[0]
    if not isinstance(column, exp.Column):
        return False
    reads = column_reads(tree, ctx.catalog, column)
    if len(reads) != 1:
        return False
    if _refers_to_counted(ctx, *reads[0]) or _counts_days(ctx, *reads[0]):
        return True  # the catalog's keys and types settle it: no data read
    if ctx.profiles is None:
        return False
    try:
        profile = ctx.profiles.profile(*reads[0])
    except ExecutionError:  # not measured: not known to be a key
        return False
    if profile is not None and profile.n_null == 0 and profile.n_distinct == profile.n_rows:
        return True
    return _keys_counted_table(ctx, *reads[0])


def _keys_counted_table(ctx: CheckContext, table: str, column: str) -> bool:
    """Whether ``table.column``, no declared key, holds only keys of a table the question names
    right after its count's cue: a column of that table with the same name, unique and never
    null there, holds every value of it (``Has_Pet.StuID`` and ``Student.StuID`` in a copy of
    pets_1 with no keys declared: "What share of students own a pet?" counts students; outside
    tryout 38). Measured in the engine; anything unmeasured is no key (fail closed)."""
    assert ctx.catalog is not None and ctx.profiles is not None
    counted = counted_words(ctx.question)
    names = tuple(t.name for t in ctx.catalog.tables if t.name.lower() != table.lower())
    for named in sorted(named_tables(counted, names)):
        info = ctx.catalog.table(named)
        key = info.column(column) if info is not None else None
        if info is None or key is None:
            continue
        try:
            profile = ctx.profiles.profile(info.name, key.name)
            overlap = ctx.profiles.overlap((table, column), (info.name, key.name))
        except ExecutionError:
            continue
        unique = profile is not None and profile.n_null == 0
        unique = unique and profile is not None and profile.n_distinct == profile.n_rows
        held = overlap is not None and 0 < _side(overlap, table, column) == overlap.n_both
        if unique and held:
            return True
    return False


def _side(overlap: KeyOverlap, table: str, column: str) -> int:
    """The distinct values on ``table.column``'s side of a measured overlap."""
    left = (overlap.left[0].lower(), overlap.left[1].lower()) == (table.lower(), column.lower())
    return overlap.n_left if left else overlap.n_right


def _refers_to_counted(ctx: CheckContext, table: str, column: str) -> bool:
    """Whether ``table.column`` is a declared one-column foreign key to a table the question
    names right after its count's cue."""
    assert ctx.catalog is not None
    counted = " ".join(m.group(1) for m in _COUNTED.finditer(ctx.question.lower()))
    if any(named_tables(counted, (fk.ref_table,)) for fk in _foreign_keys(ctx, table, column)):
        return True
    # With no declared key, the column's own name saying the counted thing ("how many web
    # orders" as COUNT(DISTINCT ws_order_number), "how many customers" as COUNT(DISTINCT
    # ws_bill_customer_sk): each order or customer once, over its many lines; agreed16).
    return not ctx.catalog.foreign_keys and _names_counted(column, counted)


def _counts_days(ctx: CheckContext, table: str, column: str) -> bool:
    """Whether "how many days" is counted over a DATE column: each of its values is one day, so
    its distinct values are the days ("On how many days did Instagram get more than 10
    mentions?" as ``COUNT(DISTINCT date)`` over rows per platform and day; agreed19, withheld).
    A timestamp's values are instants, several a day: not read so."""
    assert ctx.catalog is not None
    counted = " ".join(m.group(1) for m in _COUNTED.finditer(ctx.question.lower())).split()
    info = ctx.catalog.table(table)
    found = info.column(column) if info is not None else None
    dated = found is not None and found.type.upper() == "DATE"
    return dated and counted[:1] in (["days"], ["dates"])


def _names_counted(column: str, counted: str) -> bool:
    """Whether a word of the column (less its short prefix) is the counted noun.

    TPC-H's glued keys count too ("o_custkey" for customers: ``_key_names``).

    Example:
        >>> _names_counted("ws_order_number", " web orders"), _names_counted("ws_item_sk", " web")
        (True, False)
    """
    nouns = {w.rstrip("s") for w in counted.split() if len(w) > 3}
    parts = [p for p in re.split(r"[^a-z0-9]+", column.lower()) if p]
    stems = [unglued(p)[0].rstrip("s") for p in parts[1:] if len(p) > 3]
    return any(says_noun(stem, noun) for stem in stems for noun in nouns)


def counts_keys_of(ctx: CheckContext, tree: exp.Expr, tables: frozenset[str]) -> bool:
    """Whether the SQL returns a COUNT(DISTINCT) of a declared foreign key to one of
    ``tables``: it counts those tables' rows through a link table ("How many students have a
    dog?" as ``count(DISTINCT Has_Pet.StuID)`` reads no ``Student``, yet counts students)."""
    if ctx.catalog is None:
        return False
    wanted = {t.lower() for t in tables}
    for count in tree.find_all(exp.Count):
        distinct = count.this
        if not isinstance(distinct, exp.Distinct) or count.find_ancestor(*_FILTERS) is not None:
            continue
        columns = distinct.expressions
        if len(columns) != 1 or not isinstance(columns[0], exp.Column):
            continue
        reads = column_reads(tree, ctx.catalog, columns[0])
        if len(reads) == 1 and any(
            fk.ref_table.lower() in wanted for fk in _foreign_keys(ctx, *reads[0])
        ):
            return True
    return False


def _foreign_keys(ctx: CheckContext, table: str, column: str) -> list[ForeignKey]:
    assert ctx.catalog is not None
    return [
        fk
        for fk in ctx.catalog.foreign_keys
        if fk.table.lower() == table.lower() and [c.lower() for c in fk.columns] == [column.lower()]
    ]


def uncounted_distinct(ctx: CheckContext, tree: exp.Expr) -> bool:
    """ "How many different customers ..." (or "... placed at least one order") answered with a
    COUNT of a column that repeats, with
    no DISTINCT anywhere that removes the repeats (``COUNT(ss_customer_sk)`` over sales lines
    counts each customer once per line; agreed16, written blind). Silent when the counted
    column is unique in its table (a key: its rows are the entities), when a SELECT DISTINCT,
    a GROUP BY or a set operation dedups first, and without the database's profiles (nothing
    known: aggregate_fit then says nothing new)."""
    text = ctx.question.lower()
    if not (_COUNT_DISTINCT.search(text) or _AT_LEAST_ONE.search(text)) or ctx.catalog is None:
        return False
    if ctx.profiles is None:
        return False
    if any(isinstance(s, exp.Select) and s.args.get("distinct") for s in tree.find_all(exp.Select)):
        return False
    if tree.find(exp.Group, exp.Union, exp.Except, exp.Intersect) is not None:
        return False
    counts = [
        c
        for c in tree.find_all(exp.Count)
        if c.find_ancestor(*_FILTERS) is None and isinstance(c.this, exp.Column)
    ]
    if len(counts) != 1:
        return False
    reads = column_reads(tree, ctx.catalog, counts[0].this)
    if len(reads) != 1:
        return False
    try:
        profile = ctx.profiles.profile(*reads[0])
    except ExecutionError:
        return False
    return profile is not None and profile.n_distinct < profile.n_rows - profile.n_null
