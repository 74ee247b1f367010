"""The one place that knows the order of the stages.

``run_sql`` is the guarded path for one statement: validate (first wall), then execute
read-only in a worker (second wall). ``Scorer`` is the governed score for K sampled answers:
execute what has no result (guarded, identical SQL once), check sample 0, agree, score, gate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from assay.agreement import Agreement, MatchingPolicy, agreement
from assay.answer import write_answer, write_governed
from assay.catalog import Catalog, Profiles
from assay.checks import CheckContext, JudgeReport, VerifyContext, run_checks, verify
from assay.connectors import Connector, PooledConnector, QueryCache, connect
from assay.errors import ConnectionFailed, ExecutionError, InputError, SemanticError
from assay.gate import GatePolicy, decide
from assay.gate import decide as decide_gate
from assay.generators import SampleRecord, plan
from assay.guard import GuardReport, refusal_reasons, validate
from assay.scoring import Rule, RuleScore, ScoreInputs, get_rule
from assay.semantic import Lexicon, Resolution, SemanticLayer, check_against, resolve
from assay.semantic import decide as decide_behaviour
from assay.settings import Settings, load_settings
from assay.types import Candidate, Finding, Result, Verdict

__all__ = [
    "EVIDENCE_ROWS",
    "MAX_QUESTION_CHARS",
    "Agent",
    "GuardedRun",
    "Judge",
    "Scorer",
    "run_sql",
]

# Results are kept up to 100 rows as evidence (the governed-score paper's storage policy).
EVIDENCE_ROWS = 100
Judge = Callable[[str, str, Candidate], JudgeReport | None]


@dataclass(frozen=True)
class GuardedRun:
    """One statement's guard report and, when it passed, its result."""

    report: GuardReport
    result: Result | None


def run_sql(
    sql: str,
    connector: Connector | QueryCache,
    settings: Settings,
    *,
    semantic: SemanticLayer | None = None,
    catalog: Catalog | None = None,
    max_rows: int | None = None,
) -> GuardedRun:
    """Validate ``sql`` against the catalogue; execute the regenerated SQL if it passed. A
    refused statement never reaches the engine.

    Raises:
        ExecutionError: the engine failed, timed out or hit a resource limit.
    """
    if catalog is None:
        catalog = connector.catalog()
    report = validate(
        sql,
        catalog=catalog,
        dialect=connector.dialect,
        semantic=semantic,
        max_sql_bytes=settings.max_sql_bytes,
    )
    if not report.ok or report.sql is None:
        return GuardedRun(report, None)
    result = connector.execute(
        report.sql, time_limit_ms=settings.time_limit_ms, max_rows=max_rows or settings.max_rows
    )
    return GuardedRun(report, result)


@dataclass
class _Database:
    connector: PooledConnector
    catalog: Catalog
    profiles: Profiles


@dataclass
class Scorer:
    """Scores sample records: a verdict per question, sample 0 being the answer shown.

    Keeps one connector per database open across records; close it when done.
    """

    rule: Rule
    policy: GatePolicy = field(default_factory=GatePolicy)
    settings: Settings = field(default_factory=load_settings)
    matching: MatchingPolicy = "relaxed"
    judge: Judge | None = None
    base_dir: Path | None = None
    write_missing_text: bool = False
    _databases: dict[str, _Database] = field(default_factory=dict)

    @classmethod
    def named(cls, rule: str, **kwargs: Any) -> Scorer:
        return cls(get_rule(rule), **kwargs)

    def close(self) -> None:
        for database in self._databases.values():
            database.connector.close()
        self._databases.clear()

    def __enter__(self) -> Scorer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def database(self, target: str) -> _Database:
        """The open connector, catalogue and profiles for a record's ``db``."""
        return self._database(target)

    def execute_samples(self, record: SampleRecord) -> tuple[list[Candidate], list[dict[str, Any]]]:
        """Every sample as a candidate with its result (executed, guarded, where absent)."""
        database = self._database(record.db)
        failures: list[dict[str, Any]] = []
        cache = QueryCache(database.connector)
        candidates = [
            self._execute(s.to_candidate(), i, cache, database, failures)
            for i, s in enumerate(record.samples)
        ]
        return candidates, failures

    def _database(self, target: str) -> _Database:
        key = self._resolve(target)
        if key not in self._databases:
            connector = connect(key, self.settings)
            catalog = connector.catalog()
            self._databases[key] = _Database(connector, catalog, Profiles(connector, catalog))
        return self._databases[key]

    def _resolve(self, target: str) -> str:
        if "://" in target or Path(target).is_absolute() or self.base_dir is None:
            return target
        beside = self.base_dir / target
        return str(beside) if beside.exists() else target

    def failed(self, ident: str, code: str, message: str, label: int | None = None) -> Verdict:
        """A line that could not be scored: a named failure, never an abstention."""
        return Verdict(
            ident,
            "answer",
            "withhold",
            None,
            self.rule.name,
            self.rule.version,
            self.policy.name,
            self.policy.version,
            label=label,
            failure={"code": code, "message": message},
        )

    def score(
        self,
        record: SampleRecord,
        *,
        stand_ins: dict[int, frozenset[Any]] | None = None,
        candidates: list[Candidate] | None = None,
    ) -> Verdict:
        """The verdict for one record. ``candidates`` replaces the record's samples (those without
        a result are executed); ``stand_ins`` records stand-in codes for result columns. Both
        serve planted errors."""
        try:
            database = self._database(record.db)
        except ConnectionFailed as exc:
            return self.failed(record.id, exc.code, str(exc), record.label)
        failures: list[dict[str, Any]] = []
        if candidates is None:
            cache = QueryCache(database.connector)
            candidates = [
                self._execute(s.to_candidate(), i, cache, database, failures)
                for i, s in enumerate(record.samples)
            ]
        shown = candidates[0]
        judge = self._judge(record, shown)
        report = run_checks(
            CheckContext(
                record.question,
                shown,
                database.connector.dialect,
                database.catalog,
                database.profiles,
                record.hint,
                judge,
                stand_ins or {},
            )
        )
        findings = list(report.findings)
        if shown.result is None:
            findings.insert(
                0,
                Finding(
                    "veto.no_result",
                    "note",
                    f"Sample 0 has no result: {shown.error or 'no SQL ran'}.",
                    {"error": shown.error or ""},
                ),
            )
        agreed = agreement([c.result for c in candidates], policy=self.matching)
        scored = self.rule(ScoreInputs(tuple(findings), report.measures, agreed))
        decision = decide(self.policy, scored)
        return Verdict(
            record.id,
            "answer",
            decision.action,
            scored.score,
            self.rule.name,
            self.rule.version,
            self.policy.name,
            self.policy.version,
            tuple(findings),
            decision.reasons,
            shown,
            _agreement_record(agreed, scored.terms),
            {
                "db": record.db,
                "k": len(candidates),
                "matching": self.matching,
                "measures": report.measures,
                "probability": decision.probability,
            },
            record.label,
            None,
            tuple(failures),
        )

    def _judge(self, record: SampleRecord, shown: Candidate) -> JudgeReport | None:
        if shown.judge is not None:
            return JudgeReport.from_dict(shown.judge)
        if self.judge is not None:
            return self.judge(record.question, record.hint, shown)
        return None

    def _execute(
        self,
        candidate: Candidate,
        index: int,
        cache: QueryCache,
        database: _Database,
        failures: list[dict[str, Any]],
    ) -> Candidate:
        candidate = self._run(candidate, index, cache, database, failures)
        if self.write_missing_text and candidate.text is None and candidate.result is not None:
            candidate = replace(candidate, text=write_answer(candidate.result))
        return candidate

    def _run(
        self,
        candidate: Candidate,
        index: int,
        cache: QueryCache,
        database: _Database,
        failures: list[dict[str, Any]],
    ) -> Candidate:
        if candidate.result is not None or not candidate.final_sql:
            return candidate
        try:
            run = run_sql(
                candidate.final_sql,
                cache,
                self.settings,
                catalog=database.catalog,
                max_rows=EVIDENCE_ROWS,
            )
        except ExecutionError as exc:
            failures.append({"sample": index, "code": exc.code, "message": exc.message})
            return replace(candidate, error=f"{exc.code}: {exc.message}")
        if run.result is None:
            codes = ", ".join(dict.fromkeys(run.report.codes))
            failures.append({"sample": index, "code": "guard.rejected", "message": codes})
            return replace(candidate, error=f"guard.rejected: {codes}")
        return replace(candidate, result=run.result)


def _agreement_record(agreed: Agreement, terms: Any) -> dict[str, Any]:
    record = agreed.to_dict()
    record["terms"] = dict(terms)
    return record


@dataclass
class Agent:
    """Assay's rule-gated agent over one warehouse and its semantic layer (no model needed).

    ``ask`` runs the stages in order: refuse? (question intent), resolve (lexicon), decide
    (behaviour rules), generate (planner), validate (guard, with the semantic layer), execute
    (read-only), verify and check, write (every number cited), score, gate.
    """

    connector: PooledConnector
    layer: SemanticLayer
    settings: Settings = field(default_factory=load_settings)
    policy: GatePolicy = field(default_factory=GatePolicy)
    confidence: Any = None  # a fitted ConfidenceModel, or None for agreement_first with K = 1

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

    def ask(self, question: str, ident: str = "question") -> Verdict:
        text = question.strip()
        if not text or len(text) > MAX_QUESTION_CHARS:
            raise InputError(
                f"The question is {'empty' if not text else f'{len(text):,} characters long'}.",
                hint=f"Ask one question of at most {MAX_QUESTION_CHARS:,} characters.",
            )
        refusal = refusal_reasons(text)
        resolution = resolve(text, self.layer, self.lexicon)
        decision = decide_behaviour(resolution, self.layer, refusal)
        base = {
            "semantic": self.layer.name,
            "question": text,
            "message": decision.message,
            "readings": [{"metric": m, "tokens": list(w)} for m, w in decision.readings],
        }
        if decision.behaviour != "answer":
            return Verdict(
                ident,
                decision.behaviour,  # type: ignore[arg-type]
                "withhold",
                None,
                "rules",
                "1.0",
                self.policy.name,
                self.policy.version,
                reasons=(decision.code,),
                provenance=base,
            )
        return self._answer(text, ident, resolution, base)

    def _answer(
        self, text: str, ident: str, resolution: Resolution, base: dict[str, Any]
    ) -> Verdict:
        planned = plan(resolution, self.layer, self.connector.dialect)
        run = run_sql(
            planned.sql, self.connector, self.settings, semantic=self.layer, catalog=self.catalog
        )
        metric = planned.metric
        period = resolution.period.label if resolution.period else ""
        filters = ", ".join(f"{d} = {v}" for d, v in planned.filters)
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
        if run.result is None:
            findings = tuple(Finding(v.code, "veto", v.message) for v in run.report.violations)
            return Verdict(
                ident,
                "answer",
                "withhold",
                0.0,
                "rules",
                "1.0",
                self.policy.name,
                self.policy.version,
                findings,
                tuple(f.code for f in findings),
                Candidate(planned.sql),
                provenance=base,
            )
        written = write_governed(
            run.result,
            label=metric.label,
            period=period,
            group=planned.group_by or planned.grain,
            definition=definition,
            top_n=resolution.top_n,
        )
        candidate = Candidate(run.report.sql, (run.report.sql or "",), written.text, run.result)
        findings = verify(
            VerifyContext(
                run.report.sql or planned.sql,
                run.result,
                metric,
                resolution.period,
                self.layer.coverage,
                self.profiles,
            )
        )
        checked = run_checks(
            CheckContext(
                text,
                candidate,
                self.connector.dialect,
                self.catalog,
                self.profiles,
                f"{period} {definition}",
            )
        )
        all_findings = tuple(
            {(f.code, f.message): f for f in (*findings, *checked.findings)}.values()
        )
        features = {
            "join_count": planned.join_count,
            "sql_length": len(planned.sql),
            "repair_attempts": 0,
            "verification_issues": len(findings),
        }
        scored, rule = self._score(all_findings, checked.measures, features)
        decision = decide_gate(self.policy, scored)
        base.update(citations=[c.__dict__ for c in written.citations], features=features)
        return Verdict(
            ident,
            "answer",
            decision.action,
            scored.score,
            rule.name,
            rule.version,
            self.policy.name,
            self.policy.version,
            all_findings,
            decision.reasons,
            candidate,
            {},
            base,
        )

    def _score(
        self,
        findings: tuple[Finding, ...],
        measures: dict[str, float | None],
        features: dict[str, int],
    ) -> tuple[RuleScore, Rule]:
        rule = get_rule("agreement_first")
        if self.confidence is not None:
            probability = self.confidence.predict(features)
            rule = Rule("fitted", self.confidence.version, "logistic confidence", rule.func)
            base = rule(ScoreInputs(findings, measures, agreement([RESULT_ONE])))
            return RuleScore(min(probability, base.score), probability, base.capped_by), rule
        return rule(ScoreInputs(findings, measures, agreement([RESULT_ONE]))), rule


# One deterministic candidate agrees with itself: A = 1.
RESULT_ONE = Result(("x",), ((1,),), 1)
MAX_QUESTION_CHARS = 2_000
