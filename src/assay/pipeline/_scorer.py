"""``Scorer``: a governed verdict for K sampled answers from any system.

Execute what has no result (guarded, identical SQL once), check sample 0, agree, score, gate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from assay.agreement import Agreement, MatchingPolicy, agreement
from assay.answer import write_answer
from assay.catalog import Catalog, Profiles
from assay.checks import CheckContext, JudgeReport, run_checks
from assay.connectors import PooledConnector, QueryCache, connect
from assay.errors import AssayError, ConnectionFailed, ExecutionError
from assay.gate import GatePolicy, decide
from assay.generators import SampleRecord
from assay.pipeline._guarded import EVIDENCE_ROWS, run_sql
from assay.pipeline._verdict import build_verdict
from assay.scoring import Rule, RuleScore, SamplerReliability, ScoreInputs, get_rule
from assay.settings import Settings, load_settings
from assay.types import Candidate, Finding, Verdict

__all__ = ["Judge", "Scorer"]

Judge = Callable[[str, str, Candidate], JudgeReport | None]


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
    matching: MatchingPolicy = "permuted"
    judge: Judge | None = None
    base_dir: Path | None = None
    write_missing_text: bool = False
    reliability: SamplerReliability | None = None
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
        return build_verdict(
            ident=ident,
            behaviour="answer",
            rule=self.rule,
            policy=self.policy,
            label=label,
            failure={"code": code, "message": message},
        )

    def score_line(self, record: SampleRecord) -> Verdict:
        """``score`` with the line boundary: whatever scoring one record raises becomes a named
        failure for that line (``score.internal_error`` with the exception's type and text), so
        one bad record never stops a run."""
        try:
            return self.score(record)
        except Exception as exc:  # the line boundary: any failure is named, never a crash
            name = type(exc).__name__
            code = getattr(exc, "code", None) if isinstance(exc, AssayError) else None
            return self.failed(
                record.id,
                str(code or "score.internal_error"),
                f"Scoring raised {name}: {str(exc)[:500]}",
                record.label,
            )

    def score(
        self,
        record: SampleRecord,
        *,
        stand_ins: dict[int, frozenset[Any]] | None = None,
        candidates: list[Candidate] | None = None,
        answers_question: bool = True,
        extra: Callable[[Candidate], tuple[Finding, ...]] | None = None,
    ) -> Verdict:
        """The verdict for one record. ``candidates`` replaces the record's samples (those without
        a result are executed); ``stand_ins`` records stand-in codes for result columns. Both
        serve planted errors. ``answers_question`` false: the SQL is a query run as given, not
        an answer to the record's question (a single sample is then not capped). ``extra``:
        more findings on the answer shown, made once its samples ran (the service's comparison
        with the layer's own answer, ``LayerAnswer``); scored and gated with the checks'."""
        try:
            database = self._database(record.db)
        except ConnectionFailed as exc:
            # The database is the line's "db" (score has no --db; outside tryout 14 was told
            # to check a --db it never gave).
            return self.failed(
                record.id,
                exc.code,
                f'{exc.message} Check this line\'s "db" (a relative path is looked for beside the '
                "samples file, then in the current folder).",
                record.label,
            )
        failures: list[dict[str, Any]] = []
        notes: list[dict[str, Any]] = []
        if candidates is None:
            cache = QueryCache(database.connector)
            candidates = [
                self._execute(s.to_candidate(), i, cache, database, failures, notes)
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
            refused = next((f for f in failures if f["sample"] == 0), None)
            findings.insert(
                0,
                Finding(
                    "veto.no_result",
                    "veto",
                    f"Sample 0 has no result: {shown.error or 'no SQL ran'}.",
                    {
                        "error": shown.error or "",
                        "violation": refused["code"] if refused else "",
                        "detail": refused["message"] if refused else "",
                    },
                ),
            )
        # Where nothing declares the database's keys, a join on unrelated keys is only noted.
        findings += [
            Finding("note.unrelated_join", "note", n["message"])
            for n in notes
            if n["sample"] == 0 and n["code"] == "guard.unrelated_join"
        ]
        if len(candidates) == 1 and shown.result is not None and answers_question:
            # Agreement is the score's evidence, and one sample agrees with itself: A = 1 by
            # construction, measuring nothing (outside tryout 14: 22 wrong answers of single
            # samples shown at 1.00). Shown with a warning at most.
            findings.append(
                Finding(
                    "cap.single_sample",
                    "cap",
                    "Only one sample: whether other samples of the answer agree with it, the "
                    "score's evidence, could not be measured.",
                    {"k": 1},
                )
            )
        if extra is not None:
            findings += extra(shown)
        weights = self._weights(record, len(candidates), findings)
        agreed = agreement([c.result for c in candidates], policy=self.matching, weights=weights)
        scored = self.rule(ScoreInputs(tuple(findings), report.measures, agreed))
        decision = decide(self.policy, scored)
        return build_verdict(
            ident=record.id,
            behaviour="answer",
            rule=self.rule,
            policy=self.policy,
            action=decision.action,
            score=scored.score,
            findings=tuple(findings),
            reasons=decision.reasons,
            candidate=shown,
            agreement=_agreement_record(agreed, scored),
            provenance={
                "db": record.db,
                "k": len(candidates),
                "matching": self.matching,
                "measures": report.measures,
                "probability": decision.probability,
            },
            label=record.label,
            failures=tuple(failures),
        )

    def _weights(
        self, record: SampleRecord, k: int, findings: list[Finding]
    ) -> tuple[float, ...] | None:
        """Each sample's sampler reliability, when a reliability file names them all."""
        if self.reliability is None:
            return None
        names = [s.sampler for s in record.samples][:k]
        weights = self.reliability.weights(names) if len(names) == k else None
        if weights is None:
            unknown = sorted({str(n) for n in names if n not in self.reliability.samplers})
            findings.append(
                Finding(
                    "note.reliability_unused",
                    "note",
                    "Agreement is unweighted: the reliability file does not measure every "
                    f"sample's sampler (unnamed or unknown: {', '.join(unknown) or 'none'}).",
                    {"unknown": unknown},
                )
            )
        return weights

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
        notes: list[dict[str, Any]] | None = None,
    ) -> Candidate:
        candidate = self._run(candidate, index, cache, database, failures, notes)
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
        notes: list[dict[str, Any]] | None = None,
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
            # The code and what it means (outside tryout 14 saw only the codes).
            said = " ".join(dict.fromkeys(v.message for v in run.report.violations[:3]))
            failures.append(
                {"sample": index, "code": "guard.rejected", "message": f"{codes}: {said}"}
            )
            return replace(candidate, error=f"guard.rejected: {codes}")
        if notes is not None:  # the guard's warnings on a statement that ran
            notes.extend(
                {"sample": index, "code": v.code, "message": v.message}
                for v in run.report.violations
            )
        return replace(candidate, result=run.result)


def _agreement_record(agreed: Agreement, scored: RuleScore) -> dict[str, Any]:
    """The agreement, and every term that entered the score with its value, the score before
    caps and the codes that capped it."""
    record = agreed.to_dict()
    record["terms"] = dict(scored.terms)
    record["raw"] = scored.raw
    record["capped_by"] = list(scored.capped_by)
    return record
