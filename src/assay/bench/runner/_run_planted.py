"""Running planted errors over correct answers: the paper's Table 3.

For each answer labelled correct, every fault kind is planted into sample 0 (the other samples
unchanged) and the question rescored. Controls are the same answers rescored twice without a
fault; they must come out identical, proving the rescoring itself changes nothing.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from assay.bench.datasets._faults import FAULTS, plant
from assay.generators import SampleRecord
from assay.pipeline import Scorer
from assay.types import Verdict

__all__ = ["FaultRow", "PlantedReport", "run_planted"]


@dataclass
class FaultRow:
    """One fault kind's outcome over the answers it applied to."""

    kind: str
    check: str | None
    planted: int = 0
    codes: tuple[str, ...] = ()
    not_applicable: int = 0
    withheld: int = 0
    not_shown: int = 0
    check_fired: int = 0
    examples: list[dict[str, Any]] = field(default_factory=list)

    def shares(self) -> dict[str, Any]:
        def share(n: int) -> float:
            return n / self.planted if self.planted else math.nan

        return {
            "kind": self.kind,
            "check": self.check,
            "codes": list(self.codes),
            "planted": self.planted,
            "not_applicable": self.not_applicable,
            "withheld": share(self.withheld),
            "not_shown": share(self.not_shown),
            "check_fired": share(self.check_fired) if self.check else math.nan,
            "check_fired_reason": "" if self.check else "only a judge model checks this kind",
        }


@dataclass
class PlantedReport:
    rule: str
    rows: dict[str, FaultRow]
    controls: int = 0
    controls_identical: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "controls": self.controls,
            "controls_identical": self.controls_identical,
            "faults": [row.shares() for row in self.rows.values()],
        }


def _same(a: Verdict, b: Verdict) -> bool:
    return (a.score, a.action, a.reasons, tuple(f.to_dict()["code"] for f in a.findings)) == (
        b.score,
        b.action,
        b.reasons,
        tuple(f.to_dict()["code"] for f in b.findings),
    )


def run_planted(
    records: Iterable[SampleRecord], scorer: Scorer, kinds: Iterable[str] = tuple(FAULTS)
) -> PlantedReport:
    """Plant each kind into every correct answer and rescore; rescore controls twice."""
    kinds = tuple(kinds)
    report = PlantedReport(
        scorer.rule.name,
        {k: FaultRow(k, FAULTS[k].check, codes=FAULTS[k].codes) for k in kinds},
    )
    for record in records:
        if record.label != 1:
            continue
        candidates, _ = scorer.execute_samples(record)
        first = scorer.score(record, candidates=candidates)
        again = scorer.score(record, candidates=candidates)
        report.controls += 1
        report.controls_identical += int(_same(first, again))
        database = scorer.database(record.db)
        for kind in kinds:
            row = report.rows[kind]
            planted = plant(
                kind,
                candidates[0],
                dialect=database.connector.dialect,
                catalog=database.catalog,
                profiles=database.profiles,
            )
            if planted is None:
                row.not_applicable += 1
                continue
            verdict = scorer.score(
                record, candidates=[planted.candidate, *candidates[1:]], stand_ins=planted.stand_ins
            )
            row.planted += 1
            row.withheld += verdict.action == "withhold"
            row.not_shown += verdict.action != "show"
            fired = bool(set(row.codes) & {f.code for f in verdict.findings})
            row.check_fired += fired
            if len(row.examples) < 3:
                row.examples.append(
                    {
                        "id": record.id,
                        "detail": planted.detail,
                        "action": verdict.action,
                        "reasons": list(verdict.reasons),
                    }
                )
    return report
