"""Rosetta 4.3's routing: the published weights and thresholds, the soft pin, forcing PII; and
the layer fields it reads (tier names and caps validated, PII refused unless allowed)."""

from __future__ import annotations

import pytest

from assay.errors import SemanticError
from assay.gate import POLICIES, WEIGHTS, detect_mode, route, route_score
from assay.pipeline._routing import forcing_pii
from assay.semantic import parse_semantic
from assay.types import Result

BEST = {"execution_ok": 1, "link_calibrated_probability": 1, "catalog_entry_mean_confidence": 1}


def test_published_weights_and_thresholds() -> None:
    assert WEIGHTS["magnitude_cohort_outlier_penalty"] == -0.30
    assert WEIGHTS["catalog_entry_mean_confidence"] == 0.18
    assert (POLICIES["CRYPTIC_LEGACY"].confirm_at, POLICIES["CRYPTIC_LEGACY"].refuse_at) == (
        0.65,
        0.20,
    )
    assert POLICIES["AMBIGUOUS_DOC"].refuse_at == 0.05


def test_route_is_thresholded_arithmetic() -> None:
    assert route(BEST, "DOCUMENTED_STRONG").route == "answer"
    assert route(BEST, "DOCUMENTED_STRONG", soft_pin=True).route == "confirm_first"
    outlier = {**BEST, "magnitude_cohort_outlier_penalty": 1}  # 0.28 / 0.58 = 0.483
    assert route(outlier, "DOCUMENTED_STRONG").route == "confirm_first"
    both = {**outlier, "row_count_implausible_penalty": 1}  # 0.13 / 0.58 = 0.224
    assert route(both, "DOCUMENTED_STRONG").route == "confirm_first"
    assert route(both, "CRYPTIC_LEGACY").route == "confirm_first"
    low = {**both, "catalog_entry_mean_confidence": 0.5}  # 0.04 / 0.58 = 0.069
    assert route(low, "DOCUMENTED_STRONG").route == "refuse"
    assert route(low, "AMBIGUOUS_DOC").route == "confirm_first"
    assert route({**BEST, "execution_ok": 0}, "DOCUMENTED_STRONG").route == "refuse"
    assert route(BEST, "DOCUMENTED_STRONG", forcing_pii=True).route == "refuse"
    # a calibrator maps the raw score before the thresholds
    assert route(BEST, "DOCUMENTED_STRONG", calibrator=lambda s: 0.1).route == "refuse"
    assert route_score(both) == pytest.approx(0.13 / 0.58, abs=1e-6)


def test_mode_from_tiers() -> None:
    assert detect_mode([None, None], 3, 5) == "DOCUMENTED_STRONG"
    assert detect_mode([4, 5], 3, 5) == "AMBIGUOUS_DOC"
    assert detect_mode([5, 0], 3, 5) == "CRYPTIC_LEGACY"


def _layer(**extra: object) -> dict[str, object]:
    return {
        "name": "t",
        "metrics": [{"name": "n", "table": "people", "expression": "count(*)"}],
        "dimensions": [{"name": "ssn", "column": "people.ssn"}],
        **extra,
    }


def test_layer_without_time_and_authority_fields_load() -> None:
    layer = parse_semantic(_layer())
    assert layer.clock is None and layer.coverage is None and layer.metrics[0].time_column == ""
    with pytest.raises(SemanticError, match=r"exceeds the cap 0\.6"):
        parse_semantic(
            _layer(
                joins=[
                    {"left": "a.b", "right": "c.d", "tier": "PATTERN_CONFIRMED", "confidence": 0.9}
                ]
            )
        )
    with pytest.raises(SemanticError, match="is not a tier"):
        parse_semantic(_layer(joins=[{"left": "a.b", "right": "c.d", "tier": "SURE"}]))


def test_forcing_pii_refused_unless_allowed() -> None:
    sql = "SELECT people.ssn AS ssn, COUNT(*) AS value FROM people GROUP BY people.ssn"
    declared = parse_semantic(_layer(pii={"people.ssn": "ssn"}))
    assert forcing_pii(sql, None, declared, "duckdb") == [("people.ssn", "ssn")]
    allowed = parse_semantic(_layer(pii={"people.ssn": "ssn"}, allow_pii=["ssn"]))
    assert forcing_pii(sql, None, allowed, "duckdb") == []
    counted = "SELECT COUNT(DISTINCT people.ssn) AS value FROM people"
    assert forcing_pii(counted, None, declared, "duckdb") == []
    # undeclared, but the returned values prove it (Luhn-valid card numbers)
    cards = Result(("card", "value"), (("4111111111111111", 1), ("5500005555555559", 2)), 2)
    assert forcing_pii("SELECT 1", cards, parse_semantic(_layer()), "duckdb") == [
        ("card", "payment_card")
    ]
    plain = Result(("name", "value"), (("Ann", 1),), 1)
    assert forcing_pii("SELECT 1", plain, parse_semantic(_layer()), "duckdb") == []
