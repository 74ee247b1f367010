"""``RULES``: the scoring rules of the governed-score paper (Section 3), as pure functions.

``designed`` (bench-1.0) is the weighted mean over measured terms with caps; ``v2`` (2.0)
replaces L2 by A and counts only judge issues about the answer; ``agreement_first`` (2.1) is A
itself with deterministic vetoes and caps; ``v3`` (3.0) adds zero-cost signals. ``assay``
(assay-1.0, the default of ``assay score``) is Assay's own rule, chosen on the Spider slice after
the paper (see ``assay_1_0``); the paper's four stay frozen for replication. None has a fitted
parameter. Every rule carries a version that is written into every verdict.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from assay.agreement import Agreement
from assay.checks import QUESTION_SIGNALS, RESULT_SIGNALS, grounded
from assay.errors import ScoringError
from assay.types import Finding

__all__ = [
    "DEFAULT_RULE",
    "HARD_CAP",
    "RULES",
    "SOFT_CAP",
    "WEIGHTS",
    "Rule",
    "RuleScore",
    "ScoreInputs",
    "get_rule",
]

DEFAULT_RULE = "assay"
HARD_CAP = 0.59
SOFT_CAP = 0.79
WEIGHTS: dict[str, float] = {
    "GROUNDED": 0.30,
    "SCHEMA": 0.20,
    "SAFETY": 0.20,
    "RETRIEVE": 0.20,
    "COMPLETE": 0.10,
}
VETOES = ("veto.missing_table", "veto.bad_join", "veto.stand_in_returned")
DETERMINISTIC_TAGS = (*VETOES, "cap.uncited_number")


@dataclass(frozen=True)
class ScoreInputs:
    """Everything a rule reads: sample 0's findings and measured shares, and the agreement."""

    findings: tuple[Finding, ...]
    measures: Mapping[str, float | None]
    agreement: Agreement | None

    def has(self, *codes: str) -> tuple[str, ...]:
        present = {f.code for f in self.findings}
        return tuple(c for c in codes if c in present)

    def of_kind(self, kind: str) -> tuple[str, ...]:
        """Codes of every finding of a kind, in order (checks added after the paper, such as
        post-execution verification, gate through their kind)."""
        return tuple(dict.fromkeys(f.code for f in self.findings if f.kind == kind))

    def answer_issue(self) -> bool:
        return any(
            f.code == "note.judge_issue" and f.evidence.get("about") == "answer"
            for f in self.findings
        )

    @property
    def a(self) -> float:
        return self.agreement.a if self.agreement is not None else 0.0


@dataclass(frozen=True)
class RuleScore:
    """A rule's score, its value before caps, and the finding codes that capped it."""

    score: float
    raw: float
    capped_by: tuple[str, ...] = ()
    terms: Mapping[str, float | None] = field(default_factory=dict)


@dataclass(frozen=True)
class Rule:
    name: str
    version: str
    description: str
    func: Callable[[ScoreInputs], RuleScore]

    def __call__(self, inputs: ScoreInputs) -> RuleScore:
        return self.func(inputs)


def _capped(
    raw: float, hard: tuple[str, ...], soft: tuple[str, ...], terms: Mapping[str, float | None]
) -> RuleScore:
    score = raw
    if hard:
        score = min(score, HARD_CAP)
    if soft:
        score = min(score, SOFT_CAP)
    # Every fired veto and cap is named, also when the score was already below its cap.
    return RuleScore(
        round(score, 6), round(raw, 6), tuple(dict.fromkeys((*hard, *soft))), dict(terms)
    )


def _weighted(terms: Mapping[str, float | None]) -> float:
    measured = {k: v for k, v in terms.items() if v is not None}
    total = sum(WEIGHTS[k] for k in measured)
    return sum(WEIGHTS[k] * v for k, v in measured.items()) / total if total else 0.0


def _l1(inputs: ScoreInputs, *, answer_only: bool) -> float:
    """The checklist: r1 = 1 on a deterministic tag or an unsupported claim, 1/2 on another
    judge tag, else 0; L1 = 1 - r1."""
    claims = (
        ("cap.unsupported_claim",)
        if answer_only
        else ("cap.unsupported_claim", "note.unsupported_commentary")
    )
    if inputs.has(*DETERMINISTIC_TAGS, *claims):
        return 0.0
    other = inputs.answer_issue() if answer_only else bool(inputs.has("note.judge_issue"))
    return 0.5 if other else 1.0


def _terms(inputs: ScoreInputs, safety: float) -> dict[str, float | None]:
    return {
        "GROUNDED": grounded(inputs.measures),
        "SCHEMA": inputs.measures.get("schema"),
        "SAFETY": safety,
        "RETRIEVE": None,  # every value is a database cell: nothing is retrieved
        "COMPLETE": inputs.measures.get("complete"),
    }


def designed(inputs: ScoreInputs) -> RuleScore:
    """bench-1.0: IES0 = sum w_j T_j / sum w_j over measured terms, SAFETY = min(L1, L2)."""
    l1 = _l1(inputs, answer_only=False)
    l2 = inputs.agreement.l2 if inputs.agreement is not None else None
    terms = _terms(inputs, min(l1, l2) if l2 is not None else l1)
    hard = inputs.has(*DETERMINISTIC_TAGS, "cap.unsupported_claim", "note.unsupported_commentary")
    hard = tuple(dict.fromkeys((*hard, *inputs.of_kind("veto"))))
    return _capped(_weighted(terms), hard, inputs.has("cap.thin_evidence"), terms)


def v2(inputs: ScoreInputs) -> RuleScore:
    """2.0: the designed score with A for L2, judge issues about the answer only, and a 0.79 cap
    when COMPLETE < 0.5."""
    terms = _terms(inputs, min(_l1(inputs, answer_only=True), inputs.a))
    hard = inputs.has(*DETERMINISTIC_TAGS, "cap.unsupported_claim")
    soft = inputs.has("cap.incomplete", "cap.thin_evidence")
    return _capped(_weighted(terms), hard, soft, terms)


def agreement_first(inputs: ScoreInputs) -> RuleScore:
    """2.1, the primary rule: s = A, min(A, 0.59) on a veto, min(A, 0.79) on a cap."""
    soft = inputs.has(
        "cap.uncited_number", "cap.unsupported_claim", "cap.incomplete", "cap.thin_evidence"
    )
    # Checks added after the paper (post-execution verification) gate through their kind.
    hard = tuple(dict.fromkeys((*inputs.has(*VETOES), *inputs.of_kind("veto"))))
    soft = tuple(dict.fromkeys((*soft, *inputs.of_kind("cap"))))
    return _capped(inputs.a, hard, soft, {"A": inputs.a})


def v3(inputs: ScoreInputs) -> RuleScore:
    """3.0: agreement-first, then one firing signal caps at 0.79 and two or more at 0.59."""
    base = agreement_first(inputs)
    # The paper's signals only: the question-SQL and result checks built after it are
    # assay-1.0's.
    later = (*QUESTION_SIGNALS, *RESULT_SIGNALS)
    signals = tuple(f.code for f in inputs.findings if f.kind == "signal" and f.code not in later)
    if not signals:
        return base
    cap = HARD_CAP if len(signals) >= 2 else SOFT_CAP
    score = min(base.score, cap)
    return RuleScore(
        round(score, 6), base.raw, tuple(dict.fromkeys((*base.capped_by, *signals))), base.terms
    )


def assay_1_0(inputs: ScoreInputs) -> RuleScore:
    """assay-1.0, the default: s = sqrt(A), min(s, 0.59) on a veto or a question-SQL signal,
    min(s, 0.79) on a cap.

    A is the agreement share under the scorer's matching policy (``permuted`` by default:
    the same rows, the columns in any order, as Spider's execution match; relaxed projection
    matching counted wrong answers as agreeing on 793 questions outside the slice). The square
    root is monotone, so alone it ranks exactly as A does; it places the gate's fixed
    thresholds at A >= 0.64 to show and A >= 0.36 to warn (with K = 5: show when four of five
    agree, warn when two or three do, withhold when sample 0 stands alone), and a 0.59 cap
    below every answer that two samples share.
    The question-SQL signals (``QUESTION_SIGNALS``) withhold: they see misreadings that every
    sample may share. Evidence that is thin by measurement caps as in 2.1; SQL-only samples are
    not thin by construction (the check leaves the text terms out of the denominator).
    An empty result caps at 0.79 (warn): samples that misread a value or a condition agree on
    nothing found (outside tryout 17: Spider dev 111/112 shown empty), yet on the slice empty
    answers are right 24 of 76 times over the six systems, so they are warned, not withheld.
    A lone count of 0 caps at 0.79 only when some sample counted otherwise (A < 1; dev 159/160:
    0 shown for 39, one sample right): zero counts are right 23 of 58 times over the six
    systems, and every right one shown from the slice's two tryout files but one (dev 44) was
    unanimous (tuned on the Spider slice).
    """
    support = math.sqrt(max(inputs.a, 0.0))
    signals = tuple(dict.fromkeys(c for c in inputs.has(*QUESTION_SIGNALS)))
    hard = tuple(dict.fromkeys((*inputs.has(*VETOES), *inputs.of_kind("veto"), *signals)))
    soft = tuple(
        dict.fromkeys(
            (
                *inputs.has(
                    "cap.uncited_number",
                    "cap.unsupported_claim",
                    "cap.incomplete",
                    "cap.thin_evidence",
                    "signal.empty_result",
                ),
                # a count of 0 another sample did not find: see the docstring
                *(inputs.has(*RESULT_SIGNALS) if inputs.a < 1.0 else ()),
                *inputs.of_kind("cap"),
            )
        )
    )
    terms: dict[str, float | None] = {"A": inputs.a, "support": round(support, 6)}
    terms.update({code: 1.0 for code in signals})
    return _capped(support, hard, soft, terms)


RULES: dict[str, Rule] = {
    rule.name: rule
    for rule in (
        Rule(
            "designed", "bench-1.0", "weighted terms with SAFETY = min(L1, L2) and caps", designed
        ),
        Rule("v2", "2.0", "designed with A for L2 and answer-only judge issues", v2),
        Rule(
            "agreement_first",
            "2.1",
            "A with deterministic vetoes (0.59) and caps (0.79)",
            agreement_first,
        ),
        Rule("v3", "3.0", "agreement_first plus signals (one: 0.79, two or more: 0.59)", v3),
        Rule(
            "assay",
            "assay-1.0",
            "sqrt(A); vetoes and question-SQL signals 0.59, caps and empty or zero results 0.79",
            assay_1_0,
        ),
    )
}


def get_rule(name: str) -> Rule:
    try:
        return RULES[name]
    except KeyError:
        known = ", ".join(RULES)
        raise ScoringError(f"Unknown rule {name!r}.", hint=f"Use one of: {known}.") from None
