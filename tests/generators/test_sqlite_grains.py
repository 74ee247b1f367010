"""Periods and time grains on SQLite, which has no YEAR() or DATE_TRUNC() (outside tryout 14 on
an EHRSQL-style SQLite database: every period question was withheld, its DATE('...') bounds
unread by the fit check, and "by month" failed in the engine), and years from 2100 on (MIMIC's
dates are shifted into 2100-2200: "How many admissions in 2101?" was asked back). Expected
values are counted in Python from the rows written."""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterator

import pytest

from assay.connectors import connect
from assay.pipeline import Agent
from assay.semantic import load_semantic

START = dt.date(2099, 1, 1)
DAYS = [START + dt.timedelta(days=3 * i + i % 2) for i in range(480)]  # 2099 to early 2103

LAYER = """
name: admissions
tables:
  admissions: {}
metrics:
- name: admissions_count
  label: admissions
  synonyms: [admissions]
  table: admissions
  expression: count(*)
  time_column: admissions.admittime
coverage: {start: 2099-01-01, end: 2102-12-31}
clock: 2102-12-31
"""


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Agent]:
    folder = tmp_path_factory.mktemp("sqlite_grains")
    db = folder / "m.sqlite"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE admissions (row_id INTEGER PRIMARY KEY, admittime TIMESTAMP)")
        con.executemany(
            "INSERT INTO admissions VALUES (?, ?)",
            [(i, f"{d.isoformat()} 10:{i % 60:02d}:00") for i, d in enumerate(DAYS)],
        )
    layer = folder / "m.yaml"
    layer.write_text(LAYER)
    connector = connect(str(db))
    yield Agent(connector, load_semantic(layer))
    connector.close()


def _rows(agent: Agent, question: str) -> list[tuple[object, ...]]:
    verdict = agent.ask(question)
    assert verdict.behaviour == "answer", verdict.provenance.get("message")
    assert verdict.action == "show", (verdict.reasons, verdict.provenance.get("message"))
    assert verdict.candidate is not None and verdict.candidate.result is not None
    return [tuple(r) for r in verdict.candidate.result.rows]


def test_a_year_after_2100_is_a_period(agent: Agent) -> None:
    want = sum(1 for d in DAYS if d.year == 2101)
    assert _rows(agent, "How many admissions in 2101?") == [(want,)]


def test_by_year_on_sqlite(agent: Agent) -> None:
    want = sorted(Counter(d.year for d in DAYS if d.year <= 2102).items())
    assert sorted(_rows(agent, "number of admissions by year")) == want


@pytest.mark.parametrize(
    ("grain", "first_day"),
    [
        ("month", lambda d: d.replace(day=1)),
        ("quarter", lambda d: d.replace(month=(d.month - 1) // 3 * 3 + 1, day=1)),
        ("week", lambda d: d - dt.timedelta(days=d.weekday())),
        ("day", lambda d: d),
    ],
)
def test_grains_on_sqlite(
    agent: Agent, grain: str, first_day: Callable[[dt.date], dt.date]
) -> None:
    want = Counter(first_day(d).isoformat() for d in DAYS if d.year == 2100)
    got = _rows(agent, f"number of admissions by {grain} in 2100")
    assert {str(k): v for k, v in got} == dict(want)
