"""``cap.limit_cuts_tie``: a LIMIT that cuts through a tie shows one of several equally right
rows as if it were the only one. Outside tryout 14 on the Spider slice: dev 142 ("What model has
the most different versions?", every model counted once, 'amc' shown at 0.894 for the gold
'ford') and dev 102 (one of 35 cars of 1970 shown as "the" earliest). Real data: Spider car_1,
skipped when the shared slice is absent."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from assay.cli import main
from tests.semantic._helpers import spider_db


def _verdict(tmp_path: Path, db: Path, sql: str, question: str) -> dict:  # type: ignore[type-arg]
    samples = tmp_path / "s.jsonl"
    record = {"id": "q", "db": str(db), "question": question, "samples": [{"final_sql": sql}] * 5}
    samples.write_text(json.dumps(record) + "\n")
    out = tmp_path / "v.jsonl"
    result = CliRunner().invoke(main, ["score", str(samples), "--out", str(out)])
    assert result.exit_code == 0, result.output
    verdict: dict = json.loads(out.read_text().splitlines()[0])  # type: ignore[type-arg]
    return verdict


def _codes(verdict: dict) -> list[str]:  # type: ignore[type-arg]
    return [f["code"] for f in verdict["findings"]]


@pytest.mark.parametrize(
    ("sql", "question"),
    [
        (  # dailsql_gpt4's answer to spider-dev-142
            "SELECT Model FROM model_list GROUP BY Model ORDER BY count(*) DESC LIMIT 1",
            "What model has the most different versions?",
        ),
        (  # spider-dev-102's question, its earliest year shared by many cars
            "SELECT Id, Year FROM cars_data ORDER BY Year ASC LIMIT 1",
            "Which car was produced in the earliest year and what year was it?",
        ),
    ],
    ids=["dev-142", "earliest-car"],
)
def test_spider_answers_whose_limit_cuts_a_tie_are_warned(
    tmp_path: Path, sql: str, question: str
) -> None:
    verdict = _verdict(tmp_path, spider_db("car_1"), sql, question)
    assert "cap.limit_cuts_tie" in _codes(verdict)
    assert verdict["action"] != "show"


def test_dev_102_joins_unrelated_keys_and_is_withheld(tmp_path: Path) -> None:
    # dailsql_gpt4's answer to spider-dev-102 (its limit cuts a tie too) joins car_makers.Id
    # to cars_data.Id: car_1 declares its keys, so the guard refuses it (guard.unrelated_join)
    sql = (
        "SELECT T1.Maker, T2.Year FROM car_makers AS T1 JOIN cars_data AS T2 "
        "ON T1.Id = T2.Id ORDER BY T2.Year ASC LIMIT 1"
    )
    question = "What is the maker of the carr produced in the earliest year and what year was it?"
    verdict = _verdict(tmp_path, spider_db("car_1"), sql, question)
    assert verdict["action"] == "withhold"
    assert any("guard.unrelated_join" in f["message"] for f in verdict["failures"])


def test_the_gold_answer_of_dev_142_has_no_tie(tmp_path: Path) -> None:
    # car_names: 'ford' has the most versions, alone (checked by SQL below).
    db = spider_db("car_1")
    with sqlite3.connect(db) as con:
        top = con.execute(
            "SELECT Model, count(*) FROM car_names GROUP BY Model ORDER BY count(*) DESC LIMIT 2"
        ).fetchall()
    assert top[0][0] == "ford" and top[0][1] > top[1][1]
    verdict = _verdict(
        tmp_path,
        db,
        "SELECT Model FROM car_names GROUP BY Model ORDER BY count(*) DESC LIMIT 1",
        "What model has the most different versions?",
    )
    assert "cap.limit_cuts_tie" not in _codes(verdict)
    assert verdict["action"] == "show"


@pytest.fixture()
def scores(tmp_path: Path) -> Path:
    db = tmp_path / "scores.sqlite"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE scores (name TEXT, points INTEGER)")
        con.executemany(
            "INSERT INTO scores VALUES (?, ?)",
            [("a", 9), ("b", 7), ("c", 7), ("d", 5), ("e", 3)],
        )
    return db


@pytest.mark.parametrize(
    ("sql", "tied"),
    [
        ("SELECT name FROM scores ORDER BY points DESC LIMIT 2", True),  # b and c tie at 7
        ("SELECT name FROM scores ORDER BY points DESC LIMIT 3", False),  # both kept
        ("SELECT name FROM scores ORDER BY points DESC LIMIT 1", False),
        ("SELECT name, points AS p FROM scores ORDER BY p DESC LIMIT 2", True),  # by alias
        ("SELECT name, points FROM scores ORDER BY 2 DESC LIMIT 2", True),  # by position
        ("SELECT name FROM scores ORDER BY points DESC, name LIMIT 2", False),  # name breaks it
        ("SELECT name FROM scores ORDER BY points DESC LIMIT 10", False),  # fewer rows
        ("SELECT name FROM scores ORDER BY points DESC", False),  # no limit
        # OFFSET (outside tryout 17: "the second oldest" as LIMIT 1 OFFSET 1, two tied)
        ("SELECT name FROM scores ORDER BY points DESC LIMIT 1 OFFSET 1", True),  # c cut after
        ("SELECT name FROM scores ORDER BY points DESC LIMIT 1 OFFSET 2", True),  # b skipped
        ("SELECT name FROM scores ORDER BY points DESC LIMIT 2 OFFSET 1", False),  # both kept
        ("SELECT name FROM scores ORDER BY points DESC LIMIT 1 OFFSET 3", False),  # d alone
        ("SELECT name FROM scores ORDER BY points DESC LIMIT 2, 1", True),  # SQLite's form
    ],
)
def test_ties_at_the_limit(tmp_path: Path, scores: Path, sql: str, tied: bool) -> None:
    verdict = _verdict(tmp_path, scores, sql, "Which players scored most?")
    assert ("cap.limit_cuts_tie" in _codes(verdict)) is tied
