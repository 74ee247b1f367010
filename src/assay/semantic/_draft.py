"""A drafted semantic layer from a reconstructed catalog (``assay semantic init``).

Proposed from the data, each with a comment saying why and with the authority tier and capped
confidence of its evidence:

- joins from proven keys (declared, or inferred by inclusion dependency, many-to-one); a key
  with rows that have no partner (a NULL or missing key: TPC-DS customer's
  c_current_cdemo_sk) is a join marked ``unmatched: N``, at its evidence's tier, used only
  where no such row can be lost silently (the planner's rule; ``cap.unmatched_rows`` warns
  of the N when a filter leaves them out); of two such keys between one pair of tables, the
  first in column order (outside tryout 23: forbidden, every demographic question abstained);
- per table: a row count, and a measure per numeric non-key column, summed when its values are
  never negative or it holds money by its name (a net profit, signed, is summed), averaged (and
  flagged) when otherwise signed; a column holding stand-in codes (-1, 9999, ...) is left out
  and flagged, never summed (a 0 in a money column is an amount, not a stand-in); keys, ids
  (``_sk``, ``_id``) and numbers ("ticket number") are never measured, each named in a comment;
  the table's first date column is the metric's time column; a table without one whose key
  points at a calendar (a star schema's fact) is timed by the calendar's date through its first
  such key, the join marked with the rows that have no date (``_time_keys``); any other table
  gets metrics without time;
- labels and synonyms use the words a question uses: where every column of a table shares a
  prefix (TPC-DS ``ss_`` of store_sales), the table's words stand for it in the label ("total
  store sales net profit", never "total ss net profit"); the column's own name as written
  stays a synonym ("total ss_net_profit", "customer c_mktsegment"): a user may type it;
- per summed column, also its average, maximum and minimum over its own table ("mean age",
  "highest weight"); the column's bare words ("age") name all four, so a question saying only
  them is asked back with the four named, never answered with one; of money or a quantity of
  units ("store sales net paid", "quantity") they name the total alone, as an analyst means
  it (outside tryout 22: every such question was asked back, once with 12 choices);
- dimensions from closed low-cardinality text columns with their values (a customer's state,
  49 values repeated over 500 addresses, is one); PII columns never; a numeric column only
  when its values are codes, not quantities (car_1's Cylinders: few values; a column of years,
  numbers or text '2014'): a dimension carrying its pattern's fact, so a bound or a year said
  of it rests on a fact ``assay catalog accept`` can lift; a column of years only on data with
  no dates (there "in 2014" keeps that year's rows, untimed);
- the clock and coverage from the dates the data holds, left out when it holds none (time is
  optional: such a layer answers questions without periods and abstains on periods); where a
  calendar dimension lists every day (TPC-DS date_dim, 1900 to 2100), from the dates the fact
  tables' rows point at in it (``_draft_calendar``), never from the calendar's own span;
- PII columns proved from values listed under ``pii`` (none allowed raw: ``allow_pii: []``);
- columns holding only NULLs (retired-looking) are left out.

Every element records ``tier``, ``confidence`` and ``fact`` as fields (not only comments), so the
agent reads them: an answer resting on an element below the commit tier is confirm-first. With
a fact store (``assay semantic init --store``), the fact's id and its stored tier are used, so a
fact accepted with ``assay catalog accept ID`` lifts the element when the layer is drafted again.

Order is stable (tables, then columns, in name order). The text is validated (shape and every
table and column against the catalogue) before it is written, and written atomically, so a
half-written layer is never left behind.

Why one module of about 1,100 lines, over the house aim of 400: ``draft_layer`` writes one YAML
text in one ordered pass (joins, then each table's metrics, then dimensions, then time), and
every helper here decides one line of it from the same ``DraftInput`` and the same naming
(``_Plain``); the calendar (``_draft_calendar``) already stands apart. The naming (``_Plain``,
``column_prefixes``, ``table_noun``, the plural and everyday-word helpers, about 250 lines) is
the part to move out next, with ``DraftInput`` beside it, so that the two do not import each
other.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from assay.catalog import (
    Catalog,
    CatalogProfile,
    ColumnReport,
    InferredKey,
    Tier,
    cap_confidence,
    declared_keys,
)
from assay.errors import SemanticError
from assay.semantic._load import check_against, parse_semantic

__all__ = ["DraftInput", "draft_layer", "write_layer"]

NOT_MEASURES = frozenset(
    {"surrogate_key", "year", "boolean_flag", "categorical_enum", "alpha2_code", "alpha3_code"}
)

# Name words that say a column holds identifiers, never quantities: summed or averaged they are
# meaningless ("average Advisor" over pets_1's advisor ids).
ID_WORDS = frozenset(
    {"id", "ids", "key", "code", "pk", "fk", "sk", "uuid", "guid", "advisor", "advisors"}
)
# Last words that make a column's name an identifier ("order number", "ticket number"); a
# leading "number" counts things ("Number_of_hosts").
ID_LAST_WORDS = frozenset({"number", "no", "num", "nbr"})
# Name words that say a column holds money: signed (a net loss is a negative profit), it is still
# summed ("total net profit"), and a 0 in it is an amount (a free item), never a stand-in code.
MONEY_WORDS = frozenset(
    {
        "profit",
        "loss",
        "net",
        "amount",
        "amt",
        "paid",
        "price",
        "cost",
        "tax",
        "fee",
        "charge",
        "revenue",
        "income",
        "discount",
        "balance",
        "sales",
        "credit",
        "cash",
        "refunded",
        "wholesale",
    }
)
# Name words that say a column is a measured quantity even when its few values look like codes
# (Student.Age: 9 values in 34 rows, read as categorical_enum; Pets.pet_age: 3 distinct in 3
# rows, read as surrogate_key).
QUANTITY_WORDS = frozenset(
    {"age", "weight", "height", "capacity", "length", "width", "price", "cost", "salary"}
)
# Name words that say a column counts units, which an analyst adds up ("store sales quantity").
UNIT_WORDS = frozenset({"quantity", "qty", "units"})
# Name words that say a text column labels its rows (a stadium's name): an open dimension.
LABEL_WORDS = frozenset({"name", "title"})
# The patterns of a numeric column that is no quantity but says which rows: a dimension.
CODED = frozenset({"year", "categorical_enum"})

# A summed measure also gets its average, maximum and minimum over its own table, each named
# with the words a question uses for it ("mean age", "highest weight", "min capacity").
STATISTICS = {
    "average": ("avg", ("average", "mean", "avg")),
    "maximum": ("max", ("maximum", "highest", "largest", "max")),
    "minimum": ("min", ("minimum", "lowest", "smallest", "min")),
}
PREFIXES = {"total": ("total",), **{w: p for w, (_, p) in STATISTICS.items()}}


@dataclass(frozen=True)
class DraftInput:
    """What the draft is made from: the catalogue, the profile, keys and closed domains."""

    name: str
    catalog: Catalog
    profile: CatalogProfile
    keys: tuple[InferredKey, ...]
    domains: dict[tuple[str, str], tuple[str, ...]]
    pii: frozenset[tuple[str, str]] = frozenset()
    pii_classes: dict[str, str] = field(default_factory=dict)  # table.column -> PII class
    # (subject, predicate) -> (fact id, tier, confidence) as the fact store holds them
    facts: dict[tuple[str, str], tuple[int, Tier, float]] = field(default_factory=dict)
    # (table, column) of a join's many side -> rows without a partner (NULL or missing key)
    orphans: dict[tuple[str, str], int] = field(default_factory=dict)
    # calendar table -> its date column, and per key into one (table, column) -> the first and
    # last dates its rows point at (``_draft_calendar``): the coverage is read from those
    calendars: dict[str, str] = field(default_factory=dict)
    calendar_spans: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)
    # (table, column) of a key whose partnerless rows could not be counted (the query failed)
    unchecked: frozenset[tuple[str, str]] = frozenset()


def _s(value: object) -> str:
    return json.dumps(str(value), ensure_ascii=False)


def _evidence(report: ColumnReport | None) -> tuple[Tier, float, str]:
    if report is None or report.best is None:
        return Tier.INTERPRETER_ONLY, 0.5, "no pattern matched"
    return report.best.tier, report.best.confidence, f"pattern {report.best.name}"


def _why(report: ColumnReport | None) -> str:
    tier, raw, what = _evidence(report)
    return f"{what}; tier {tier.name} ({cap_confidence(raw, tier):.2f})"


def _authority(
    data: DraftInput, subject: str, predicate: str, tier: Tier, raw: float, value: str = ""
) -> list[str]:
    """The element's tier, capped confidence and fact, as fields the agent reads."""
    fact = f"{subject} {predicate}" + (f" {value}" if value else "")
    indent = "    "
    stored = data.facts.get((subject, predicate))
    note = ""
    if stored is not None:
        fact_id, stored_tier, raw = stored
        fact = f"{fact_id}: {fact}"
        if stored_tier != tier:
            note = f"  # as the fact store holds it (the evidence alone: {tier.name})"
        tier = stored_tier
    return [
        f"{indent}tier: {tier.name}{note}",
        f"{indent}confidence: {cap_confidence(raw, tier)}",
        f"{indent}fact: {_s(fact)}",
    ]


def _words(phrase: str, *taken: str) -> list[str]:
    """The phrase as written and with underscores read as spaces, less those already taken."""
    out = dict.fromkeys([phrase, phrase.replace("_", " ")])
    return [w for w in out if w not in taken and w.replace("_", " ") not in taken]


def split_name(name: str) -> str:
    """A name's words, lower case: snake_case and camelCase split ("PetType" -> "pet type",
    "city_code" -> "city code", "HTTPStatus" -> "http status")."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", name)
    return " ".join(w.lower() for w in re.split(r"[\s_\-]+", spaced) if w)


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


# Words of a table's name that say how it is stored, not what its rows are ("cars_data").
_STORAGE_WORDS = frozenset({"data", "info", "list", "table", "records", "details"})
# Words that make a table's name a relation between others ("singer_in_concert", "Has_Pet").
_RELATION_WORDS = frozenset({"in", "of", "has", "to", "for", "and", "by", "per"})


def table_noun(name: str) -> str | None:
    """What a table's rows are, in the plural a question counts them with ("how many cars"),
    or None for a table that relates others (its rows are links, not things).

    Example:
        >>> table_noun("Pets"), table_noun("cars_data"), table_noun("Student")
        ('pets', 'cars', 'students')
        >>> table_noun("singer_in_concert"), table_noun("countries")
        (None, 'countries')
    """
    words = split_name(name).split()
    if not words or set(words) & _RELATION_WORDS:
        return None
    while len(words) > 1 and words[-1] in _STORAGE_WORDS:
        words.pop()
    last = words[-1]
    if last in _STORAGE_WORDS or not last.isalpha():
        return None
    if last.endswith("s"):
        plural = last
    elif last.endswith("y") and last[-2:-1] not in set("aeiou"):
        plural = last[:-1] + "ies"
    elif last.endswith(("x", "ch", "sh")):
        plural = last + "es"
    else:
        plural = last + "s"
    return " ".join([*words[:-1], plural])


class _Plain:
    """Plain-English names of each element, only from the names the data carries: table and
    column names split into words, the table's word left off a column that starts with it
    ("PetType" of table Pets: "type"), a trailing "code" or "name" left off ("city_code":
    "city"). No meaning is added that the names do not say. A phrase that two elements would
    share is given to neither (the reader would have to guess between them)."""

    def __init__(
        self,
        data: DraftInput,
        measures: list[tuple[str, str, str]],
        dimensions: list[tuple[str, str]],
    ) -> None:
        proposed: dict[str, set[str]] = {}
        self.by_element: dict[str, list[str]] = {}
        self.prefixes = column_prefixes(data.profile)

        def add(element: str, phrases: list[str]) -> None:
            kept = [p for p in dict.fromkeys(phrases) if p.strip()]
            self.by_element[element] = kept
            for p in kept:
                proposed.setdefault(p, set()).add(element)

        # a table's noun ("pets") names its row count, unless a closed domain is named by it
        # or by it and "name" (a lookup of labels: "continent", "country name"): "each
        # continent" is a grouping, never a second count. An open label ("singer Name") does
        # not take it: the noun blocks the table word derived from the label (``_names``), so
        # "number of male singers" counts singers
        # (a domain left out for its everyday-word values is no dimension: it takes nothing)
        labelled = {
            w
            for (table, column), values in data.domains.items()
            if not common_word_values(values)
            for p in self._column(table, column, with_table=True)
            for w in (p.lower(), p.lower().removesuffix(" name"))
        }
        for profiled in data.profile.tables:
            tw = split_name(profiled.name)
            noun = table_noun(profiled.name)
            if noun and {noun, _singular(noun)} & labelled:
                noun = None
            add(
                f"metric:{profiled.name}",
                [f"number of {tw}", f"{tw} count", f"count of {tw}", *([noun] if noun else [])],
            )
        for table, column, word in measures:
            add(
                f"metric:{table}.{column}:{word}",
                [
                    f"{prefix} {p}"
                    for prefix in PREFIXES.get(word, (word,))
                    for p in self._column(table, column, with_table=True)
                ],
            )
        for table, column in dimensions:
            add(f"dimension:{table}.{column}", self._column(table, column, with_table=True))
        self.shared = {p for p, owners in proposed.items() if len(owners) > 1}
        self.proposed = proposed

    def bare(self, table: str, column: str) -> list[str]:
        """The column's own words with no aggregate word ("age"), for each of its metrics: a
        question naming only them is asked back with the metrics named, never given one.
        Left out: a phrase another element is named by, or one holding a word the reader
        takes as a keyword ("Highest", "Average")."""
        from assay.semantic._words import FUNCTION_WORDS, KEYWORDS

        own = f"metric:{table}.{column}:"
        return [
            p
            for p in self._column(table, column, with_table=True)
            if not any(not o.startswith(own) for o in self.proposed.get(p, ()))
            and not any((w,) in KEYWORDS or w in FUNCTION_WORDS for w in p.lower().split())
        ]

    def name(self, table: str, column: str) -> str:
        """The column's name less the prefix all its table's columns share ("ss_net_profit"
        of store_sales: "net_profit"), or its name as written."""
        prefix = self.prefixes.get(table, "")
        return column[len(prefix) :] if prefix and column.startswith(prefix) else column

    def raw(self, table: str, column: str, *, prefix: str = "") -> list[str]:
        """The column's name as written, alone and after its table ("c_mktsegment",
        "customer c_mktsegment"; underscores also read as spaces), each after ``prefix``
        ("total"), where the label drops a shared prefix: a user who types the column's own
        name is understood too. Empty where the table's columns share no prefix (the name is
        in the phrases already)."""
        if table not in self.prefixes:
            return []
        head = f"{prefix} " if prefix else ""
        return [*_words(f"{head}{column}"), *_words(f"{head}{table} {column}")]

    def phrase(self, table: str, column: str) -> str:
        """The words a label uses for a column: its name as written, or, where its table's
        columns share a prefix, the table's words for it ("store sales net profit")."""
        if table not in self.prefixes:
            return column
        return " ".join([*_table_words(table), *split_name(self.name(table, column)).split()])

    def _column(self, table: str, column: str, *, with_table: bool) -> list[str]:
        if table in self.prefixes:
            return _prefixed_words(table, self.name(table, column), with_table=with_table)
        tw = split_name(table).split()
        cw = split_name(column).split()
        single = [*tw[:-1], _singular(tw[-1])] if tw else []
        out = [" ".join(cw)]
        rest = cw[len(single) :] if single and cw[: len(single)] == single else cw
        if rest != cw and rest:
            out.append(" ".join(rest))
        elif with_table and single:
            out.append(" ".join([*single, *cw]))
        if len(rest) > 1 and rest[-1] in {"code", "name"}:
            out.append(" ".join(rest[:-1]))
        return out

    def synonyms(self, element: str, *taken: str) -> list[str]:
        low = {t.lower() for t in taken}
        return [
            p for p in self.by_element.get(element, []) if p not in self.shared and p not in low
        ]


# Trailing words of a table's name that say it is a dimension or fact table ("date_dim").
_TABLE_KIND_WORDS = frozenset({"dim", "dimension", "fact"})


def _table_words(table: str) -> list[str]:
    """A table's words as a label uses them ("store_sales": store sales; "date_dim": date)."""
    words = split_name(table).split()
    while len(words) > 1 and words[-1] in _TABLE_KIND_WORDS:
        words.pop()
    return words


def column_prefixes(profile: CatalogProfile) -> dict[str, str]:
    """Per table, the prefix every one of its columns shares ("ss_" of TPC-DS store_sales,
    "i_" of item), when it is a short abbreviation starting with the table's first letter and
    not one of the table's own words (those are left off already). Questions never say it:
    "total store sales net profit", never "total ss net profit"."""
    out: dict[str, str] = {}
    for table in profile.tables:
        names = [r.fingerprint.column for r in table.columns]
        heads = {n.split("_", 1)[0].lower() for n in names if "_" in n.strip("_")}
        if len(names) < 2 or len(heads) != 1:
            continue
        head = heads.pop()
        if not all("_" in n.strip("_") for n in names):
            continue
        tw = split_name(table.name).split()
        if not (head.isalpha() and len(head) <= 4 and tw and head[0] == tw[0][0]):
            continue
        if head in tw or head == _singular(tw[-1]):
            continue
        out[table.name] = names[0][: len(head) + 1]
    return out


def _prefixed_words(table: str, rest: str, *, with_table: bool) -> list[str]:
    """A prefixed column's phrases: its own words ("net profit"), the table's words before
    them ("store sales net profit"), and each less a trailing "code" or "name"."""
    cw = split_name(rest).split()
    out = [" ".join(cw)]
    if with_table:
        out.append(" ".join([*_table_words(table), *cw]))
    if len(cw) > 1 and cw[-1] in {"code", "name"}:
        out.append(" ".join(cw[:-1]))
    return out


def _time_column(reports: Iterable[ColumnReport]) -> ColumnReport | None:
    return next(
        (r for r in reports if r.fingerprint.family == "date" and r.fingerprint.n_nonnull > 0),
        None,
    )


def _time_keys(data: DraftInput) -> dict[str, tuple[str, str, str]]:
    """Per fact table without a date column of its own, its date key into a calendar: table ->
    (key column, calendar table, calendar key column). Of several (TPC-DS catalog_sales'
    sold and ship dates) the first in the table's column order, as a table's first date
    column is its time (``_time_column``); its metrics are timed by the calendar's date
    (``date_dim.d_date``) through it, so "in 2002" and "by year" are answered on a star
    schema (outside tryout 22: no sales metric had time)."""
    refs = {(k.table, k.column): (k.ref_table, k.ref_column) for k in data.keys if k.named}
    refs |= {(t, c): (rt, rc) for t, c, rt, rc in declared_keys(data.catalog.foreign_keys)}
    out: dict[str, tuple[str, str, str]] = {}
    for table in data.profile.tables:
        if _time_column(table.columns) is not None:
            continue
        for report in table.columns:
            key = (table.name, report.fingerprint.column)
            if key in data.calendar_spans and key in refs:
                out[table.name] = (key[1], *refs[key])
                break
    return out


def _time_join_lines(data: DraftInput, t: str, c: str, rt: str, rc: str, why: str) -> list[str]:
    """The comment and the ``unmatched`` count of a fact's date key whose rows are not all
    dated (TPC-DS store_sales: 1,208 rows with no ss_sold_date_sk): kept as a join, marked,
    so a period (a filter keeping the calendar to dates, which no undated row passes) joins
    it, a grain LEFT joins it, and a total over all dates never does (no row lost)."""
    lost = data.orphans.get((t, c), 0)
    if not lost:
        return [f"  # {why}; the date of {t}'s rows: its metrics are timed by {rt}"]
    return [
        f"  # {why}; the date of {t}'s rows, but {lost} rows of {t} have none (a NULL or "
        f"missing key): used for periods (no such row is in one) and LEFT joined for a time "
        f"grain (a NULL year holds them); a total over all dates never joins {rt}",
    ]


def _join_lines(data: DraftInput) -> list[str]:
    lines = ["joins:"]
    declared = {(t, c): (rt, rc) for t, c, rt, rc in declared_keys(data.catalog.foreign_keys)}
    edges: dict[tuple[str, str], tuple[str, str, str, Tier, float]] = {}
    for (t, c), (rt, rc) in declared.items():
        edges[(t, c)] = (
            rt,
            rc,
            "declared in the schema; tier DOC_CITED_STRONG (0.90)",
            Tier.DOC_CITED_STRONG,
            1.0,
        )
    unnamed = []
    for k in data.keys:
        if (k.table, k.column) in edges:
            continue
        if not k.named:
            # Containment alone is no join: codes from one generator, or small integers, are
            # contained by chance (TPC-DS i_item_id in ca_address_id). Named, never proposed.
            unnamed.append(
                f"  # {k.subject} -> {k.target} not proposed: {k.containment:.3f} of its values "
                "are found there, but the names do not say it refers to it (declare the key "
                "or add the join to trust it)"
            )
            continue
        raw = k.containment * k.parent_unique
        conf = cap_confidence(raw, Tier.PATTERN_CONFIRMED)
        edges[(k.table, k.column)] = (
            k.ref_table,
            k.ref_column,
            f"inferred: {k.containment:.3f} of values found in a {k.parent_unique:.3f}-unique"
            f" parent; tier PATTERN_CONFIRMED ({conf:.2f}): confirm before trusting",
            Tier.PATTERN_CONFIRMED,
            raw,
        )
    forbidden: list[str] = []
    joined = _joined_pairs(data, edges)
    partial = _first_partial_keys(data, edges, joined)
    timed = _time_keys(data)
    for (t, c), (rt, rc, why, tier, raw) in sorted(edges.items()):
        if t in timed and timed[t][1] == rt and timed[t][0] != c:
            # A second date of the rows (a ship date beside the sold date): two joins between
            # the tables would leave to chance which date a period is on.
            lines.append(
                f"  # {t}.{c} -> {rt}.{rc} not proposed: {t} is timed by {timed[t][0]} (its "
                "first key into the calendar); add this join by hand to ask by this date"
            )
            continue
        if t in timed and timed[t][0] == c:
            lost = data.orphans.get((t, c), 0)
            lines += [
                *_time_join_lines(data, t, c, rt, rc, why),
                f"  - left: {_s(f'{t}.{c}')}",
                f"    right: {_s(f'{rt}.{rc}')}",
                "    relationship: many_to_one",
                *([f"    unmatched: {lost}"] if lost else []),
                *_authority(data, f"{t}.{c}", "references", tier, raw, f"{rt}.{rc}"),
            ]
            continue
        if data.orphans.get((t, c)) and frozenset((t, rt)) in joined:
            lines.append(_orphan_beside_a_join(data, t, c, rt, rc))
            continue
        if (t, c) in data.unchecked:
            # No count of its partnerless rows could be read: the join is not trusted.
            forbidden += _unchecked_lines(t, c, rt, rc, why)
            continue
        first = partial.get((t, rt))
        if first is not None and first != c:
            lines.append(_second_key_line(t, c, rt, rc, first))
            continue
        lost = data.orphans.get((t, c), 0)
        lines += [
            f"  # {why}" + (_unmatched_note(t, rt, lost) if lost else ""),
            f"  - left: {_s(f'{t}.{c}')}",
            f"    right: {_s(f'{rt}.{rc}')}",
            "    relationship: many_to_one",
            *([f"    unmatched: {lost}"] if lost else []),
            *_authority(data, f"{t}.{c}", "references", tier, raw, f"{rt}.{rc}"),
        ]
    lines = [*lines, *unnamed] if len(lines) > 1 else ["joins: []", *unnamed]
    return lines + (["forbidden_joins:", *forbidden] if forbidden else [])


def _joined_pairs(
    data: DraftInput, edges: dict[tuple[str, str], tuple[str, str, str, Tier, float]]
) -> set[frozenset[str]]:
    """The table pairs a proposed join (every row with a partner) already connects."""
    return {
        frozenset((t, rt)) for (t, c), (rt, *_) in edges.items() if not data.orphans.get((t, c))
    }


def _first_partial_keys(
    data: DraftInput,
    edges: dict[tuple[str, str], tuple[str, str, str, Tier, float]],
    joined: set[frozenset[str]],
) -> dict[tuple[str, str], str]:
    """Per pair of tables no complete join connects, the key with partnerless rows proposed
    between them: the first in the table's column order (TPC-DS catalog_sales' bill
    demographics before its ship demographics), as a table's first key into the calendar is
    its date (``_time_keys``). Two joins between one pair would leave to chance which of them
    a question's filter or breakdown goes through."""
    order = {
        (t.name, r.fingerprint.column): i
        for t in data.profile.tables
        for i, r in enumerate(t.columns)
    }
    out: dict[tuple[str, str], str] = {}
    for (t, c), (rt, *_) in sorted(edges.items(), key=lambda e: (order.get(e[0], 0), e[0])):
        if data.orphans.get((t, c)) and (t, c) not in data.unchecked:
            if frozenset((t, rt)) not in joined:
                out.setdefault((t, rt), c)
    return out


def _unmatched_note(t: str, rt: str, lost: int) -> str:
    """What a join with ``lost`` partnerless rows of ``t`` answers, and what it never does.

    Its tier and confidence stay its evidence's (Rosetta 4.1: the evidence class caps the
    confidence): the rows are NULL or dangling keys, and containment, read over the keys
    present, already counts the dangling ones; what they limit is the answer, said in it."""
    return (
        f"; but {lost} rows of {t} have no partner in {rt} (a NULL or missing key): joined "
        f"inner only under a filter keeping {rt} to given values, the answer warning that "
        f"{lost} rows are left out; LEFT joined for a breakdown (a group of their own); "
        "never for a total"
    )


def _second_key_line(t: str, c: str, rt: str, rc: str, first: str) -> str:
    return (
        f"  # {t}.{c} -> {rt}.{rc} not proposed: {t} is joined to {rt} through {first} (its "
        f"first key into {rt}); add this join by hand to ask through this key"
    )


def _unchecked_lines(t: str, c: str, rt: str, rc: str, why: str) -> list[str]:
    reason = f"the rows of {t} without a partner in {rt}.{rc} could not be counted"
    return [
        f"  # {t}.{c} -> {rt}.{rc}: {why.split(';')[0]}; but {reason}: not trusted",
        f"  - left: {_s(t)}",
        f"    right: {_s(rt)}",
        f"    reason: {_s(reason)}",
    ]


def _orphan_beside_a_join(data: DraftInput, t: str, c: str, rt: str, rc: str) -> str:
    """The comment for a key with partnerless rows between two tables a proposed join already
    connects: forbidding the pair would forbid that join too (TPC-DS customer_address's
    street number read as a key into customer, beside customer's address key), so it is only
    named, never proposed."""
    return (
        f"  # {t}.{c} -> {rt}.{rc} not proposed: {data.orphans[(t, c)]} rows of {t} have no "
        f"partner, and the tables are joined through another key"
    )


def _key_columns(data: DraftInput) -> set[tuple[str, str]]:
    """Both sides of every key a join is proposed from (inferred with names that agree, or
    declared): identifiers, never quantities. A column whose values are merely contained in
    a key (TPC-DS inv_quantity_on_hand, 0 to 1000, inside customer keys) joins nothing and
    is judged as any other column (outside tryout 22: the only inventory measure was dropped
    as "a key")."""
    named = [k for k in data.keys if k.named]
    out = {(k.table, k.column) for k in named} | {(k.ref_table, k.ref_column) for k in named}
    for t, c, rt, rc in declared_keys(data.catalog.foreign_keys):
        out |= {(t, c), (rt, rc)}
    return out


def _left_out(
    data: DraftInput, table: str, report: ColumnReport, keys: set[tuple[str, str]]
) -> str:
    """Why a numeric column is no measure ("" when it is one)."""
    fp = report.fingerprint
    words = set(split_name(fp.column).split())
    if (table, fp.column) in keys:
        return "a key (joins through it), an identifier"
    if words & ID_WORDS:
        return f"its name ({', '.join(sorted(words & ID_WORDS))}) says an identifier"
    numbered = _numbered(fp.column)
    if numbered:
        return numbered
    if (table, fp.column) in data.pii:
        return "personal data"
    if fp.n_distinct < 2:
        return "a single value"
    if words & QUANTITY_WORDS:  # a quantity by name, whatever its few values look like
        return ""
    if fp.family == "integer" and fp.unique_ratio >= 0.95 and fp.n_nonnull >= 30:
        return "all distinct integers, an identifier"  # a handful of rows proves nothing
    if report.best and report.best.name in NOT_MEASURES:
        if (table, fp.column) in _coded_columns(data):
            return f"pattern {report.best.name}, not a quantity (a dimension below)"
        return f"pattern {report.best.name}, not a quantity"
    return ""


def _open_dimension(
    data: DraftInput, plain: _Plain, t_name: str, c_name: str, what: str
) -> list[str]:
    """A dimension whose values are not listed (a label column, a column of codes)."""
    profiled = data.profile.table(t_name)
    found = profiled.column(c_name) if profiled else None
    n = found.fingerprint.n_distinct if found else 0
    return [
        f"  # {what} {n} distinct values (open: none listed); {_why(found)}",
        f"  - name: {_s(f'{t_name}_{c_name}')}",
        f"    column: {_s(f'{t_name}.{c_name}')}",
        "    synonyms: [" + ", ".join(_s(w) for w in _dimension_words(plain, t_name, c_name)) + "]",
        *_authority(data, f"{t_name}.{c_name}", "semantic_type", *_evidence(found)[:2]),
    ]


def _coded_columns(data: DraftInput) -> list[tuple[str, str]]:
    """Numeric columns whose values are codes that say which rows, never quantities (pattern
    ``year`` or ``categorical_enum``): car_1's Cylinders, concert_singer's Year (text
    '2014'). Keys, identifiers, personal data and closed domains are not. A column of years
    only where the data holds no dates: with a date, "in 2014" is a period of it.

    Drafted as dimensions with their pattern's fact (the fact ``assay catalog accept``
    lifts), so an answer bounded by one is confirmed first until the fact is accepted, and no
    longer after (outside tryout 16: accepting the named facts lifted nothing while the
    column was left out of the layer and read from the catalog at the name-only tier)."""
    keys = _key_columns(data)
    dated = any(
        r.fingerprint.family == "date" and r.fingerprint.n_nonnull
        for t in data.profile.tables
        for r in t.columns
    )
    out = []
    for t in data.profile.tables:
        for r in t.columns:
            fp = r.fingerprint
            if fp.family != "integer" or r.best is None or r.best.name not in CODED:
                continue
            if r.best.name == "year" and dated:
                continue
            words = set(split_name(fp.column).split())
            if (
                (t.name, fp.column) in keys
                or (t.name, fp.column) in data.pii
                or (t.name, fp.column) in data.domains
                or words & (ID_WORDS | QUANTITY_WORDS)
                or fp.n_distinct < 2
                or (fp.unique_ratio >= 0.95 and fp.n_nonnull >= 30)
            ):
                continue
            out.append((t.name, fp.column))
    return out


def _measure_columns(
    data: DraftInput, table: str, reports: tuple[ColumnReport, ...]
) -> list[tuple[ColumnReport, str, str]]:
    """Each numeric column with its word and why: ``total`` (summed, with its average,
    maximum and minimum), ``average`` (a signed quantity), or ``""`` for a column left out
    (stand-in codes, an identifier, a key, a year, ...), each said in a comment."""
    keys = _key_columns(data)
    out: list[tuple[ColumnReport, str, str]] = []
    for report in reports:
        fp = report.fingerprint
        if fp.family not in ("integer", "decimal"):
            continue
        why = _left_out(data, table, report, keys)
        if why:
            out.append((report, "", why))
            continue
        money = _money(fp.column)
        if fp.stand_ins and not (money and _zero_only(fp.stand_ins)):
            codes = ", ".join(v for v, _ in fp.stand_ins)
            out.append((report, "", f"stand-in codes ({codes}) would be summed"))
            continue
        words = set(split_name(fp.column).split())
        signed = fp.numeric.get("negative_share", 0.0) > 0
        word = "average" if signed and not money else "total"
        out.append((report, word, "a quantity by its name" if words & QUANTITY_WORDS else ""))
    return out


def _numbered(column: str) -> str:
    """Why a column named "... number" is an identifier ("" when it is not): an order's or a
    ticket's number is summed or averaged meaninglessly ("total cs_order_number"). A leading
    number counts things ("Number_of_hosts") and is left to the other rules."""
    words = split_name(column).split()
    if len(words) > 1 and words[-1] in ID_LAST_WORDS and words[0] not in ID_LAST_WORDS:
        return f"its name ends in {words[-1]!r}, an identifier (never summed)"
    return ""


def _money(column: str) -> bool:
    """Whether a column's name says it holds money ("ss_net_profit", "i_current_price")."""
    return bool(set(split_name(column).split()) & MONEY_WORDS)


def _totalled(column: str) -> bool:
    """Whether the column's bare words mean its total: money ("net paid") or a quantity of
    units ("quantity", "quantity on hand"), which an analyst adds up; an age or a weight is
    not (its bare words stay shared by its total, average, maximum and minimum: asked back)."""
    return _money(column) or bool(set(split_name(column).split()) & UNIT_WORDS)


def _zero_only(stand_ins: Iterable[tuple[str, float]]) -> bool:
    """Whether the only stand-in code found is 0: in a money column 0 is an amount (a free item,
    nothing paid), and a sum is the same with or without it."""
    try:
        return all(float(v) == 0 for v, _ in stand_ins)
    except ValueError:
        return False


def _timing(
    data: DraftInput,
    table: str,
    reports: tuple[ColumnReport, ...],
    span: tuple[str, str] | None,
) -> tuple[list[str], str, list[str]]:
    """A table's metrics' time lines (``time_column``, and ``coverage`` where its dates cover
    less than the layer's), why, and the authority of its row count: its first date column
    (the count rests on that column's type); else the calendar's date through its first key
    into one (``_time_keys``; the count rests on the schema, the join on its own fact); else
    none."""
    time = _time_column(reports)
    tc = f"{table}.{time.fingerprint.column}" if time is not None else ""
    own: tuple[str, str] | None = None
    if time is not None and time.fingerprint.min_value is not None:
        own = (str(time.fingerprint.min_value)[:10], str(time.fingerprint.max_value)[:10])
    key = _time_keys(data).get(table)
    if key is not None:  # no date column of its own: the calendar's date, through its key
        tc = f"{key[1]}.{data.calendars[key[1]]}"
        own = data.calendar_spans[(table, key[0])]
    timed = [f"    time_column: {_s(tc)}"] if tc else []
    if own is not None and own != span:  # this table's dates cover less than the layer's
        timed.append(f"    coverage: {{start: {own[0]}, end: {own[1]}}}")
    if key is not None:
        # The count rests on the schema; an answer through the key rests on the join too,
        # named apart (a total over all dates never joins it, so is not capped by it).
        why = (
            f"time column {tc}, through {table}.{key[0]} (its first key into the calendar "
            f"{key[1]}: the join above carries that fact); read from the schema"
        )
        count_authority = _authority(data, table, "row_count", Tier.DOC_CITED_STRONG, 1.0)
    elif tc:
        why = (
            f"time column {tc} (first date column); tier PATTERN_CONFIRMED "
            f"({cap_confidence(0.7, Tier.PATTERN_CONFIRMED):.2f})"
        )
        count_authority = _authority(data, tc, "semantic_type", Tier.PATTERN_CONFIRMED, 0.7)
    else:
        why = "no date column, so no time (no period can be asked); read from the schema"
        count_authority = _authority(data, table, "row_count", Tier.DOC_CITED_STRONG, 1.0)
    return timed, why, count_authority


def _measures(
    data: DraftInput,
    table: str,
    reports: tuple[ColumnReport, ...],
    plain: _Plain,
    span: tuple[str, str] | None = None,
) -> list[str]:
    timed, why, count_authority = _timing(data, table, reports, span)
    count_words = plain.synonyms(f"metric:{table}", f"{table} count", f"{table}_count")
    lines = [
        f"  # every row of {table}; {why}",
        f"  - name: {_s(f'{table}_count')}",
        f"    label: {_s(f'{table} count')}",
        *(["    synonyms: [" + ", ".join(_s(w) for w in count_words) + "]"] if count_words else []),
        f"    table: {_s(table)}",
        '    expression: "count(*)"',
        *timed,
        *count_authority,
    ]
    for report, word, said in _measure_columns(data, table, reports):
        fp = report.fingerprint
        column = f"{table}.{fp.column}"
        if not word:
            lines.append(f"  # {column} left out: {said}")
            continue
        tier, raw, _ = _evidence(report)
        why = f"{_why(report)}; the aggregate is guessed: confirm before trusting"
        if said and (report.best is None or report.best.name in NOT_MEASURES | {"surrogate_key"}):
            # admitted on its name alone (its pattern, if any, said a code): the name is the
            # only evidence, the lowest tier (Rosetta 4.3: the evidence class caps confidence)
            tier, raw = Tier.INTERPRETER_ONLY, 0.5
            pattern = f" (pattern {report.best.name} overruled)" if report.best else ""
            why = (
                f"{said}{pattern}; tier INTERPRETER_ONLY ({cap_confidence(raw, tier):.2f}); "
                "the aggregate is guessed: confirm before trusting"
            )
        bare = plain.bare(table, fp.column) if word == "total" else []
        agg = "avg" if word == "average" else "sum"
        note = " (signed quantity: averaged, not summed)" if agg == "avg" else ""
        if agg == "sum" and fp.numeric.get("negative_share", 0.0) > 0:
            note = " (signed money: summed, a loss counting negative)"
        lines += [f"  # {agg} of a numeric non-key column{note}; {why}"]
        lines += _metric(data, plain, (table, fp.column, word, agg), timed, tier, raw, bare)
        if word != "total":
            continue
        shared = [] if _totalled(fp.column) else bare  # the total owns the bare words
        for stat, (fn, _) in STATISTICS.items():
            lines.append(f"  # {fn} of the summed column {column} over its own rows; {why}")
            lines += _metric(data, plain, (table, fp.column, stat, fn), timed, tier, raw, shared)
    return lines


def _metric(
    data: DraftInput,
    plain: _Plain,
    measure: tuple[str, str, str, str],
    timed: list[str],
    tier: Tier,
    raw: float,
    bare: list[str],
) -> list[str]:
    """One measure's metric: ``measure`` is (table, column, word, aggregate function);
    ``bare`` the column's own words, shared by its metrics (asked back which one)."""
    table, name, word, agg = measure
    column = f"{table}.{name}"
    label = f"{word} {plain.phrase(table, name)}"
    words = [
        w
        for prefix in PREFIXES.get(word, (word,))
        for w in _words(f"{prefix} {table} {plain.name(table, name)}", label)
    ]
    words += [
        w for prefix in PREFIXES.get(word, (word,)) for w in plain.raw(table, name, prefix=prefix)
    ]
    words += plain.synonyms(f"metric:{column}:{word}", label, *words)
    words += [w for w in bare if w.lower() not in {x.lower() for x in (label, *words)}]
    return [
        f"  - name: {_s(f'{table}_{name}_{word}')}",
        f"    label: {_s(label)}",
        "    synonyms: [" + ", ".join(_s(w) for w in dict.fromkeys(words)) + "]",
        f"    table: {_s(table)}",
        f"    expression: {_s(f'{agg}({column})')}",
        *timed,
        *_authority(data, column, "semantic_type", tier, raw),
    ]


def _plural_values(values: tuple[str, ...]) -> list[str]:
    """The plural of each three-letter lower-case word value ("dogs" for "dog"): the reader
    varies the number of words longer than three letters itself."""
    plural = {
        f"{v}s": v
        for v in values
        if len(v) == 3 and v.isalpha() and v.islower() and f"{v}s" not in values
    }
    if not plural:
        return []
    return [
        "    value_synonyms: {" + ", ".join(f"{_s(w)}: {_s(v)}" for w, v in plural.items()) + "}"
    ]


def common_word_values(values: tuple[str, ...] | list[str]) -> list[str]:
    """The values the reader would also take as everyday words ("You" as a song title in "how
    many singers do you have?"): a domain holding one is not listed, since a value matched
    in passing filters the answer."""
    from assay.semantic._words import FUNCTION_WORDS, NUMBER_WORDS

    words = FUNCTION_WORDS | set(NUMBER_WORDS) | {"I"}
    # The reader matches a value under three letters only in its own case ("T" is not "t").
    return [v for v in values if (v.lower() if len(v) >= 3 else v) in words]


def _dimension_words(plain: _Plain, table: str, column: str) -> list[str]:
    words = _words(f"{table} {plain.name(table, column)}", f"{table}_{column}")
    words += plain.raw(table, column)
    return words + plain.synonyms(f"dimension:{table}.{column}", f"{table}_{column}", *words)


def _label_columns(data: DraftInput) -> list[tuple[str, str]]:
    """Text columns that label their rows (a name or a title), open dimensions however many
    distinct values they hold: not a closed domain, not personal data, not all one value.
    Read without the prefix every column of its table shares: TPC-H's ``n_name`` is the
    nation's name (its "n_" was taken for a one-letter word, and no question could name a
    nation: outside tryout of a drafted TPC-H layer, "customers in GERMANY" abstained)."""
    prefixes = column_prefixes(data.profile)

    def words(table: str, column: str) -> list[str]:
        prefix = prefixes.get(table, "")
        own = column[len(prefix) :] if prefix and column.startswith(prefix) else column
        return split_name(own).split()

    return [
        (t.name, r.fingerprint.column)
        for t in data.profile.tables
        for r in t.columns
        if r.fingerprint.family == "text"
        and not r.fingerprint.error
        and r.fingerprint.n_distinct > 1
        and (t.name, r.fingerprint.column) not in data.domains
        and (t.name, r.fingerprint.column) not in data.pii
        and set(words(t.name, r.fingerprint.column)) & LABEL_WORDS
        # "LName": a word of one letter says nothing a question would use
        and all(len(w) > 1 for w in words(t.name, r.fingerprint.column))
    ]


def _dimension_lines(data: DraftInput, plain: _Plain, labels: list[tuple[str, str]]) -> list[str]:
    """The closed domains with their values, the label columns (open), and a comment naming
    every other text column left out and why."""
    dims = ["dimensions:"]
    for (t_name, c_name), values in sorted(data.domains.items()):
        common = common_word_values(values)
        if common:
            dims.append(
                f"  # {t_name}.{c_name} left out: its values {', '.join(common)} are everyday "
                "words a question would use in passing"
            )
            continue
        profiled = data.profile.table(t_name)
        found = profiled.column(c_name) if profiled else None
        dims += [
            f"  # closed domain of {len(values)} values; {_why(found)}",
            f"  - name: {_s(f'{t_name}_{c_name}')}",
            f"    column: {_s(f'{t_name}.{c_name}')}",
            "    synonyms: ["
            + ", ".join(_s(w) for w in _dimension_words(plain, t_name, c_name))
            + "]",
            "    values: [" + ", ".join(_s(v) for v in values) + "]",
            *_plural_values(values),
            *_authority(data, f"{t_name}.{c_name}", "semantic_type", *_evidence(found)[:2]),
        ]
    for t_name, c_name in labels:
        dims += _open_dimension(data, plain, t_name, c_name, "a label column by its name,")
    for t_name, c_name in _coded_columns(data):
        dims += _open_dimension(data, plain, t_name, c_name, "codes, not a quantity:")
    taken = {*data.domains, *labels}
    for t in data.profile.tables:
        for r in t.columns:
            fp = r.fingerprint
            if fp.family in ("integer", "decimal", "date") or (t.name, fp.column) in taken:
                continue
            if not fp.n_nonnull:
                continue  # said below with the columns holding only NULLs
            why = (
                "personal data"
                if (t.name, fp.column) in data.pii
                else (f"{fp.n_distinct} distinct values, neither a closed domain nor a label")
            )
            dims.append(f"  # {t.name}.{fp.column} left out: {why}")
    if any(line.startswith("  - name:") for line in dims):
        return dims
    return ["dimensions: []", *dims[1:]]


def draft_layer(data: DraftInput) -> str:
    """The layer's YAML text (see the module docstring).

    Raises:
        SemanticError: the data holds no table, or the draft does not validate.
    """
    if not data.profile.tables:
        raise SemanticError(
            f"{data.name}: the database holds no table, so nothing can be drafted.",
            hint="Point --db at the database that holds the data.",
        )
    dates = _covered_dates(data)
    lines = [
        f"# Drafted by 'assay semantic init' from the data of {data.name}. Each element says",
        "# why it was proposed, with the authority tier and capped confidence of its evidence.",
        "# Inferred joins and guessed measures are below the commit tier: answers resting on",
        "# them are confirm-first until the fact is accepted (assay catalog accept FACT).",
        f"name: {_s(data.name)}",
        f"description: {_s('Drafted from the data; review before use.')}",
    ]
    start = end = ""
    if dates:
        start = min(str(lo)[:10] for lo, _ in dates)
        end = max(str(hi)[:10] for _, hi in dates)
        if data.calendars:
            lines.append(
                f"# calendar {', '.join(sorted(data.calendars))} left out of the coverage: it "
                "lists dates whether anything happened on them; read from the fact tables' rows "
                "pointing at it: " + ", ".join(f"{t}.{c}" for t, c in sorted(data.calendar_spans))
            )
        lines += [
            f"clock: {end}  # the latest date in the data",
            "coverage:  # the first and last dates in the data",
            f"  start: {start}",
            f"  end: {end}",
        ]
    else:
        lines.append("# no clock and no coverage: the data holds no dates (time is optional)")
    forcing = sorted(data.pii_classes.items())
    lines += [
        "pii:" if forcing else "pii: {}",
        *[f"  {_s(ref)}: {_s(kind)}  # proved from values" for ref, kind in forcing],
        "allow_pii: []  # forcing classes (ssn, payment_card, medical_record) are refused raw",
        "tables:",
        *[f"  {_s(t.name)}: {{}}" for t in data.profile.tables],
        *_join_lines(data),
        "metrics:",
    ]
    labels = _label_columns(data)
    plain = _Plain(
        data,
        [
            (t.name, r.fingerprint.column, each)
            for t in data.profile.tables
            for r, word, _ in _measure_columns(data, t.name, t.columns)
            if word
            for each in ([word, *STATISTICS] if word == "total" else [word])
        ],
        [*data.domains, *labels, *_coded_columns(data)],
    )
    span = (start, end) if dates else None
    for table in data.profile.tables:
        lines += _measures(data, table.name, table.columns, plain, span)
    lines += _dimension_lines(data, plain, labels)
    empty = [
        f"{r.fingerprint.table}.{r.fingerprint.column}"
        for t in data.profile.tables
        for r in t.columns
        if r.fingerprint.n_rows and r.fingerprint.n_nonnull == 0
    ]
    if empty:
        lines.append("# left out, every value NULL (retired-looking): " + ", ".join(empty))
    text = "\n".join(lines) + "\n"
    layer = parse_semantic(yaml.safe_load(text), source=f"The draft for {data.name}")
    problems = check_against(layer, data.catalog)
    if problems:
        raise SemanticError(
            f"The draft for {data.name} does not match its database: " + "; ".join(problems),
            hint="Report this: a drafted layer must always check.",
            details={"problems": problems},
        )
    return text


def _covered_dates(data: DraftInput) -> list[tuple[object, object]]:
    """The first and last dates the fact tables' rows point at in a calendar (store sales:
    1998 to 2003), or, where none do, of every date column less a calendar's (one row per
    day whether anything happened or not: TPC-DS date_dim spans 1900 to 2100)."""
    if data.calendar_spans:
        return list(data.calendar_spans.values())
    out: list[tuple[object, object]] = [
        (r.fingerprint.min_value, r.fingerprint.max_value)
        for t in data.profile.tables
        for r in t.columns
        if r.fingerprint.family == "date"
        and r.fingerprint.min_value is not None
        and t.name not in data.calendars
    ]
    return out


def write_layer(text: str, out: Path) -> None:
    """Write ``text`` at ``out`` atomically (a temporary file renamed into place)."""
    partial = out.with_name(f".{out.name}.{os.getpid()}.partial")
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, out)
    except OSError as exc:
        raise SemanticError(
            f"Cannot write {str(out)!r}: {exc.strerror}.", hint="Check the --out path."
        ) from exc
    finally:
        partial.unlink(missing_ok=True)
