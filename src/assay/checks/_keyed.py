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
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import Catalog, ForeignKey
from assay.checks._coded import _turned
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._dropped import _EMPTY_WORDS, _NOT_TEXT, _schema_words
from assay.checks._sql import parse_query
from assay.checks._values import _owner
from assay.checks._where import const, finding, negated

__all__ = ["MAX_ROWS", "key_meaning"]

MAX_ROWS = 200  # a lookup table of names (continents, statuses); a larger one is not read
TIME_LIMIT_MS = 2_000
_DIALECTS = {"duckdb": "duckdb", "sqlite": "sqlite", "postgres": "postgres"}


def _keyed(tree: exp.Expr) -> list[tuple[exp.Expr, exp.Column, list[float]]]:
    """(the node, its column, the numbers) for each ``column = n`` and ``column IN (n, ...)``
    that is not negated."""
    found: list[tuple[exp.Expr, exp.Column, list[float]]] = []
    for node in tree.find_all(exp.EQ, exp.In):
        if isinstance(node, exp.In):
            column, values = node.this, list(node.expressions)
        else:
            column, values = node.this, [node.expression]
            if not isinstance(column, exp.Column):
                column, values = node.expression, [node.this]
        consts = [const(v) for v in values]
        numbers = [c.number for c in consts if c is not None and c.kind == "num"]
        if isinstance(column, exp.Column) and numbers and len(numbers) == len(values):
            if not negated(node) and not _turned(tree, node):
                found.append((node, column, numbers))
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


def _rows(ctx: CheckContext, key: ForeignKey) -> dict[float, tuple[object, ...]]:
    """The referenced table's text values by key (a number); none past ``MAX_ROWS`` rows or
    when a key is no number."""
    assert ctx.catalog is not None and ctx.profiles is not None
    info = ctx.catalog.table(key.ref_table)
    ref = key.ref_columns[0]
    texts = [
        c.name
        for c in (info.columns if info else ())
        if not _NOT_TEXT.search(c.type) and c.name.lower() != ref.lower()
    ]
    if not texts:
        return {}
    dialect = _DIALECTS.get(ctx.dialect, ctx.dialect)
    names = ", ".join(exp.to_identifier(c, quoted=True).sql(dialect=dialect) for c in [ref, *texts])
    table = exp.to_identifier(key.ref_table, quoted=True).sql(dialect=dialect)
    # A probe that fails or runs past its limit raises: the registry names it (fail closed).
    result = ctx.profiles.runner.execute(
        f"SELECT {names} FROM {table} LIMIT {MAX_ROWS + 1}",
        time_limit_ms=TIME_LIMIT_MS,
        max_rows=MAX_ROWS + 1,
    )
    keys = [_number(row[0]) for row in result.rows]
    if len(result.rows) > MAX_ROWS or None in keys:
        return {}
    return {k: row[1:] for k, row in zip(keys, result.rows, strict=True) if k is not None}


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
        rows = _rows(ctx, key) if key is not None else {}
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
