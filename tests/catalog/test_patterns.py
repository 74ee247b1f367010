"""Tier B: checksum promotion, the contamination step, PII from values, Tier C verification."""

from __future__ import annotations

import random

import pytest
from faker import Faker
from stdnum import ean, isbn, luhn

from assay.catalog import EngineStats, NamerProposal, Tier, fingerprint, verify_proposal
from assay.catalog._patterns import match_patterns


def _column(values: list[str], name: str = "c7") -> tuple[str | None, str | None, Tier | None]:
    stats = EngineStats(
        len(values),
        0,
        len(set(values)),
        min(values),
        max(values),
        min(len(v) for v in values),
        max(len(v) for v in values),
    )
    fp = fingerprint("t", name, "VARCHAR", stats, list(values))
    matches = match_patterns(fp, list(values))
    best = matches[0] if matches else None
    pii = next((m.pii for m in matches if m.pii and m.kind != "heuristic"), None)
    return (best.name if best else None), pii, (best.tier if best else None)


def _corrupt(value: str) -> str:
    """Change the last digit so the check digit is wrong (same length and shape)."""
    last = value[-1]
    if not last.isdigit():
        return value[:-1] + "0"
    return value[:-1] + str((int(last) + 1) % 10)


def _faker() -> Faker:
    fake = Faker()
    Faker.seed(7)
    return fake


def _cards(n: int) -> list[str]:
    fake = _faker()
    return [fake.credit_card_number(card_type="visa16") for _ in range(n)]


def _isbn13(n: int) -> list[str]:
    fake = _faker()
    return [fake.isbn13(separator="") for _ in range(n)]


def _isbn10(n: int) -> list[str]:
    fake = _faker()
    return [fake.isbn10(separator="") for _ in range(n)]


def _ean13(n: int) -> list[str]:
    fake = _faker()
    return [fake.ean13() for _ in range(n)]


def _upca(n: int) -> list[str]:
    rng = random.Random(3)
    out = []
    for _ in range(n):
        body = "".join(str(rng.randrange(10)) for _ in range(11))
        out.append(body + ean.calc_check_digit(body))
    return out


def _iban(n: int) -> list[str]:
    fake = _faker()
    return [fake.iban() for _ in range(n)]


SYSTEMS = {
    "payment_card": _cards,
    "isbn13": _isbn13,
    "isbn10": _isbn10,
    "ean13": _ean13,
    "upc_a": _upca,
    "iban": _iban,
}


def test_generators_are_valid() -> None:
    assert all(luhn.is_valid(v) for v in _cards(50))
    assert all(isbn.is_valid(v) for v in _isbn13(50) + _isbn10(50))
    assert all(ean.is_valid(v) for v in _ean13(50) + _upca(50))


@pytest.mark.parametrize("system", sorted(SYSTEMS), ids=sorted(SYSTEMS))
def test_valid_check_digits_promote_and_corrupted_do_not(system: str) -> None:
    values = SYSTEMS[system](200)
    name, _, tier = _column(values)
    assert name == system and tier == Tier.PATTERN_VALIDATED
    corrupted = [_corrupt(v) for v in values]
    bad_name, _, bad_tier = _column(corrupted)
    assert bad_name != system
    assert bad_tier != Tier.PATTERN_VALIDATED


@pytest.mark.parametrize("system", sorted(SYSTEMS), ids=sorted(SYSTEMS))
@pytest.mark.parametrize("bad_percent", [0, 2, 4, 5, 6, 10, 25])
def test_contamination_step_between_5_and_6_percent(system: str, bad_percent: int) -> None:
    values = SYSTEMS[system](200)
    n_bad = 2 * bad_percent  # of 200 values
    values = [_corrupt(v) if i < n_bad else v for i, v in enumerate(values)]
    _, _, tier = _column(values)
    promoted = tier == Tier.PATTERN_VALIDATED
    assert promoted is (bad_percent <= 5)


DECEPTIVE = [
    ("credit_card_number", [str(100000 + i * 7) for i in range(200)]),
    ("email_address", [f"note {i} about the order" for i in range(200)]),
    ("ssn", [str(i) for i in range(1, 201)]),
    ("customer_iban", [random.Random(i).choice(["open", "closed", "frozen"]) for i in range(200)]),
]


@pytest.mark.parametrize("name,values", DECEPTIVE, ids=[d[0] for d in DECEPTIVE])
def test_deceptive_names_are_not_pii(name: str, values: list[str]) -> None:
    assert _column(values, name)[1] is None


def test_innocent_names_with_pii_values_are_found() -> None:
    fake = _faker()
    assert _column(_cards(200), "c7")[1] == "payment_card"
    assert _column([fake.email() for _ in range(200)], "field_3")[1] == "email"
    assert _column(_iban(200), "t2_c11")[1] == "iban"
    ssns = [fake.ssn() for _ in range(200)]
    assert _column(ssns, "x1")[1] == "ssn"


def test_surrogate_key_is_not_an_ssn() -> None:
    values = [str(100000000 + i) for i in range(300)]
    name, pii, _ = _column(values)
    assert name == "surrogate_key" and pii is None


@pytest.mark.parametrize(
    "regex,expected",
    [
        (r"[A-Z]{3}-\d{4}", 1.0),
        (".*", None),
        (r"\S+", None),
        ("([unclosed", None),
        (r"[A-Z]{3}-\d{3}", None),
    ],
    ids=["fits", "trivial-any", "trivial-nonspace", "does-not-compile", "matches-too-few"],
)
def test_tier_c_proposal_is_verified(regex: str, expected: float | None) -> None:
    values = [f"ABC-{1000 + i}" for i in range(100)]
    assert verify_proposal(NamerProposal("code", "code:x", regex), values) == expected


def test_tier_c_needs_ninety_percent() -> None:
    values = [f"ABC-{1000 + i}" for i in range(90)] + ["other"] * 10
    assert verify_proposal(NamerProposal("c", "t", r"ABC-\d{4}"), values) == 0.9
    values = [f"ABC-{1000 + i}" for i in range(89)] + ["other"] * 11
    assert verify_proposal(NamerProposal("c", "t", r"ABC-\d{4}"), values) is None
