"""Appendix I features from a prefix: telemetry absent is NaN, schema grounding through the
guard's resolver and the declared keys, literals grounded in the question or observations."""

from __future__ import annotations

import math

import numpy as np

from assay.monitor import FEATURE_NAMES, FeatureExtractor, Run, Step
from tests.monitor._runs import CATALOG

IDX = {name: i for i, name in enumerate(FEATURE_NAMES)}


def _features(run: Run, t: int) -> dict[str, float]:
    vec = FeatureExtractor({"db": CATALOG}).features(run, t)
    return {name: float(vec[i]) for name, i in IDX.items()}


RUN = Run(
    "r",
    "Which singers sang in concert 7?",
    "db",
    (
        Step("sql", sql="SELECT nme FROM singer", error="no such column: nme"),
        Step(
            "sql",
            sql="SELECT s.name FROM singer s JOIN concert c ON c.id = s.id WHERE c.id = 7",
            row_count=0,
        ),
        Step(
            "sql",
            sql="SELECT s.name FROM singer s JOIN concert c ON c.singer_id = s.id "
            "WHERE c.id = 7 AND s.name = 'Zed'",
            row_count=1,
            observation="[('Ann',)]",
        ),
    ),
    final="answer",
    final_sql="SELECT s.name FROM singer s JOIN concert c ON c.singer_id = s.id "
    "WHERE c.id = 7 AND s.name = 'Zed'",
    dialect="sqlite",
)


def test_prefix_features() -> None:
    at0 = _features(RUN, 0)
    assert math.isnan(at0["empty_rate"]) and at0["n_steps"] == 0 and at0["failed_refs"] == 0
    at2 = _features(RUN, 2)
    assert at2["error_rate"] == 0.5 and at2["empty_rate"] == 0.5
    assert at2["failed_refs"] == 1  # 'nme' does not resolve
    assert at2["bad_joins"] == 1  # c.id = s.id is not a declared key; c.singer_id = s.id is
    assert math.isnan(at2["ungrounded_frac"])  # no committed SQL before the end
    end = _features(RUN, 3)
    assert end["bad_joins"] == 1 and end["n_steps"] == 3
    assert end["ungrounded_frac"] == 0.5  # 7 is in the question, 'Zed' appears nowhere


def test_token_telemetry_is_absent_not_zero() -> None:
    vec = _features(RUN, 3)
    assert all(math.isnan(vec[k]) for k in ("lp_mean", "lp_min", "ent_mean", "ent_max"))
    step = Step(
        "sql", sql="SELECT 1", row_count=1, token_logprobs=(-0.1, -2.0), token_entropies=(0.5, 1.5)
    )
    with_lp = _features(Run("r", "q", "db", (step,)), 1)
    assert with_lp["lp_mean"] == np.mean([-0.1, -2.0]) and with_lp["lp_min"] == -2.0
    assert with_lp["ent_max"] == 1.5


def test_unknown_database_leaves_schema_features_missing() -> None:
    vec = FeatureExtractor({}).features(RUN, 2)
    assert math.isnan(vec[IDX["failed_refs"]]) and math.isnan(vec[IDX["bad_joins"]])
