"""``decide``: the only place a behaviour is chosen, by ordered rules over a ``Reading``.

1. refuse: a write or prohibited action asked for, or an injection payload (found by the guard's
   intent check before any model or query runs, and passed in here), or a sentence opening
   with an unread word followed by what it acts on ("Lapse every travel policy ...");
2. abstain: a request for advice ("Suggest the best care for ..."), which acts on nothing and
   no figure answers; a period, a time grain or a comparison over time asked of a metric
   without time (a layer for data without dates, or a metric with no time column: named why);
   a period outside coverage; a retired column nothing replaces; a derived measure or
   an aggregate the layer does not define (named); a grouping by something that is no
   dimension (named); an adjective said of a metric's rows that nothing defines ("new
   patients", named); a word standing where a value would that no dimension holds and that
   resembles nothing the layer knows (named); no metric at all (the closest metrics named);
3. clarify: a question that only refers back to an earlier one with none before it ("what
   about the year before?", checked before 2: it lacks a question, not a metric); a misspelt
   word that resembles a defined name (did you mean ..., asked, never applied); any other
   unread content word (named); a negation or ranking with nothing to apply to; a phrase
   that matches two or more defined metrics with nothing to pin the choice (each reading
   with the words that tell them apart); only concepts the layer leaves undefined;
4. answer.

An unread content word is never dropped: it always ends in 2 or 3, named in the message.

Why one module of about 780 lines, over the house aim of 400: the order of the rules above is
the specification (the paper's rule order), and ``decide`` is that order, read top to bottom;
each rule's message helpers sit beside it. The rules that read more than the ``Reading`` already
stand apart (``_counted_amount``, ``_breakdown``, ``_other_role``, ``_distinct_entity``).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from assay.semantic._model import SemanticLayer
from assay.semantic._reach import reached_dimensions
from assay.semantic._reading import Reading
from assay.semantic._refers_back import refers_back
from assay.semantic._unread_periods import unread_periods

__all__ = ["BehaviourDecision", "decide"]


@dataclass(frozen=True)
class BehaviourDecision:
    behaviour: str  # answer | clarify | abstain | refuse
    code: str  # a stable reason code, e.g. behaviour.period_outside_coverage
    message: str
    readings: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (metric, distinguishing words)


def _distinguishing(
    layer: SemanticLayer, names: tuple[str, ...]
) -> list[tuple[str, tuple[str, ...]]]:
    words = {n: set(layer.metric(n).label.lower().split()) for n in names}
    out = []
    for name in names:
        others = set().union(*(w for k, w in words.items() if k != name))
        own = tuple(sorted(words[name] - others)) or (layer.metric(name).label,)
        out.append((name, own))
    return out


# Words people use for one another's measures, used only to rank the metrics offered as
# closest (never to read a question): "revenue" offers "total sales amount".
_KIN = (
    frozenset({"revenue", "sales", "income", "turnover"}),
    frozenset({"cost", "costs", "cogs", "expense", "expenses", "expenditure", "expenditures"}),
    frozenset({"customer", "customers", "client", "clients"}),
)
_GENERIC = frozenset({"number", "count", "total", "of", "the", "by", "in", "for", "per"})


def closest_metrics(
    words: str, layer: SemanticLayer, n: int = 3, tables: frozenset[str] = frozenset()
) -> list[str]:
    """The layer's metric labels most like ``words`` (rapidfuzz), best first; a label that
    shares a word with them (or a word's kin: "sales" for "revenue", "customers" for
    "clients") comes before one that shares none. ``tables``: the tables of the values the
    question named ("dogs", a pet type): their row counts come first, then their metrics
    ("how many dogs": Pets count, never "average Advisor")."""
    from rapidfuzz import fuzz

    said = {w for w in re.findall(r"[a-z]+", words.lower()) if w not in _GENERIC}
    kin = said | {k for group in _KIN if said & group for k in group}
    query = " ".join(sorted(kin)) if kin else words.lower()
    labels = sorted({m.label for m in layer.metrics})
    counted = {m.label for m in layer.metrics if m.table in tables and _counts_rows(m.expression)}
    of_tables = {m.label for m in layer.metrics if m.table in tables}

    def key(label: str) -> tuple[bool, bool, bool, float, str]:
        shared = bool(set(re.findall(r"[a-z]+", label.lower())) & kin)
        near = -fuzz.token_set_ratio(query, label.lower())
        return (label not in counted, label not in of_tables, not shared, near, label)

    return sorted(labels, key=key)[:n]


def _undefined_asked(reading: Reading, layer: SemanticLayer) -> str:
    """A concept the layer leaves undefined, asked back with what can be asked instead: the
    metrics its own words name ("revenue" in "trailing 2 months revenue", a running metric the
    import left out), else the closest ones; never every metric of the layer (the simple
    manifest's 41 were listed)."""
    from assay.semantic._resolve import canonical, tokenize

    concept = reading.undefined[0]
    words = [canonical(t.text.lower()) for t in tokenize(concept)]

    def inside(phrase: str) -> bool:
        key = [canonical(t.text.lower()) for t in tokenize(phrase)]
        return bool(key) and any(
            words[i : i + len(key)] == key for i in range(len(words) - len(key) + 1)
        )

    said = [m.label for m in layer.metrics if any(map(inside, (m.label, *m.synonyms)))]
    head = (
        f"'{concept}' is not defined in this warehouse (the semantic layer leaves it out), so "
        "it is not answered with another measure."
    )
    if said:
        return (
            f"{head} Do you mean {' or '.join(repr(x) for x in said[:_LISTED])}? Ask for it by "
            "name, with the dates you mean."
        )
    closest = ", ".join(repr(x) for x in closest_metrics(concept, layer))
    return f"{head} The closest measures are {closest}; ask for one by name."


def _counts_rows(expression: str) -> bool:
    return re.fullmatch(r"\s*count\(\s*\*\s*\)\s*", expression, re.IGNORECASE) is not None


def _filtered_tables(reading: Reading, layer: SemanticLayer) -> frozenset[str]:
    """The tables of the dimensions the question filters on (a value it named)."""
    names = {f.dimension for f in reading.filters}
    return frozenset(d.column.split(".", 1)[0] for d in layer.dimensions if d.name in names)


def _quote(words: tuple[str, ...] | list[str]) -> str:
    return ", ".join(f"'{w}'" for w in dict.fromkeys(words))


def _untimed(reading: Reading, layer: SemanticLayer) -> BehaviourDecision | None:
    """A period or a time grain asked of a metric that has no time to apply it to."""
    asked = [p.text for p in reading.periods] + ([f"per {reading.grain}"] if reading.grain else [])
    if not asked and not reading.compare:
        return None
    names = reading.metrics or tuple(t for m in reading.ambiguous for t in m.targets)
    untimed = [layer.metric(n).label for n in names if not layer.metric(n).time_column]
    if layer.clock is not None and not untimed:
        return None
    what = _quote(asked) if asked else "a comparison over time"
    # Said of the layer, never of the data: an imported metric may be untimed by design while
    # its tables hold dates (OSI's total_sales beside date_dim)
    why = (
        f"{_quote(untimed)} is not tied to a date in the semantic layer (it has no time column)"
        if untimed
        else f"the semantic layer {layer.name!r} has no time (no clock and no dated metric)"
    )
    return BehaviourDecision(
        "abstain",
        "behaviour.no_time",
        f"The question asks for {what}, but {why}, so no period can be applied. Ask it without "
        "the period, or add a time_column (and a clock) to the layer.",
    )


def _own_part(
    reading: Reading, layer: SemanticLayer, first: dt.date, last: dt.date
) -> BehaviourDecision | None:
    """A period partly outside the layer's coverage said of the asked metric whose own rows
    cover less (MetricFlow's new_customers: 2022-03-07 to 2022-03-10 of a layer to 2022-04-04),
    with the part it does cover: said of the layer, "data from 2022-03-07 to 2022-03-31" and
    "ask from 2022-03-07" named dates that metric has no rows for, and the question asked
    that way was abstained on again (outside tester, import 38)."""
    assert layer.coverage is not None
    if reading.ambiguous:
        return None  # which metric is meant is asked first (_own_coverage)
    for name in reading.metrics:
        metric = layer.metric(name)
        own = metric.coverage
        if own is None or own == layer.coverage:
            continue
        label = next(p.label for p in reading.periods if p.start == first)
        if max(first, own[0]) > min(last, own[1]):
            return BehaviourDecision(
                "abstain",
                "behaviour.period_outside_coverage",
                f"{metric.label} has data from {own[0]} to {own[1]}; {label} is outside it, "
                "so there is no data to answer from.",
            )
        part = f"{max(first, own[0])} to {min(last, own[1])}"
        return BehaviourDecision(
            "abstain",
            "behaviour.period_partly_covered",
            f"{metric.label} has data from {own[0]} to {own[1]}; {label} ({first} to {last}) "
            f"is partly outside it: data from {part} only, so a figure for the whole of "
            f"{label} cannot be given. Ask for the covered part ({part}).",
        )
    return None


def _own_coverage(reading: Reading, layer: SemanticLayer) -> BehaviourDecision | None:
    """A period outside, or partly outside, the rows of an asked metric whose own rows cover
    less than the layer does. A metric word with several definitions is asked back first
    ("total net profit in 2001" was abstained on as the catalog sales' net profit, which stops
    in November 2001, while the store and web readings cover 2001: outside tryout 39, F6):
    which one is meant decides which rows are asked about."""
    if reading.ambiguous:
        return None
    for name in reading.metrics:
        own = layer.metric(name).coverage
        if own is None:
            continue
        for period in reading.periods:
            last = period.end - dt.timedelta(days=1)
            if last < own[0] or period.start > own[1]:
                return BehaviourDecision(
                    "abstain",
                    "behaviour.period_outside_coverage",
                    f"{layer.metric(name).label} has data from {own[0]} to {own[1]}; "
                    f"{period.label} is outside it, so there is no data to answer from.",
                )
            if period.start < own[0] and not period.open_start:
                # begins before the metric's rows do (outside tryout 15: "2100 is outside it"
                # of data from 2100-01-02): partly covered, and said so
                return BehaviourDecision(
                    "abstain",
                    "behaviour.period_partly_covered",
                    f"{layer.metric(name).label} has data from {own[0]} to {own[1]}; "
                    f"{period.label} ({period.start} to {last}) begins before it, so a figure "
                    f"for the whole of {period.label} cannot be given. Ask for the covered "
                    f"part (from {own[0]}).",
                )
            ends_early = layer.coverage is None or own[1] < layer.coverage[1]
            if ends_early and period.start <= own[1] < last:
                # the metric's rows stop before the layer's do: the rest of the period is not
                # "not over", its data is missing (an imported orders count that ends in August
                # of a year whose line items run to November)
                return BehaviourDecision(
                    "abstain",
                    "behaviour.period_partly_covered",
                    f"{layer.metric(name).label} has data from {own[0]} to {own[1]}; "
                    f"{period.label} ({period.start} to {last}) runs past it, so a figure for "
                    f"the whole of {period.label} cannot be given. Ask for the covered part "
                    f"(to {own[1]}).",
                )
    return None


def _abstain(reading: Reading, layer: SemanticLayer) -> BehaviourDecision | None:
    untimed = _untimed(reading, layer)
    if untimed is not None:
        return untimed
    if layer.coverage is not None and (reading.metrics or reading.ambiguous):
        # with no metric read, what was not understood is said first (a misspelt metric is
        # never hidden behind the period's coverage)
        start, end = layer.coverage
        for period in reading.periods:
            last = period.end - dt.timedelta(days=1)
            if period.start < start <= last:
                # partly covered: never called outside; a figure for the whole period would
                # count only the covered part (rows before the coverage are not vouched for)
                narrower = _own_part(reading, layer, period.start, last)
                if narrower is not None:
                    return narrower
                return BehaviourDecision(
                    "abstain",
                    "behaviour.period_partly_covered",
                    f"The warehouse covers {start} to {end}; {period.label} ({period.start} "
                    f"to {last}) is partly outside it: data from {start} to {min(last, end)} "
                    f"only, so a figure for the whole of {period.label} cannot be given. Ask "
                    f"for the covered part (from {start}).",
                )
            if last < start or period.start > end:
                return BehaviourDecision(
                    "abstain",
                    "behaviour.period_outside_coverage",
                    f"The warehouse covers {start} to {end}; {period.label} is outside it, so "
                    "there is no data to answer from (the coverage the semantic layer "
                    "declares: rows a table holds outside it are not vouched for).",
                )
    own_coverage = _own_coverage(reading, layer)
    if own_coverage is not None:
        return own_coverage
    for retired in reading.retired:
        if not retired.replacement:
            why = retired.reason or "no reason given"
            return BehaviourDecision(
                "abstain",
                "behaviour.retired_column",
                f"{retired.table}.{retired.column} is retired ({why}) and nothing replaces "
                "it, so that breakdown is no longer available.",
            )
    if reading.derived:
        return BehaviourDecision(
            "abstain",
            "behaviour.concept_missing",
            f"The warehouse defines no {_quote(reading.derived)} measure; the closest it has "
            f"are {', '.join(closest_metrics(reading.question, layer))}.",
        )
    if reading.aggregates and reading.metrics:
        return BehaviourDecision(
            "abstain",
            "behaviour.aggregate_undefined",
            f"The warehouse does not define {_quote(reading.aggregates)} of "
            f"{layer.metric(reading.metrics[0]).label}; only the metric as defined can be "
            f"answered.{_unread_too(reading)}",
        )
    if reading.unknown_groups:
        dim_names = [d.name for d in layer.dimensions]
        dims = _listed(_closest(" ".join(reading.unknown_groups), dim_names), len(dim_names))
        return BehaviourDecision(
            "abstain",
            "behaviour.dimension_missing",
            f"The warehouse has no {_quote(reading.unknown_groups)} to break results down by "
            f"(its dimensions{' closest to it' if len(dim_names) > _LISTED else ''}: {dims}).",
        )
    excluded = _excluded_by_definition(reading, layer)
    if excluded:
        word, metric, condition = excluded
        return BehaviourDecision(
            "abstain",
            "behaviour.excluded_by_definition",
            f"{metric} is defined with {condition}, and there is no dimension to ask for "
            f"'{word}' by, so the warehouse's definitions cannot answer it.",
        )
    suggested = {w for w, _ in reading.suggestions}
    modifiers = [w for w in reading.modifiers if w not in suggested]
    if modifiers and (reading.metrics or reading.ambiguous):
        names = reading.metrics or tuple(t for m in reading.ambiguous for t in m.targets)
        labels = ", ".join(layer.metric(n).label for n in names)
        return BehaviourDecision(
            "abstain",
            "behaviour.modifier_undefined",
            f"The warehouse does not define {_quote(modifiers)} (no dimension, value or metric "
            f"says which rows that is), so it cannot be applied to {labels}; answering "
            "without it would answer another question.",
        )
    unknown = [v for v in reading.value_like if not set(v.split()) & suggested]
    if not (unknown and reading.metrics):
        return None
    explained = [(w, why) for w in unknown if (why := _no_value(w, layer))]
    unknown = [w for w in unknown if w not in dict(explained)]
    if not unknown:
        # "the first year", "more than 3 orders": a rank word or a metric's word stands where
        # a value would; said as what was not understood, never as a missing value
        said = {w for w, _ in explained}
        rest = [w for w in reading.unread if w not in said]
        others = f" I also don't know what {_quote(rest)} means here." if rest else ""
        return BehaviourDecision(
            "clarify",
            "behaviour.unread_words",
            " ".join(_said_once(explained))
            + others
            + " Rephrase it with the warehouse's terms (`assay semantic show` lists them).",
        )
    known = _known_values(unknown, reading.metrics, layer)
    return BehaviourDecision(
        "abstain",
        "behaviour.value_not_in_domain",
        _not_listed(unknown, known, reading.question, layer)
        or f"{_quote(unknown)} is not a value the warehouse records: {known}. There is "
        "nothing to filter on.",
    )


def _known_values(unknown: list[str], metrics: tuple[str, ...], layer: SemanticLayer) -> str:
    """The recorded values closest to ``unknown``, among the dimensions ``metrics`` reach; a
    close value of a dimension they cannot reach is said to be out of reach, never offered
    ("Eurpoe" of a revenue no join leads to regions from: Europe was offered, and asking it
    abstained with no join path; tryout 36)."""
    reached = reached_dimensions(metrics, layer)
    values = {
        f"{v} ({d.name})": d.name in reached
        for d in layer.dimensions
        for v in d.values
        if len(v) <= _LONGEST_VALUE  # a comment or description is no value to offer
    }
    close = _close_values(" ".join(unknown), [v for v, near in values.items() if near])
    far = _close_values(" ".join(unknown), [v for v, near in values.items() if not near])
    said = []
    if close:
        said.append(f"the known values closest to it: {_listed(close, len(close))}")
    elif not far:
        said.append(
            f"none of the {len(values)} values it records is close to it "
            "(`assay semantic show` lists them all)"
            if values
            else "it lists no values"
        )
    if far:
        labels = " and ".join(layer.metric(m).label for m in metrics)
        said.append(
            f"{_listed(far, len(far))} {'is' if len(far) == 1 else 'are'} close to it, but no "
            f"join of the semantic layer leads from the rows of {labels} to "
            f"{'it' if len(far) == 1 else 'them'}, so {labels} cannot be filtered by "
            f"{'it' if len(far) == 1 else 'them'}"
        )
    return "; ".join(said)


def _not_listed(unknown: list[str], known: str, question: str, layer: SemanticLayer) -> str:
    """The abstention said truly when some dimensions list no values (more than the import
    reads, a number, PII): the value is not among those listed, and whether the others hold
    it was not checked; ``""`` when every dimension lists its values (tryout 37: 'Smith' "is
    not a value the warehouse records", yet 19 customers have that last name). The dimensions
    whose name a word of the question begins are named first, the word said nearest before
    the value first ("customers named Smith": c_last_name before c_customer_id)."""
    open_dims = [d.name for d in layer.dimensions if not d.values and not d.expression]
    if not open_dims:
        return ""
    words = re.findall(r"[a-z]+", question.lower())
    first = unknown[0].split()[0].lower()
    before = words[: words.index(first)] if first in words else words
    said = [w for w in reversed(before) if len(w) >= 4]  # nearest first

    def distance(dim: str) -> int:
        parts = [p for p in re.split(r"[^a-z]+", dim.lower()) if len(p) >= 4]
        hits = [i for i, w in enumerate(said) if any(w.startswith(p) for p in parts)]
        return min(hits, default=len(said))

    ranked = sorted(open_dims, key=distance)
    listed = _listed(ranked[:_LISTED], len(ranked))
    return (
        f"{_quote(unknown)} is not a value the semantic layer lists: {known}. The layer lists "
        f"no values for {listed}, so whether the data holds {_quote(unknown)} there cannot be "
        "checked; nothing is filtered on a value the layer does not list."
    )


# Words that rank ("the first year", "the last order"): never a value of the data.
_RANK_WORDS = frozenset(
    "first last top bottom highest lowest best worst latest earliest largest smallest "
    "biggest most least oldest youngest newest".split()
)


def _no_value(words: str, layer: SemanticLayer) -> str:
    """Why ``words`` standing where a value would is no value ("" when it may be one): a
    ranking word, or a word of a metric's name ("orders" of "number of orders")."""
    from assay.semantic._resolve import canonical

    said = [canonical(w.lower()) for w in words.split()]
    if said and all(w in _RANK_WORDS for w in said):
        return _RANKS
    labels = [
        m.label
        for m in layer.metrics
        if said
        and all(
            w in {canonical(x) for p in (m.label, *m.synonyms) for x in p.lower().split()}
            for w in said
        )
    ]
    if labels:
        named = " or ".join(f"'{label}'" for label in sorted(labels)[:_LISTED])
        return (
            f"I could not read '{words}' here: it is a word of the metric {named}, not a "
            "value to filter on, and what it says of the rows was not read."
        )
    return ""


_RANKS = "rank"


def _said_once(explained: list[tuple[str, str]]) -> list[str]:
    """Each reason once, naming every word it is the reason for ("'oldest', 'youngest'")."""
    by_why: dict[str, list[str]] = {}
    for said, why in explained:
        by_why.setdefault(why, []).append(said)
    out = []
    for why, named in by_why.items():
        if why == _RANKS:
            they = "it ranks" if len(named) == 1 else "they rank"
            out.append(
                f"I could not read {_quote(named)} here: {they}, but nothing to rank (a "
                "breakdown, or how many to keep) was read."
            )
        else:
            out.append(why)
    return out


def _close_values(words: str, values: list[str]) -> list[str]:
    """The values whose own text is close to ``words`` (rapidfuzz ratio at least 70: "Germny"
    to Germany, never "California" to channel "A"), closest first, at most ``_LISTED``."""
    from rapidfuzz import fuzz

    low = words.lower()
    scored = [(-fuzz.ratio(low, v.rsplit(" (", 1)[0].lower()), i, v) for i, v in enumerate(values)]
    return [v for score, _, v in sorted(scored) if -score >= _CLOSE][:_LISTED]


_CLOSE = 70


def _can_mean(words: str, choices: tuple[str, ...], layer: SemanticLayer) -> str:
    defined = [c for c in choices if not c.startswith("undefined:")]
    undefined = [c.split(":", 1)[1] for c in choices if c.startswith("undefined:")]
    more = len(defined) - _LISTED
    text = " or ".join(_choice(c, layer) for c in defined[:_LISTED]) + (
        f" (or {more} more)" if more > 0 else ""
    )
    if not undefined:
        return f"'{words}' can mean {text}"
    aside = f"{', '.join(undefined[:_LISTED])}, which this layer does not define"
    if not defined:
        return f"'{words}' can mean {aside}"
    return f"'{words}' can mean {text}; it may also mean {aside}"


def _choice(choice: str, layer: SemanticLayer) -> str:
    kind, name = choice.split(":", 1)
    if kind == "metric":
        return f"the metric {layer.metric(name).label}"
    dim = layer.dimension(name)
    return f"{dim.name} ({dim.column})"


def _ambiguous_name(reading: Reading, layer: SemanticLayer) -> BehaviourDecision:
    """A word that names several things ("region": the customer's region, or the supplier's,
    which the layer leaves undefined): asked back naming each, never answered by one. What
    can be asked comes first; what the layer leaves undefined is said apart (an outside tryout
    found a list of three choices of which two could not be picked)."""
    said = "; ".join(_can_mean(words, choices, layer) for words, choices in reading.ambiguous_names)
    return BehaviourDecision(
        "clarify",
        "behaviour.ambiguous_name",
        f"{said}. Which one do you mean? Ask again with its name (nothing is assumed until "
        "you say).",
    )


# A message names at most this many dimensions, values or choices, closest first, and never a
# value longer than this (an imported comment column's values are paragraphs).
_LISTED = 8
_LONGEST_VALUE = 40


def _closest(words: str, names: list[str]) -> list[str]:
    """``names`` most like ``words`` first (rapidfuzz; ties in the given order), at most
    ``_LISTED``."""
    from rapidfuzz import fuzz

    scored = sorted(
        enumerate(names), key=lambda p: (-fuzz.token_set_ratio(words.lower(), p[1].lower()), p[0])
    )
    return [name for _, name in scored[:_LISTED]]


def _listed(names: list[str], total: int) -> str:
    if not names:
        return "none"
    more = total - len(names)
    return ", ".join(names) + (
        f" and {more} more (`assay semantic show` lists them)" if more > 0 else ""
    )


def _excluded_by_definition(reading: Reading, layer: SemanticLayer) -> tuple[str, str, str] | None:
    """An unread word that a metric's required filter excludes ("cancelled" orders)."""
    for said in reading.unread:
        word = said.split()[0]  # "cancelled in 2023": the word a period was said of
        low = word.lower()
        stems = {low, low[:-1], low[:-2], low[:-3]} - {""}
        for name in reading.metrics or tuple(t for m in reading.ambiguous for t in m.targets):
            metric = layer.metric(name)
            for condition in metric.required_filters:
                if any(f"'{stem}'" in condition.lower() for stem in stems):
                    return word, metric.label, condition
    return None


def _suggested(typed: str, phrase: str, layer: SemanticLayer) -> str:
    """A suggestion as the ask-back offers it: "'Germany (DE)'", the value as the column stores
    it beside the name (tryout 26: "'germany'" named a value the data holds as DE)."""
    from assay.semantic._replies import cased, stored_as
    from assay.semantic._resolve import Lexicon

    stored = stored_as(phrase, Lexicon(layer))
    return f"'{cased(typed, phrase)} ({stored})'" if stored else f"'{phrase}'"


def _meanings(phrase: str, layer: SemanticLayer) -> str:
    """What a suggested phrase can mean, when it names more than one metric."""
    from assay.semantic._resolve import Lexicon

    lexicon = Lexicon(layer)
    key = tuple(phrase.split())
    targets = [t for k, t in lexicon.entries.get(key, []) if k == "metric"]
    if len(targets) < 2:
        return ""
    labels = " or ".join(layer.metric(t).label for t in sorted(targets))
    return f" ('{phrase}' can mean {labels})"


def _also_ambiguous(reading: Reading, layer: SemanticLayer) -> str:
    """The competing readings of an ambiguous phrase, named whatever else is asked back."""
    if not reading.ambiguous:
        return ""
    match = reading.ambiguous[0]
    labels = " or ".join(layer.metric(t).label for t in match.targets)
    return f" Also, '{match.phrase}' can mean {labels}."


def _unplaced(reading: Reading) -> str:
    """Why a numeric bound read was not applied (``_reading._unplaced``)."""
    if "bound_unplaced" not in reading.notes:
        return ""
    return (
        " A bound is applied to a column of the rows counted, or to a metric per group when "
        "a group with no rows fails it ('more than 3 orders'), with nothing else ranked, "
        "grouped or compared around it."
    )


def _clarify(reading: Reading, layer: SemanticLayer) -> BehaviourDecision | None:
    if reading.suggestions:
        options = "; ".join(
            f"'{w}': did you mean {_suggested(w, s, layer)}{_meanings(s, layer)}?"
            for w, s in reading.suggestions
        )
        return BehaviourDecision(
            "clarify",
            "behaviour.did_you_mean",
            f"I could not read {options} (nothing is assumed until you say).",
        )
    if reading.count_asked:
        return BehaviourDecision(
            "clarify",
            "behaviour.count_of_amount",
            " ".join(reading.count_asked) + _unread_too(reading) + _also_ambiguous(reading, layer),
        )
    if reading.explained:
        said = {w for w, _ in reading.explained}
        rest = [w for w in reading.unread if w not in said]
        others = f" I also don't know what {_quote(rest)} means here." if rest else ""
        return BehaviourDecision(
            "clarify",
            "behaviour.unread_words",
            " ".join(why for _, why in reading.explained)
            + others
            + _also_ambiguous(reading, layer),
        )
    if reading.unread:
        return BehaviourDecision(
            "clarify",
            "behaviour.unread_words",
            f"I don't know what {_quote(reading.unread)} means here, so I cannot be sure which "
            f"question to answer. Rephrase it with the warehouse's terms "
            f"(`assay semantic show` lists them).{_unplaced(reading)}"
            f"{_also_ambiguous(reading, layer)}",
        )
    if reading.pairs:
        return BehaviourDecision(
            "clarify",
            "behaviour.paired_periods",
            f"The question pairs each value with its own period ({_quote(reading.pairs)}); "
            "one answer would apply every filter to every period. Ask for each pair "
            "separately, or for all the values over all the periods.",
        )
    if reading.dangling:
        return BehaviourDecision(
            "clarify", "behaviour.dangling_word", _none_of(reading) or _dangling(reading.dangling)
        )
    return None


# a word asked back with its reason beside it: "the same quarter (name both periods' dates)"
_WITH_REASON = re.compile(r"^(.+?) \((.+)\)$")


def _dangling(dangling: tuple[str, ...]) -> str:
    """Why the words are asked back: a word with its reason is quoted apart from the reason
    ("I could not read 'the same quarter': name both periods' dates"; outside recheck 40 was
    told "I don't know what 'the same quarter (name both periods' dates)' applies to here"),
    the others as one list."""
    reasons = [m for m in (_WITH_REASON.match(d) for d in dangling) if m is not None]
    plain = tuple(d for d in dangling if _WITH_REASON.match(d) is None)
    said = [f"I could not read '{m.group(1)}': {m.group(2)}" for m in reasons]
    text = " ".join(w if w.endswith("?") else f"{w}." for w in said)
    if plain:
        text += (" " if text else "") + (
            f"I don't know what {_quote(plain)} applies to here; name the value or the "
            "breakdown it is about."
        )
    return text


# "customers with no orders", "students who have no pets": rows by what they lack
_NONE_OF = re.compile(
    r"\b([a-z]+)\s+(?:(?:that|who|which)\s+)?(?:with|have|has|had|having)\s+no\s+([a-z]+)\b",
    re.IGNORECASE,
)


def _none_of(reading: Reading) -> str:
    """Why "customers with no orders" is not answered, in the question's words (outside
    tryout 39, F8, was told "I don't know what 'no' applies to here"), and what can be asked;
    ``""`` when 'no' is not said so."""
    found = _NONE_OF.search(reading.question)
    if found is None or "no" not in {d.lower() for d in reading.dangling}:
        return ""
    rows, lacked = found.group(1), found.group(2)
    one = lacked.removesuffix("s") if len(lacked) > 3 else lacked
    return (
        f"'{found.group(0)}' asks for the {rows} that have no {lacked} at all, rows "
        f"counted by what they lack; the semantic layer cannot count that, so it is not "
        f"answered. Ask for the number of {rows}, and for the number of {rows} with at least "
        f"1 {one}: the difference is the answer."
    )


# A sentence that opens with a word nothing reads, followed by what it would act on ("Lapse
# every travel policy ...", "Extend the trial for account 77 ..."), is a request to act in the
# imperative with a verb no list holds: refused, never abstained on as a missing metric. The
# analytics request verbs (show, list, give, compare, count) are read, so never match here.
_POLITE_OPENING = re.compile(r"^\W*(?:(?:please|pls|kindly|now|just|then|also|and)\b[\s,]*)*")
_ACTED_ON = frozenset("every all each the this that these those any".split())


def _unknown_imperative(reading: Reading) -> str | None:
    """The request, when the question opens with an unread word followed by what it acts on."""
    if reading.question.rstrip().endswith("?") or reading.suggestions:
        return None
    words = _POLITE_OPENING.sub("", reading.question.lower()).split()
    unread = {w.lower() for u in reading.unread for w in u.split()}
    if len(words) > 2 and words[0] in unread and words[1] in _ACTED_ON:
        return " ".join(words[:4])
    return None


# Verbs that ask for advice or a judgement ("Suggest the best post-operative care for ..."):
# nothing is acted on, so no refusal (outside tryout 13 was told it "reads as a request to act
# on the data"); no figure the data holds answers them, so abstained on, said plainly.
_ADVICE = frozenset("suggest recommend advise propose diagnose counsel".split())


def _advice(reading: Reading) -> BehaviourDecision | None:
    """An abstention when the question opens with an unread verb asking for advice."""
    words = _POLITE_OPENING.sub("", reading.question.lower()).split()
    unread = {w.lower() for u in reading.unread for w in u.split()}
    if not words or words[0] not in _ADVICE or words[0] not in unread:
        return None
    return BehaviourDecision(
        "abstain",
        "behaviour.advice_out_of_scope",
        f"'{words[0]}' asks for advice (a recommendation or a judgement), which no figure in "
        "the data is: Assay answers questions the data can answer and gives no advice. Ask "
        "for the figures to base it on (counts, totals or lists from the warehouse).",
    )


def _unread_too(reading: Reading) -> str:
    """The words left unread beside the one a message is about, so that none goes unnamed
    ("average customer age" was answered as the undefined average of customer count, with
    'age' named nowhere: draft 23)."""
    if not reading.unread:
        return ""
    verb = "was" if len(set(reading.unread)) == 1 else "were"
    return f" {_quote(reading.unread)} {verb} not read either: no metric or dimension says it."


def decide(
    reading: Reading, layer: SemanticLayer, refusal: tuple[str, ...] = ()
) -> BehaviourDecision:
    """The behaviour for a reading, by the ordered rules above."""
    advice = None if refusal else _advice(reading)
    if advice is not None:
        return advice
    act = None if refusal else _unknown_imperative(reading)
    if act is not None:
        return BehaviourDecision(
            "refuse",
            "intent.write",
            f"I can't do that: {act!r} reads as a request to act on the data, and Assay only "
            "reads data and never changes it.",
        )
    if refusal:
        return BehaviourDecision(
            "refuse",
            refusal[0],
            "I can't do that: Assay only reads data "
            "and never changes it, reads files, or follows instructions "
            f"embedded in a question ({', '.join(refusal)}).",
        )
    if reading.ambiguous_names:
        return _ambiguous_name(reading, layer)
    back = refers_back(reading)
    if back is not None:
        return BehaviourDecision(
            "clarify",
            "behaviour.refers_back",
            f"{reading.question.strip()!r} refers back to an earlier question ('{back}'), but "
            "there is no earlier question it can follow up, so nothing says which measure it "
            "asks for. Ask the whole question, naming the measure (such as "
            f"{', '.join(closest_metrics(reading.question, layer))}) and the period or values.",
        )
    abstain = _abstain(reading, layer)
    if abstain is not None:
        return abstain
    if reading.undefined and reading.metrics:
        # A concept left undefined, named beside a metric ("orders by supplier region" where
        # the supplier's region is not mapped): answering the metric alone would drop it.
        return BehaviourDecision(
            "abstain",
            "behaviour.undefined_concept",
            f"'{reading.undefined[0]}' is not defined in this warehouse, so the question "
            "cannot be answered as asked.",
        )
    if not reading.metrics and not reading.ambiguous:
        undefined = {c.lower() for c in layer.undefined_concepts}
        if reading.suggestions and all(s in undefined for _, s in reading.suggestions):
            return BehaviourDecision(
                "abstain",
                "behaviour.concept_missing",
                f"{_quote([w for w, _ in reading.suggestions])} is nothing the warehouse defines "
                f"a measure for; the closest metrics are "
                f"{', '.join(closest_metrics(reading.question, layer))}.",
            )
        if reading.suggestions:
            return _clarify(reading, layer) or BehaviourDecision("clarify", "", "")
        if reading.undefined and not reading.unread:
            return BehaviourDecision(
                "clarify", "behaviour.undefined_concept", _undefined_asked(reading, layer)
            )
        # a period the reader could not read ("1Q24") is no concept: said as a period
        concepts, periods = unread_periods(reading.question, reading.unread)
        words = " ".join(concepts) or reading.question
        named = (
            f" ({_quote(concepts)})"
            if concepts
            else f" (no word of {reading.question.strip()!r} names one)"
        )
        return BehaviourDecision(
            "abstain",
            "behaviour.concept_missing",
            f"The question asks for something the warehouse has no metric for{named}, so it "
            f"cannot be answered from this data; the closest metrics are "
            f"{', '.join(closest_metrics(words, layer, tables=_filtered_tables(reading, layer)))}."
            + "".join(f" {why}" for said, why in reading.explained if said in concepts)
            + "".join(
                f" The period {p!r} could not be read either: write it as a quarter and year "
                "('Q1 2024'), a month and year ('March 2024') or its first and last days."
                for p in periods
            ),
        )
    clarify = _clarify(reading, layer)
    if clarify is not None:
        return clarify
    if reading.several:
        return BehaviourDecision(
            "clarify",
            "behaviour.several_metrics",
            f"The question names {_quote(reading.several)} apart; which one should be "
            "measured (or ask for them together, e.g. 'gross and net revenue')?",
        )
    if reading.ambiguous:
        match = reading.ambiguous[0]
        readings = _distinguishing(layer, match.targets)
        # measures of several tables ("average age": the students' or the pets') say whose
        tables = {layer.metric(name).table for name in match.targets}
        options = "; or ".join(
            f"{layer.metric(name).label} ({', '.join(words)})"
            + (f" of the {layer.metric(name).table} rows" if len(tables) > 1 else "")
            for name, words in readings
        )
        return BehaviourDecision(
            "clarify",
            "behaviour.ambiguous_metric",
            f"'{match.phrase}' has more than one definition here. Do you mean {options}?",
            tuple(readings),
        )
    return BehaviourDecision("answer", "behaviour.answer", "")
