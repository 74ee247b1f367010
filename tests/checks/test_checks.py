"""Each check on small, real inputs: the right finding fires, and only then."""

from __future__ import annotations

from collections.abc import Iterator

import duckdb
import pytest

from assay.catalog import Profiles
from assay.checks import (
    CHECKS,
    CheckContext,
    JudgeReport,
    extract_numbers,
    run_checks,
)
from assay.connectors import PooledConnector, connect
from assay.types import Candidate, Result


@pytest.fixture(scope="module")
def coded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PooledConnector]:
    """A table whose `age` uses -1 for unknown (2% of rows) and `big` uses 99999999."""
    path = tmp_path_factory.mktemp("coded") / "coded.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE people AS SELECT i AS id, CASE WHEN i % 50 = 0 THEN -1 ELSE "
        "18 + i % 60 END AS age, CASE WHEN i % 100 = 0 THEN 99999999 ELSE i * 3 END "
        "AS big, i % 7 AS team FROM range(1, 1001) t(i)"
    )
    con.execute("CREATE TABLE teams AS SELECT i AS team_id, 'T' || i AS name FROM range(0, 7) t(i)")
    con.close()
    with connect(str(path)) as connector:
        yield connector


def _ctx(
    connector: PooledConnector,
    sql: str,
    *,
    text: str | None = None,
    question: str = "q",
    judge: JudgeReport | None = None,
) -> CheckContext:
    result = connector.execute(sql, time_limit_ms=5_000, max_rows=100)
    catalog = connector.catalog()
    return CheckContext(
        question,
        Candidate(sql, (), text, result),
        connector.dialect,
        catalog,
        Profiles(connector, catalog),
        judge=judge,
    )


def codes(ctx: CheckContext) -> list[str]:
    return [f.code for f in run_checks(ctx).findings]


def test_registry_is_ordered_and_thin_evidence_is_last() -> None:
    assert CHECKS[-1].__name__ == "thin_evidence"
    assert len({c.__name__ for c in CHECKS}) == len(CHECKS)


def test_missing_table_but_not_a_cte(coded: PooledConnector) -> None:
    catalog = coded.catalog()
    sql = "WITH t AS (SELECT 1 AS x) SELECT * FROM t JOIN people_2024 ON true"
    ctx = CheckContext("q", Candidate(sql), "duckdb", catalog)
    report = run_checks(ctx)
    missing = [f for f in report.findings if f.code == "veto.missing_table"]
    assert [f.evidence["table"] for f in missing] == ["people_2024"]
    assert report.measures["g_tab"] == 0.0
    ok = run_checks(
        CheckContext("q", Candidate("WITH t AS (SELECT 1) SELECT * FROM t"), "duckdb", catalog)
    )
    assert ok.measures["g_tab"] == 1.0


def test_sqlite_catalogue_is_not_a_fabricated_table(lite: PooledConnector) -> None:
    ctx = CheckContext("q", Candidate("SELECT name FROM sqlite_master"), "sqlite", lite.catalog())
    assert "veto.missing_table" not in codes(ctx)


def test_g_tab_is_a_share_over_parsed_queries(coded: PooledConnector) -> None:
    candidate = Candidate(
        "SELECT 1 FROM people", ("SELECT * FROM nope", "SELECT 1 FROM people", "SELEC broken")
    )
    report = run_checks(CheckContext("q", candidate, "duckdb", coded.catalog()))
    assert report.measures["g_tab"] == pytest.approx(0.5)


def test_good_join_passes_and_bad_join_vetoes(coded: PooledConnector) -> None:
    good = _ctx(
        coded,
        "SELECT t.name, count(*) FROM people p JOIN teams t ON p.team = t.team_id GROUP BY t.name",
    )
    report = run_checks(good)
    assert "veto.bad_join" not in [f.code for f in report.findings]
    assert report.measures["g_join"] == 1.0
    bad = _ctx(coded, "SELECT count(*) FROM people p JOIN teams t ON p.age = t.team_id")
    found = [f for f in run_checks(bad).findings if f.code == "veto.bad_join"]
    assert len(found) == 1
    assert found[0].evidence["rho"] < 0.85


def test_stand_in_returned_as_value(coded: PooledConnector) -> None:
    ctx = _ctx(coded, "SELECT id, age FROM people WHERE id IN (49, 50, 51) ORDER BY id")
    found = [f for f in run_checks(ctx).findings if f.code == "veto.stand_in_returned"]
    assert found and found[0].evidence["code"] == -1
    clean = _ctx(coded, "SELECT id, age FROM people WHERE id IN (48, 49) ORDER BY id")
    report = run_checks(clean)
    assert "veto.stand_in_returned" not in [f.code for f in report.findings]
    assert report.measures["g_val"] == 1.0


def test_large_stand_in_code(coded: PooledConnector) -> None:
    ctx = _ctx(coded, "SELECT max(big) FROM people")
    assert "veto.stand_in_returned" in codes(ctx)


def test_profile_finds_the_codes(coded: PooledConnector) -> None:
    profiles = Profiles(coded, coded.catalog())
    age = profiles.profile("people", "age")
    assert age is not None and age.stand_in_values == frozenset({-1})
    assert age.stand_ins[0].share == pytest.approx(0.02)
    team = profiles.profile("people", "team")
    assert team is not None and team.stand_ins == ()


@pytest.mark.parametrize(
    ("text", "cited"),
    [
        ("There are 120 people.", True),
        ("The share is 42.1%.", True),
        ("The share is 42%.", True),
        ("The share is 43%.", False),
        ("The average is 0.4213.", True),
        ("The average is 0.42.", True),
        ("The average is 0.43.", False),
        ("There are 3 rows with 2 teams.", None),
        ("Found 2 rows.", None),
    ],
    ids=[
        "cell",
        "percent-x100",
        "percent-rounded",
        "percent-wrong",
        "exact",
        "rounded",
        "wrong-rounding",
        "small-integers-ignored",
        "row-count-ignored-small",
    ],
)
def test_numbers_cited(text: str, cited: bool | None) -> None:
    result = Result(("n", "share"), ((120, 0.4213), (7, 0.1)), 2)
    ctx = CheckContext("How many?", Candidate("SELECT 1", (), text, result), "duckdb")
    report = run_checks(ctx)
    uncited = [f for f in report.findings if f.code == "cap.uncited_number"]
    if cited is None:
        assert not uncited and report.measures["schema"] is None
    elif cited:
        assert not uncited and report.measures["schema"] == 1.0
    else:
        assert uncited


def test_numbers_in_question_ignored_and_row_count_cites() -> None:
    result = Result(("name",), tuple((f"n{i}",) for i in range(12)), 12)
    ctx = CheckContext(
        "Top 10 in 2024?",
        Candidate("SELECT 1", (), "In 2024 there are 12 names, top 10 shown.", result),
        "duckdb",
    )
    report = run_checks(ctx)
    assert "cap.uncited_number" not in [f.code for f in report.findings]
    assert report.measures["schema"] == 1.0


def test_extract_skips_dates_and_words() -> None:
    assert [n.text for n in extract_numbers("Q3 2024-05-01 had 1,234.50 and ISO8601")] == [
        "1,234.50"
    ]


def test_empty_result_signal() -> None:
    ctx = CheckContext("q", Candidate("SELECT 1", (), None, Result(("n",), (), 0)), "duckdb")
    assert "signal.empty_result" in codes(ctx)


def test_thin_evidence() -> None:
    result = Result(("n",), ((42,),), 1)
    bare = CheckContext("q", Candidate("SELECT 42", (), None, result), "duckdb")
    assert "cap.thin_evidence" in codes(bare)  # no catalogue: GROUNDED unmeasured


def test_enough_evidence(coded: PooledConnector) -> None:
    ctx = _ctx(coded, "SELECT count(*) AS n FROM people", text="There are 1000 people.")
    report = run_checks(ctx)
    assert "cap.thin_evidence" not in [f.code for f in report.findings]
    assert report.measures["g_tab"] == 1.0 and report.measures["schema"] == 1.0


def test_judge_claims_split_answer_and_commentary() -> None:
    judge = JudgeReport.from_dict(
        {
            "complete": 0.4,
            "claims": [
                {"text": "growth doubled", "supported": False, "about": "answer"},
                {"text": "likely seasonal", "supported": False, "about": "commentary"},
                {"text": "fine", "supported": True},
            ],
            "issues": [{"kind": "intent_mismatch", "about": "answer"}],
        }
    )
    ctx = CheckContext(
        "q", Candidate("SELECT 1", (), "x", Result(("n",), ((1,),), 1)), "duckdb", judge=judge
    )
    found = codes(ctx)
    assert found.count("cap.unsupported_claim") == 1
    assert found.count("note.unsupported_commentary") == 1
    assert "cap.incomplete" in found and "note.judge_issue" in found
    assert run_checks(ctx).measures["complete"] == 0.4
