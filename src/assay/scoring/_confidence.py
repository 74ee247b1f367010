"""The fitted confidence model of the rule-gated agent (the benchmark paper's Section 4).

An L2-regularised logistic regression over four inference-time features of one deterministic
candidate: join count, SQL length, repair attempts and verification-issue count. Fitted on the
benchmark's dev split (returned answers, labelled right or wrong), its operating threshold
chosen on validation, and its generalisation estimated leave-one-family-out, because SQL
complexity partly identifies the template family and a row-wise split would leak.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from assay.errors import InputError, ScoringError

__all__ = ["FEATURES", "ConfidenceModel", "fit_confidence"]

FEATURES = ("join_count", "sql_length", "repair_attempts", "verification_issues")


@dataclass(frozen=True)
class ConfidenceModel:
    coef: tuple[float, ...]
    intercept: float
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    threshold: float
    lofo_auroc: float | None
    n_train: int
    version: str = "logistic-1"

    def predict(self, features: dict[str, float]) -> float:
        x = [
            (features.get(name, 0.0) - m) / s
            for name, m, s in zip(FEATURES, self.mean, self.scale, strict=True)
        ]
        z = self.intercept + sum(c * v for c, v in zip(self.coef, x, strict=True))
        return 1.0 / (1.0 + math.exp(-z))

    def save(self, path: Path) -> None:
        Path(path).write_text(
            json.dumps(asdict(self), indent=2, sort_keys=True) + "\n", encoding="utf-8"
        )

    @classmethod
    def load(cls, path: Path) -> ConfidenceModel:
        try:
            raw = json.loads(Path(path).read_text(encoding="utf-8"))
            return cls(
                **{
                    **raw,
                    "coef": tuple(raw["coef"]),
                    "mean": tuple(raw["mean"]),
                    "scale": tuple(raw["scale"]),
                }
            )
        except (OSError, json.JSONDecodeError, TypeError, KeyError) as exc:
            raise InputError(
                f"Cannot read confidence model {str(path)!r}: {exc}.",
                hint="Fit one with 'assay bench confidence'.",
            ) from exc


def _matrix(rows: Sequence[dict[str, float]]) -> np.ndarray:
    return np.array([[float(r.get(name, 0.0)) for name in FEATURES] for r in rows])


def fit_confidence(
    train: Sequence[tuple[dict[str, float], int, str]],
    validation: Sequence[tuple[dict[str, float], int, str]],
) -> ConfidenceModel:
    """Fit on ``train`` (features, label, family); threshold on ``validation``.

    Raises:
        ScoringError: the training answers are all right or all wrong (no model can be learned
            from one class), naming how many there were.
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score

    labels = np.array([y for _, y, _ in train])
    if len(set(labels.tolist())) < 2:
        kind = "right" if labels.size and labels[0] == 1 else "wrong"
        raise ScoringError(
            f"Cannot fit the confidence model: all {labels.size} returned answers in the "
            f"training split are {kind} (one class).",
            hint="The logistic model needs both right and wrong answers to learn from.",
        )
    x = _matrix([f for f, _, _ in train])
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    model = LogisticRegression(C=1.0).fit((x - mean) / scale, labels)
    families = np.array([f for _, _, f in train])
    predictions = np.zeros(len(labels))
    for family in sorted(set(families.tolist())):
        held = families == family
        if len(set(labels[~held].tolist())) < 2:
            predictions[held] = np.nan
            continue
        part = LogisticRegression(C=1.0).fit(((x - mean) / scale)[~held], labels[~held])
        predictions[held] = part.predict_proba(((x - mean) / scale)[held])[:, 1]
    usable = ~np.isnan(predictions)
    lofo = (
        float(roc_auc_score(labels[usable], predictions[usable]))
        if len(set(labels[usable].tolist())) == 2
        else None
    )
    fitted = ConfidenceModel(
        tuple(float(c) for c in model.coef_[0]),
        float(model.intercept_[0]),
        tuple(mean.tolist()),
        tuple(scale.tolist()),
        0.5,
        lofo,
        len(labels),
    )
    return _threshold(fitted, validation)


def _threshold(
    model: ConfidenceModel, validation: Sequence[tuple[dict[str, float], int, str]]
) -> ConfidenceModel:
    """The threshold that maximises (right shown) - (wrong shown) on validation."""
    if not validation:
        return model
    scored = [(model.predict(f), y) for f, y, _ in validation]
    best, best_gain = model.threshold, -math.inf
    for t in sorted({p for p, _ in scored} | {0.5}):
        gain = sum((1 if y else -1) for p, y in scored if p >= t)
        if gain > best_gain:
            best, best_gain = t, gain
    return ConfidenceModel(**{**asdict(model), "threshold": float(best)})
