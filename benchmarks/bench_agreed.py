"""Agreed answers: K = 5 samples that carry the same SQL (a model that agrees with itself), on
the Spider slice's car_1, concert_singer and pets_1, scored by ``assay score`` (assay-1.0).

Agreement cannot tell these apart: every record's agreement is 1. Only the deterministic
question-vs-SQL checks can withhold a wrong one, so this set measures them, and what they cost
right answers.

The set (``benchmarks/heldout/agreed14/``, 73 records: 36 right, 37 wrong) was written on
2026-12-02 by a helper who read none of Assay's code, checks or tests: each record's label comes
from running its SQL against the helper's own gold SQL (``gold.jsonl``, with why each wrong one
is wrong). The scoring bundle was frozen as ``benchmarks/prereg/assay-1.0-r7.json`` before the
set was first scored. That first look is kept in ``FIRST_LOOK``; the checks built after it from
the kinds of wrong answers it showed were tuned on this set, so every later run of this
benchmark is a tuned-on number and is reported as such.

``python -m benchmarks agreed`` (needs ../shared/data/spider-slice; skipped when absent).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from benchmarks._common import report, write

SET = Path(__file__).parent / "heldout" / "agreed14"
SLICE = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "spider-slice"

# The first and only held-out look (bundle 5ac9cccdb78effac, frozen as assay-1.0-r7 before it),
# and the same set scored by the code before this session's checks (main 2fad328).
FIRST_LOOK = {
    "r7_held_out": {
        "right": {"show": 34, "withhold": 2},
        "wrong": {"show": 19, "warn": 1, "withhold": 17},
    },
    "before_2fad328": {
        "right": {"show": 34, "withhold": 2},
        "wrong": {"show": 26, "warn": 1, "withhold": 10},
    },
}


def _score(samples: Path, out: Path) -> list[dict[str, object]]:
    assay = Path(sys.executable).parent / "assay"
    subprocess.run(
        [str(assay), "score", str(samples), "--out", str(out)],
        check=True,
        capture_output=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def run() -> dict[str, object]:
    if not SLICE.exists():
        print("\n== agreed: skipped (../shared/data/spider-slice is absent)")
        return {}
    with tempfile.TemporaryDirectory() as tmp:
        verdicts = _score(SET / "samples.jsonl", Path(tmp) / "verdicts.jsonl")
    counts = Counter((int(str(v["label"])), str(v["action"])) for v in verdicts)
    right = {a: n for (label, a), n in sorted(counts.items()) if label == 1}
    wrong = {a: n for (label, a), n in sorted(counts.items()) if label == 0}
    n_right, n_wrong = sum(right.values()), sum(wrong.values())
    shown_wrong = sorted(
        str(v["id"]) for v in verdicts if v["label"] == 0 and v["action"] == "show"
    )
    withheld_right = sorted(
        str(v["id"]) for v in verdicts if v["label"] == 1 and v["action"] == "withhold"
    )
    record: dict[str, object] = {
        "records": len(verdicts),
        "right": right,
        "wrong": wrong,
        "wrong_shown": shown_wrong,
        "right_withheld": withheld_right,
        "tuned_on": True,
        "first_look": FIRST_LOOK,
    }
    write("agreed", record)
    report(
        "agreed (TUNED ON after the first look: wrong shown 19/37, right withheld 2/36)",
        [
            ("wrong answers shown", f"{len(shown_wrong)}/{n_wrong}", "reported", True),
            ("right answers withheld", f"{len(withheld_right)}/{n_right}", "reported", True),
            ("right answers shown", f"{right.get('show', 0)}/{n_right}", "reported", True),
        ],
    )
    return record
