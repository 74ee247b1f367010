"""A condition the question names as a stored value and the SQL drops.

"How many dogs are older than 2?" answered with ``SELECT count(*) FROM Pets WHERE pet_age > 2``
counts every pet: 'dog' is one of the values of ``Pets.PetType`` and the SQL says it nowhere.
Five samples agreeing on it were shown at 1.00 (outside testers, task gen16).
``value_dropped`` reads, for the tables the SQL reads and those one declared foreign key away,
the values of each short categorical text column (at most ``MAX_VALUES`` distinct, some in
more than one row, read with one bounded query each, at most ``MAX_COLUMNS`` columns), and
says when a word of the question is one of them (singular or plural), or a value of two to
four words is said in a row (each word as stored or inflected: "delivered in person" says
'DELIVER IN PERSON'), while the SQL carries
that value in no string and names the column nowhere (``signal.value_dropped``). The message
names the value as stored ('Europe', not 'europe') and says what the answer does over every
value of the column: counts, totals, averages, takes the highest or lowest of, or lists its
rows (share36: a SUM was said to count or list).

A value that is a word of the schema ("student", "name", "type"), shorter than three letters,
or a word that says nothing of the rows ("yes", "other", "you") is never read as a condition; a
question naming two values of one column ("cats and dogs": a breakdown, or either) is silent.
Silence is never evidence of a right answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import Catalog, TableInfo
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._cues import words
from assay.checks._sql import parse_query
from assay.checks._where import finding, forms

__all__ = ["MAX_COLUMNS", "MAX_VALUES", "SAMPLE_ROWS", "value_dropped"]

MAX_VALUES = 12
MAX_COLUMNS = 16
TIME_LIMIT_MS = 2_000
SAMPLE_ROWS = 100_000
# Types that store no category (a number, a date, a time); an undeclared type may hold text.
_NOT_TEXT = re.compile(r"int|real|float|double|numeric|decimal|date|time|bool", re.IGNORECASE)
# Words that say nothing of the rows, and the words of a question itself ("can you list"):
# never read as a value.
_EMPTY_WORDS = frozenset(
    "yes none other others all any unknown true false null and the you your what which who "
    "how many much are was were can could please list show give find tell each every".split()
)


def _schema_words(catalog: Catalog) -> frozenset[str]:
    """Every table and column name and each of their words, lower case."""
    found: set[str] = set()
    for table in catalog.tables:
        for name in (table.name, *(c.name for c in table.columns)):
            spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", name)
            found.add(name.lower())
            found.update(w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w)
    return frozenset(found)


def _reachable(tree: exp.Expr, catalog: Catalog) -> list[TableInfo]:
    """The base tables the query reads and those one declared foreign key away, by name."""
    read = {t.name.lower() for t in tree.find_all(exp.Table) if catalog.table(t.name)}
    near = set(read)
    for key in catalog.foreign_keys:
        ends = {key.table.lower(), key.ref_table.lower()}
        if ends & read:
            near |= ends
    return [t for name in sorted(near) if (t := catalog.table(name)) is not None]


def _said(question_words: set[str], value: str) -> bool:
    """The question says the one-word value, singular or plural ("dogs" says 'dog')."""
    return any(value in forms(w) for w in question_words)


def _inflected(word: str) -> set[str]:
    """A word and its inflections: "deliver" is said as delivers, delivered, delivering."""
    stem = word[:-1] if word.endswith("e") else word
    return {word, word + "s", word + "es", word + "d", stem + "ed", stem + "ing"}


def _phrase_said(question_words: list[str], value: str, schema: frozenset[str]) -> bool:
    """The question says a value of two to four words in a row, each word as stored or
    inflected ("had to be delivered in person" says 'DELIVER IN PERSON': agreed25 h25_h06,
    the ship instruction dropped and shown at 1.00); at least two of its words say something
    of the rows (not a schema word, not an empty one, three letters or more).

    Example:
        >>> _phrase_said("items delivered in person".split(), "deliver in person", frozenset())
        True
        >>> _phrase_said("deliver the parcel in person".split(), "deliver in person", frozenset())
        False
    """
    wanted = value.split()
    if not 2 <= len(wanted) <= 4 or not all(w.isalpha() for w in wanted):
        return False
    if sum(len(w) >= 3 and w not in schema and w not in _EMPTY_WORDS for w in wanted) < 2:
        return False
    size = len(wanted)
    return any(
        all(q in _inflected(w) for q, w in zip(question_words[i : i + size], wanted, strict=True))
        for i in range(len(question_words) - size + 1)
    )


def _stored_categories(
    ctx: CheckContext, table: str, column: str, most: int = MAX_VALUES, repeated: bool = True
) -> list[str]:
    """The column's values as stored, when it is a short category: at most ``most``
    distinct strings, some stored in more than one row unless ``repeated`` is false (a column
    of names, one a row, is no category: ``singer.Song_Name`` stores 'You' and 'Love'). One
    query over the first ``SAMPLE_ROWS`` rows: it runs on every question, so it must not scan a
    large table (a probe past its time limit withholds the answer); a value it reads is stored,
    whatever it misses."""
    assert ctx.profiles is not None
    dialect = {"duckdb": "duckdb", "sqlite": "sqlite", "postgres": "postgres"}.get(
        ctx.dialect, ctx.dialect
    )
    t = exp.to_identifier(table, quoted=True).sql(dialect=dialect)
    c = exp.to_identifier(column, quoted=True).sql(dialect=dialect)
    # A probe that fails or runs past its limit raises: the registry names it (fail closed).
    result = ctx.profiles.runner.execute(
        f"SELECT {c}, count(*) FROM (SELECT {c} FROM {t} WHERE {c} IS NOT NULL "
        f"LIMIT {SAMPLE_ROWS}) AS s GROUP BY {c} ORDER BY 1 LIMIT {most + 1}",
        time_limit_ms=TIME_LIMIT_MS,
        max_rows=most + 1,
    )
    rows = result.rows
    if len(rows) > most or (repeated and not any(n > 1 for _, n in rows)):
        return []
    return [v.strip() for v, _ in rows if isinstance(v, str)]


def _categories(
    ctx: CheckContext, table: str, column: str, most: int = MAX_VALUES, repeated: bool = True
) -> list[str]:
    """``_stored_categories``, lower case."""
    return [v.lower() for v in _stored_categories(ctx, table, column, most, repeated)]


def _candidates(
    ctx: CheckContext, tree: exp.Expr, catalog: Catalog
) -> list[tuple[str, str, list[str]]]:
    """(table, column, the question's words among its values, as stored) for each short
    categorical column of a reachable table that the query names nowhere."""
    named = {c.name.lower() for c in tree.find_all(exp.Column)}
    schema = _schema_words(catalog)
    said = words(ctx.question)
    question_words = set(said)
    found = []
    columns = [
        (table.name, col.name)
        for table in _reachable(tree, catalog)
        for col in table.columns
        if not _NOT_TEXT.search(col.type) and col.name.lower() not in named
    ]
    for table, column in columns[:MAX_COLUMNS]:
        stored = {
            v.lower(): v for v in sorted(_stored_categories(ctx, table, column), reverse=True)
        }
        hits = [
            stored[v]
            for v in sorted(stored)
            if (
                v.isalpha()
                and len(v) >= 3
                and v not in schema
                and v not in _EMPTY_WORDS
                and _said(question_words, v)
            )
            or _phrase_said(said, v, schema)
        ]
        if hits:
            found.append((table, column, hits))
    return found


# What an answer does with the rows when its outer aggregate is one of these.
_DOES = {
    exp.Count: "counts the rows",
    exp.Sum: "totals {}",
    exp.Avg: "averages {}",
    exp.Max: "takes the highest {}",
    exp.Min: "takes the lowest {}",
}


def _does(tree: exp.Expr, dialect: str) -> str:
    """What the answer does over the rows, by the first aggregate its outer SELECT returns
    ("totals SUM(REVENUE)"'s argument); it lists them when it returns none."""
    select = tree if isinstance(tree, exp.Select) else tree.find(exp.Select)
    for projection in select.expressions if select is not None else []:
        for kind, does in _DOES.items():
            found = projection.find(kind)
            if found is not None:
                return does.format(found.this.sql(dialect=dialect))
    return "lists the rows"


def value_dropped(ctx: CheckContext) -> CheckOutcome:
    """A word of the question is a stored value of a short categorical column of a table the
    SQL reads or could join, and the SQL neither carries it in a string nor names the column
    (``signal.value_dropped``)."""
    sql = ctx.candidate.final_sql
    catalog = ctx.catalog
    if catalog is None or ctx.profiles is None or not sql:
        return CheckOutcome()
    tree = parse_query(sql, ctx.dialect)
    if tree is None:
        return CheckOutcome()
    strings = (
        " ".join(lit.name.lower() for lit in tree.find_all(exp.Literal) if lit.is_string)
        + " "
        + " ".join(c.name.lower() for c in tree.find_all(exp.Column))
    )
    for table, column, hits in _candidates(ctx, tree, catalog):
        if len(hits) != 1 or hits[0].lower() in strings:
            continue  # two values of one column: a breakdown or either, not one condition
        value = hits[0]
        return CheckOutcome(
            (
                finding(
                    "signal.value_dropped",
                    f"The question says {value!r}, a value of {table}.{column}, but the SQL "
                    f"neither compares {table}.{column} nor carries {value!r}: the condition "
                    f"is dropped and the answer {_does(tree, ctx.dialect)} of every "
                    f"{column}, not only {value!r}.",
                    column=f"{table}.{column}",
                    value=value,
                ),
            )
        )
    return CheckOutcome()
