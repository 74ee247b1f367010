"""The advice of ``cap.unconfirmed_fact`` leads somewhere (outside tryout 16: on car_1 the tester
ran ``semantic init --store``, ``catalog accept 11`` and ``17`` as the message said, drafted
again, and met the same CONFIRM FIRST with the same advice, printed twice).

The whole loop, through the CLI as a user runs it: draft with a fact store, ask, take the fact
id the message names, accept it, draft again, ask again: the answer is shown, with the rows
counted by SQL written here on the real data. The cap is named once however many bounds rest
on the fact ("in 1970" is two bounds on Year). Tuned on the tryout's questions.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import click
from click.testing import CliRunner

from assay.cli import main
from tests.semantic._helpers import spider_db


def _ask(db: Path, layer: Path, question: str) -> list[str]:
    run = CliRunner().invoke(main, ["ask", question, "--db", str(db), "--semantic", str(layer)])
    assert run.exit_code == 0, run.output
    return [click.unstyle(line).strip() for line in run.output.splitlines()]


def _count(db: Path, sql: str) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        return int(con.execute(sql).fetchone()[0])


def test_accepting_the_named_facts_lifts_the_cap(tmp_path: Path) -> None:
    db = spider_db("car_1")
    store, layer = tmp_path / "facts.db", tmp_path / "car.yaml"
    init = ["semantic", "init", "--db", str(db), "--out", str(layer), "--store", str(store)]
    assert CliRunner().invoke(main, init).exit_code == 0
    asked = {
        "how many cars made in 1970": "SELECT count(*) FROM cars_data WHERE Year = 1970",
        "how many cars with more than 4 cylinders": (
            "SELECT count(*) FROM cars_data WHERE Cylinders > 4"
        ),
    }
    for question in asked:
        lines = _ask(db, layer, question)
        assert lines[1].startswith("CONFIRM FIRST"), lines
        caps = [line for line in lines if line.startswith("cap.unconfirmed_fact:")]
        assert len(caps) == 1, caps  # named once, though "in 1970" is two bounds
        # the advice names the fact by its id and says the layer must be drafted again
        assert "draft the layer again" in caps[0], caps[0]
        found = re.search(r"assay catalog accept (\d+) --store", caps[0])
        assert found is not None, caps[0]
        accept = ["catalog", "accept", found.group(1), "--store", str(store)]
        run = CliRunner().invoke(main, accept)
        assert run.exit_code == 0, run.output
    assert CliRunner().invoke(main, [*init, "--force"]).exit_code == 0
    for question, sql in asked.items():
        lines = _ask(db, layer, question)
        assert lines[1].startswith("SHOW"), lines
        assert not any(line.startswith("cap.unconfirmed_fact") for line in lines), lines
        assert f"was {_count(db, sql)}." in lines[2], lines  # 35 cars; 195 cars
