"""``compose_follow_up``: a follow-up ("and units sold?", "in 2023?", "now by country", or a
reply to an ask-back such as "gross" or "net sales") as one whole question.

The rule: the follow-up inherits every part of the previous reading it does not restate (the
metric, the period, the grouping, the time grain, the filters, the ranking), and what it says
replaces the part of the same kind. A reply to an ask-back that names one of the offered
metrics, in full ("gross revenue"), in part ("gross", "the net one please") or by a synonym
("net sales"), is that choice put into the question that was asked back. A reply to a
did-you-mean or to a name of several dimensions resolves only to one of the choices that
ask-back offered (``semantic._replies``); anything else is asked back again.

A follow-up that restates the metric and the period but not the grouping ("gross sales in
2023" after "units sold by category in 2024") still keeps the grouping: the box it is typed in
is for follow-ups, and the reply lists what was kept (``inherited``) and the reading line says
it; a whole new question is asked without ``follow_up_of``.

Fail closed: the composed question is read again and must read as intended (the metrics,
periods, grain, groupings, filters and ranking worked out from the two readings). When it does
not, or when the follow-up names a metric and the previous question had several (which would it
replace?), ``unclear`` says why and the service asks back; the follow-up is never answered as
an unrelated fresh question. A previous question with nothing to keep (refused, or read as no
metric, period, grouping or filter) leaves the follow-up asked as it is, and ``not_kept`` says
so plainly.

Why one module of about 840 lines, over the house aim of 400: ``compose_follow_up`` is one
ordered pass over the kinds of part (metric, period, grouping, grain, filters, ranking), and the
two other shapes of follow-up (``_compared``, ``_widened``) share its text edits (``_drop``,
``_clean``), its comparison of readings (``_parts``) and its replies; split, each would import
the others' private helpers. A follow-up that moves the period by a unit ("a year earlier",
"the quarter after", "last year") is worked out in ``_period_shift``, which reads periods only.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from assay.semantic._lookup import value_lookups
from assay.semantic._model import SemanticLayer
from assay.semantic._period_shift import Shift, period_shift
from assay.semantic._periods import Period
from assay.semantic._reach import by_reach
from assay.semantic._reading import Filter, Ranking, Reading, read
from assay.semantic._replies import (
    AskBackChoice,
    ask_back_choices,
    chosen_and_more,
    chosen_reply,
)
from assay.semantic._resolve import Lexicon, Match, canonical, entity_named, tokenize

__all__ = ["compose_follow_up", "on_reading_line", "phrase_span"]

_LEAD = re.compile(
    r"^\s*(?:and|also|so|ok|okay|then|now|instead|but|"
    r"what about|how about|what of|and what about|"
    r"(?:and\s+)?(?:do\s+)?(?:the\s+)?same\s+(?:for|with|but(?:\s+for)?|again\s+for)|"
    r"(?:can you\s+)?(?:show|give)\s+me)\b[\s,]*",
    re.IGNORECASE,
)
_TRAIL = re.compile(
    r"[\s,]*\b(?:instead|too|as well|please|then|also|again|rather|thanks|thank you|only)\s*$",
    re.IGNORECASE,
)
_RANK_WORDS = "top|bottom|highest|lowest|best|worst|largest|smallest|biggest"
_NUMBER_WORDS = "one|two|three|four|five|six|seven|eight|nine|ten"
# "the net one": net ("the top one" is a ranking, left as it is)
_ONE = re.compile(rf"^(?:the\s+)?(?!(?:{_RANK_WORDS})\b)(\w+)\s+one$", re.IGNORECASE)
_GROUP_SAID = re.compile(
    r"\s*\b(?:broken down by|split by|for each|for every|by|per|each|across)\s+(?:the\s+)?"
    r"(\w+(?:\s+\w+)?)",
    re.IGNORECASE,
)
_GRAIN_SAID = re.compile(
    r"\s*\b(?:(?:broken down by|by|per|each|every)\s+(?:day|week|month|quarter|year)"
    r"|(?:day|week|month|quarter|year) (?:by|over) (?:day|week|month|quarter|year)"
    r"|daily|weekly|monthly|quarterly|yearly|annually|annual)\b",
    re.IGNORECASE,
)
_RANK_SAID = re.compile(
    rf"\s*\b(?:the\s+)?(?:{_RANK_WORDS})(?:\s+(?:\d+|{_NUMBER_WORDS}))?\b", re.IGNORECASE
)
_RANK_ONLY = re.compile(rf"(?:the\s+)?({_RANK_WORDS})\s+(\d+|{_NUMBER_WORDS})", re.IGNORECASE)
_NUMBERS = {w: i for i, w in enumerate(_NUMBER_WORDS.split("|"), 1)}
# "which was the highest?", "and the lowest?": the one highest (lowest) row of a breakdown
_ONE_RANKED = re.compile(
    rf"(?:(?:which|what)(?:\s+one)?\s+(?:was|is|were|had|has)\s+)?(?:the\s+)?({_RANK_WORDS})"
    r"(?:\s+one)?",
    re.IGNORECASE,
)
_DOWN = frozenset({"top", "highest", "best", "largest", "biggest"})
_COMPARE = re.compile(
    r"\b(?:compare[sd]?|comparison|vs\.?|versus|against|relative to)\b", re.IGNORECASE
)
# "the previous quarter", "prior month": read alone, counted from the clock (``find_periods``)
_STEPPED = re.compile(
    r"\b(?:previous|prior|next)\s+(?:(?:full|complete|whole)\s+)?(?:quarter|month|week)\b"
)
_ALL = re.compile(
    r"^(?:(?:for|across|over|in|of|with)\s+)?(?:all|every|any)\s+(?:the\s+)?"
    r"(?P<words>\w+(?:\s+\w+)?)$",
    re.IGNORECASE,
)
_YEAR = re.compile(r"\b(?:19|20|21)\d\d\b")
_HALF = re.compile(r"\b(?:h[12]|(?:the\s+)?(?:first|second)\s+half)\b", re.IGNORECASE)
_RELATIVE = re.compile(
    r"\b(?:last|this|next|past|previous|prior|ago|today|yesterday|ytd|to date|current|"
    r"rolling|trailing)\b",
    re.IGNORECASE,
)
_PERIOD_LEAD = (
    r"(?:in|for|during|since|after|before|from|over|last|this|past|previous|between|until)\b"
)
_NONE = "(none)"  # ``replaced`` of a part the previous question did not have: "(none) -> x"
_AS_CHANGED = "the previous question with your change made"
_AS_LIFTED = "the previous question without that filter"
_MARK = "\x00"  # where the previous metric phrase stood, filled with the new one at the end


@dataclass(frozen=True)
class _Parts:
    """What a reading asks for, kind by kind, in comparable form."""

    metrics: tuple[str, ...]
    periods: tuple[str, ...]
    grain: str | None
    groups: tuple[str, ...]
    filters: frozenset[tuple[str, tuple[str, ...], bool]]
    ranking: Ranking | None


def _parts(reading: Reading) -> _Parts:
    return _Parts(
        metrics=tuple(sorted(reading.metrics)),
        periods=tuple(p.label for p in reading.periods),
        grain=reading.grain,
        groups=reading.groups,
        filters=frozenset(
            (f.dimension, tuple(sorted(f.values)), f.negated) for f in reading.filters
        ),
        ranking=reading.ranking,
    )


def _filter_label(f: Filter) -> str:
    return f"{f.dimension} {'is not' if f.negated else '='} {' or '.join(f.values)}"


def _ranking_label(r: Ranking) -> str:
    if r.n is None:
        return f"sorted {'highest' if r.descending else 'lowest'} first"
    return f"{'top' if r.descending else 'bottom'} {r.n}"


def _place_swapped(
    text: str, appended: str, before: Reading, said: Reading, layer: SemanticLayer
) -> tuple[str, str, list[str]]:
    """ "same for France" after "customers in Germany", where the nation names are looked up
    in the data, not read at layer load (``_lookup``): neither is a filter yet, so France was
    added beside Germany ("customers in Germany France", abstained on; outside tryout 22 F11).
    A place said alone takes the place of the one place before it on the same column."""
    alone = said.value_like or said.unread  # "France" said alone stands where nothing reads
    if said.metrics or said.groups or said.filters or len(alone) != 1:
        return text, appended, []
    word = alone[0]
    column = _looked_up_in(word, layer)
    olds = [w for w in before.value_like if column and _looked_up_in(w, layer) == column]
    if len(olds) != 1:
        return text, appended, []
    swapped, done = re.subn(rf"\b{re.escape(olds[0])}\b", word, text, count=1, flags=re.I)
    if not done:
        return text, appended, []
    rest = re.sub(rf"\b{re.escape(word)}\b", "", appended, count=1, flags=re.I).strip()
    rest = "" if rest.lower() in _BARE_PREPOSITIONS else rest
    return swapped, rest, [f"filter {column} {olds[0]} -> {word}"]


def _looked_up_in(word: str, layer: SemanticLayer) -> str | None:
    """The one open dimension a place name would be looked up in, or None."""
    lookups = value_lookups((word,), layer)
    return lookups[0].dimension if lookups else None


_BARE_PREPOSITIONS = frozenset({"", "in", "for", "from", "of", "at"})


def _clean(fragment: str) -> str:
    """The follow-up without its conversational frame: "and units sold?" -> "units sold",
    "same for Germany" -> "Germany", "the net one please" -> "net"."""
    text = fragment.strip().rstrip("?.! ").strip()
    while True:
        before = text
        text = _LEAD.sub("", text).strip()
        text = _TRAIL.sub("", text).rstrip("?.!, ").strip()
        one = _ONE.match(text)
        if one is not None:
            text = one.group(1)
        if text == before:
            return text


def _metric_matches(reading: Reading) -> list[Match]:
    return [m for m in reading.matches if m.kind == "metric"]


def _reads_as_one_metric(phrase: str, layer: SemanticLayer, lexicon: Lexicon) -> str | None:
    reading = read(phrase, layer, lexicon)
    if len(reading.metrics) == 1 and not (reading.ambiguous or reading.unread or reading.periods):
        return reading.metrics[0]
    return None


def _choice(
    match: Match, word: str, layer: SemanticLayer, lexicon: Lexicon
) -> tuple[str, str] | None:
    """The one metric ``word`` makes of the previous question's metric phrase, as (the new
    phrase, the metric): put before it ("gross" + "sales": gross sales) or in place of one of its
    words ("net" in "gross revenue": net revenue). After an ask-back the metric must be one of
    the phrase's readings; after an answer it must be another metric. ``None`` unless exactly
    one metric is made."""
    if not word or len(word.split()) != 1:
        return None
    alone = read(word, layer, lexicon)
    if alone.periods or alone.filters or alone.groups or alone.grain or alone.ranking:
        # "1993" (a year earlier, moved) or "AUTOMOBILE" (a value) is a part of its own: it
        # replaces that part, never a word of the metric's name (outside tryout 41, F5:
        # "line items total sales amount in 1994" + "a year earlier" was composed as "line
        # items total 1993 amount in 1994", read as line items count)
        return None
    words = match.phrase.split()
    tried = [" ".join([*words[:k], word, *words[k + 1 :]]) for k in range(len(words))]
    tried.append(f"{word} {match.phrase}")
    asked_back = len(match.targets) > 1
    found: dict[str, str] = {}
    for phrase in tried:
        metric = _reads_as_one_metric(phrase, layer, lexicon)
        if metric is None:
            continue
        if (metric in match.targets) == asked_back:
            found.setdefault(metric, phrase)
    if len(found) != 1:
        return None
    metric, phrase = next(iter(found.items()))
    return phrase, metric


def phrase_span(question: str, match: Match) -> tuple[int, int] | None:
    """Where ``match`` stands in ``question`` (characters), or ``None`` when its tokens do not
    spell its phrase there (the reading re-read a rewritten question)."""
    tokens = tokenize(question)
    if not 0 <= match.start < match.end <= len(tokens):
        return None
    start, end = tokens[match.start].start, tokens[match.end - 1].end
    folded = " ".join(canonical(t.text) for t in tokenize(question[start:end]))
    if folded != " ".join(canonical(t.text) for t in tokenize(match.phrase)):
        found = re.search(rf"\b{re.escape(match.phrase)}\b", question, re.IGNORECASE)
        return (found.start(), found.end()) if found else None
    return start, end


def _read_after(
    text: str, previous: str, before: Reading, layer: SemanticLayer, lexicon: Lexicon
) -> Reading:
    """``text``, words of a follow-up, read as they read after ``previous``: a name of several
    dimensions is the one whose thing ``previous`` names ("now by status" after "total orders
    totalprice in 1995": the order's status, not the line's), or else the one ``before``'s
    metrics reach (``by_reach``), as the composed question reads it. Read alone, "by status"
    grouped by nothing, so the composition never read as intended and was asked back
    (tryout 36)."""
    if not text:
        return Reading(question="")
    reading = read(text, layer, lexicon)
    if not reading.ambiguous_names or reading.metrics:
        return reading  # a metric named replaces the previous one's words: no context left
    settled = _settled(reading, previous, text, layer)
    if settled:
        reading = read(text, layer, lexicon.with_names(settled))
    return by_reach(reading, layer, read, before.metrics)


def _settled(
    reading: Reading, previous: str, text: str, layer: SemanticLayer
) -> list[tuple[str, str]]:
    """Each name of several dimensions in ``reading`` (of ``text``) with the one dimension
    whose thing ``previous`` or ``text`` names elsewhere (``entity_named``), where one does."""
    tokens = tokenize(f"{previous.strip().rstrip('?.! ')} . {text}")
    after = len(tokenize(previous.strip().rstrip("?.! "))) + 1
    out = []
    for words, targets in reading.ambiguous_names:
        size = len(tokenize(words))
        starts = [
            i
            for i in range(after, len(tokens) - size + 1)
            if " ".join(t.text for t in tokens[i : i + size]) == words
        ]
        if not starts:
            continue
        probe = Match(words, starts[0], starts[0] + size, "ambiguous", targets)
        named = entity_named(probe, tokens, layer)
        if named.kind == "dimension":
            out.append((words, named.targets[0]))
    return out


def _drop(text: str, pattern: str) -> str:
    return re.sub(pattern, "", text, count=1, flags=re.IGNORECASE)


def _without_groups(text: str, before: Reading, layer: SemanticLayer, lexicon: Lexicon) -> str:
    """``text`` (``before``'s question) without the phrases that say its grouping ("by
    channel", "per country", "by status" of orders), each read as ``text`` reads it."""
    for found in list(_GROUP_SAID.finditer(text))[::-1]:
        for said in (found.group(0), " ".join(found.group(0).split()[:-1])):
            reading = _read_after(said.strip(), text, before, layer, lexicon)
            if reading.groups and set(reading.groups) <= set(before.groups) and not reading.unread:
                end = found.start() + len(said)
                text = text[: found.start()] + text[end:]
                break
    return text


def _said_again(before: Reading, said: Reading) -> list[str]:
    """The parts of ``before`` the follow-up does not restate, said again in words (for a
    previous question whose own words named no metric, and so cannot be edited)."""
    out: list[str] = []
    if before.periods and not said.periods:
        out += [
            p.text
            if re.match(
                r"(?:in|for|during|since|after|before|from|last|this|past)\b", p.text, re.IGNORECASE
            )
            else f"in {p.text}"
            for p in before.periods
        ]
    restated = {f.dimension for f in said.filters}
    for f in before.filters:
        if f.dimension not in restated:
            out.append(f"{'excluding' if f.negated else 'for'} {f.words}")
    if before.groups and not said.groups:
        out.append("by " + " and ".join(before.groups))
    if before.grain and not said.grain:
        out.append(f"by {before.grain}")
    return out


def _unclear(previous: str, fragment: str, why: str) -> dict[str, Any]:
    return {
        "question": fragment,
        "inherited": [],
        "replaced": [],
        "previous": previous,
        "not_kept": None,
        "unclear": (
            f"I could not put '{fragment.strip()}' together with the previous question "
            f"'{previous.strip()}' for certain: {why}. Nothing is answered; ask the whole "
            "question (for example the previous one with your change made)."
        ),
    }


def _asked_which(
    previous: str, fragment: str, shift: Shift, layer: SemanticLayer, lexicon: Lexicon
) -> dict[str, Any]:
    """A follow-up whose period could be either of ``shift.choices``, asked back: ``choices``
    offers each as a whole question, the previous one with that period (a choice that does
    not compose for certain is left out), as the page's buttons and the API's ``choices``
    offer a did-you-mean's (outside re-check of tryout 39: the year ask-back had none)."""
    out = _unclear(previous, fragment, shift.why)
    choices = []
    for label, words in shift.choices:
        made = compose_follow_up(previous, words, layer, lexicon)
        if made["unclear"] is None:
            choices.append(
                {"kind": "period", "name": "", "label": label, "question": made["question"]}
            )
    if choices:  # a reply naming the period answers too ("1995", "the year before")
        out["unclear"] = out["unclear"].replace(
            "ask the whole question (for example the previous one with your change made)",
            "pick one of the choices, or reply with the period",
        )
    return {**out, "choices": choices}


# a direction said alone ("and the fewest?"): of a ranked question, its count the other way
_DIRECTION = re.compile(
    r"(?:(?:what|how)\s+about\s+)?(?:the\s+)?"
    r"(fewest|least|lowest|smallest|bottom|most|highest|largest|biggest|top)",
    re.IGNORECASE,
)
_UP = frozenset({"most", "highest", "largest", "biggest", "top"})


def _turned(cleaned: str, before: Reading) -> str:
    """ "bottom 3" for "the fewest" after "top 3 ... by orders count": a direction said alone
    of a question that kept a number of groups keeps that number (outside recheck 40 was asked
    back, the composed reading "keeping the 3 lowest" being the one meant); ``cleaned`` as it
    is otherwise. "best" and "worst" say no direction of the number: not read so."""
    said = _DIRECTION.fullmatch(cleaned)
    if said is None or before.ranking is None or before.ranking.n is None:
        return cleaned
    return f"{'top' if said.group(1).lower() in _UP else 'bottom'} {before.ranking.n}"


def compose_follow_up(
    previous: str, fragment: str, layer: SemanticLayer, lexicon: Lexicon
) -> dict[str, Any]:
    """A follow-up as a whole question inheriting every part of ``previous`` it does not
    restate: ``question`` (to ask), ``inherited`` and ``replaced`` (what was kept and what
    changed, in words), ``previous``, ``not_kept`` (said when nothing could be kept) and
    ``unclear`` (why it could not be composed for certain; ask back, answer nothing)."""
    offered = ask_back_choices(previous, layer, lexicon)
    if offered:  # a did-you-mean or a name of several things: the reply picks a choice
        return _replied(previous, fragment, offered, layer, lexicon)
    cleaned = _clean(fragment)
    before = read(previous, layer, lexicon)
    cleaned = _turned(cleaned, before)
    said = _read_after(cleaned, previous, before, layer, lexicon)
    if len(before.periods) > 1 and said.periods and _changes_more(said):
        # "by category and in 2023" after "2024 compared with 2023": which compared period
        # the new one replaces, and whether the grouping applies to both, cannot be told
        # (tryout 26 composed "number of orders compared with by category and in 2023?")
        return _unclear(
            previous, fragment, "it changes the compared periods and the question at once"
        )
    widened = _ALL.match(cleaned)
    if (
        widened is not None
        and before.filters
        and read(f"by {widened.group('words')}", layer, lexicon).groups
    ):  # "for all countries"; "all revenue" is read as any other follow-up
        return _widened(previous, fragment, widened.group("words"), before, layer, lexicon)
    yearless = [
        p.text for p in said.periods if not _YEAR.search(p.text) and not _RELATIVE.search(p.text)
    ]
    if not _YEAR.search(cleaned):  # "H2", "the second half": read as periods only with a year
        yearless += [found.group(0) for found in _HALF.finditer(cleaned)]
    if yearless and before.periods:
        # "in Q1" after a question about 2023 is Q1 2023, not Q1 of the clock's year (outside
        # tryout 11 was shown Q1 2024's ranking at 1.00): the year of the conversation.
        years = {y for p in before.periods for y in _YEAR.findall(p.label)}
        if len(years) != 1:
            return _unclear(
                previous,
                fragment,
                f"it names {' and '.join(yearless)} without a year and the "
                "previous question spans "
                + (" and ".join(sorted(years)) if years else "no one year"),
            )
        (year,) = years
        for words in yearless:
            cleaned = re.sub(
                rf"\b{re.escape(words)}\b",
                lambda found: f"{found.group(0)} {year}",
                cleaned,
                count=1,
                flags=re.IGNORECASE,
            )
        said = _read_after(cleaned, previous, before, layer, lexicon)
    stepped = [p for p in said.periods if _STEPPED.search(p.text)]
    if said.periods and before.periods and _COMPARE.search(cleaned) and not stepped:
        return _compared(previous, fragment, cleaned, said, before, layer, lexicon)
    shift = period_shift(
        before.periods,
        said.periods,
        cleaned,
        lambda words: _read_after(words.strip(), previous, before, layer, lexicon).periods,
    )
    if shift is not None and not shift.why and before.periods and _COMPARE.search(cleaned):
        # "compare with the quarter after" after Q2 1996: Q2 1996 compared with Q3 1996, never
        # Q3 1996 alone (outside re-check of tryout 40, N2: the comparison was dropped), nor
        # the clock's quarter (N1: "vs the previous month" after March 2017 was July 2017)
        cleaned = cleaned[: shift.span[0]] + shift.words + cleaned[shift.span[1] :]
        said = _read_after(cleaned, previous, before, layer, lexicon)
        if said.periods:
            return _compared(previous, fragment, cleaned, said, before, layer, lexicon)
    if (shift is not None or stepped) and _COMPARE.search(cleaned):
        why = shift.why if shift is not None else ""
        return _unclear(previous, fragment, why or "it compares with a period counted from another")
    like = ""  # how a period moved by a year was moved, for ``replaced``
    if shift is not None and shift.why:
        # "what about last year?" after 1996: 1995, or the calendar's last full year? Asked
        # back, each offered as the previous question with that period
        return _asked_which(previous, fragment, shift, layer, lexicon)
    if shift is not None:  # "a year earlier" after "... in Q1 2024": Q1 2023, like for like
        cleaned = cleaned[: shift.span[0]] + shift.words + cleaned[shift.span[1] :]
        like = f" ({shift.note})" if shift.note else ""
        said = _read_after(cleaned, previous, before, layer, lexicon)
    text = previous.strip().rstrip("?.! ")
    appended = cleaned  # what is added at the end when no metric is named
    if (
        said.periods
        and not (said.metrics or said.groups or said.filters or said.ranking or said.grain)
        and not re.match(_PERIOD_LEAD, cleaned, re.IGNORECASE)
    ):
        # "what about 2023": "... in 2023", so that the next follow-up finds the period to
        # replace (outside tryout 11: "units sold by channel 2023" lost it a link later)
        appended = f"in {cleaned}"
    ranked = _RANK_ONLY.fullmatch(cleaned)
    if ranked is not None and said.ranking is None:
        # "top 5?" alone names no ranking until it is said of the previous question's rows
        word, n = ranked.group(1).lower(), ranked.group(2).lower()
        count = int(n) if n.isdigit() else _NUMBERS[n]
        down = word in _DOWN
        said = dataclasses.replace(said, ranking=Ranking(count, down))
    one = _ONE_RANKED.fullmatch(cleaned)
    if one is not None and not (said.ranking or before.ranking) and (before.groups or before.grain):
        # "which was the highest?" after "gross revenue by month in 2023": the month with the
        # highest, as the composed question reads (outside tryout 41, F16, was asked back).
        # After a question with no breakdown there is no row to pick, and after "top 3" the
        # lowest of the three or the bottom 1 is not said: both stay asked back.
        said = dataclasses.replace(said, ranking=Ranking(1, one.group(1).lower() in _DOWN))
        appended = f"the {one.group(1).lower()}"  # "which one was": words the reader does not need
    names = {m.name: m.label for m in layer.metrics}

    def labels(metrics: tuple[str, ...]) -> str:
        return " and ".join(names.get(m, m) for m in metrics)

    phrases = _metric_matches(before)
    asked_back = len(phrases) == 1 and len(phrases[0].targets) > 1
    new_metrics: tuple[str, ...] = ()
    new_text = ""  # what stands for the metric in the composed question
    if said.metrics:
        new_metrics, new_text = said.metrics, cleaned
    elif len(phrases) == 1 and (choice := _choice(phrases[0], cleaned, layer, lexicon)):
        new_text, metric = choice
        new_metrics = (metric,)
        said = Reading(question=cleaned)  # the word is all the follow-up says
    if new_metrics and len(phrases) > 1:
        return _unclear(
            previous,
            fragment,
            f"it names {labels(new_metrics)} and the previous question asked for "
            f"{labels(before.metrics)}, so which one it replaces is not said",
        )
    kept_any = bool(
        before.metrics or before.periods or before.groups or before.filters or before.grain
    )
    if new_metrics and not kept_any:
        return {
            "question": f"{new_text}?",
            "inherited": [],
            "replaced": [],
            "previous": previous,
            "not_kept": "the previous question had no metric, period, grouping or filter to keep",
            "unclear": None,
        }

    inherited: list[str] = []
    replaced: list[str] = []
    if new_metrics and phrases:
        span = phrase_span(text, phrases[0])
        if span is None:
            return _unclear(previous, fragment, "I could not find its metric's words to replace")
        text = text[: span[0]] + _MARK + text[span[1] :]
        if asked_back:
            replaced.append(f"metric {phrases[0].phrase} (asked back) -> {labels(new_metrics)}")
        elif tuple(sorted(new_metrics)) != tuple(sorted(before.metrics)):
            replaced.append(f"metric {labels(before.metrics)} -> {labels(new_metrics)}")
    elif before.metrics and asked_back:
        inherited.append(f"metric {phrases[0].phrase} (asked back: {labels(before.metrics)})")
    elif before.metrics:
        inherited.append(f"metric {labels(before.metrics)}")

    if said.periods and before.periods:
        for period in before.periods:
            text = _drop(
                text, rf"\s*\b(?:in|for|during|of|over)?\s*(?:the\s+)?{re.escape(period.text)}\b"
            )
        old = " and ".join(p.label for p in before.periods)
        new = " and ".join(p.label for p in said.periods)
        if old != new:
            replaced.append(f"period {old} -> {new}{like}")
    elif before.periods:
        inherited.append("period " + " and ".join(p.label for p in before.periods))
    elif said.periods:
        replaced.append(f"period {_NONE} -> " + " and ".join(p.label for p in said.periods))

    if said.groups and before.groups:
        text = _without_groups(text, before, layer, lexicon)
        if said.groups != before.groups:
            replaced.append(f"grouping {', '.join(before.groups)} -> {', '.join(said.groups)}")
    elif before.groups:
        inherited.append(f"grouping {', '.join(before.groups)}")
    elif said.groups:
        replaced.append(f"grouping {_NONE} -> {', '.join(said.groups)}")

    if said.grain and before.grain:
        text = _GRAIN_SAID.sub("", text, count=1)
        if said.grain != before.grain:
            replaced.append(f"grain {before.grain} -> {said.grain}")
    elif before.grain:
        inherited.append(f"grain {before.grain}")
    elif said.grain:
        replaced.append(f"grain {_NONE} -> {said.grain}")

    restated = {f.dimension for f in said.filters}
    kept_filters = [f for f in before.filters if f.dimension not in restated]
    for old_filter in before.filters:
        if old_filter.dimension not in restated:
            inherited.append(f"filter {_filter_label(old_filter)}")
            continue
        text = _drop(
            text,
            r"\s*\b(?:excluding|except(?: for)?|other than|apart from|not in|without|but not|"
            rf"in|for|from|at|of)?\s*{re.escape(old_filter.words)}\b",
        )
        new_filters = [f for f in said.filters if f.dimension == old_filter.dimension]
        replaced.append(
            f"filter {_filter_label(old_filter)} -> "
            + "; ".join(_filter_label(f) for f in new_filters)
        )

    before_dims = {f.dimension for f in before.filters}
    added = [f for f in said.filters if f.dimension not in before_dims]
    replaced += [f"filter {_NONE} -> {_filter_label(f)}" for f in added]
    if said.filters and appended == " ".join(f.words for f in said.filters):
        # "same for France": "... in 2023 for France", never "... in 2023 France" (tryout 26)
        appended = f"for {appended}"

    text, appended, swapped = _place_swapped(text, appended, before, said, layer)
    replaced += swapped

    if said.ranking and before.ranking:
        if ranked is not None:  # "top 5" after "top 3 countries by ...": said in its place
            text, done = _RANK_SAID.subn(f" {cleaned}", text, count=1)
            appended = "" if done else appended
        else:
            text = _RANK_SAID.sub("", text, count=1)
        if said.ranking != before.ranking:
            replaced.append(
                f"ranking {_ranking_label(before.ranking)} -> {_ranking_label(said.ranking)}"
            )
    elif before.ranking:
        inherited.append(f"ranking {_ranking_label(before.ranking)}")
    elif said.ranking:
        replaced.append(f"ranking {_NONE} -> {_ranking_label(said.ranking)}")

    if new_metrics and phrases:
        question = text.replace(_MARK, new_text)
    elif new_metrics:  # the previous question named no metric: its read parts follow it
        question = " ".join([new_text, *_said_again(before, said)])
    else:
        question = f"{text} {appended}"
    question = " ".join(question.split()).rstrip("?.! ") + "?"

    intended = _Parts(
        metrics=tuple(sorted(new_metrics or before.metrics)),
        periods=tuple(p.label for p in (said.periods or before.periods)),
        grain=said.grain or before.grain,
        groups=said.groups or before.groups,
        filters=_parts(Reading(question="", filters=(*kept_filters, *said.filters))).filters,
        ranking=said.ranking or before.ranking,
    )
    composed = read(question, layer, lexicon)
    if _parts(composed) != intended:
        return _misread(
            previous,
            fragment,
            question,
            composed,
            layer,
            "the previous question with your change made",
        )
    return _composed(previous, question, inherited, replaced)


def _replied(
    previous: str,
    fragment: str,
    offered: list[AskBackChoice],
    layer: SemanticLayer,
    lexicon: Lexicon,
) -> dict[str, Any]:
    """A reply to an ask-back that offered ``offered``: the question of the one choice it names
    ("yes" to a did-you-mean, "Germany", "customer regions"), everything else of the question
    kept; a reply that names no choice, or more than one, is asked back (never guessed)."""
    chosen = chosen_reply(fragment, offered, layer, lexicon)
    more = None if chosen is not None else chosen_and_more(fragment, offered, layer)
    if more is not None and not ask_back_choices(more[0].question, layer, lexicon):
        # "Germany in 2024": the choice made, then the rest as a follow-up of it
        picked, rest = more
        then = compose_follow_up(picked.question, rest, layer, lexicon)
        if then["unclear"] is not None:
            return _unclear(previous, fragment, f"with {picked.label} chosen, {then['unclear']}")
        if not re.search(rf"(?<!\w){re.escape(picked.words)}(?!\w)", then["question"], re.I):
            # the rest undid the choice ("Germany, no, France"): fail closed
            return _unclear(previous, fragment, f"the rest of it replaces {picked.label}")
        return {
            **then,
            "previous": previous,
            "replaced": [f"{picked.asked} (asked back) -> {picked.label}", *then["replaced"]],
        }
    if chosen is None:
        labels = " or ".join(f"'{c.label}'" for c in offered)
        return _unclear(
            previous,
            fragment,
            f"it names none of the choices offered ({labels}) alone, so which one is meant is "
            "not said; pick one of them",
        )
    question = " ".join(chosen.question.split()).rstrip("?.! ") + "?"
    return _composed(
        previous,
        question,
        _kept(read(question, layer, lexicon), layer),
        [f"{chosen.asked} (asked back) -> {chosen.label}"],
    )


def _widened(
    previous: str,
    fragment: str,
    words: str,
    before: Reading,
    layer: SemanticLayer,
    lexicon: Lexicon,
) -> dict[str, Any]:
    """A follow-up that lifts a filter ("for all countries" after "... in Mexico"): the
    previous question without its filter on that dimension, everything else kept (outside
    tryout 12: it was read as a value 'countries' and abstained on). A dimension the previous
    question did not filter is asked back."""
    dimensions = set(read(f"by {words}", layer, lexicon).groups)
    lifted = [f for f in before.filters if f.dimension in dimensions]
    if not lifted:
        return _unclear(
            previous, fragment, f"the previous question kept {words} to no value to lift"
        )
    text = previous.strip().rstrip("?.! ")
    for old in lifted:
        text = _drop(
            text,
            r"\s*\b(?:excluding|except(?: for)?|other than|apart from|not in|without|but not|"
            rf"only|in|for|from|at|of)?\s*{re.escape(old.words)}\b",
        )
    question = " ".join(text.split()) + "?"
    composed = read(question, layer, lexicon)
    kept = tuple(f for f in before.filters if f not in lifted)
    intended = dataclasses.replace(
        _parts(before), filters=_parts(Reading(question="", filters=kept)).filters
    )
    if _parts(composed) != intended or composed.unread:
        return _misread(
            previous,
            fragment,
            question,
            composed,
            layer,
            "the previous question without that filter",
        )
    return _composed(
        previous,
        question,
        _kept(before, layer) + [f"filter {_filter_label(f)}" for f in kept],
        [f"filter {_filter_label(f)} -> all" for f in lifted],
    )


def _kept(before: Reading, layer: SemanticLayer) -> list[str]:
    """The previous reading's metric, period and grouping, as ``inherited`` lists them, for a
    follow-up that changes none of them."""
    names = {m.name: m.label for m in layer.metrics}
    kept = []
    if before.metrics:
        kept.append("metric " + " and ".join(names.get(m, m) for m in before.metrics))
    if before.periods:
        kept.append("period " + " and ".join(p.label for p in before.periods))
    if before.groups:
        kept.append(f"grouping {', '.join(before.groups)}")
    return kept


def _misread(
    previous: str, fragment: str, question: str, composed: Reading, layer: SemanticLayer, what: str
) -> dict[str, Any]:
    """Asked back: the composition does not read as ``what`` (fail closed)."""
    return _unclear(
        previous,
        fragment,
        f"put together as '{question}' it reads as {composed.restate(layer)}, which is not {what}",
    )


def _composed(
    previous: str, question: str, inherited: list[str], replaced: list[str]
) -> dict[str, Any]:
    return {
        "question": question,
        "inherited": inherited,
        "replaced": replaced,
        "previous": previous,
        "not_kept": None,
        "unclear": None,
    }


def _as_typed(words: str, text: str) -> str:
    """``words`` (a reading's canonical, lower-case text) as ``text`` spells them."""
    found = re.search(rf"\b{re.escape(words)}\b", text, re.IGNORECASE)
    return found.group(0) if found else words


def _changes_more(said: Reading) -> bool:
    """The follow-up says more than a period: a metric, grouping, filter, ranking or grain."""
    return bool(said.metrics or said.groups or said.filters or said.ranking or said.grain)


def _compared(
    previous: str,
    fragment: str,
    cleaned: str,
    said: Reading,
    before: Reading,
    layer: SemanticLayer,
    lexicon: Lexicon,
) -> dict[str, Any]:
    """A follow-up that compares ("compare with 2022", "vs last year", "how does that compare
    to 2022?"): the previous question compared with the period it names, never the previous
    question moved to that period (outside tryout 11 was shown 2022 alone at 1.00). Anything
    else said with it, or a composition that does not read as the previous question with one
    more period, is asked back."""
    if said.metrics or said.groups or said.filters or said.ranking or said.grain:
        return _unclear(previous, fragment, "it compares and changes the question at once")
    same_part = _same_part_of(before, said, cleaned, previous)
    periods = " and ".join(same_part or [_as_typed(p.text, cleaned) for p in said.periods])
    question = f"{previous.strip().rstrip('?.! ')} compared with {periods}?"
    composed = read(question, layer, lexicon)
    old = tuple(p.label for p in before.periods)
    labels = tuple(p.label for p in composed.periods)
    if same_part and not _shifted_alike(before.periods[0], composed.periods[len(old) :]):
        labels = ()  # the year put into the period did not read as that period: asked back
    rest = dataclasses.replace(_parts(composed), periods=old)
    if (
        labels[: len(old)] != old
        or len(labels) != len(old) + len(said.periods)
        or len(set(labels)) != len(labels)
        or rest != _parts(before)
        or composed.unread
        or composed.dangling
    ):
        return _misread(
            previous,
            fragment,
            question,
            composed,
            layer,
            "the previous question compared with another period",
        )
    what = f"compared with {' and '.join(labels[len(old) :])}"
    if same_part:
        years = " and ".join(p.label for p in said.periods)
        what += f" (the same {_part_name(before.periods[0])} of {years}, like for like)"
    return _composed(previous, question, _kept(before, layer), [what])


def _same_part_of(before: Reading, said: Reading, cleaned: str, previous: str) -> list[str]:
    """ "compare with 2023" after "gross revenue in Q2 2024": Q2 2023, as "vs last year" after
    it is Q2 2023 (``relative_previous``); a quarter beside a whole year was shown without a
    note (tryout 26). The previous question's one period with each year said put in place of
    its year, where that period is part of one calendar year and every period said is a whole
    year written as a year; else ``[]`` (the periods as said)."""
    if len(before.periods) != 1 or not said.periods:
        return []
    period = before.periods[0]
    last = period.end - dt.timedelta(days=1)
    years = _YEAR.findall(period.text)
    part = period.kind in {"quarter", "month"} or _HALF.search(period.text) is not None
    if not part or period.start.year != last.year or years != [str(last.year)]:
        return []  # "since March 2024", a fiscal year: compared as said
    if any(not p.whole_year or _YEAR.fullmatch(p.text) is None for p in said.periods):
        return []
    if _RELATIVE.search(cleaned):
        return []
    typed = _as_typed(period.text, previous)
    return [_YEAR.sub(p.text, typed) for p in said.periods]


def _shifted_alike(period: Period, composed: tuple[Period, ...]) -> bool:
    """Whether each composed period is ``period``'s days in another year."""
    days = (period.start.month, period.start.day, period.end.month, period.end.day)
    return bool(composed) and all(
        (p.start.month, p.start.day, p.end.month, p.end.day) == days for p in composed
    )


def _part_name(period: Period) -> str:
    """The kind of part of a year a period is, in words ("quarter", "month", or "period")."""
    return period.kind or "period"


def on_reading_line(reading: str, follow_up: dict[str, Any] | None) -> str:
    """The reading line of a follow-up's answer, with what it kept of the previous question
    said (or that nothing was kept)."""
    if not follow_up:
        return reading
    if follow_up.get("inherited"):
        kept = "; ".join(follow_up["inherited"])
        return f"{reading} (kept from the previous question: {kept})".strip()
    if follow_up.get("not_kept"):
        return f"{reading} (asked on its own: {follow_up['not_kept']})".strip()
    return reading
