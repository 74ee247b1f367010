"""Place names checked against a column whose values were not read at layer load.

An imported dimension with more than 20 values (TPC-H's nation names) has no values in the
layer, so "orders from customers in Germany" leaves 'Germany' where a value would stand. When
the word is a place's name (``_places``) and exactly one such dimension's name says it holds
places of that kind (``customer_nations_name``), the data is asked which of the place's
spellings the column holds, case aside (``value_lookup_sql``: ``GERMANY``, ``DE``, ...). The
value is read only when the column holds exactly one of them; none is an abstention (the
warehouse does not record it), two or more, or a lookup that could not run, is asked back.
Nothing here runs SQL: the pipeline runs the lookup and re-reads with ``with_found``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlglot import exp

from assay.semantic._model import Dimension, SemanticLayer
from assay.semantic._places import COUNTRIES, STATES, hinted
from assay.semantic._resolve import Lexicon

__all__ = ["ValueLookup", "value_lookup_sql", "value_lookups", "with_found"]

_HEADS = frozenset({"name", "country", "countries", "nation", "nations", "state", "states"})


@dataclass(frozen=True)
class ValueLookup:
    """A word said where a value stands, to be looked up in one open dimension's column."""

    word: str
    dimension: str
    column: str  # table.column
    forms: tuple[str, ...]  # the place's spellings, case-folded


def _head(dim: Dimension) -> bool:
    """Whether a dimension's name ends in a word naming places ("customer_nations_name",
    "c_birth_country"; not "customer_nations_comment" or "..._nation_key")."""
    words = [w for w in re.split(r"[^a-z]+", dim.name.lower()) if w]
    return bool(words) and words[-1] in _HEADS


def _forms(word: str, table: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """Every spelling of the place ``word`` names in ``table`` (its code and names, folded);
    none when it names no place there, or two."""
    folded = word.casefold().removeprefix("the ")
    found = [
        code
        for code, names in table.items()
        if folded in {n.casefold().removeprefix("the ") for n in names}
    ]
    if len(found) != 1:
        return ()
    code = found[0]
    return tuple(sorted({code.casefold(), *(n.casefold() for n in table[code])}))


def value_lookups(value_like: tuple[str, ...], layer: SemanticLayer) -> tuple[ValueLookup, ...]:
    """The lookups that could read each place name in ``value_like``: one per word, and only
    where exactly one open dimension (no values read, a column of its own) is named for places
    of the word's kind; empty when any word has none (the question is then not answered)."""
    out: list[ValueLookup] = []
    for word in value_like:
        found = []
        for dim in layer.dimensions:
            if dim.values or dim.expression or not _head(dim):
                continue
            table = hinted(f"{dim.name} {dim.column}")
            if table is None or table not in (COUNTRIES, STATES):
                continue
            forms = _forms(word, table)
            if forms:
                found.append(ValueLookup(word, dim.name, dim.column, forms))
        if len(found) != 1:
            return ()
        out.append(found[0])
    return tuple(out)


def value_lookup_sql(lookup: ValueLookup, dialect: str) -> str:
    """The query asking which spellings the column holds, case aside (at most three rows)."""
    table, column = lookup.column.split(".", 1)
    col = exp.column(column, table)
    folded = exp.Lower(this=exp.cast(col.copy(), "text"))
    forms = [exp.Literal.string(f) for f in lookup.forms]
    return (
        exp.select(col.copy())
        .distinct()
        .from_(table)
        .where(exp.In(this=folded, expressions=forms))
        .order_by(col.copy())
        .limit(3)
        .sql(dialect=dialect)
    )


def with_found(lexicon: Lexicon, found: list[tuple[ValueLookup, str]]) -> Lexicon:
    """This lexicon where each looked-up word also names the one value the data holds."""
    return lexicon.with_values(
        [(lookup.word, f"{lookup.dimension}={value}") for lookup, value in found]
    )
