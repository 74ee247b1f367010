"""What the checks' tests share: one record scored through ``assay score`` as a user runs it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from assay.cli import main
from tests.semantic._helpers import spider_db


def scored(tmp_path: Path, db: str | Path, question: str, *sqls: str) -> dict[str, Any]:
    """The verdict ``assay score`` writes for one record: ``db`` a path, or the name of a
    database of the Spider slice (the test is skipped when the slice is absent); one sample
    per SQL."""
    tmp_path = tmp_path / str(len(list(tmp_path.iterdir())))
    tmp_path.mkdir()
    samples = tmp_path / "s.jsonl"
    record = {
        "id": "q",
        "db": str(db if isinstance(db, Path) else spider_db(db)),
        "question": question,
        "samples": [{"final_sql": sql} for sql in sqls],
    }
    samples.write_text(json.dumps(record) + "\n")
    out = tmp_path / "v.jsonl"
    result = CliRunner().invoke(main, ["score", str(samples), "--out", str(out)])
    assert result.exit_code == 0, result.output
    verdict: dict[str, Any] = json.loads(out.read_text().splitlines()[0])
    return verdict


def codes(verdict: dict[str, Any]) -> list[str]:
    """The codes of a verdict's findings, in order."""
    return [f["code"] for f in verdict["findings"]]


def wrong_withheld_right_clear(
    tmp_path: Path,
    case: tuple[str, str | Path, str, str, str, str],
    right_shown: bool = False,
) -> None:
    """One wrong-and-right pair ``(name, db, question, wrong, right, code)`` (``db`` a path or
    a Spider database's name), each as five agreeing samples: the wrong SQL draws ``code`` and
    is withheld, the right one does not draw it (and, with ``right_shown``, is shown)."""
    name, db, question, wrong, right, code = case
    verdict = scored(tmp_path, db, question, *[wrong] * 5)
    assert code in codes(verdict), (name, codes(verdict))
    assert verdict["action"] == "withhold"
    fine = scored(tmp_path, db, question, *[right] * 5)
    assert code not in codes(fine), (name, codes(fine))
    if right_shown:
        assert fine["action"] == "show", (name, fine["reasons"])
