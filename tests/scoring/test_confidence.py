"""The fitted confidence model: learns from both classes, refuses one, estimates per family."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from assay.errors import ScoringError
from assay.scoring import ConfidenceModel, fit_confidence


def _rows(seed: int, n: int) -> list[tuple[dict[str, float], int, str]]:
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        joins = int(rng.integers(0, 4))
        length = float(rng.normal(200 + 120 * joins, 40))
        right = int(rng.random() < 1 / (1 + np.exp(joins - 1.5)))
        rows.append(
            (
                {
                    "join_count": joins,
                    "sql_length": length,
                    "repair_attempts": 0,
                    "verification_issues": 0,
                },
                right,
                f"family-{i % 12}",
            )
        )
    return rows


def test_fits_negative_weight_on_complexity(tmp_path: Path) -> None:
    model = fit_confidence(_rows(1, 400), _rows(2, 150))
    assert model.coef[0] < 0  # more joins, less confidence
    assert model.lofo_auroc is not None and model.lofo_auroc > 0.6
    simple = model.predict({"join_count": 0, "sql_length": 150})
    compound = model.predict({"join_count": 3, "sql_length": 600})
    assert simple > compound
    path = tmp_path / "m.json"
    model.save(path)
    assert ConfidenceModel.load(path) == model


def test_one_class_is_refused_with_the_count() -> None:
    rows = [({"join_count": 1}, 1, "f") for _ in range(30)]
    with pytest.raises(
        ScoringError, match="all 30 returned answers in the training split are right"
    ):
        fit_confidence(rows, [])
