"""Calibrators: a score becomes a probability of being right, fitted on labelled verdicts.

``IsotonicCalibrator`` wraps scikit-learn's ``IsotonicRegression`` (monotone, clipped to
[0, 1]) and stores only its breakpoints as JSON, so a saved calibrator is auditable data and
loading it runs no code.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from assay.errors import InputError, ScoringError

__all__ = ["IsotonicCalibrator", "fit_isotonic"]


@dataclass(frozen=True)
class IsotonicCalibrator:
    """A monotone map from score to probability, by linear interpolation between breakpoints."""

    x: tuple[float, ...]
    y: tuple[float, ...]
    n: int
    rule: str = ""
    version: str = "isotonic-1"

    def __call__(self, score: float) -> float:
        return float(np.interp(score, self.x, self.y))

    @property
    def digest(self) -> str:
        payload = json.dumps(self.to_dict(), sort_keys=True).encode()
        return hashlib.sha256(payload).hexdigest()[:16]

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "isotonic",
            "version": self.version,
            "rule": self.rule,
            "n": self.n,
            "x": list(self.x),
            "y": list(self.y),
        }

    def save(self, path: Path) -> None:
        path.write_text(
            json.dumps(self.to_dict(), indent=2, sort_keys=True) + "\n", encoding="utf-8"
        )

    @classmethod
    def load(cls, path: Path) -> IsotonicCalibrator:
        try:
            raw = json.loads(Path(path).read_text(encoding="utf-8"))
            if raw.get("kind") != "isotonic":
                raise ValueError("not an isotonic calibrator")
            x, y = tuple(float(v) for v in raw["x"]), tuple(float(v) for v in raw["y"])
            if not x or len(x) != len(y):
                raise ValueError("breakpoints are empty or unequal in length")
            return cls(
                x, y, int(raw["n"]), str(raw.get("rule", "")), str(raw.get("version", "isotonic-1"))
            )
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise InputError(
                f"Cannot read calibrator {str(path)!r}: {exc}.",
                hint="Create one with 'assay calibrate verdicts.jsonl --labels labels.jsonl'.",
            ) from exc


def fit_isotonic(
    scores: Sequence[float], labels: Sequence[int], *, rule: str = ""
) -> IsotonicCalibrator:
    """Fit P(right | score) as a non-decreasing step function (scikit-learn, clipped to [0, 1]).

    Raises:
        ScoringError: fewer than two answers, or labels of one class only (no probability can
            be learned from one class).
    """
    from sklearn.isotonic import IsotonicRegression

    x = np.asarray(scores, dtype=float)
    y = np.asarray(labels, dtype=float)
    if len(x) < 2 or len(set(y.tolist())) < 2:
        raise ScoringError(
            f"Cannot calibrate on {len(x)} answers with labels {sorted(set(y.tolist()))}.",
            hint="Calibration needs labelled answers of both classes (some right, some wrong).",
        )
    model = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip", increasing=True)
    model.fit(x, y)
    xs = tuple(round(float(v), 9) for v in model.X_thresholds_)
    ys = tuple(round(float(v), 9) for v in model.y_thresholds_)
    return IsotonicCalibrator(xs, ys, len(x), rule)
