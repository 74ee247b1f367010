"""Outside tryout 35, w3: "How many influencers were mentioned on Instagram?" as
``count(influencer)`` over mention rows counts 7 mentions of 1 influencer (shown at 1.00); a
column named the noun itself is measured as an id column is."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.checks._helpers import codes, scored

QUESTION = "How many influencers were mentioned on Instagram?"


def _mentions(path: Path) -> Path:
    con = sqlite3.connect(path)
    con.execute(
        "CREATE TABLE mentions (mention_id INTEGER PRIMARY KEY, platform TEXT, influencer TEXT)"
    )
    rows = [(i, "Instagram", "maya") for i in range(7)] + [(7, "Instagram", None), (8, "X", "li")]
    con.executemany("INSERT INTO mentions VALUES (?, ?, ?)", rows)
    con.commit()
    con.close()
    return path


def test_mentions_counted_for_influencers_are_withheld(tmp_path: Path) -> None:
    db = _mentions(tmp_path / "m.sqlite")
    sql = "SELECT count(influencer) FROM mentions WHERE platform = 'Instagram'"
    verdict = scored(tmp_path, db, QUESTION, *[sql] * 5)
    assert "signal.aggregate_mismatch" in codes(verdict), verdict["reasons"]
    assert verdict["action"] == "withhold"


def test_influencers_counted_once_are_shown(tmp_path: Path) -> None:
    db = _mentions(tmp_path / "m.sqlite")
    sql = "SELECT count(DISTINCT influencer) FROM mentions WHERE platform = 'Instagram'"
    question = "How many different influencers were mentioned on Instagram?"
    verdict = scored(tmp_path, db, question, *[sql] * 5)
    assert "signal.aggregate_mismatch" not in codes(verdict), verdict["reasons"]
