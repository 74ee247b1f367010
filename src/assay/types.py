"""Frozen values shared by every stage: results, candidates, findings, verdicts and facts."""

from __future__ import annotations

import datetime as _dt
import decimal
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

__all__ = [
    "Action",
    "Behaviour",
    "Candidate",
    "Fact",
    "Finding",
    "FindingCode",
    "FindingKind",
    "Result",
    "Route",
    "Verdict",
    "jsonable",
]

Action = Literal["show", "warn", "withhold"]
Behaviour = Literal["answer", "clarify", "abstain", "refuse"]
FindingKind = Literal["veto", "cap", "signal", "note"]
# Rosetta 4.3's route for an answered question: answer, confirm-first (shown as a warning that
# names the unconfirmed facts it rests on and how to confirm them), or refuse.
Route = Literal["answer", "confirm_first", "refuse"]
_KINDS = frozenset({"veto", "cap", "signal", "note"})


class FindingCode(StrEnum):
    """Every finding code the checks, the scorer and the agent emit; the prefix is the kind.

    A refusal passed through from another stage (a guard code such as
    ``guard.forbidden_statement``) keeps its own code and is always of kind ``veto``.
    """

    CAP_FAN_OUT_IN_METRIC = "cap.fan_out_in_metric"
    CAP_INCOMPLETE = "cap.incomplete"
    CAP_LAYER_CHECK_FAILED = "cap.layer_check_failed"
    CAP_LIMIT_CUTS_TIE = "cap.limit_cuts_tie"
    CAP_MODEL_RESOLVED_METRIC = "cap.model_resolved_metric"
    CAP_MODEL_UNAVAILABLE = "cap.model_unavailable"
    CAP_PARTIAL_COMPARISON = "cap.partial_comparison"
    CAP_PARTIAL_RANKING = "cap.partial_ranking"
    CAP_PERIOD_NOT_APPLIED = "cap.period_not_applied"
    CAP_PLANNER_SIGNAL = "cap.planner_signal"
    CAP_REQUIRED_FILTER_MISSING = "cap.required_filter_missing"
    CAP_SINGLE_SAMPLE = "cap.single_sample"
    CAP_STAND_IN_IN_AGGREGATE = "cap.stand_in_in_aggregate"
    CAP_THIN_EVIDENCE = "cap.thin_evidence"
    CAP_UNCONFIRMED_FACT = "cap.unconfirmed_fact"
    CAP_UNMATCHED_ROWS = "cap.unmatched_rows"
    CAP_UNCITED_NUMBER = "cap.uncited_number"
    CAP_UNSUPPORTED_CLAIM = "cap.unsupported_claim"
    NOTE_JUDGE_ISSUE = "note.judge_issue"
    NOTE_MODEL_DISAGREED = "note.model_disagreed"
    NOTE_MODEL_UNUSABLE = "note.model_unusable"
    NOTE_MONITOR_DELIVERED = "note.monitor_delivered"
    NOTE_PROJECTION_ORDER = "note.projection_order"
    NOTE_RELIABILITY_UNUSED = "note.reliability_unused"
    NOTE_TEXT_TERMS_ABSENT = "note.text_terms_absent"
    NOTE_UNRELATED_JOIN = "note.unrelated_join"
    NOTE_UNSUPPORTED_COMMENTARY = "note.unsupported_commentary"
    NOTE_VERIFIED_QUERY = "note.verified_query"
    SIGNAL_AGGREGATE_MISMATCH = "signal.aggregate_mismatch"
    SIGNAL_COMPARISON_FLIPPED = "signal.comparison_flipped"
    SIGNAL_DUPLICATE_ROWS = "signal.duplicate_rows"
    SIGNAL_EMPTY_RESULT = "signal.empty_result"
    SIGNAL_GROUPING_MISSING = "signal.grouping_missing"
    SIGNAL_LITERAL_MISSING = "signal.literal_missing"
    SIGNAL_LITERAL_NOT_IN_DATA = "signal.literal_not_in_data"
    SIGNAL_NUMBERS_AS_TEXT = "signal.numbers_as_text"
    SIGNAL_ORDER_MISSING = "signal.order_missing"
    SIGNAL_PROJECTION_SHORT = "signal.projection_short"
    SIGNAL_RANKING_MISMATCH = "signal.ranking_mismatch"
    SIGNAL_SHAPE_MISMATCH = "signal.shape_mismatch"
    SIGNAL_TABLE_MISMATCH = "signal.table_mismatch"
    SIGNAL_ZERO_COUNT = "signal.zero_count"
    SIGNAL_COLUMN_MISMATCH = "signal.column_mismatch"
    SIGNAL_CODE_FLIPPED = "signal.code_flipped"
    SIGNAL_CODE_DROPPED = "signal.code_dropped"
    SIGNAL_VALUE_DROPPED = "signal.value_dropped"
    SIGNAL_STATUS_DROPPED = "signal.status_dropped"
    SIGNAL_VALUE_SWAPPED = "signal.value_swapped"
    SIGNAL_FULLER_VALUE_SAID = "signal.fuller_value_said"
    SIGNAL_COLUMNS_COMPARED_BACKWARDS = "signal.columns_compared_backwards"
    SIGNAL_BOUND_UNASKED = "signal.bound_unasked"
    SIGNAL_CODE_UNASKED = "signal.code_unasked"
    SIGNAL_SIGN_DROPPED = "signal.sign_dropped"
    SIGNAL_KEY_MISREAD = "signal.key_misread"
    SIGNAL_UNSATISFIABLE_FILTER = "signal.unsatisfiable_filter"
    SIGNAL_ALWAYS_TRUE_FILTER = "signal.always_true_filter"
    SIGNAL_NEGATION_DROPPED = "signal.negation_dropped"
    SIGNAL_NEGATION_ADDED = "signal.negation_added"
    SIGNAL_BOUND_STRICTNESS = "signal.bound_strictness"
    SIGNAL_DATE_BOUND_STRICTNESS = "signal.date_bound_strictness"
    SIGNAL_PERIOD_BOUND = "signal.period_bound"
    SIGNAL_BOUND_ON_OTHER_COLUMN = "signal.bound_on_other_column"
    SIGNAL_NEGATION_MISSING = "signal.negation_missing"
    SIGNAL_BETWEEN_STRICTNESS = "signal.between_strictness"
    SIGNAL_OR_PRECEDENCE = "signal.or_precedence"
    SIGNAL_BOTH_AS_EITHER = "signal.both_as_either"
    SIGNAL_PARTIAL_KEY_JOIN = "signal.partial_key_join"
    SIGNAL_DATE_JOIN = "signal.date_join"
    SIGNAL_REACHED_THROUGH_OTHER_ROLE = "signal.reached_through_other_role"
    SIGNAL_BOTH_AS_UNION = "signal.both_as_union"
    SIGNAL_EXCEPT_SWAPPED = "signal.except_swapped"
    SIGNAL_SHARE_COMPARISON_FLIPPED = "signal.share_comparison_flipped"
    SIGNAL_MONTH_MISMATCH = "signal.month_mismatch"
    SIGNAL_AVERAGE_OF_RATIOS = "signal.average_of_ratios"
    SIGNAL_SHARE_WHOLE_DROPPED = "signal.share_whole_dropped"
    SIGNAL_JOIN_ON_OTHER_KEY = "signal.join_on_other_key"
    SIGNAL_DAY_END_DROPPED = "signal.day_end_dropped"
    SIGNAL_RANKED_BY_OTHER_MEASURE = "signal.ranked_by_other_measure"
    SIGNAL_SUM_FANNED_OUT = "signal.sum_fanned_out"
    SIGNAL_AVERAGE_FANNED_OUT = "signal.average_fanned_out"
    SIGNAL_SPELLED_COLUMN_UNREAD = "signal.spelled_column_unread"
    SIGNAL_NOT_IN_NULLS = "signal.not_in_nulls"
    SIGNAL_MONTHS_OF_PART = "signal.months_of_part"
    SIGNAL_AVERAGE_OF_AVERAGES = "signal.average_of_averages"
    SIGNAL_PERIOD_ROWS_AVERAGED = "signal.period_rows_averaged"
    SIGNAL_TOTAL_BOUND_ON_ROWS = "signal.total_bound_on_rows"
    SIGNAL_SHARE_OF_NON_NULL = "signal.share_of_non_null"
    SIGNAL_GROWTH_OVER_LATER = "signal.growth_over_later"
    SIGNAL_DATE_PART_IMPOSSIBLE = "signal.date_part_impossible"
    SIGNAL_NEGATION_ON_ROWS = "signal.negation_on_rows"
    SIGNAL_EMPTY_GROUPS_DROPPED = "signal.empty_groups_dropped"
    SIGNAL_SHARE_WHOLE_JOINED = "signal.share_whole_joined"
    VETO_BAD_JOIN = "veto.bad_join"
    VETO_CHECK_FAILED = "veto.check_failed"
    VETO_CHECK_TIMED_OUT = "veto.check_timed_out"
    VETO_FORCING_PII = "veto.forcing_pii"
    VETO_GARBLED_ANSWER = "veto.garbled_answer"
    VETO_GROUPS_DO_NOT_ADD_UP = "veto.groups_do_not_add_up"
    VETO_IMPOSSIBLE_VALUE = "veto.impossible_value"
    VETO_LAYER_ANSWER_DIFFERS = "veto.layer_answer_differs"
    VETO_MISSING_TABLE = "veto.missing_table"
    VETO_NO_RESULT = "veto.no_result"
    VETO_READING_MISMATCH = "veto.reading_mismatch"
    VETO_RESULT_UNCHECKED = "veto.result_unchecked"
    VETO_STAND_IN_IN_AGGREGATE = "veto.stand_in_in_aggregate"
    VETO_STAND_IN_RETURNED = "veto.stand_in_returned"


@dataclass(frozen=True)
class Result:
    """An executed query's columns and (capped) rows.

    ``row_count`` is the true number of rows when it is known cheaply, else ``None`` (a
    truncated result whose full size was not counted). ``truncated`` says rows were cut at the
    row cap.
    """

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    row_count: int | None
    truncated: bool = False
    elapsed_ms: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "columns": list(self.columns),
            "rows": [[jsonable(v) for v in row] for row in self.rows],
            "row_count": self.row_count,
            "truncated": self.truncated,
        }


@dataclass(frozen=True)
class Candidate:
    """One sampled answer: its trace of queries, its final SQL, its result and its text."""

    final_sql: str | None
    queries: tuple[str, ...] = ()
    text: str | None = None
    result: Result | None = None
    error: str | None = None
    judge: dict[str, Any] | None = None


@dataclass(frozen=True)
class Finding:
    """One check's outcome, with the evidence a reviewer needs.

    Raises:
        ValueError: the code's prefix is a kind other than ``kind`` (``veto.no_result`` as a
            note), or a code of another stage (``guard.*``) is not a veto. A plain
            ``ValueError``, not an ``AssayError``: ``types`` is the bottom layer and imports
            nothing of Assay's, and a mismatch is a bug in the emitting code, never bad input.
    """

    code: str
    kind: FindingKind
    message: str
    evidence: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # The code's prefix is its kind, so a renderer or rule that reads one reads the other
        # (a 'veto.*' emitted as a note was once never printed). Codes of other stages
        # ('guard.*') pass through as vetoes only.
        prefix = self.code.partition(".")[0]
        if self.kind not in _KINDS or (prefix in _KINDS and prefix != self.kind):
            raise ValueError(
                f"Finding code {self.code!r} has kind {self.kind!r}; a code's prefix must be "
                f"its kind. Emit '{self.kind}.{self.code.partition('.')[2]}' or kind "
                f"{prefix!r}."
            )
        if prefix not in _KINDS and self.kind != "veto":
            raise ValueError(
                f"Finding code {self.code!r} from another stage must be a veto, not {self.kind!r}."
            )

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "kind": self.kind,
            "message": self.message,
            "evidence": {k: jsonable(v) for k, v in sorted(self.evidence.items())},
        }


@dataclass(frozen=True, kw_only=True)
class Verdict:
    """The whole outcome for one question.

    Keyword-only: sixteen fields are never passed by position. Stages build verdicts with
    ``assay.pipeline.build_verdict``, which names the rule and the policy that decided.
    """

    id: str
    behaviour: Behaviour
    action: Action
    score: float | None
    rule: str
    rule_version: str
    policy: str
    policy_version: str
    findings: tuple[Finding, ...] = ()
    reasons: tuple[str, ...] = ()
    candidate: Candidate | None = None
    agreement: dict[str, Any] = field(default_factory=dict)
    provenance: dict[str, Any] = field(default_factory=dict)
    label: int | None = None
    failure: dict[str, str] | None = None
    failures: tuple[dict[str, Any], ...] = ()
    route: Route | None = None  # Rosetta 4.3's route, when the answer was routed

    @property
    def status(self) -> str:
        return "failed" if self.failure else "ok"

    def to_dict(self, max_rows: int = 20) -> dict[str, Any]:
        """The verdict record written one per line (``assay score --out``)."""
        record: dict[str, Any] = {
            "id": self.id,
            "status": self.status,
            "behaviour": self.behaviour,
            "action": self.action if not self.failure else None,
            "score": self.score,
            "rule": {"name": self.rule, "version": self.rule_version},
            "policy": {"name": self.policy, "version": self.policy_version},
            "findings": [f.to_dict() for f in self.findings],
            "reasons": list(self.reasons),
            "agreement": {k: jsonable(v) for k, v in sorted(self.agreement.items())},
            "failure": self.failure,
            "failures": [jsonable(f) for f in self.failures],
            "provenance": {k: jsonable(v) for k, v in sorted(self.provenance.items())},
        }
        if self.label is not None:
            record["label"] = self.label
        if self.route is not None:
            record["route"] = self.route
        candidate = self.candidate
        if candidate is not None:
            record["sql"] = candidate.final_sql
            record["text"] = candidate.text
            if candidate.result is not None:
                shown = candidate.result
                record["result"] = {
                    "columns": list(shown.columns),
                    "rows": [[jsonable(v) for v in r] for r in shown.rows[:max_rows]],
                    "row_count": shown.row_count,
                    "truncated": shown.truncated or len(shown.rows) > max_rows,
                }
        return record


@dataclass(frozen=True)
class Fact:
    """One piece of reconstructed metadata with its evidence, tier and capped confidence."""

    subject: str
    predicate: str
    value: Any
    tier: str
    confidence: float
    evidence: dict[str, Any] = field(default_factory=dict)
    provenance: dict[str, Any] = field(default_factory=dict)


def jsonable(value: Any) -> Any:
    """Turn an engine value into something ``json.dumps`` writes deterministically.

    Example:
        >>> jsonable(decimal.Decimal("1.50"))
        1.5
        >>> jsonable(_dt.date(2024, 1, 2))
        '2024-01-02'
    """
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, decimal.Decimal):
        return (
            int(value)
            if value == value.to_integral_value() and "." not in str(value)
            else (float(value))
        )
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time)):
        return value.isoformat()
    if isinstance(value, _dt.timedelta):
        return value.total_seconds()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    return str(value)
