"""The guard never raises (issue 10 item 1): the SQL of every shared prediction file, as
written and mutated, comes back as a report, and a refusal always names a code."""

from __future__ import annotations

import json
import sqlite3
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay.catalog import Catalog, ColumnInfo, TableInfo
from assay.guard import GuardReport, validate

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
SPIDER = DATA / "spider-slice"
INTERCODE = DATA / "intercode-sql" / "trajectories"
DIALECTS = ("duckdb", "sqlite", "postgres")


@cache
def _statements() -> tuple[tuple[str, str], ...]:
    """(database id, SQL) for every gold query, prediction and trajectory action held."""
    found: list[tuple[str, str]] = []
    questions = SPIDER / "questions.jsonl"
    if questions.exists():
        for line in questions.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            found.append((row["db_id"], row["gold_sql"]))
            found += [(row["db_id"], sql) for sql in row.get("predictions", {}).values() if sql]
    if INTERCODE.exists():
        for path in sorted(INTERCODE.glob("*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                actions = json.loads(line).get("turn_history", {}).get("actions", [])
                found += [("", a) for a in actions if isinstance(a, str) and a.strip()]
    return tuple(dict.fromkeys(found))


@cache
def _catalog(db_id: str) -> Catalog | None:
    path = SPIDER / "database" / db_id / f"{db_id}.sqlite"
    if not db_id or not path.exists():
        return None
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        tables = tuple(
            TableInfo(
                name,
                tuple(
                    ColumnInfo(str(c), str(t or ""))
                    for _, c, t, *_ in con.execute(
                        "SELECT * FROM pragma_table_info(?)", (name,)
                    ).fetchall()
                ),
            )
            for name in sorted(names)
        )
    finally:
        con.close()
    return Catalog(tables, (), "sqlite", ("main",), "main")


def _check(report: object) -> None:
    assert isinstance(report, GuardReport)
    if not report.ok:
        assert report.sql is None
        assert report.violations and all(v.code.startswith("guard.") for v in report.violations)


needs_data = pytest.mark.skipif(not _statements(), reason="../shared/data is not present")


@needs_data
def test_every_shared_statement_as_written() -> None:
    statements = _statements()
    assert len(statements) > 1_000
    for db_id, sql in statements:
        _check(validate(sql, catalog=_catalog(db_id), dialect="sqlite"))


def test_same_table_joined_twice_without_alias_is_a_violation() -> None:
    sql = (
        "SELECT T1.Airline FROM flights JOIN airports ON flights.SourceAirport = "
        "airports.AirportCode JOIN airports ON flights.DestAirport = airports.AirportCode"
    )
    columns = tuple(ColumnInfo(c, "TEXT") for c in ("AirportCode", "City"))
    flights = tuple(ColumnInfo(c, "TEXT") for c in ("Airline", "SourceAirport", "DestAirport"))
    catalog = Catalog((TableInfo("airports", columns), TableInfo("flights", flights)), (), "sqlite")
    for dialect in DIALECTS:
        report = validate(sql, catalog=catalog, dialect=dialect)
        _check(report)
        assert report.codes == ("guard.unresolvable",)


_INSERTS = [
    " JOIN airports ON 1 = 1 ",
    " WITH x AS (SELECT 1) ",
    "(",
    ")",
    ",",
    " * ",
    "'",
    '"',
    ";",
    " -- c\n",
    " UNION SELECT ",
    " AS t ",
    " pg_settings ",
    " repeat('x', 99999999) ",
    " WHERE ",
    " ON ",
    "\x00",
    " LATERAL ",
    " OVER () ",
    " RECURSIVE ",
]


@needs_data
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    index=st.integers(min_value=0),
    edits=st.lists(
        st.tuples(
            st.integers(min_value=0),
            st.sampled_from(["insert", "delete", "swap"]),
            st.sampled_from(_INSERTS),
        ),
        min_size=1,
        max_size=4,
    ),
    dialect=st.sampled_from(DIALECTS),
)
def test_mutated_shared_statements_never_raise(
    index: int, edits: list[tuple[int, str, str]], dialect: str
) -> None:
    statements = _statements()
    db_id, sql = statements[index % len(statements)]
    for position, action, text in edits:
        at = position % (len(sql) + 1)
        if action == "insert":
            sql = sql[:at] + text + sql[at:]
        elif action == "delete":
            sql = sql[:at] + sql[at + len(text) :]
        else:
            sql = sql[at:] + " " + sql[:at]
    _check(validate(sql, catalog=_catalog(db_id), dialect=dialect))
