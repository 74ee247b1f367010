"""The rules pinned to Section 3 of the governed-score paper."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.agreement import agreement
from assay.gate import GatePolicy, decide
from assay.scoring import HARD_CAP, RULES, SOFT_CAP, ScoreInputs, get_rule
from assay.types import Finding, Result

RIGHT = Result(("n",), ((1,),), 1)
WRONG = Result(("n",), ((2,),), 1)
FULL = {"g_tab": 1.0, "g_join": None, "g_val": None, "schema": 1.0, "complete": None}


def inputs(
    n_agree: int, k: int = 5, codes: tuple[str, ...] = (), measures: dict | None = None
) -> ScoreInputs:
    samples = [RIGHT] * n_agree + [WRONG] * (k - n_agree)
    findings = tuple(Finding(c, c.split(".")[0], c) for c in codes)  # type: ignore[arg-type]
    return ScoreInputs(findings, measures or FULL, agreement(samples))


@pytest.mark.parametrize(
    ("n_agree", "action"),
    [(5, "show"), (4, "show"), (3, "warn"), (2, "withhold"), (1, "withhold")],
)
def test_agreement_first_gate_reads_directly(n_agree: int, action: str) -> None:
    scored = get_rule("agreement_first")(inputs(n_agree))
    assert scored.score == pytest.approx(n_agree / 5)
    assert decide(GatePolicy(), scored).action == action


@pytest.mark.parametrize("code", ["veto.missing_table", "veto.bad_join", "veto.stand_in_returned"])
def test_each_veto_caps_at_059(code: str) -> None:
    scored = get_rule("agreement_first")(inputs(5, codes=(code,)))
    assert scored.score == HARD_CAP == 0.59
    decision = decide(GatePolicy(), scored)
    assert decision.action == "withhold" and code in decision.reasons


@pytest.mark.parametrize(
    "code", ["cap.uncited_number", "cap.unsupported_claim", "cap.incomplete", "cap.thin_evidence"]
)
def test_each_cap_caps_at_079(code: str) -> None:
    scored = get_rule("agreement_first")(inputs(5, codes=(code,)))
    assert scored.score == SOFT_CAP == 0.79
    decision = decide(GatePolicy(), scored)
    assert decision.action == "warn" and decision.reasons == (code,)


def test_commentary_does_not_cap_agreement_first() -> None:
    scored = get_rule("agreement_first")(inputs(5, codes=("note.unsupported_commentary",)))
    assert scored.score == 1.0


def test_designed_renormalises_over_measured_terms() -> None:
    # GROUNDED 1, SCHEMA 1, SAFETY = min(L1=1, L2) measured; RETRIEVE and COMPLETE not.
    scored = get_rule("designed")(inputs(4))
    l2 = 1 - (-(0.8 * math.log(0.8) + 0.2 * math.log(0.2))) / math.log(5)
    expected = (0.30 * 1 + 0.20 * 1 + 0.20 * l2) / (0.30 + 0.20 + 0.20)
    assert scored.score == pytest.approx(expected, abs=1e-6)
    with_complete = get_rule("designed")(inputs(4, measures={**FULL, "complete": 0.5}))
    expected = (0.30 + 0.20 + 0.20 * l2 + 0.10 * 0.5) / 0.80
    assert with_complete.score == pytest.approx(expected, abs=1e-6)


def test_designed_hard_caps_any_unsupported_claim_v2_only_about_the_answer() -> None:
    commentary = ("note.unsupported_commentary",)
    assert get_rule("designed")(inputs(5, codes=commentary)).score == HARD_CAP
    assert get_rule("v2")(inputs(5, codes=commentary)).score > SOFT_CAP
    assert get_rule("v2")(inputs(5, codes=("cap.unsupported_claim",))).score == HARD_CAP


def test_designed_l1_zero_drives_safety_to_zero() -> None:
    scored = get_rule("designed")(inputs(5, codes=("cap.uncited_number",)))
    assert scored.terms["SAFETY"] == 0.0
    assert scored.score <= HARD_CAP


def test_v2_caps_incomplete_answers() -> None:
    assert get_rule("v2")(inputs(5, codes=("cap.incomplete",))).score == SOFT_CAP


def test_v3_signals() -> None:
    one = get_rule("v3")(inputs(5, codes=("signal.empty_result",)))
    two = get_rule("v3")(inputs(5, codes=("signal.empty_result", "signal.other")))
    assert (one.score, two.score) == (SOFT_CAP, HARD_CAP)


def test_versions() -> None:
    assert {n: r.version for n, r in RULES.items()} == {
        "designed": "bench-1.0",
        "v2": "2.0",
        "agreement_first": "2.1",
        "v3": "3.0",
        "assay": "assay-1.0",
    }


ANY_CODES = st.lists(
    st.sampled_from(
        [
            "veto.missing_table",
            "veto.bad_join",
            "veto.stand_in_returned",
            "cap.uncited_number",
            "cap.unsupported_claim",
            "cap.incomplete",
            "cap.thin_evidence",
            "signal.empty_result",
            "note.unsupported_commentary",
            "note.judge_issue",
        ]
    ),
    max_size=4,
).map(tuple)


@pytest.mark.parametrize("name", list(RULES))
@settings(max_examples=150, deadline=None)
@given(
    shown=st.integers(0, 2),
    others=st.lists(st.integers(0, 2), min_size=1, max_size=6),
    codes=ANY_CODES,
    rnd=st.randoms(use_true_random=False),
)
def test_rule_contract(
    name: str, shown: int, others: list[int], codes: tuple[str, ...], rnd: object
) -> None:
    """Scores lie in [0, 1] and do not depend on the order of samples 1..K-1."""
    pool = [RIGHT, WRONG, None]
    findings = tuple(Finding(c, c.split(".")[0], c) for c in codes)  # type: ignore[arg-type]
    samples = [pool[shown]] + [pool[o] for o in others]
    rest = samples[1:]
    rnd.shuffle(rest)  # type: ignore[attr-defined]
    a = RULES[name](ScoreInputs(findings, FULL, agreement(samples)))
    b = RULES[name](ScoreInputs(findings, FULL, agreement([samples[0], *rest])))
    assert 0.0 <= a.score <= 1.0
    assert a.score == pytest.approx(b.score)


@pytest.mark.parametrize(
    ("n_agree", "action"),
    [(5, "show"), (4, "show"), (3, "warn"), (2, "warn"), (1, "withhold")],
    ids=["5of5", "4of5", "3of5", "2of5", "alone"],
)
def test_assay_is_sqrt_of_agreement(n_agree: int, action: str) -> None:
    scored = get_rule("assay")(inputs(n_agree))
    assert scored.score == pytest.approx(math.sqrt(n_agree / 5), abs=1e-6)
    assert scored.terms["A"] == pytest.approx(n_agree / 5)
    assert decide(GatePolicy(), scored).action == action


@pytest.mark.parametrize(
    ("code", "cap"),
    [
        ("signal.literal_not_in_data", HARD_CAP),
        ("signal.aggregate_mismatch", HARD_CAP),
        ("signal.order_missing", HARD_CAP),
        ("signal.table_mismatch", HARD_CAP),
        ("veto.no_result", HARD_CAP),
        ("veto.missing_table", HARD_CAP),
        ("cap.thin_evidence", SOFT_CAP),
        ("cap.uncited_number", SOFT_CAP),
    ],
)
def test_assay_caps_and_names_them(code: str, cap: float) -> None:
    scored = get_rule("assay")(inputs(5, codes=(code,)))
    assert scored.score == cap and scored.capped_by == (code,)
    assert scored.raw == 1.0


def test_assay_caps_an_empty_result_and_v3_ignores_question_and_result_signals() -> None:
    # outside tryout 17: an empty result every sample but two agreed on was shown green
    empty = get_rule("assay")(inputs(5, codes=("signal.empty_result",)))
    assert empty.score == SOFT_CAP and empty.capped_by == ("signal.empty_result",)
    for code in (
        "signal.literal_not_in_data",
        "signal.order_missing",
        "signal.table_mismatch",
        "signal.zero_count",
    ):
        assert get_rule("v3")(inputs(5, codes=(code,))).score == 1.0, code
    assert get_rule("agreement_first")(inputs(5, codes=("signal.duplicate_rows",))).score == 1.0
    assert get_rule("agreement_first")(inputs(5, codes=("signal.zero_count",))).score == 1.0


@pytest.mark.parametrize(("n_agree", "capped"), [(5, False), (4, True), (3, True)])
def test_assay_caps_a_zero_count_only_when_a_sample_counted_otherwise(
    n_agree: int, capped: bool
) -> None:
    scored = get_rule("assay")(inputs(n_agree, codes=("signal.zero_count",)))
    assert ("signal.zero_count" in scored.capped_by) is capped
    expected = min(SOFT_CAP, math.sqrt(n_agree / 5)) if capped else 1.0
    assert scored.score == pytest.approx(expected, abs=1e-6)


@given(st.lists(st.booleans(), min_size=1, max_size=8))
@settings(max_examples=50, deadline=None)
def test_assay_is_invariant_to_the_order_of_samples_after_the_first(pattern: list[bool]) -> None:
    samples = [RIGHT] + [RIGHT if p else WRONG for p in pattern]
    forward = get_rule("assay")(ScoreInputs((), FULL, agreement(samples)))
    backward = get_rule("assay")(ScoreInputs((), FULL, agreement([RIGHT, *samples[:0:-1]])))
    assert forward.score == backward.score
    assert 0.0 <= forward.score <= 1.0
