"""A coded key compared with the number of another row than the one the question names.

"How many countries are in Europe?" answered with ``SELECT count(*) FROM countries WHERE
Continent = 1``: ``countries.Continent`` references ``continents.ContId`` (Spider car_1), and
row 1 is 'america'; 'europe' is row 2. Five samples agreeing on it were shown at 1.00 (outside
tryout 23, V3): no literal is missing, since the SQL compares a number and the name the
question says lives in the other table.

``key_meaning`` reads, for each ``column = n`` or ``column IN (n, ...)`` on a column with a
declared one-column foreign key, the referenced table's text columns (one bounded query, at most
``MAX_ROWS`` rows; a larger table is unread). When the question says a stored value of some row
(the whole value, three letters or more, no word of the schema and none that says nothing of the
rows; or its adjective: "How many European countries have no car makers?" as ``Continent = 1``,
agreed22, a development set, shown at 1.00) and no value of the rows compared, the SQL selects
another row than the one named (``signal.key_misread``). A comparison negated, or turned by a NOT,
an EXCEPT or an IS around it; a key the referenced table does not hold; a question naming values of
the compared rows too: silent, never evidence of a right answer.

``code_labels`` reads the same rows for any check that must know what a compared code is called:
a key named by a declared foreign key or, where the schema declares none, by its name, and the
names every row of the code holds (``region`` stores a row per state under each ``Region_id``:
2 is 'Europe', no state). ``share_whole_dropped`` reads a share's whole said by a code with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlglot import exp

from assay.catalog import Catalog, ForeignKey
from assay.checks._coded import _turned
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._dropped import _EMPTY_WORDS, _NOT_TEXT, _schema_words
from assay.checks._mentions import key_column
from assay.checks._sql import parse_query
from assay.checks._values import _owner
from assay.checks._where import const, finding, negated

__all__ = ["MAX_ROWS", "Label", "code_labels", "compared_numbers", "key_meaning"]

MAX_ROWS = 200  # a lookup table of names (continents, statuses); a larger one is not read
TIME_LIMIT_MS = 2_000
_DIALECTS = {"duckdb": "duckdb", "sqlite": "sqlite", "postgres": "postgres"}


def compared_numbers(node: exp.Expr) -> tuple[exp.Column, list[float]] | None:
    """The column and the numbers of ``column = n`` (either way round) or ``column IN (n,
    ...)``; ``None`` for any other node."""
    if isinstance(node, exp.In):
        column, values = node.this, list(node.expressions)
    elif isinstance(node, exp.EQ):
        column, values = node.this, [node.expression]
        if not isinstance(column, exp.Column):
            column, values = node.expression, [node.this]
    else:
        return None
    consts = [const(v) for v in values]
    numbers = [c.number for c in consts if c is not None and c.kind == "num"]
    if isinstance(column, exp.Column) and numbers and len(numbers) == len(values):
        return column, numbers
    return None


def _keyed(tree: exp.Expr) -> list[tuple[exp.Expr, exp.Column, list[float]]]:
    """(the node, its column, the numbers) for each ``column = n`` and ``column IN (n, ...)``
    that is not negated."""
    found: list[tuple[exp.Expr, exp.Column, list[float]]] = []
    for node in tree.find_all(exp.EQ, exp.In):
        compared = compared_numbers(node)
        if compared is not None and not negated(node) and not _turned(tree, node):
            found.append((node, *compared))
    return found


def _reference(catalog: Catalog, table: str, column: str) -> ForeignKey | None:
    for key in catalog.foreign_keys:
        if (
            key.table.lower() == table.lower()
            and [c.lower() for c in key.columns] == [column.lower()]
            and len(key.ref_columns) == 1
        ):
            return key
    return None


def _number(key: object) -> float | None:
    try:
        return float(key)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


def _rows(ctx: CheckContext, table: str, key: str) -> dict[float, tuple[object, ...]]:
    """The text values of ``table`` by its ``key`` (a number), each one the key's rows all
    hold (``region`` stores a row per state under each ``Region_id``: 'Europe' is said of 2,
    no state is); none past ``MAX_ROWS`` rows or when a key is no number."""
    assert ctx.catalog is not None and ctx.profiles is not None
    info = ctx.catalog.table(table)
    texts = [
        c.name
        for c in (info.columns if info else ())
        if not _NOT_TEXT.search(c.type) and c.name.lower() != key.lower()
    ]
    if not texts:
        return {}
    dialect = _DIALECTS.get(ctx.dialect, ctx.dialect)
    names = ", ".join(exp.to_identifier(c, quoted=True).sql(dialect=dialect) for c in [key, *texts])
    quoted = exp.to_identifier(table, quoted=True).sql(dialect=dialect)
    # A probe that fails or runs past its limit raises: the registry names it (fail closed).
    result = ctx.profiles.runner.execute(
        f"SELECT {names} FROM {quoted} LIMIT {MAX_ROWS + 1}",
        time_limit_ms=TIME_LIMIT_MS,
        max_rows=MAX_ROWS + 1,
    )
    keys = [_number(row[0]) for row in result.rows]
    if len(result.rows) > MAX_ROWS or None in keys:
        return {}
    held: dict[float, list[tuple[object, ...]]] = {}
    for k, row in zip(keys, result.rows, strict=True):
        if k is not None:
            held.setdefault(k, []).append(tuple(row[1:]))
    return {k: _held_by_all(rows) for k, rows in held.items()}


def _held_by_all(rows: list[tuple[object, ...]]) -> tuple[object, ...]:
    """The values every row holds in the same column, in column order.

    Example:
        >>> _held_by_all([("Europe", "Spain"), ("Europe", "Italy")])
        ('Europe',)
    """
    columns = zip(*rows, strict=True)
    return tuple(c[0] for c in columns if all(v == c[0] for v in c))  # a list is no set member


@dataclass(frozen=True)
class Label:
    """What the rows of a code are called: ``region.Region_id`` 2 is 'Europe'."""

    key: str
    number: float
    value: str

    def __str__(self) -> str:
        return f"{self.key} {self.number:g} is {self.value!r}"


def code_labels(ctx: CheckContext, tree: exp.Expr, condition: exp.Expr) -> list[Label]:
    """What the rows a condition on a key selects are called (``Region_id = 2``: 'Europe'),
    one label per name each compared number's rows hold (``_rows``); none for a condition
    that compares no key with numbers. The key is the one the column names or is
    (``_keys``), the first whose rows hold a name: a fact table that shares the key's name
    (``daily_revenue.Product_id`` beside ``product.Product_id``) holds none.

    ``key_meaning`` reads the declared keys alone; a share's whole said by a code reads any
    (``_share_whole``: "What share of Europe's revenue ..." as ``Region_id = 2``)."""
    compared = compared_numbers(condition)
    if compared is None or ctx.catalog is None or ctx.profiles is None:
        return []
    column, numbers = compared
    for key in _keys(ctx, tree, column):
        rows = _rows(ctx, *key)
        if any(rows.values()):
            return [
                Label(".".join(key), n, v.strip())
                for n in numbers
                for v in rows.get(n, ())
                if isinstance(v, str) and v.strip()
            ]
    return []


def _keys(ctx: CheckContext, tree: exp.Expr, column: exp.Column) -> list[tuple[str, str]]:
    """(table, column) of each key the column names, then its own when another table's key
    names it; each named as stored (a quoted name is exact in PostgreSQL). A column names
    another table's key by a declared foreign key or, where the schema declares none, by its
    name (``daily_revenue.Region_id`` names ``region.Region_id``: ``_mentions.key_column``)."""
    assert ctx.catalog is not None
    owner = _owner(column, tree, ctx.catalog)
    if owner is None:
        return []
    table, name = owner
    others = [t for t in ctx.catalog.tables if t.name.lower() != table.lower()]
    keys = []
    for other in others:
        ref = key_column(ctx.catalog, table, name, other.name)
        stored = other.column(ref) if ref is not None else None
        if stored is not None:
            keys.append((other.name, stored.name))
    if any(
        (key_column(ctx.catalog, other.name, c, table) or "").lower() == name.lower()
        for other in others
        for c in other.column_names
    ):
        keys.append((table, name))
    return keys


def _said(question: str, value: object, schema: frozenset[str]) -> bool:
    """The question says the whole stored value, plural or as the adjective of a place
    ('europe' in "Europe" and in "European countries", 'asia' in "Asian", 'italy' in "Italian").

    Example:
        >>> [_said(q, "europe", frozenset()) for q in ("in Europe", "European cars", "Europa")]
        [True, True, False]
    """
    text = str(value).strip().lower() if isinstance(value, str) else ""
    if len(text) < 3 or not re.search(r"[a-z]", text) or text in schema or text in _EMPTY_WORDS:
        return False
    forms = [re.escape(text) + "(?:s|es|n|an)?"]
    if text.endswith("y"):  # "Italian"
        forms.append(re.escape(text[:-1]) + "ian")
    return re.search(rf"\b(?:{'|'.join(forms)})\b", question.lower()) is not None


def _misread(
    key: ForeignKey, node: exp.Expr, said: tuple[float, object], selected: tuple[float, object]
) -> CheckOutcome:
    ref = f"{key.ref_table}.{key.ref_columns[0]}"
    (named_key, value), (chosen_key, chosen) = said, selected
    return CheckOutcome(
        (
            finding(
                "signal.key_misread",
                f"The question says {value!r}, which is {ref} {named_key:g}, but the SQL's "
                f"{node.sql()} selects {ref} {chosen_key:g} ({chosen!r}): the key names "
                f"another row. Compare with {named_key:g}, or join {key.ref_table} and "
                "compare its name.",
                column=f"{key.table}.{key.columns[0]}",
                condition=node.sql(),
                said=str(value),
                selected=str(chosen),
            ),
        )
    )


def key_meaning(ctx: CheckContext) -> CheckOutcome:
    """The SQL compares a foreign key with numbers whose rows hold none of the values the
    question names, while another row holds one (``signal.key_misread``)."""
    sql = ctx.candidate.final_sql
    catalog = ctx.catalog
    tree = parse_query(sql, ctx.dialect) if sql else None
    if catalog is None or ctx.profiles is None or tree is None:
        return CheckOutcome()
    schema = _schema_words(catalog)
    for node, column, numbers in _keyed(tree):
        owner = _owner(column, tree, catalog)
        key = _reference(catalog, *owner) if owner is not None else None
        rows = _rows(ctx, key.ref_table, key.ref_columns[0]) if key is not None else {}
        said = [
            (k, v)
            for k, values in sorted(rows.items())
            for v in values
            if _said(ctx.question, v, schema)
        ]
        if key is None or not said or not set(numbers) <= set(rows):
            continue
        if {k for k, _ in said} & set(numbers):
            continue  # the question names a value of a compared row too
        chosen = numbers[0]
        shown = next((v for v in rows[chosen] if isinstance(v, str)), None)
        return _misread(key, node, said[0], (chosen, shown))
    return CheckOutcome()
