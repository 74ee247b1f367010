"""``Agent``: a question answered from a semantic layer, stages in order.

bad input? -> refuse? (intent) -> read (the whole question) -> decide (behaviour rules) -> generate
(planner; with a model configured, K sampled SQL as agreement evidence) -> validate (guard) ->
execute (read-only) -> verify and check -> write (every number cited) -> score -> gate.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field, replace
from typing import Any

from assay.agreement import Agreement, agreement
from assay.answer import write_governed
from assay.catalog import Profiles
from assay.checks import PLAN_CHECKS, VERIFICATION_CODES, CheckContext, run_checks
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
from assay.pipeline._verdict import BEHAVIOUR_RULES, GUARD_REFUSAL, build_verdict
from assay.scoring import Rule, RuleScore, ScoreInputs, get_rule
from assay.semantic import (
    BehaviourDecision,
    Lexicon,
    Metric,
    Reading,
    SemanticLayer,
    check_against,
    read,
)
from assay.semantic import decide as decide_behaviour
from assay.settings import Settings, load_settings
from assay.types import Candidate, Finding, Result, Verdict

__all__ = ["MAX_QUESTION_CHARS", "Agent"]


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
        self.lexicon = Lexicon(self.layer)
        self.profiles = Profiles(self.connector, self.catalog)
        self.vocabulary = status_vocabulary(self.layer)

    def ask(self, question: str, ident: str = "question") -> Verdict:
        """The verdict for one question. Never raises for an expected failure: bad input, a
        plan that cannot be made (a join that would fan out), a query the guard refuses or the
        engine fails on all become a verdict that shows nothing, with the reason named. An
        unexpected exception is recorded as a system failure and nothing is shown."""
        try:
            return self._ask(question, ident)
        except Exception as exc:  # fail closed: a bug never shows an answer
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

    def _ask(self, question: str, ident: str) -> Verdict:
        text = question.strip()
        bad = bad_input(text)
        if bad is not None:
            code, message = bad
            return self._verdict(
                ident, "abstain", (code,), {"question": text[:200], "message": message}
            )
        found = refusals(text, vocabulary=self.vocabulary)
        refusal = tuple(dict.fromkeys(r.code for r in found))
        reading = read(text, self.layer, self.lexicon)
        decision = decide_behaviour(reading, self.layer, refusal)
        if found:  # name the payload: what was asked for, in the user's words
            decision = replace(
                decision,
                message=f"I can't do that. {found[0].message} Assay only reads data: it never "
                "changes it, sends it anywhere, reveals secrets, or follows instructions "
                "embedded in a question.",
            )
        model_notes: list[dict[str, Any]] = []
        if decision.code == "behaviour.concept_missing" and self.model is not None:
            reading, decision = self._model_metric(text, reading, refusal, model_notes)
        base = {
            "semantic": self.layer.name,
            "question": text,
            "message": decision.message,
            "reading": reading.restate(self.layer),
            "read": reading_record(reading),
            "readings": [{"metric": m, "tokens": list(w)} for m, w in decision.readings],
            "model": model_notes,
        }
        if decision.behaviour != "answer":
            return self._verdict(ident, decision.behaviour, (decision.code,), base)
        try:
            return self._answer(text, ident, reading, base)
        except GenerationError as exc:
            base["message"] = f"I cannot answer this safely: {exc.message}"
            return self._verdict(ident, "abstain", (exc.code,), base)
        except AssayError as exc:  # the guard or the engine: fail closed, say why
            finding = Finding(exc.code, "veto", exc.message)
            base["message"] = exc.message
            return self._verdict(ident, "answer", (exc.code,), base, findings=(finding,))

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
            f"{metric.label} = {metric.expression} over {metric.time_column}"
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
        written = write_governed(
            run.result,
            label=metric.label,
            period=period,
            group=planned.group_by or planned.grain or ("year" if reading.compare else None),
            definition=definition,
            top_n=reading.top_n,
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
        agreed, unavailable = self._agreement(text, reading, metric, run.result, base)
        if unavailable is not None:
            all_findings += (
                Finding(
                    "note.llm_unavailable",
                    "note",
                    "The model could not be reached; the answer rests on the "
                    "deterministic path alone.",
                    {"failure": unavailable},
                ),
            )
        scored, rule = self._score(all_findings, measures, features, agreed)
        decision = decide_gate(self.policy, scored)
        base.update(citations=[c.__dict__ for c in written.citations], features=features)
        return build_verdict(
            ident=ident,
            behaviour="answer",
            rule=rule,
            policy=self.policy,
            action=decision.action,
            score=scored.score,
            findings=all_findings,
            reasons=decision.reasons,
            candidate=candidate,
            agreement=agreed.to_dict() if self.model is not None else {},
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
        self, text: str, resolution: Reading, metric: Metric, shown: Result, base: dict[str, Any]
    ) -> tuple[Agreement, str | None]:
        """A over the governed answer and the model's K sampled SQL (escalating when low), and
        the model's failure when it could not be reached at all (``None`` when it was, or when
        no model is configured). The model's steps are recorded in ``base["model"]``."""
        if self.model is None:
            return agreement([RESULT_ONE]), None
        cache = QueryCache(self.connector)
        dialect = self.connector.dialect
        samples = self.model.sample_sql(text, metric, resolution, self.catalog, dialect)

        def results() -> list[Result | None]:
            out: list[Result | None] = [shown]
            for sql in samples.sql:
                out.append(self._run_sample(sql, cache))
            return out

        if samples.failures and not any(samples.sql):
            # The model is unavailable: fall back to the deterministic path, and say so.
            base["model"] = [
                *base.get("model", []),
                {"step": "sample_sql", "failures": samples.failures, "fallback": True},
            ]
            return agreement([RESULT_ONE]), samples.failures[0]
        agreed = agreement(results())
        if agreed.a < self.model.escalate_below and self.model.escalate(
            text, metric, resolution, self.catalog, dialect, samples
        ):
            agreed = agreement(results())
        base["model"] = [
            *base.get("model", []),
            {
                "step": "sample_sql",
                "sql": samples.sql,
                "usage": samples.usage,
                "failures": samples.failures,
                "escalated": samples.escalated,
            },
        ]
        return agreed, None

    def _run_sample(self, sql: str | None, cache: QueryCache) -> Result | None:
        if not sql:
            return None
        try:
            run = run_sql(sql, cache, self.settings, semantic=self.layer, catalog=self.catalog)
        except ExecutionError:
            return None
        return run.result

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


# One deterministic candidate agrees with itself: A = 1.
RESULT_ONE = Result(("x",), ((1,),), 1)

MAX_QUESTION_CHARS = 2_000
# Words common in other languages' questions and absent from English ones.
_FOREIGN = frozenset(
    "le la les des du une est était quel quelle combien wie viel welche das der die und ist war"
    " el los las cuál cuanto cuánto fue qual quanto foi het een hoeveel wat dat jaar".split()
)


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
