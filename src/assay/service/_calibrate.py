"""Feedback that calibrates: an isotonic map per database from the ledger's labelled answers.

Each database's calibrator is fitted on the answers that had feedback when it was fitted, and the
ids it was fitted on are written beside it. The service judges only answers asked after it
loads the calibrator, so no answer's own feedback ever judges that answer.

Every database the ledger holds is reported, fitted or not, with why not in plain words, and
the labels that cannot count (on ``/api/sql`` and ``/api/score`` verdicts, scored by another
rule than the asks') are counted, never dropped in silence (outside tryout 25: 130 such labels
read as "1 labelled answers", a database with none was not named, and one-class labels read
"Cannot calibrate on 55 answers with labels [1.0]").
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from assay.errors import ScoringError
from assay.ledger import LabelledAnswer, Ledger
from assay.scoring import IsotonicCalibrator, fit_isotonic, flat_map

__all__ = ["LedgerCalibration", "calibrate_from_ledger"]

# Verdicts whose labels cannot calibrate the asks' gate: scored by another rule.
_OTHER_KINDS = ("sql", "score")


@dataclass(frozen=True)
class LedgerCalibration:
    database: str
    n_labelled: int
    calibrator: IsotonicCalibrator | None
    reason: str  # why none was fitted, or "" when one was
    n_left_out: int = 0  # labels on /api/sql and /api/score verdicts: not counted
    warning: str = ""  # a map fitted that cannot rank answers: what the gate will do

    @property
    def left_out(self) -> str:
        """Why some labels of this database did not count, or "" when all did."""
        if not self.n_left_out:
            return ""
        return (
            f"{self.n_left_out} label{'s' if self.n_left_out != 1 else ''} on /api/sql or "
            "/api/score verdicts left out: those are scored by another rule than the "
            "questions asked, and the calibrator maps the asks' scores"
        )


def calibrate_from_ledger(
    ledger: Ledger, out: Path, *, min_labels: int = 50
) -> list[LedgerCalibration]:
    """Fit and save ``out/<database>.json`` (and ``<database>.ids.json``) for every database
    with at least ``min_labels`` labelled answers of both classes, all scored by one rule
    (answers to questions only: ``/api/sql`` and ``/api/score`` verdicts are scored otherwise,
    and their labels are counted as left out). Every database in the ledger gets an entry.

    Raises:
        ScoringError: the ledger holds no labelled answers to questions at all.
    """
    answers = ledger.labelled()
    others = [a for kind in _OTHER_KINDS for a in ledger.labelled(kind=kind)]
    if not answers:
        raise ScoringError(
            "The ledger holds no labelled answers to questions"
            + (
                f" ({len(others)} labels on /api/sql or /api/score verdicts do not count)."
                if others
                else "."
            ),
            hint="Give feedback (thumbs up or down) on answers to questions in the page or "
            "POST /api/feedback with the id of an /api/ask verdict.",
        )
    out.mkdir(parents=True, exist_ok=True)
    databases = sorted(set(ledger.databases()) | {a.database for a in answers})
    return [
        _calibrate_one(
            database,
            [a for a in answers if a.database == database],
            sum(1 for a in others if a.database == database),
            out,
            min_labels,
        )
        for database in databases
    ]


def _calibrate_one(
    database: str, mine: list[LabelledAnswer], n_left_out: int, out: Path, min_labels: int
) -> LedgerCalibration:
    def skipped(reason: str) -> LedgerCalibration:
        return LedgerCalibration(database, len(mine), None, reason, n_left_out)

    if not mine:
        return skipped("no labelled answers to questions")
    if len(mine) < min_labels:
        return skipped(f"{len(mine)} labelled answers, fewer than {min_labels}")
    rules = sorted({a.rule for a in mine})
    if len(rules) > 1:
        return skipped(f"the answers mix scoring rules {rules}")
    one_class = _one_class(mine)
    if one_class:
        return skipped(one_class)
    try:
        calibrator = fit_isotonic([a.score for a in mine], [a.label for a in mine], rule=rules[0])
    except ScoringError as exc:
        return skipped(exc.message)
    calibrator.save(out / f"{database}.json")
    (out / f"{database}.ids.json").write_text(
        json.dumps(sorted(a.id for a in mine)) + "\n", encoding="utf-8"
    )
    return LedgerCalibration(
        database,
        len(mine),
        calibrator,
        "",
        n_left_out,
        _flat(mine, calibrator),
    )


def _flat(mine: list[LabelledAnswer], calibrator: IsotonicCalibrator) -> str:
    """``flat_map``'s warning, with the service's way to keep the fixed thresholds."""
    warning = flat_map([a.score for a in mine], calibrator)
    if not warning or calibrator.y[0] >= 1.0 or calibrator.y[0] <= 0.0:
        return warning
    return f"{warning}; or leave calibration.dir unset to keep the thresholds"


def _one_class(answers: list[LabelledAnswer]) -> str:
    """Why labels of one kind only cannot calibrate, in plain words; "" for both kinds.

    Example:
        >>> _one_class([LabelledAnswer("v", "db", "r", 0.9, 1, 1)] * 2).split(";")[0]
        'every one of the 2 labels says the answer was right'
    """
    kinds = {a.label for a in answers}
    if len(kinds) > 1:
        return ""
    said, other = ("right", "wrong") if kinds == {1} else ("wrong", "right")
    return (
        f"every one of the {len(answers)} labels says the answer was {said}; a calibrator "
        f"learns how often a score is wrong from both kinds: label some {other} answers too"
    )
