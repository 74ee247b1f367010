"""Sampler reliabilities: fitted, saved, loaded, refused when malformed, and used as weights."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.agreement import agreement
from assay.errors import InputError, ScoringError
from assay.generators import SampleRecord
from assay.pipeline import Scorer
from assay.scoring import SamplerReliability, fit_reliability
from assay.types import Result

RIGHT = Result(("n",), ((1,),), 1)
WRONG = Result(("n",), ((2,),), 1)


def test_fit_save_load(tmp_path: Path) -> None:
    fitted = fit_reliability({"good": [True] * 8, "poor": [False] * 8})
    assert fitted.samplers == {"good": 0.9, "poor": 0.1}
    path = tmp_path / "rel.json"
    fitted.save(path)
    assert SamplerReliability.load(path) == fitted


@pytest.mark.parametrize(
    "text",
    [
        '{"kind": "other", "samplers": {"a": 0.5}}',
        '{"kind": "assay.sampler_reliability", "samplers": {"a": 0}}',
        "nonsense",
        '{"kind": "assay.sampler_reliability"}',
    ],
    ids=["kind", "zero", "not-json", "no-samplers"],
)
def test_malformed_files_are_refused(tmp_path: Path, text: str) -> None:
    path = tmp_path / "rel.json"
    path.write_text(text)
    with pytest.raises(InputError):
        SamplerReliability.load(path)


def test_weighted_agreement() -> None:
    samples = [RIGHT, RIGHT, WRONG]
    assert agreement(samples).a == pytest.approx(2 / 3)
    weighted = agreement(samples, weights=[1.0, 1.0, 2.0])
    assert weighted.a == pytest.approx(0.5) and weighted.weights == (1.0, 1.0, 2.0)
    with pytest.raises(ScoringError):
        agreement(samples, weights=[1.0, 0.0, 1.0])
    with pytest.raises(ScoringError):
        agreement(samples, weights=[1.0])


def test_scorer_weighs_named_samplers_and_says_when_it_cannot(shop_duckdb: Path) -> None:
    count, other = "SELECT count(*) FROM orders", "SELECT 7 AS n"
    raw = {
        "id": "q",
        "db": str(shop_duckdb),
        "question": "How many orders?",
        "samples": [
            {"final_sql": count, "sampler": "a"},
            {"final_sql": count, "sampler": "b"},
            {"final_sql": other, "sampler": "c"},
        ],
    }
    record = SampleRecord.model_validate(raw)
    reliability = SamplerReliability({"a": 0.5, "b": 0.5, "c": 1.0})
    with Scorer.named("assay", reliability=reliability) as scorer:
        verdict = scorer.score(record)
        assert verdict.agreement["a"] == pytest.approx(0.5)
        assert verdict.agreement["weights"] == [0.5, 0.5, 1.0]
        raw["samples"][2]["sampler"] = "unknown"  # type: ignore[index]
        unweighted = scorer.score(SampleRecord.model_validate(json.loads(json.dumps(raw))))
    assert unweighted.agreement["a"] == pytest.approx(2 / 3)
    note = next(f for f in unweighted.findings if f.code == "note.reliability_unused")
    assert note.evidence == {"unknown": ["unknown"]}
