"""Shared by the reading tests: a question read and decided on one layer."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from assay.cli import main
from assay.semantic import BehaviourDecision, Lexicon, Reading, SemanticLayer, decide, read

SPIDER = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "spider-slice"
# The real semantic models (../shared/data/semantic-models): the Cube TPC-H starter cubes and the
# MetricFlow tutorial's sample models.
SEMANTIC_MODELS = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "semantic-models"
CUBE_MODELS = SEMANTIC_MODELS / "cube-workshop-tpch" / "static" / "cube-models" / "1-starter"
CUBE = CUBE_MODELS / "model" / "cubes"
MF_TUTORIAL = (
    SEMANTIC_MODELS / "metricflow-tutorial" / "dbt-metricflow" / "dbt_metricflow" / "cli"
) / "sample_dbt_models"


def read_and_decide(
    question: str, layer: SemanticLayer, lexicon: Lexicon | None = None
) -> tuple[Reading, BehaviourDecision]:
    """The reading of ``question`` and the behaviour decided from it."""
    reading = read(question, layer, lexicon or Lexicon(layer))
    return reading, decide(reading, layer)


def spider_db(name: str) -> Path:
    """A Spider database of the shared slice (the test is skipped when the slice is absent)."""
    db = SPIDER / "database" / name / f"{name}.sqlite"
    if not db.exists():
        pytest.skip("the Spider slice is absent")
    return db


def draft(db: Path, out: Path) -> Path:
    """A layer drafted by `assay semantic init`, as a new user would, and checked clean."""
    run = CliRunner().invoke(main, ["semantic", "init", "--db", str(db), "--out", str(out)])
    assert run.exit_code == 0, run.output
    check = CliRunner().invoke(main, ["semantic", "check", "--db", str(db), "--semantic", str(out)])
    assert check.exit_code == 0, check.output
    return out


def drafted_spider(name: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(a Spider database, the layer drafted from it), drafted once per test run and shared by
    every test and xdist worker (read only: nothing writes the layer file)."""
    from tests.conftest import built_once

    db = spider_db(name)

    def build(folder: Path) -> None:
        folder.mkdir(parents=True)
        draft(db, folder / "layer.yaml")

    return db, built_once(tmp_path_factory, f"drafted-{name}", build) / "layer.yaml"
