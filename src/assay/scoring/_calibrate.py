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

__all__ = ["IsotonicCalibrator", "fit_isotonic", "flat_map"]


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


def flat_map(scores: list[float], calibrator: IsotonicCalibrator) -> str:
    """Why a fitted map cannot rank answers, and what Chow's rule will then do; "" when it can.

    A map that gives every score one probability (one distinct score among the labelled
    answers, or labels that pool into one level) puts every answer on the same side of the
    threshold: outside tryout 36, 54 answers (``assay calibrate --ledger``) all scored 1.0
    fitted P(right) = 0.7963, below the default threshold 0.80, and every answer was then
    withheld with no word said.

    Example:
        >>> print(flat_map([1.0, 1.0], IsotonicCalibrator((1.0,), (0.7963,), 2))[:80])
        the 2 labelled answers have 1 distinct score (1); the map gives every answer P(r
        >>> flat_map([0.2, 0.9], IsotonicCalibrator((0.2, 0.9), (0.1, 0.9), 2))
        ''
    """
    if len(set(calibrator.y)) > 1:
        return ""
    distinct = sorted(set(scores))
    listed = ", ".join(f"{v:g}" for v in distinct[:5]) + (", ..." if len(distinct) > 5 else "")
    p = calibrator.y[0]
    said = (
        f"the {len(scores)} labelled answers have {len(distinct)} distinct "
        f"score{'' if len(distinct) == 1 else 's'} ({listed}); the map gives every answer "
        f"P(right) = {p:.4f} and cannot rank them"
    )
    if p >= 1.0:
        return f"{said}; Chow's rule will show every answer, at any cost"
    if p <= 0.0:
        return f"{said}; Chow's rule will withhold every answer, at any cost"
    return (
        f"{said}; Chow's rule will withhold every answer when its cost is above "
        f"{p / (1 - p):.2f} (cost 4 needs 0.80) and show every one otherwise (a vetoed "
        "answer stays withheld). "
        "Label answers of several scores"
    )
