"""Everyday numeric comparisons read as a row filter on a numeric column ("singers older than
30", "dogs that weigh more than 10", "cars with more than 6 cylinders", "cars made in 1970").

``_compare`` reads "<column words> <comparison> <number>" on a dimension or a metric's column.
This module adds, each in its own function:

* ``with_numeric_columns``: the numeric columns of the layer's tables that the layer does not
  name (a drafted layer leaves out few-valued integers such as car_1's Cylinders and Year; a
  Cube import leaves out the orders' total price), read from the catalog (the engine's type)
  and added as dimensions, so a bound on them, a grouping by them, can be read. A key (a
  join column, ``id``, ``*_id``, ``*_key``, ``*_sk``) is never added, nor a column whose words
  the layer already uses for something else (an explicit word is never shadowed);
* ``everyday_bounds``: "older than N" / "younger than N" said as the one age column's bound,
  "weigh(s) more than N" as the one weight column's; where no such column, or more than one,
  could be meant, the words are left as they are (asked back, naming them);
* ``counted_rows``: "singers with age more than 40", "how many cars have weight over 3000":
  with no metric named, the rows counted are those of the table every bound is on, when the
  only words left name that table (or say "how many") and it has one row count;
* ``untimed_year`` and ``unbounded_spans`` (``_untimed_year``): a year on a layer with no
  time, and a year-like number said as a bound.

Fail closed: each step applies only where exactly one column fits; otherwise the reading is
unchanged and its words stay unread.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from assay.catalog import Tier, cap_confidence
from assay.semantic._compare import NUMERIC_TYPE, Comparison, metric_columns
from assay.semantic._model import Dimension, SemanticLayer
from assay.semantic._names import split_name
from assay.semantic._resolve import Lexicon, canonical, tokenize

if TYPE_CHECKING:
    from assay.catalog import Catalog
    from assay.semantic._reading import Reading

__all__ = ["counted_rows", "everyday_bounds", "timeless", "with_numeric_columns"]

# The head nouns a glued column name ends in ("totalprice", "supplycost"), split off so that
# the column is said as people say it ("total price")
_HEADS = ("price", "cost", "qty", "quantity", "amount", "number", "count", "size", "weight")
_TIME_WORDS = frozenset({"year", "quarter", "month", "week", "day", "date", "hour"})
_KEY = re.compile(r"key$|(?:^|_)(?:id|sk|pk|fk)$|[a-z]Id$|ID$", re.IGNORECASE)


def _said(column: str, table: str) -> tuple[str, ...]:
    """A column's words: a short alias prefix (``o_``) dropped, glued heads split off."""
    words = list(split_name(column))
    if len(words) > 1 and len(words[0]) <= 2 and table.lower().startswith(words[0]):
        words = words[1:]
    out: list[str] = []
    for w in words:
        head = next((h for h in _HEADS if w.endswith(h) and len(w) - len(h) >= 4), None)
        out += [w[: -len(head)], head] if head else [w]
    return tuple(out)


def _inside(key: tuple[str, ...], known: Iterable[tuple[str, ...]]) -> bool:
    """Whether ``key`` is said inside a phrase the layer knows ("maker" in "car makers")."""
    n = len(key)
    return any(k[i : i + n] == key for k in known for i in range(len(k) - n + 1))


def with_numeric_columns(layer: SemanticLayer, catalog: Catalog) -> SemanticLayer:
    """The layer with each unnamed numeric column of a metric's table added as a dimension
    (``TABLE_COLUMN``, said by its words and by its table's words before them), and every
    dimension the engine types as a number listed in ``numeric``."""
    tables = {m.table for m in layer.metrics}
    taken = {d.column.lower() for d in layer.dimensions}
    taken |= {c.lower() for c in metric_columns(layer).values()}
    taken |= {j.left.lower() for j in layer.joins} | {j.right.lower() for j in layer.joins}
    for fk in catalog.foreign_keys:  # a reference is a key, never a quantity
        taken |= {f"{fk.table}.{c}".lower() for c in fk.columns}
        taken |= {f"{fk.ref_table}.{c}".lower() for c in fk.ref_columns}
    known = Lexicon(layer).entries
    names = {d.name for d in layer.dimensions} | {m.name for m in layer.metrics}
    untimed = timeless(layer)
    added: list[Dimension] = []
    for table in sorted(tables):
        info = catalog.table(table)
        if info is None:
            continue
        for col in info.columns:
            ref = f"{table}.{col.name}"
            if ref.lower() in taken or _KEY.search(col.name) or not NUMERIC_TYPE.match(col.type):
                continue
            words = _said(col.name, table)
            own = " ".join(words)
            phrases = [own, f"{' '.join(split_name(table))} {own}"]
            keys = [tuple(canonical(t.text) for t in tokenize(p)) for p in phrases]
            name = f"{table}_{col.name}"
            if not words or name in names or any(_inside(k, known) for k in keys):
                continue  # words the layer already uses: never shadowed
            if not untimed and set(words) & _TIME_WORDS:
                continue  # "year" on a dated layer is a period's word, never a column's
            # Its meaning rests on its name alone: the name-only tier, so that an answer
            # bounded or grouped by it is confirmed first (Rosetta's authority caps).
            added.append(
                Dimension(
                    name,
                    ref,
                    tuple(phrases),
                    tier=Tier.INTERPRETER_ONLY.name,
                    confidence=cap_confidence(1.0, Tier.INTERPRETER_ONLY),
                    fact=f"{ref} semantic_type",
                )
            )
    dimensions = (*layer.dimensions, *added)
    numeric = tuple(d.name for d in dimensions if not d.expression and _typed(d.column, catalog))
    return dataclasses.replace(layer, dimensions=dimensions, numeric=numeric)


def _typed(column: str, catalog: Catalog) -> bool:
    """Whether the engine types ``table.column`` as a number."""
    table, _, name = column.partition(".")
    info = catalog.table(table)
    found = [c for c in info.columns if c.name.lower() == name.lower()] if info else []
    return len(found) == 1 and NUMERIC_TYPE.match(found[0].type) is not None


def _numeric_columns(layer: SemanticLayer) -> dict[str, str]:
    """``table.column`` -> the words that name it, for every column a bound can be read on: a
    metric's column and every dimension whose values are not words."""
    out: dict[str, str] = {}
    for words, ref in sorted(metric_columns(layer).items(), key=lambda kv: len(kv[0])):
        out.setdefault(ref, " ".join(words))
    for dim in layer.dimensions:
        if dim.expression or (dim.values and not all(_NUM.fullmatch(v) for v in dim.values)):
            continue
        out.setdefault(dim.column, dim.synonyms[0] if dim.synonyms else dim.name)
    return out


_NUM = re.compile(r"-?\d+(?:\.\d+)?")
# not of a year: "songs older than 2010" are from before 2010, not of an age above it (count16)
_AGE = re.compile(
    r"\b(not\s+)?(older|younger)\s+than\b(?!\s+(?:the\s+)?(?:year\s+)?(?:of\s+)?"
    r"(?:1[6-9]|20)\d\d\b)",
    re.IGNORECASE,
)
_WEIGH = re.compile(
    r"\bweigh(?:s|ed|ing)?\s+(more\s+than|less\s+than|over|under|above|below|at\s+least"
    r"|at\s+most)\b",
    re.IGNORECASE,
)


def _one(layer: SemanticLayer, word: str, question: str) -> str | None:
    """The words of the one numeric column whose name has ``word`` ("age"), or None; of
    several, the one whose table the question names ("pets" for Pets.pet_age)."""
    found = {
        ref: said
        for ref, said in _numeric_columns(layer).items()
        if word in split_name(ref.split(".", 1)[1])
    }
    if len(found) > 1:
        said = [t.text for t in tokenize(question)]
        found = {
            ref: words
            for ref, words in found.items()
            if any(_names_table(w, ref.split(".")[0]) for w in said)
        }
    return next(iter(found.values())) if len(found) == 1 else None


def everyday_bounds(question: str, layer: SemanticLayer) -> str:
    """The question with "older/younger than" and "weigh(s) more than" said as a bound on the
    one age or weight column ("age more than"); unchanged where none or several fit."""
    if _AGE.search(question) and (age := _one(layer, "age", question)) is not None:
        # "not older than 30": age not more than 30 (at most 30), never the "not" dropped
        question = _AGE.sub(
            lambda m: (
                f"with {age} {'not ' if m.group(1) else ''}"
                f"{'more' if m.group(2).lower() == 'older' else 'less'} than"
            ),
            question,
        )
    if _WEIGH.search(question) and (weight := _one(layer, "weight", question)) is not None:
        question = _WEIGH.sub(lambda m: f"with {weight} {m.group(1)}", question)
    return question


_COUNT_WORDS = frozenset({"number", "count", "of", "the", "how", "many"})
_COUNTING = re.compile(r"^\s*(?:how\s+many|(?:the\s+)?(?:number|count)\s+of)\b", re.IGNORECASE)


def _table_of(c: Comparison, layer: SemanticLayer) -> str:
    if c.column:
        return c.column.split(".")[0]
    return layer.dimension(c.dimension).column.split(".")[0]


def _names_table(word: str, table: str) -> bool:
    """Whether ``word`` ("cars", "singers") is a word of the table's name, either number."""
    w = canonical(word.lower())
    parts = {canonical(p) for p in split_name(table)}
    return bool({w, w.rstrip("s"), w + "s"} & parts)


def counted_rows(reading: Reading, layer: SemanticLayer) -> Reading:
    """With no metric read, every bound on one table's rows, and only words naming that table
    left (or "how many" said of rows every filter keeps on it): the reading counting them."""
    if reading.metrics or reading.ambiguous or not reading.comparisons:
        return reading
    tables = {_table_of(c, layer) for c in reading.comparisons}
    tables |= {layer.dimension(f.dimension).column.split(".")[0] for f in reading.filters}
    if len(tables) != 1:
        return reading
    table = tables.pop()
    counts = [m.name for m in layer.metrics if m.table == table and _is_count(m.expression)]
    left = [w for u in (*reading.unread, *reading.unknown_groups) for w in u.split()]
    left += [w for d in reading.derived for w in d.split() if w.lower() not in _COUNT_WORDS]
    named = [w for w in left if _names_table(w, table)]
    if len(counts) != 1 or len(named) != len(left):
        return reading
    counting = _COUNTING.match(reading.question) is not None
    if not named and not (counting and reading.filters):
        return reading
    if reading.derived and not counting:
        return reading
    return dataclasses.replace(
        reading,
        metrics=(counts[0],),
        unread=tuple(
            u for u in reading.unread if not all(_names_table(w, table) for w in u.split())
        ),
        unknown_groups=(),
        value_like=(),
        suggestions=(),
        derived=(),
        undefined=(),
        notes=tuple(n for n in reading.notes if not n.startswith("derived measure")),
    )


def _is_count(expression: str) -> bool:
    return re.fullmatch(r"\s*count\s*\(\s*\*\s*\)\s*", expression, re.IGNORECASE) is not None


def timeless(layer: SemanticLayer) -> bool:
    """Whether the layer has no time: no clock, and no metric tied to a date."""
    return layer.clock is None and not any(m.time_column for m in layer.metrics)
