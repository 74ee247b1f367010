"""Feedback that calibrates: an isotonic map per database from the ledger's labelled answers.

Each database's calibrator is fitted on the answers that had feedback when it was fitted, and the
ids it was fitted on are written beside it. The service judges only answers asked after it
loads the calibrator, so no answer's own feedback ever judges that answer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from assay.errors import ScoringError
from assay.ledger import Ledger
from assay.scoring import IsotonicCalibrator, fit_isotonic

__all__ = ["LedgerCalibration", "calibrate_from_ledger"]


@dataclass(frozen=True)
class LedgerCalibration:
    database: str
    n_labelled: int
    calibrator: IsotonicCalibrator | None
    reason: str  # why none was fitted, or "" when one was


def calibrate_from_ledger(
    ledger: Ledger, out: Path, *, min_labels: int = 50
) -> list[LedgerCalibration]:
    """Fit and save ``out/<database>.json`` (and ``<database>.ids.json``) for every database
    with at least ``min_labels`` labelled answers of both classes, all scored by one rule
    (answers to questions only: ``/api/sql`` and ``/api/score`` verdicts are scored otherwise).

    Raises:
        ScoringError: the ledger holds no labelled answers at all.
    """
    answers = ledger.labelled()
    if not answers:
        raise ScoringError(
            "The ledger holds no labelled answers.",
            hint="Give feedback (thumbs up or down) on answers in the page or POST /api/feedback.",
        )
    out.mkdir(parents=True, exist_ok=True)
    done = []
    for database in sorted({a.database for a in answers}):
        mine = [a for a in answers if a.database == database]
        if len(mine) < min_labels:
            done.append(
                LedgerCalibration(
                    database,
                    len(mine),
                    None,
                    f"{len(mine)} labelled answers, fewer than {min_labels}",
                )
            )
            continue
        rules = sorted({a.rule for a in mine})
        if len(rules) > 1:
            done.append(
                LedgerCalibration(
                    database, len(mine), None, f"the answers mix scoring rules {rules}"
                )
            )
            continue
        try:
            calibrator = fit_isotonic(
                [a.score for a in mine], [a.label for a in mine], rule=rules[0]
            )
        except ScoringError as exc:
            done.append(LedgerCalibration(database, len(mine), None, exc.message))
            continue
        calibrator.save(out / f"{database}.json")
        (out / f"{database}.ids.json").write_text(
            json.dumps(sorted(a.id for a in mine)) + "\n", encoding="utf-8"
        )
        done.append(LedgerCalibration(database, len(mine), calibrator, ""))
    return done
