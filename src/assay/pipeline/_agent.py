"""``Agent``: a question answered from a semantic layer, stages in order.

bad input? -> refuse? (intent) -> read (the whole question) -> decide (behaviour rules) -> generate
(planner; with a model configured, K sampled SQL as agreement evidence) -> validate (guard) ->
execute (read-only) -> verify and check -> write (every number cited) -> score -> gate.

Why one module of about 1,230 lines: ``Agent`` is the one place where every stage meets, and its
methods are the stages in the order above, each failing closed into a verdict that names its
reason; ``begin`` / ``Rest.finish`` split them where a server must not wait on the engine. The
stages' own work already lives in their packages (``semantic`` reads and decides, ``generators``
plans, ``guard`` validates, ``checks`` verify, ``answer`` writes, ``scoring`` and ``gate``
decide); what stays here is their order, the provenance each verdict carries, and the
fail-closed wrapping, which split across modules would be repeated in each.
"""

from __future__ import annotations

import calendar
import copy
import dataclasses
import datetime as dt
import re
from dataclasses import dataclass, field, replace
from typing import Any

import sqlglot
from sqlglot import exp

from assay.agreement import Agreement, agreement
from assay.answer import spoken_name, write_answer, write_governed
from assay.catalog import Profiles
from assay.checks import PLAN_CHECKS, VERIFICATION_CODES, CheckContext, JudgeReport, run_checks
from assay.connectors import PooledConnector, QueryCache
from assay.errors import (
    AssayError,
    ExecutionError,
    GenerationError,
    LLMUnavailable,
    SemanticError,
)
from assay.gate import GatePolicy
from assay.gate import decide as decide_gate
from assay.generators import ModelPath, plan
from assay.guard import refusals
from assay.pipeline._guarded import run_sql
from assay.pipeline._metric_unmatched import metric_unmatched
from assay.pipeline._planner_signal import planner_signals, without_misread
from assay.pipeline._routing import routed
from assay.pipeline._sampled import (
    RESULT_ONE,
    SampledAgreement,
    SampleRun,
    explained,
    model_agreement,
)
from assay.pipeline._trusted import ExampleMatch, TrustedIndex
from assay.pipeline._verdict import BEHAVIOUR_RULES, GUARD_REFUSAL, build_verdict
from assay.scoring import Rule, RuleScore, ScoreInputs, get_rule
from assay.semantic import (
    BY_NAME,
    BehaviourDecision,
    Lexicon,
    Metric,
    OtherPlace,
    Reading,
    SemanticLayer,
    ValueLookup,
    check_against,
    distinct_count,
    distinct_entities,
    distinct_over_rows,
    entity_columns,
    join_paths,
    other_places,
    other_roles,
    read,
    said_bounds,
    spoken_dimension,
    value_lookup_sql,
    value_lookups,
    why_not_distinct,
    with_derived_names,
    with_found,
    with_numeric_columns,
)
from assay.semantic import decide as decide_behaviour
from assay.settings import Settings, load_settings
from assay.types import Candidate, Finding, Result, Verdict

__all__ = ["MAX_QUESTION_CHARS", "Agent", "Rest"]


@dataclass(frozen=True)
class Rest:
    """What ``Agent.begin`` read of a question it could not settle without the engine or the
    model; ``finish()`` runs the remaining stages (fail closed, as ``Agent.ask``)."""

    agent: Agent
    question: str
    text: str
    ident: str
    reading: Reading
    decision: BehaviourDecision
    refusal: tuple[str, ...]
    refused: bool
    # Set when no model is asked: the provenance so far and the verified query that matched.
    base: dict[str, Any] | None = None
    example: ExampleMatch | None = None
    # Place names to look up in columns whose values were not read at layer load.
    lookups: tuple[ValueLookup, ...] = ()

    def finish(self) -> Verdict:
        try:
            return self.agent._rest(self)
        except Exception as exc:  # fail closed: a bug never shows an answer
            return self.agent._failed(self.question, self.ident, exc)


@dataclass
class Agent:
    """Assay's rule-gated agent over one warehouse and its semantic layer (no model needed).

    ``ask`` runs the stages in order: refuse? (question intent), read (every word), decide
    (behaviour rules), generate (planner), validate (guard, with the semantic layer), execute
    (read-only), verify and check, write (every number cited), score, gate.
    """

    connector: PooledConnector
    layer: SemanticLayer
    settings: Settings = field(default_factory=load_settings)
    policy: GatePolicy = field(default_factory=GatePolicy)
    confidence: Any = None  # a fitted ConfidenceModel, or None for agreement_first
    model: ModelPath | None = None  # the optional model path (K sampled SQL as evidence)
    router: Any = None  # a fitted route calibrator (``assay calibrate --route``), or None

    def __post_init__(self) -> None:
        self.catalog = self.connector.catalog()
        problems = check_against(self.layer, self.catalog)
        if problems:
            raise SemanticError(
                f"Semantic layer {self.layer.name!r} does not match its database: "
                + "; ".join(problems)
                + ".",
                hint="Point --semantic at the layer written for this database, or fix the "
                "names it lists.",
                details={"problems": problems},
            )
        # the numeric columns the layer leaves unnamed ("cylinders"): a bound on them is read
        self.layer = with_numeric_columns(self.layer, self.catalog)
        self.layer = with_derived_names(self.layer, self._unique(entity_columns(self.layer)))
        self.lexicon = Lexicon(self.layer)
        self.profiles = Profiles(self.connector, self.catalog)
        self.vocabulary = status_vocabulary(self.layer)
        self.trusted = TrustedIndex(self.layer, self.lexicon)
        self._ranges: dict[str, tuple[dt.date, dt.date] | None] = {}  # time column: data dates

    def _unique(self, columns: tuple[str, ...]) -> tuple[str, ...]:
        """The name columns proved unique in their table (no NULL, no value twice), so that a
        word for the thing they name ("country" for countries.CountryName) groups by it;
        a column whose count cannot be run is not proved (its word is not derived)."""
        proved = []
        for ref in columns:
            table, column = ref.split(".", 1)
            col = exp.column(column, table)
            distinct = exp.Count(this=exp.Distinct(expressions=[col]))
            try:
                row = self._one_row(table, exp.Count(this=exp.Star()), distinct)
            except AssayError:
                continue
            if row and row[0] and row[0] == row[1]:
                proved.append(ref)
        return tuple(proved)

    def ask(self, question: str, ident: str = "question") -> Verdict:
        """The verdict for one question. Never raises for an expected failure: bad input, a
        plan that cannot be made (a join that would fan out), a query the guard refuses or the
        engine fails on all become a verdict that shows nothing, with the reason named. An
        unexpected exception is recorded as a system failure and nothing is shown."""
        started = self.begin(question, ident)
        return started if isinstance(started, Verdict) else started.finish()

    def begin(self, question: str, ident: str = "question") -> Verdict | Rest:
        """The stages that need no engine and no model (bad input, refuse?, read, decide): the
        verdict when they settle the question (asked back, abstained on, refused), else the
        rest of the stages to run, as ``Rest.finish()``. ``ask`` is ``begin`` then ``finish``;
        a server can run ``begin`` where a blocking call must not run, as it never waits on
        the engine, the model or a file. Fails closed as ``ask`` does."""
        try:
            return self._begin(question, ident)
        except Exception as exc:  # fail closed: a bug never shows an answer
            return self._failed(question, ident, exc)

    def _failed(self, question: str, ident: str, exc: Exception) -> Verdict:
        failure = {"code": "agent.internal_error", "message": f"{type(exc).__name__}: {exc}"}
        verdict = self._verdict(
            ident,
            "abstain",
            ("agent.internal_error",),
            {
                "question": question[:200],
                "message": "Assay failed while reading this question; nothing is shown.",
            },
        )
        return dataclasses.replace(verdict, failure=failure)

    def _begin(self, question: str, ident: str, counted: Reading | None = None) -> Verdict | Rest:
        text = question.strip()
        bad = bad_input(text)
        # A payload in another language ("ignora las instrucciones anteriores") is refused by
        # what it asks for, before the question is set aside as unreadable.
        found = refusals(text, vocabulary=self.vocabulary) if _readable(bad) else ()
        if bad is not None and not found:
            code, message = bad
            return self._verdict(
                ident, "abstain", (code,), {"question": text[:200], "message": message}
            )
        refusal = tuple(dict.fromkeys(r.code for r in found))
        reading = counted or read(text, self.layer, self.lexicon)
        distinct = None
        if not found and counted is None:
            # "how many distinct products were sold": over the sales, before the names
            distinct = distinct_over_rows(reading, self.layer, read)
        if distinct is None and not found:
            distinct = distinct_count(reading, self.layer)
        if distinct is None and not found and counted is None:
            # "how many distinct customers ordered in 1995": the entity's keys counted
            # distinctly over the rows the verb names (``semantic._distinct_entity``)
            distinct = distinct_entities(reading, self.layer, read)
        if distinct is not None:
            # "how many different types of pet": the count of one dimension's values, a
            # metric made for this question only; read, planned and checked on a copy of the
            # agent whose layer holds it
            reading, layer = distinct
            one = copy.copy(self)
            one.layer = layer
            return one._begin(question, ident, reading)
        decision = decide_behaviour(reading, self.layer, refusal)
        if decision.behaviour == "answer":
            decision = self._names_once(reading) or decision
        why = why_not_distinct(reading, self.layer)
        if decision.code == "behaviour.concept_missing" and why:
            decision = replace(decision, message=why)
        if found:  # name the payload: what was asked for, in the user's words
            decision = replace(
                decision,
                message=f"I can't do that. {found[0].message} Assay only reads data: it never "
                "changes it, sends it anywhere, reveals secrets, or follows instructions "
                "embedded in a question.",
            )
        if decision.code == "behaviour.concept_missing" and self.model is not None:
            # The model is asked which metric is meant: a blocking call, left to ``finish``.
            return Rest(self, question, text, ident, reading, decision, refusal, bool(found))
        base = self._base(text, reading, decision, [])
        lookups: tuple[ValueLookup, ...] = ()
        if decision.code == "behaviour.value_not_in_domain" and not found:
            lookups = value_lookups(reading.value_like, self.layer)
        if lookups:  # the data is asked for the value: a blocking call, left to ``finish``
            return Rest(
                self, question, text, ident, reading, decision, refusal, False, base, None, lookups
            )
        # no trusted example holds a metric made for one question
        example = None if found or counted is not None else self.trusted.match(text, reading)
        if example is None and decision.behaviour != "answer":
            return self._verdict(ident, decision.behaviour, (decision.code,), base)
        return Rest(
            self, question, text, ident, reading, decision, refusal, bool(found), base, example
        )

    def _names_once(self, reading: Reading) -> BehaviourDecision | None:
        """Asked back when a table said by its word was grouped by a name that is not one per
        row ("orders by customer" by ``customer.c_name``: two customers of one name would be
        one group), or when that could not be checked; ``None`` when each name is one row's."""
        for note in reading.notes:
            if not note.startswith(BY_NAME):
                continue
            dimension = self.layer.dimension(note.removeprefix(BY_NAME))
            table, column = dimension.column.split(".", 1)
            col = exp.column(column, table)
            repeats = exp.Sub(
                this=exp.Count(this=exp.Star()),
                expression=exp.Count(this=exp.Distinct(expressions=[col])),
            )
            try:
                row = self._one_row(table, repeats)
            except (AssayError, IndexError) as exc:
                why = f"checking that failed ({getattr(exc, 'code', 'no row')})"
            else:
                if row[0] == 0:
                    continue
                why = f"{row[0]} of the {table} rows share a name with another or have none"
            said = spoken_dimension(dimension.name, self.layer)
            return BehaviourDecision(
                "clarify",
                "behaviour.name_repeats",
                f"'{table}' was read as its {said}, one group per name, but {why}, so "
                f"different {table} rows of one name would be counted together. Ask by another "
                f"column of {table} that tells them apart.",
            )
        return None

    def _base(
        self,
        text: str,
        reading: Reading,
        decision: BehaviourDecision,
        model_notes: list[dict[str, Any]],
    ) -> dict[str, Any]:
        """The provenance every verdict on a question starts from."""
        return {
            "semantic": self.layer.name,
            "question": text,
            "message": decision.message,
            # a refused question is not read into a measure: no "I read this as: no measure
            # the warehouse defines" above "I can't do that"
            "reading": "" if decision.behaviour == "refuse" else reading.restate(self.layer),
            "read": reading_record(reading),
            "readings": [{"metric": m, "tokens": list(w)} for m, w in decision.readings],
            "model": model_notes,
        }

    def _rest(self, rest: Rest) -> Verdict:
        """The stages after ``begin``: the model's reading (when asked), a verified query, the
        period against the data's own dates, then the answer (each may wait on the engine or
        the model)."""
        text, ident, reading, decision = rest.text, rest.ident, rest.reading, rest.decision
        base, example = rest.base, rest.example
        if rest.lookups:
            reading, decision = self._looked_up(text, reading, decision, rest.lookups)
            base = self._base(text, reading, decision, [])
        if base is None:
            model_notes: list[dict[str, Any]] = []
            reading, decision = self._model_metric(text, reading, rest.refusal, model_notes)
            base = self._base(text, reading, decision, model_notes)
            example = None if rest.refused else self.trusted.match(text, reading)
        if example is not None:
            return self._answer_trusted(text, ident, example, base, reading)
        if decision.behaviour != "answer":
            return self._verdict(ident, decision.behaviour, (decision.code,), base)
        whose = self._whose_place(reading)
        if whose:
            base["message"] = whose
            return self._verdict(ident, "clarify", ("behaviour.place_of_another",), base)
        roles = self._other_roles(reading)
        if roles:
            base["message"] = roles
            return self._verdict(ident, "abstain", ("behaviour.other_role",), base)
        paths = self._join_paths(reading)
        if paths:
            base["message"] = paths
            return self._verdict(ident, "abstain", ("behaviour.join_paths",), base)
        outside = self._outside_own_data(reading)
        if outside is not None:
            base["message"] = outside
            return self._verdict(ident, "abstain", ("behaviour.period_outside_data",), base)
        try:
            return self._answer(text, ident, reading, base)
        except GenerationError as exc:
            base["message"] = f"I cannot answer this safely: {exc.message}"
            return self._verdict(ident, "abstain", (exc.code,), base)
        except AssayError as exc:  # the guard or the engine: fail closed, say why
            finding = Finding(exc.code, "veto", exc.message)
            base["message"] = exc.message
            bounds = bound_words(reading, self.layer)
            if exc.code == "execution.error" and bounds:
                # the engine's words alone do not say which part of the question failed
                base["message"] = (
                    f"The database could not apply the bound read from the question ({bounds}); "
                    f"is that column a number? The engine said: {exc.message}"
                )
            return self._verdict(ident, "answer", (exc.code,), base, findings=(finding,))

    def _looked_up(
        self,
        text: str,
        reading: Reading,
        decision: BehaviourDecision,
        lookups: tuple[ValueLookup, ...],
    ) -> tuple[Reading, BehaviourDecision]:
        """The question re-read with each place name the data was found to hold as a value
        of its column (``semantic._lookup``); asked back when a lookup could not run or found
        two spellings, abstained on as before when the column holds none."""
        found = []
        for lookup in lookups:
            sql = value_lookup_sql(lookup, self.connector.dialect)
            try:
                rows = self.connector.execute(
                    sql, time_limit_ms=self.settings.time_limit_ms, max_rows=3
                ).rows
            except AssayError as exc:
                return reading, BehaviourDecision(
                    "clarify",
                    "behaviour.value_unchecked",
                    f"'{lookup.word}' may be a value of {lookup.dimension}, whose values the "
                    f"layer does not list, and checking the data failed ({exc.code}); name "
                    "the value as the data writes it.",
                )
            values = sorted({str(row[0]) for row in rows if row[0] is not None})
            if not values:
                return reading, decision  # the column does not hold it: as decided
            if len(values) > 1:
                return reading, BehaviourDecision(
                    "clarify",
                    "behaviour.value_ambiguous",
                    f"'{lookup.word}' matches {len(values)} values of {lookup.dimension} "
                    f"({', '.join(values)}); which one do you mean?",
                )
            found.append((lookup, values[0]))
        lexicon = with_found(self.lexicon, found)
        again = read(text, self.layer, lexicon)
        return again, decide_behaviour(again, self.layer)

    def _whose_place(self, reading: Reading) -> str:
        """The question asked back when its place may be another entity's than the one the
        layer reads it on ("store sales in GA": the customer's address or the store's state,
        ``semantic._whose_place``), each reading named with what the data holds; ``""`` when
        none. The data's values say whether the other reading would find anything at all."""
        try:
            places = other_places(reading, self.layer, self.connector.catalog())
        except AssayError:
            return ""  # no catalog to read: the layer's reading stands, its checks as before
        if not places:
            return ""
        return " ".join(self._other_place_words(place) for place in places)

    def _other_roles(self, reading: Reading) -> str:
        """Why a value read as another entity's role of its table is not applied to the
        metric's rows ("suppliers count in Germany" on a layer that maps only the customers'
        nation, ``semantic._other_role``); ``""`` when none."""
        try:
            roles = other_roles(reading, self.layer, self.connector.catalog())
        except AssayError:
            return ""  # no catalog to read: the planner's own refusal stands
        return " ".join(r.said(self.layer.metric(r.metric).label) for r in roles)

    def _join_paths(self, reading: Reading) -> str:
        """Why a dimension the metric's rows reach by two join paths is not applied ("line
        items by nation name": the supplier's or the customer's nation, ``semantic._join_paths``);
        ``""`` when each dimension is reached one way."""
        words = []
        for found in join_paths(reading, self.layer):
            said = spoken_dimension(found.dimension, self.layer)
            label = self.layer.metric(found.metric).label
            start = self.layer.metric(found.metric).table
            ways = found.ways()
            owners = _owners(found.paths, start)
            by = f" by {said}" if found.dimension in reading.groups else ""
            whose = ""
            if len(set(owners)) == len(owners):
                whose = f" (the {found.table} of the {' or of the '.join(owners)}?)"
            words.append(
                f"The {said} is {found.table}'s, and each {start} row reaches {found.table} "
                f"{len(ways)} ways: {', or '.join(ways)}{whose}. The layer cannot keep "
                f"{label} to one of them, so this is not answered rather than one chosen "
                f"silently. Ask about the {' or the '.join(dict.fromkeys(owners))} rows"
                f"{by}, or give the layer a dimension of its own for each way."
            )
        return " ".join(words)

    def _other_place_words(self, place: OtherPlace) -> str:
        """Both readings of one place, the other with whether the data holds the value."""
        reached = any(d.column == place.other for d in self.layer.dimensions)
        reach = "" if reached else ", which the layer does not reach"
        add = "" if reached else f", or add {place.other} and its join to the layer"
        mine = re.split(r"[^a-z0-9]+", place.column.lower())[0].removesuffix("s")
        if place.grouped:
            word = re.split(r"[^a-z0-9]+", place.column.lower())[-1]
            return (
                f"'{place.value}' names {place.other}{reach} ({self._listed(place)}), but the "
                f"layer's {word} is {place.column}, another table's. Which do you mean? Say "
                f'"by {mine} {word}" for the layer\'s reading{add}.'
            )
        return (
            f"'{place.value}' can mean {place.column} (the layer's reading) or {place.other}"
            f"{reach} ({self._held(place)}). Which do you mean? Say whose it is "
            f'("{mine}s in {place.value}"){add}.'
        )

    def _listed(self, place: OtherPlace) -> str:
        """A few of the other place's values, said so the user sees what grouping by it gives."""
        table, column = place.other.rsplit(".", 1)
        col = exp.column(column, table)
        sample = exp.select(col).distinct().from_(table).order_by(col.copy()).limit(6)
        try:
            rows = self.connector.execute(
                sample.sql(dialect=self.connector.dialect),
                time_limit_ms=self.settings.time_limit_ms,
                max_rows=6,
            ).rows
        except AssayError:
            return "its values could not be read"
        values = [str(r[0]) for r in rows if r[0] is not None]
        if len(values) == 1:
            return f"it holds one value, {values[0]}"
        more = ", ..." if len(values) > 5 else ""
        return f"it holds {', '.join(values[:5]) or 'nulls only'}{more}"

    def _held(self, place: OtherPlace) -> str:
        """Whether the other place's column holds the value, and a few of its values if not
        (read that way, nothing matches: the user learns what the other reading would give)."""
        table, column = place.other.rsplit(".", 1)
        col = exp.column(column, table)
        found = exp.select(col).from_(table).where(col.copy().eq(exp.Literal.string(place.value)))
        sample = exp.select(col.copy()).distinct().from_(table).order_by(col.copy()).limit(6)
        try:
            runs = [
                self.connector.execute(
                    q.sql(dialect=self.connector.dialect),
                    time_limit_ms=self.settings.time_limit_ms,
                    max_rows=6,
                ).rows
                for q in (found.limit(1), sample)
            ]
        except AssayError:
            return "its values could not be read"
        if runs[0]:
            return f"it holds {place.value}"
        values = [str(r[0]) for r in runs[1] if r[0] is not None]
        more = ", ..." if len(values) > 5 else ""
        listed = ", ".join(values[:5]) or "nulls"
        return f"it holds no {place.value}, only {listed}{more}: read that way nothing matches"

    def _outside_own_data(self, reading: Reading) -> str | None:
        """A period wholly outside the dates a metric's own time column holds (the layer's
        coverage may come from another table): abstained on, never answered with a confident
        0 (found by an outside tryout on an imported TPC-H layer). Best effort: a range that
        cannot be read leaves the layer's coverage as the only bound."""
        for name in reading.metrics:
            metric = self.layer.metric(name)
            if not metric.time_column or not reading.periods:
                continue
            span = self._data_range(metric.time_column)
            if span is None:
                continue
            low, high = span
            for period in reading.periods:
                if period.end <= low or period.start > high:
                    return (
                        f"{metric.label} has data from {low} to {high} (its "
                        f"{metric.time_column}); {period.label} is outside it, so there is "
                        "nothing to answer from."
                    )
        return None

    def _data_range(self, time_column: str) -> tuple[dt.date, dt.date] | None:
        ranges = self._ranges
        if time_column not in ranges:
            table, column = time_column.split(".", 1)
            col = exp.column(column, table)
            try:
                low, high = self._one_row(table, exp.Min(this=col.copy()), exp.Max(this=col.copy()))
                ranges[time_column] = (_day(low), _day(high)) if low and high else None
            except (AssayError, TypeError, ValueError):
                ranges[time_column] = None
        return ranges[time_column]

    def _one_row(self, table: str, *aggregates: exp.Expression) -> tuple[Any, ...]:
        """One row of aggregates over a whole table (all None when the engine gives none)."""
        sql = exp.select(*aggregates).from_(table).sql(dialect=self.connector.dialect)
        rows = self.connector.execute(sql, time_limit_ms=self.settings.time_limit_ms, max_rows=1)
        return tuple(rows.rows[0]) if rows.rows else (None,) * len(aggregates)

    def _verdict(
        self,
        ident: str,
        behaviour: str,
        reasons: tuple[str, ...],
        base: dict[str, Any],
        findings: tuple[Finding, ...] = (),
    ) -> Verdict:
        """A verdict that shows nothing (an abstention, a question back, a refusal, or a
        withheld answer)."""
        return build_verdict(
            ident=ident,
            behaviour=behaviour,
            rule=GUARD_REFUSAL if behaviour == "answer" else BEHAVIOUR_RULES,
            policy=self.policy,
            score=0.0 if behaviour == "answer" else None,
            findings=findings,
            reasons=reasons,
            provenance=base,
        )

    def _answer(self, text: str, ident: str, reading: Reading, base: dict[str, Any]) -> Verdict:
        planned = plan(reading, self.layer, self.connector.dialect)
        run = run_sql(
            planned.sql, self.connector, self.settings, semantic=self.layer, catalog=self.catalog
        )
        metric = planned.metric
        period = reading.period.label if reading.period else ""
        filters = "; ".join(
            f"{f.dimension} {'not ' if f.negated else ''}in {', '.join(f.values)}"
            for f in reading.filters
        )
        definition = (
            f"{metric.label} = {metric.expression}"
            + (f" over {metric.time_column}" if metric.time_column else "")
            + (
                f", where {' and '.join(metric.required_filters)}"
                if metric.required_filters
                else ""
            )
            + (f"; filtered to {filters}" if filters else "")
        )
        base.update(
            metric=metric.name,
            definition=definition,
            period=period,
            group_by=planned.group_by,
            grain=planned.grain,
        )
        context = CheckContext(
            text,
            Candidate(planned.sql),
            self.connector.dialect,
            self.catalog,
            self.profiles,
            f"{period} {definition}",
            reading=reading,
            layer=self.layer,
            metric=metric,
            period=reading.period,
            coverage=self.layer.coverage,
            # The metric the question named is governed: its aggregate is what was asked.
            definitions=tuple(self.layer.metric(m).expression for m in reading.metrics),
            periods=reading.periods,
            difference=_ranks_a_change(reading),
        )
        if run.result is None:
            # Nothing ran: the plan's fit to the reading is all that can be checked.
            planned_only = run_checks(context, PLAN_CHECKS)
            base.update(fit=planned_only.details.get("fit"))
            findings = (
                *planned_only.findings,
                *(Finding(v.code, "veto", v.message) for v in run.report.violations),
            )
            return build_verdict(
                ident=ident,
                behaviour="answer",
                rule=GUARD_REFUSAL,
                policy=self.policy,
                score=0.0,
                findings=findings,
                reasons=tuple(f.code for f in findings),
                candidate=Candidate(planned.sql),
                provenance=base,
            )
        groups = [spoken_dimension(g, self.layer) for g in reading.groups]
        grouped = [*([planned.grain] if planned.grain else []), *groups]
        held = reading.condition
        counted = held is not None and held.counted
        written = write_governed(
            run.result,
            label=condition_label(reading, self.layer) if counted else spoken_name(metric.label),
            labels=(
                ()
                if counted
                else tuple(spoken_name(self.layer.metric(m).label) for m in reading.metrics)
            ),
            period=period,
            group=" and ".join(grouped) or (_compared_grain(reading) if reading.compare else None),
            definition=definition,
            top_n=reading.top_n,
            grain=planned.grain,
            where=", ".join(
                w for w in (filter_words(reading), bound_words(reading, self.layer)) if w
            ),
            descending=reading.descending,
            partial=partial_words(reading, self.layer),
            heading=(
                change_words(reading, spoken_name(metric.label)) if _ranks_a_change(reading) else ""
            ),
            window=(
                (reading.periods[0].start, reading.periods[0].end)
                if len(reading.periods) == 1 and planned.grain
                else None
            ),
            # the planner ranks compared periods apart (RANK() OVER PARTITION BY the period)
            ranked_apart=(
                bool(reading.top_n) and len(reading.periods) > 1 and not _ranks_a_change(reading)
            ),
            periods=(
                {p.start: p.label for p in reading.periods} if len(reading.periods) > 1 else None
            ),
            row_cap=self.settings.max_rows,
        )
        candidate = Candidate(run.report.sql, (run.report.sql or "",), written.text, run.result)
        # One registry over the executed answer: the fit to the reading (COMPLETE, measured
        # without a model, enters the score where the paper's judge COMPLETE does), the layer's
        # checks and every check a sampled answer gets.
        checked = run_checks(replace(context, candidate=candidate))
        base.update(fit=checked.details.get("fit"))
        all_findings = tuple({(f.code, f.message): f for f in checked.findings}.values())
        measures = dict(checked.measures)
        features = {
            "join_count": planned.join_count,
            "sql_length": len(planned.sql),
            "repair_attempts": 0,
            "verification_issues": sum(f.code in VERIFICATION_CODES for f in checked.findings),
        }
        if any(n.startswith("model-resolved") for n in reading.notes):
            all_findings += (
                Finding(
                    "cap.model_resolved_metric",
                    "cap",
                    f"The lexicon found no metric; the model read the question "
                    f"as {metric.label}, which the rules then checked.",
                    {"metric": metric.name},
                ),
            )
        # a check disagreeing with the one planned SQL decides (a warning at most), never
        # "also found" under a shown answer
        all_findings = without_misread(all_findings, reading)
        all_findings += planner_signals(all_findings, reading)
        # a metric reading across a join some of its rows do not match: warned, N named
        asked = tuple(self.layer.metric(m) for m in reading.metrics) or (metric,)
        all_findings += metric_unmatched(asked, self.layer, all_findings)
        sampled = self._agreement(text, reading, metric, run.result)
        if sampled.record:
            base["model"] = [*base.get("model", []), sampled.record]
        all_findings += sampled.findings
        agreed = sampled.agreed
        scored, rule = self._score(all_findings, measures, features, agreed)
        decision = decide_gate(self.policy, scored)
        base.update(citations=[c.__dict__ for c in written.citations], features=features)
        verdict = build_verdict(
            ident=ident,
            behaviour="answer",
            rule=rule,
            policy=self.policy,
            action=decision.action,
            score=scored.score,
            findings=all_findings,
            reasons=explained(decision.reasons, all_findings),
            candidate=candidate,
            agreement=agreed.to_dict() if self.model is not None else {},
            provenance=base,
        )
        return routed(verdict, planned, reading, self.layer, self.connector.dialect, self.router)

    def _answer_trusted(
        self,
        text: str,
        ident: str,
        match: ExampleMatch,
        base: dict[str, Any],
        reading: Reading | None = None,
    ) -> Verdict:
        """The answer from a trusted example's SQL: guarded, executed, checked and scored as
        any answer, with a note naming the verified query it came from, and the partial last
        period said as the planner says it (``_trusted_partial``)."""
        example = match.example
        base.update(
            message="",
            reading=f"the verified query {example.name or example.question!r} ({match.how} match)",
            verified_query=match.record(),
            definition=f"the verified query {example.name or example.question!r}",
        )
        note = Finding(
            "note.verified_query",
            "note",
            f"Answered from the verified query {example.name or example.question!r} "
            f"({match.how} match{', ' + example.source if example.source else ''}).",
            match.record(),
        )
        try:
            run = run_sql(
                example.sql,
                self.connector,
                self.settings,
                semantic=self.layer,
                catalog=self.catalog,
            )
        except AssayError as exc:  # the engine failed: fail closed, say why
            finding = Finding(exc.code, "veto", exc.message)
            base["message"] = exc.message
            return self._verdict(ident, "answer", (exc.code,), base, findings=(note, finding))
        if run.result is None:
            vetoes = tuple(Finding(v.code, "veto", v.message) for v in run.report.violations)
            verdict = self._verdict(
                ident, "answer", tuple(f.code for f in vetoes), base, findings=(note, *vetoes)
            )
            return replace(verdict, candidate=Candidate(example.sql))
        sql = run.report.sql or example.sql
        written = write_answer(run.result, as_quantities=True)
        dialect = self.connector.dialect
        partial = _trusted_partial(reading or Reading(text), sql, self.layer, dialect)
        if partial:
            written = f"{written} (the data runs {partial})"
        candidate = Candidate(sql, (sql,), written, run.result)
        checked = run_checks(
            CheckContext(
                text,
                candidate,
                self.connector.dialect,
                self.catalog,
                self.profiles,
                example.question,
                judge=JudgeReport(complete=1.0, source="verified_query"),
            )
        )
        findings = (note, *checked.findings)
        features = {
            "join_count": sum(1 for _ in sqlglot_joins(sql, self.connector.dialect)),
            "sql_length": len(sql),
            "repair_attempts": 0,
            "verification_issues": 0,
        }
        scored, rule = self._score(
            findings, dict(checked.measures), features, agreement([RESULT_ONE])
        )
        decision = decide_gate(self.policy, scored)
        base.update(features=features)
        return build_verdict(
            ident=ident,
            behaviour="answer",
            rule=rule,
            policy=self.policy,
            action=decision.action,
            score=scored.score,
            findings=findings,
            reasons=decision.reasons,
            candidate=candidate,
            provenance=base,
        )

    def _model_metric(
        self,
        text: str,
        resolution: Reading,
        refusal: tuple[str, ...],
        notes: list[dict[str, Any]],
    ) -> tuple[Reading, BehaviourDecision]:
        """Ask the model which defined metric the question means; the rules then decide on
        the re-validated reading. A failure leaves the rules' abstention, recorded."""
        assert self.model is not None
        try:
            name, usage = self.model.choose_metric(text, self.layer)
        except LLMUnavailable as exc:
            notes.append({"step": "choose_metric", "failure": str(exc)})
            return resolution, decide_behaviour(resolution, self.layer, refusal)
        notes.append({"step": "choose_metric", "metric": name, "usage": usage})
        if name is None:
            return resolution, decide_behaviour(resolution, self.layer, refusal)
        # The model read the words the lexicon could not as this metric: they are accounted
        # for by that reading (the answer is capped for it), not dropped.
        chosen = replace(
            resolution,
            metrics=(name,),
            unread=(),
            value_like=(),
            suggestions=(),
            notes=(
                *resolution.notes,
                f"model-resolved metric: {name} "
                f"(from {', '.join(resolution.unread) or 'the question'})",
            ),
        )
        return chosen, decide_behaviour(chosen, self.layer, refusal)

    def _agreement(
        self, text: str, resolution: Reading, metric: Metric, shown: Result
    ) -> SampledAgreement:
        """A over the governed answer and the model's K sampled SQL (see ``model_agreement``);
        A = 1 over the answer alone when no model is configured."""
        if self.model is None:
            return SampledAgreement(agreement([RESULT_ONE]))
        cache = QueryCache(self.connector)
        return model_agreement(
            self.model,
            text,
            resolution,
            metric,
            shown,
            lambda sql: self._run_sample(sql, cache),
            catalog=self.catalog,
            dialect=self.connector.dialect,
            matching=self.settings.matching,
        )

    def _run_sample(self, sql: str, cache: QueryCache) -> SampleRun:
        try:
            run = run_sql(sql, cache, self.settings, semantic=self.layer, catalog=self.catalog)
        except ExecutionError as exc:
            return SampleRun(None, f"failed in the engine ({exc.code})")
        if run.result is None:
            codes = ", ".join(dict.fromkeys(v.code for v in run.report.violations))
            return SampleRun(None, f"refused by the guard ({codes or 'guard.refused'})")
        return SampleRun(run.result)

    def _score(
        self,
        findings: tuple[Finding, ...],
        measures: dict[str, float | None],
        features: dict[str, int],
        agreed: Agreement,
    ) -> tuple[RuleScore, Rule]:
        rule = get_rule("agreement_first")
        if self.confidence is not None and self.model is None:
            probability = self.confidence.predict(features)
            rule = Rule("fitted", self.confidence.version, "logistic confidence", rule.func)
            base = rule(ScoreInputs(findings, measures, agreed))
            return RuleScore(min(probability, base.score), probability, base.capped_by), rule
        return rule(ScoreInputs(findings, measures, agreed)), rule


def sqlglot_joins(sql: str, dialect: str) -> list[Any]:
    """The joins of ``sql`` (none when it does not parse; the guard has read it already)."""
    try:
        return list(sqlglot.parse_one(sql, read=dialect).find_all(exp.Join))
    except Exception:  # a feature only: never a reason to fail
        return []


def status_vocabulary(layer: SemanticLayer) -> tuple[str, ...]:
    """Words the layer records as values (dimension values, literals in metric filters), so
    that "void orders" or "cancelled orders" reads as a description, not a request.

    Example:
        >>> status_vocabulary(SemanticLayer())
        ()
    """
    words: set[str] = set()
    for dim in layer.dimensions:
        words.update(v.lower() for v in dim.values)
    for metric in layer.metrics:
        for text in metric.required_filters:
            words.update(w.lower() for w in re.findall(r"'([^']*)'", text))
    return tuple(sorted(w for w in words if w))


MAX_QUESTION_CHARS = 2_000
# Words common in other languages' questions and absent from English ones.
_FOREIGN = frozenset(
    "le la les des du une est était quel quelle combien wie viel welche das der die und ist war"
    " el los las cuál cuanto cuánto fue qual quanto foi het een hoeveel wat dat jaar".split()
)


def _readable(bad: tuple[str, str] | None) -> bool:
    """Whether a question's text can be read for intent: any but empty, overlong or binary."""
    return bad is None or bad[0] == "input.other_language"


def bad_input(text: str) -> tuple[str, str] | None:
    """A code and a plain message when a question cannot be read at all, else ``None``."""
    if not text:
        return "input.empty", "The question is empty; ask one question in words."
    if len(text) > MAX_QUESTION_CHARS:
        return (
            "input.too_long",
            f"The question is {len(text):,} characters long; ask one question of at most "
            f"{MAX_QUESTION_CHARS:,} characters.",
        )
    if any((ord(c) < 32 and c not in "\t\n\r") or c == "\ufffd" for c in text):
        return "input.binary", "The question holds control or binary characters; type it as text."
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return (
            "input.no_words",
            "The question has no words, only numbers or punctuation; ask it in words.",
        )
    words = [w.lower() for w in text.replace("?", " ").split()]
    foreign = sum(w in _FOREIGN for w in words)
    non_ascii = sum(not c.isascii() for c in letters)
    if non_ascii > len(letters) / 3 or (foreign >= 2 and foreign >= len(words) / 4):
        return (
            "input.other_language",
            "I read questions in English only; ask it in English with the warehouse's terms.",
        )
    return None


def filter_words(reading: Reading) -> str:
    """Every filter of a reading as the answer sentence states it.

    Example:
        >>> from assay.semantic import Filter
        >>> filter_words(Reading("q", filters=(Filter("country", ("DE", "FR")),
        ...     Filter("category", ("books",), negated=True))))
        'for country DE or FR, excluding category books'
    """
    said = []
    for f in reading.filters:
        values = (" and " if f.negated else " or ").join(f.values)
        said.append(f"{'excluding' if f.negated else 'for'} {spoken_name(f.dimension)} {values}")
    return ", ".join(said)


def condition_label(reading: Reading, layer: SemanticLayer) -> str:
    """What a count of groups kept by a condition counts: "number of customers whose number
    of orders is above 3"."""
    held = reading.condition
    assert held is not None
    group = spoken_name(held.group)
    what = group if held.entity else f"{group} values"
    return f"number of {what} {held.said(spoken_name(layer.metric(held.metric).label))}"


def bound_words(reading: Reading, layer: SemanticLayer) -> str:
    """The numeric bounds of a reading as the answer sentence states them: on a column
    ("where stadium Capacity is above 5000") and, on groups listed, the condition that kept
    them ("(only the country values whose number of orders is above 1000)")."""
    said = list(
        said_bounds([replace(c, dimension=spoken_name(c.dimension)) for c in reading.comparisons])
    )
    held = reading.condition
    if held is not None and not held.counted:
        label = spoken_name(layer.metric(held.metric).label)
        said.append(f"(only the {spoken_name(held.group)} values {held.said(label)})")
    return ", ".join(said)


_GRAIN_MONTHS = {"month": 1, "quarter": 3, "year": 12}
_SQL_GRAINS = {"month": "month", "quarter": "quarter", "year": "year"}


def _trusted_partial(reading: Reading, sql: str, layer: SemanticLayer, dialect: str) -> str:
    """What ``partial_words`` says of a verified query's answer: the periods the question
    names, at the grain the verified SQL buckets dates by (``DATE_TRUNC('month', ...)``) where
    the question names none ("the trend of sales ... between June 2025 and August 2025" over
    data that ends on 2025-08-14: the last month is not over). Outside tryout 40 (F-3) saw the
    verified query's halved last month shown plainly where the planner says so.

    Example:
        >>> import datetime as dt
        >>> layer = SemanticLayer(clock=dt.date(2025, 8, 14))
        >>> sql = "SELECT DATE_TRUNC('month', d) AS m, SUM(x) FROM t GROUP BY 1"
        >>> _trusted_partial(Reading("sales trend"), sql, layer, "duckdb")
        'to 2025-08-14, the last month is not over: August 2025 holds data to the 14th only'
    """
    grain = reading.grain
    if grain is None:
        try:
            tree = sqlglot.parse_one(sql, read=dialect)
        except sqlglot.errors.ParseError:
            tree = None
        units = set()
        for trunc in tree.find_all(exp.DateTrunc, exp.TimestampTrunc) if tree else ():
            unit = trunc.args.get("unit")
            units.add(_SQL_GRAINS.get(unit.name.lower() if unit is not None else ""))
        if len(units) == 1:
            grain = units.pop()
    if grain is None and not reading.periods:
        return ""
    try:
        said = partial_words(replace(reading, grain=grain), layer)
    except (KeyError, ValueError):  # a metric the layer does not define: no coverage to say
        return ""
    held = _last_bucket_held(reading, grain, layer) if said else ""
    return f"{said}: {held}" if held else said


def _last_bucket_held(reading: Reading, grain: str | None, layer: SemanticLayer) -> str:
    """How much of the last month (quarter, year) a verified query's rows hold, where the
    data ends inside it: "August 2025 holds data to the 14th only" (outside re-check of
    tryout 40, F-3: "June 2025 to August 2025 is not over" did not say that the August figure
    is 14 days').

    Example:
        >>> import datetime as dt
        >>> layer = SemanticLayer(clock=dt.date(2025, 8, 14))
        >>> _last_bucket_held(Reading("sales trend"), "month", layer)
        'August 2025 holds data to the 14th only'
    """
    months = _GRAIN_MONTHS.get(grain or "")
    last = layer.coverage[1] if layer.coverage is not None else layer.clock
    if months is None or last is None:
        return ""
    start = dt.date(last.year, (last.month - 1) // months * months + 1, 1)
    after = last + dt.timedelta(days=1)
    if after.day == 1 and (after.month - 1) % months == 0:
        return ""  # the data ends with the bucket: it is whole
    if reading.periods and not any(
        p.start <= last < p.end - dt.timedelta(days=1) for p in reading.periods
    ):
        return ""  # no period asked runs past the data's end
    label = {
        1: f"{calendar.month_name[start.month]} {start.year}",
        3: f"Q{(start.month - 1) // 3 + 1} {start.year}",
    }.get(months, str(start.year))
    day = last.day
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    held = f"to the {day}{suffix}" if months == 1 else f"to {last}"
    return f"{label} holds data {held} only"


def _ranks_a_change(reading: Reading) -> bool:
    """Whether the planner answers with the change between two periods, ranked (its last
    column is a difference, which may be negative)."""
    return bool(reading.change and reading.ranking and reading.groups and len(reading.periods) == 2)


def change_words(reading: Reading, label: str) -> str:
    """The head of a ranked change: "The 1 city with the largest fall in number of visits
    from 2023 to 2024, for ..."."""
    first, last = sorted(reading.periods, key=lambda p: p.start)
    most = "fall" if reading.change == "down" else "rise"
    n = reading.ranking.n if reading.ranking and reading.ranking.n else "all"
    where = filter_words(reading)
    groups = " and ".join(map(spoken_name, reading.groups))
    return (
        f"The {n} {groups} with the largest {most} in {label}"
        f"{' ' + where if where else ''} from {first.label} to {last.label}"
    )


def _compared_grain(reading: Reading) -> str:
    """What compared periods are grouped by: their one kind (two quarters: ``quarter``), or
    ``period`` when they differ (the planner labels each)."""
    kinds = {p.kind for p in reading.periods}
    kind = kinds.pop() if len(kinds) == 1 else None
    return kind or ("year" if not reading.periods else "period")


def _day(value: Any) -> dt.date:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(str(value)[:10])


def partial_words(reading: Reading, layer: SemanticLayer) -> str:
    """ "to 2024-11-15" when a period asked for runs past the last day the warehouse covers
    (its coverage end, else its clock): that period is partial, never written as whole. With
    a month, quarter or year grain and no single period, a first or last bucket the coverage
    or the compared periods cut is named too ("the first year from 2022-11-09").

    Example:
        >>> import datetime as dt
        >>> from assay.semantic import Period
        >>> year = Period(dt.date(2024, 1, 1), dt.date(2025, 1, 1), "2024", "2024")
        >>> partial_words(Reading("q", periods=(year,)), SemanticLayer(clock=dt.date(2024, 11, 15)))
        'to 2024-11-15, 2024 is not over'
    """
    last = layer.coverage[1] if layer.coverage is not None else layer.clock
    first = layer.coverage[0] if layer.coverage is not None else None
    own = layer.metric(reading.metrics[0]).coverage if reading.metrics else None
    # The asked metric's own rows, where they cover less: "orders by year" on TPC-H said "to
    # 1998-12-25 (the line items' last day), the last year is not over" of orders that stop on
    # 1998-08-02 (outside tryout 39, F1b): its own last day, and said as where its data ends
    ended = own is not None and last is not None and own[1] < last
    if own is not None:
        first, last = own
    if last is None:
        return ""
    said = _partial_end(reading, last, ended)
    notes = [said] if said else []
    months = _GRAIN_MONTHS.get(reading.grain or "")
    # One period asked: the written answer marks each cut bucket at its label ("2024-08 (from
    # 2024-08-07)", answer._governed), so the sentence does not say it twice.
    if months is not None and len(reading.periods) != 1:
        spans = [(p.start, min(p.end - dt.timedelta(days=1), last)) for p in reading.periods]
        if not spans and first is not None:
            spans = [(first, last)]
        for start, end in spans:
            if start.day != 1 or (start.month - 1) % months:
                notes.append(f"the first {reading.grain} from {start}")
            after = end + dt.timedelta(days=1)
            cut = after.day != 1 or (after.month - 1) % months
            if cut and f"to {end}" not in said:
                notes.append(f"the last {reading.grain} to {end}")
    return ", ".join(notes)


def _partial_end(reading: Reading, last: dt.date, ended: bool = False) -> str:
    """What the sentence says of the last day covered; ``ended``: the metric's own rows stop
    there before the layer's do (its data ends: the rest is missing, not "not over")."""
    cut = [p for p in reading.periods if p.start <= last and p.end - dt.timedelta(days=1) > last]
    if len(reading.periods) == 1 and reading.periods[0].label.startswith(("since ", "after ")):
        return f"to {last}"  # an open period runs to the last day covered: say which
    if len(reading.periods) == 1 and reading.periods[0].open_start:
        # "before 2023" of data that ends in April 2022: to its last day, said; never "not
        # over" (the span is the data's, not the calendar's)
        return f"to {last}" if cut else ""
    if not cut and reading.grain in _GRAIN_MONTHS and not reading.periods:
        # "gross revenue by month": the last month shown runs only to the coverage's end.
        months = _GRAIN_MONTHS[reading.grain]
        after = last + dt.timedelta(days=1)
        if after.day != 1 or (after.month - 1) % months:
            if ended:
                return f"to {last}, where its data ends: the last {reading.grain} is partial"
            return f"to {last}, the last {reading.grain} is not over"
    if not cut:
        return ""
    names = " and ".join(p.label for p in cut)
    said = f"to {last}, {names} {'is' if len(cut) == 1 else 'are'} not over"
    whole = [p.label for p in reading.periods if p not in cut and p.start <= last]
    if whole:
        # "vs last year" after 2024: the whole of 2023 beside 2024 to 15 November read as a
        # fall where the same days rose (tryout 26); the sentence says so, not the warning alone
        said += f" but {' and '.join(whole)} {'is' if len(whole) == 1 else 'are'} whole"
        said += ": not like for like"
    return said


def reading_record(reading: Reading) -> dict[str, Any]:
    """The structured reading, as written into every verdict's provenance."""
    return {
        "metrics": list(reading.metrics),
        "filters": [
            {"dimension": f.dimension, "values": list(f.values), "negated": f.negated}
            for f in reading.filters
        ],
        "periods": [
            {"label": p.label, "start": str(p.start), "end": str(p.end)} for p in reading.periods
        ],
        "grain": reading.grain,
        "group_by": list(reading.groups),
        "ranking": (
            {"n": reading.ranking.n, "descending": reading.ranking.descending}
            if reading.ranking
            else None
        ),
        "compare": reading.compare,
        "unread": list(reading.unread),
    }


def _owners(paths: tuple[tuple[tuple[str, str], ...], ...], start: str) -> list[str]:
    """The table each join path leaves the others at: the one before the tables every path
    ends with ("supplier" and "customer" for a line item's region, reached through supplier,
    nation or orders, customer, nation: the re-check of tryout 39 was told "Ask about the
    nation rows"); ``start`` for a path that is only the shared tables."""
    tables = [[t for _, t in path] for path in paths]
    shared = 0
    while all(len(t) > shared for t in tables) and len({t[-1 - shared] for t in tables}) == 1:
        shared += 1
    return [t[-1 - shared] if len(t) > shared else start for t in tables]
