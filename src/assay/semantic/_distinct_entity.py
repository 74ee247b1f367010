"""A count of distinct entities that did something: "How many distinct customers ordered in
1995?", "number of unique customers with transactions in March 2022".

The reader reads "distinct customers" as a measure the layer lacks ("number of distinct"), and
an outside tryout saw such questions abstained on though the answer is a governed count: the
distinct keys of the customers on the rows the verb names. The question is taken only when it
says exactly that: "how many" (or "number of", "count of") and "distinct", "unique" or
"different", then a word naming one table of the layer (the entity: ``customer``), then a verb
or a noun naming the table whose rows are counted ("ordered", "placed orders", "with
transactions": ``orders``, ``transactions``), which the layer joins many to one to the
entity's table by its key. Said plainly, with no "distinct" ("number of customers", "how many
customers are there"), where the reader found no metric counting them, the question is read the
same: a customer counted is one key of the customers' table, however many rows name it (outside
tryout 37 saw "how many customers are there" abstained on while "how many distinct customers
are there" answered 4). The count is, in order:

* a metric of the layer that already counts those keys distinctly (``COUNT(DISTINCT
  orders.o_custkey)``), or
* one made for the question: ``COUNT(DISTINCT orders.o_custkey)`` over ``orders``, timed as
  every metric of that table is (one time column), when none of them carries required filters
  (rows the layer leaves out of its counts are never counted here).

The words are then read again with the count named by them, so the period, filters and
groupings are read as for any metric. Anything else (no such table, a verb naming none, two
tables, a table's metrics timed apart) is not taken: the question is abstained on as before,
the reason said (``why_not``).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from assay.semantic._model import JoinPath, Metric, SemanticLayer

if TYPE_CHECKING:
    from assay.semantic._reading import Reading

__all__ = ["distinct_entities", "distinct_over_rows", "table_named", "why_not_distinct"]

_ASKED = re.compile(
    r"^\s*(?:how\s+many|(?:the\s+)?(?:number|count)\s+of)\s+(?:(?P<distinct>distinct|unique|"
    r"different)\s+)?(?P<entity>[a-z]+)\b(?:\s+(?P<verb>[a-z]+)\b(?:\s+(?:an?|any|some)?\s*"
    r"(?P<noun>[a-z]+)\b)?)?",
    re.IGNORECASE,
)
_SAID = frozenset({"number of distinct", "number of different", "number of unique"})
# Words between the entity and the counted rows' noun: "made transactions", "with orders"
_LINKS = frozenset({"made", "placed", "had", "have", "has", "with", "making", "placing"})
# "distinct products were sold": a form of "be", then the verb naming the counted rows
_PASSIVE = frozenset({"were", "was", "are", "is", "been"})
# Verbs whose past form no stem reaches, and the rows they name ("sold": sales)
_PARTICIPLES = {"sold": "sales", "bought": "purchases"}


def distinct_entities(
    reading: Reading, layer: SemanticLayer, read: Callable[[str, SemanticLayer], Reading]
) -> tuple[Reading, SemanticLayer] | None:
    """The reading as a distinct count of an entity's keys, with the layer that holds the
    count; None when the question is not that (the module docstring)."""
    asked = _ASKED.match(reading.question)
    if reading.metrics or asked is None or not _counts_entities(reading, asked):
        return None
    entity = table_named(asked.group("entity"), layer.tables)
    if entity is None:
        return None
    # "were sold" names the sales; "are there" names nothing, the entity's own rows
    found = _counted(asked, entity, layer) if _passive(asked) or not _own(asked) else None
    if found is None and _own(asked):
        metric, end = _keys(entity, asked.group("entity").lower(), layer), asked.end("entity")
    else:
        if found is None:
            return None
        join, said = found
        metric = _existing(join, layer) or _made(join, asked.group("entity").lower(), layer)
        end = asked.end(said)
    if metric is None:
        return None
    words = reading.question[asked.start("distinct" if asked.group("distinct") else "entity") : end]
    named = dataclasses.replace(metric, synonyms=(*metric.synonyms, words))
    others = tuple(m for m in layer.metrics if m.name != metric.name)
    wider = dataclasses.replace(layer, metrics=(*others, named))
    again = read(reading.question, wider)
    if again.metrics != (metric.name,) or again.unread or again.derived or again.dangling:
        return None
    return again, wider


def _counts_entities(reading: Reading, asked: re.Match[str]) -> bool:
    """Whether the one measure the reader found missing is the count ``asked`` says: "number
    of distinct", or, said plainly, "number of customers" (a customer counted is one key of
    the customers' table, however many rows name it: outside tryout 37 saw "how many
    customers are there" abstained on while "how many distinct customers are there" was
    answered)."""
    entity = asked.group("entity").lower()
    if not reading.derived and not asked.group("distinct") and _own(asked):
        # "how many customers are there" where "customer" is also a dimension (OSI's
        # store_sales.ss_customer_sk, synonym "customer"): the rows' word is left unread, no
        # "number of" read; the customers are still the customers' table (fix39d)
        return [u.lower() for u in reading.unread] == [entity]
    if len(reading.derived) != 1:
        return False
    derived = reading.derived[0].lower()
    if asked.group("distinct"):
        return derived in _SAID
    return derived == f"number of {entity}"


def distinct_over_rows(
    reading: Reading, layer: SemanticLayer, read: Callable[[str, SemanticLayer], Reading]
) -> tuple[Reading, SemanticLayer] | None:
    """``distinct_entities`` only where the keys are counted over the rows a verb names
    ("distinct products were sold": over SALES), never the entity's own rows. Tried before a
    count of a dimension's values: "sold" is read as no word, so "how many distinct products
    were sold" also reads as the number of product names, which counts products never sold."""
    asked = _ASKED.match(reading.question)
    if asked is None or (_own(asked) and not _passive(asked)):
        return None
    found = distinct_entities(reading, layer, read)
    if found is None:
        return None
    entity = table_named(asked.group("entity"), layer.tables)
    return found if found[1].metric(found[0].metrics[0]).table != entity else None


# "how many distinct customers (are there)", "... by segment", "... in Germany": the
# entity's own rows, nothing they did; the words after are read as for any metric
_BE = frozenset({"are", "is", "exist", "exists", "there", "by", "per", "in", "for", "from"})


def _own(asked: re.Match[str]) -> bool:
    verb = asked.group("verb")
    return verb is None or verb.lower() in _BE


def _passive(asked: re.Match[str]) -> bool:
    """ "distinct products were sold": a form of "be" with a verb after it (outside tryout 23
    was told "'were' names none of them")."""
    verb, noun = asked.group("verb"), asked.group("noun")
    return bool(verb and noun and verb.lower() in _PASSIVE)


def _keys(entity: str, entities: str, layer: SemanticLayer) -> Metric | None:
    """``COUNT(DISTINCT entity.key)`` over the entity's own table, untimed (a period asked of
    it is abstained on: when a customer "was" is not said by its key); the key is the one
    column the layer's joins reach the table by."""
    keys = {
        j.right for j in layer.joins if j.relationship == "many_to_one" and j.tables[1] == entity
    }
    if len(keys) != 1:
        return None
    (key,) = keys
    return Metric(
        f"distinct_{key.replace('.', '_')}",
        f"number of distinct {entities}",
        (),
        entity,
        f"COUNT(DISTINCT {key})",
    )


def why_not_distinct(reading: Reading, layer: SemanticLayer) -> str:
    """Why a count of distinct entities was not read (``""`` when the question is not one):
    the rows to count them over were not named by a table the layer joins to them."""
    if reading.metrics or len(reading.derived) != 1 or reading.derived[0].lower() not in _SAID:
        return ""
    asked = _ASKED.match(reading.question)
    entity = table_named(asked.group("entity"), layer.tables) if asked else None
    if asked is None or entity is None or _own(asked):
        return ""
    joined = sorted(
        j.tables[0]
        for j in layer.joins
        if j.relationship == "many_to_one" and j.tables[1] == entity and j.tables[0] != entity
    )
    said = f"{asked.group('distinct')} {asked.group('entity')}"
    if not joined:
        return (
            f"'{said}' would count the keys of {entity} over the rows of a table joined to it, "
            f"but the semantic layer joins no table to {entity}, so there are no rows to count "
            "them over."
        )
    named = ", ".join(joined)
    verb = (asked.group("verb") or "").lower()
    return (
        f"'{said}' counts the keys of {entity} over the rows of a table joined to it "
        f"({named}), but '{verb}' names none of them, so nothing is counted. Ask again naming "
        f"the rows: 'how many {said} with {joined[0]}'."
    )


def _forms(word: str) -> set[str]:
    """A word's stems: "ordered" -> order, "transactions" -> transaction, "bought" stays."""
    low = word.lower()
    out = {low}
    for end in ("ies", "es", "s", "ed", "d", "ing"):
        if low.endswith(end) and len(low) > len(end) + 2:
            out.add(low[: -len(end)] + ("y" if end == "ies" else ""))
    return out


def table_named(word: str, tables: tuple[str, ...]) -> str | None:
    """The one table ``word`` names, singular or plural ("customers": ``customer``)."""
    forms = _forms(word)
    named = [t for t in tables if _forms(t) & forms]
    return named[0] if len(named) == 1 else None


def _counted(
    asked: re.Match[str], entity: str, layer: SemanticLayer
) -> tuple[JoinPath, str] | None:
    """The join from the counted rows' table to the entity's key that the verb ("ordered") or
    the noun after a link word ("made transactions") names, and which group said it."""
    joins = [
        j
        for j in layer.joins
        if j.relationship == "many_to_one" and j.tables[1] == entity and j.tables[0] != entity
    ]
    verb, noun = asked.group("verb"), asked.group("noun")
    said = "noun" if verb and verb.lower() in _LINKS | _PASSIVE and noun else "verb"
    word = asked.group(said)
    if not word:
        return None
    named = [j for j in joins if _names(word, j.tables[0])]
    return (named[0], said) if len(named) == 1 else None


def _names(word: str, table: str) -> bool:
    """Whether ``word`` ("ordered", "transacted", "orders") names ``table`` ("orders",
    "transactions"): a stem of one is a stem of the other, or the table's stem starts with the
    verb's ("transact" of "transaction")."""
    mine, theirs = _forms(_PARTICIPLES.get(word.lower(), word)), _forms(table)
    return bool(mine & theirs) or any(t.startswith(m) and len(m) >= 5 for m in mine for t in theirs)


def _existing(join: JoinPath, layer: SemanticLayer) -> Metric | None:
    """A metric of the counted table that already counts the entity's keys distinctly."""
    wanted = {
        f"count(distinct {join.left})".lower(),
        f"count(distinct {join.left.split('.')[1]})".lower(),
    }
    found = [
        m
        for m in layer.metrics
        if m.table == join.tables[0]
        and not m.filter
        and " ".join(m.expression.lower().split()) in wanted
    ]
    return found[0] if len(found) == 1 else None


def _made(join: JoinPath, entities: str, layer: SemanticLayer) -> Metric | None:
    """``COUNT(DISTINCT fact.key)`` over the counted table, timed as its metrics are; None when
    they are timed apart or any carries required filters (rows the layer keeps out of its
    counts). A metric's own filter ("cancellations in Mexico") defines that metric only."""
    table = join.tables[0]
    own = [m for m in layer.metrics if m.table == table]
    if any(m.required_filters for m in own):
        return None
    times = {m.time_column for m in own}
    if len(times) > 1:
        return None
    coverage = {m.coverage for m in own}
    return Metric(
        f"distinct_{join.left.replace('.', '_')}",
        f"number of distinct {entities} in {table}",
        (),
        table,
        f"COUNT(DISTINCT {join.left})",
        time_column=next(iter(times), ""),
        coverage=next(iter(coverage)) if len(coverage) == 1 else None,
    )
