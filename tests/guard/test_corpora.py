"""The guard over the corpora: no benign query refused, no adversarial statement accepted, and
the statement log proves nothing refused reached the engine."""

from __future__ import annotations

import pytest

from assay.connectors import PooledConnector
from assay.pipeline import run_sql
from assay.settings import load_settings
from tests.fixtures.corpus import Case, load

FIXTURES = {"duckdb": "duck", "sqlite": "lite", "postgres": "pg_reader"}
SETTINGS = load_settings({}, time_limit_ms=5_000, max_rows=50)


def _params(name: str) -> list[object]:
    params = []
    for case in load(name):
        for dialect in case.dialects:
            marks = [pytest.mark.postgres] if dialect == "postgres" else []
            params.append(pytest.param(case, dialect, id=f"{dialect}-{case.title}", marks=marks))
    return params


def _connector(request: pytest.FixtureRequest, dialect: str) -> PooledConnector:
    connector = request.getfixturevalue(FIXTURES[dialect])
    assert isinstance(connector, PooledConnector)
    return connector


def test_corpus_sizes() -> None:
    assert len(load("benign.sql")) >= 40
    adversarial = load("adversarial.sql")
    assert len(adversarial) >= 80
    assert {d for c in adversarial for d in c.dialects} == {"duckdb", "sqlite", "postgres"}


@pytest.mark.parametrize(("case", "dialect"), _params("benign.sql"))
def test_benign_accepted_and_executes(
    case: Case, dialect: str, request: pytest.FixtureRequest
) -> None:
    connector = _connector(request, dialect)
    run = run_sql(case.sql, connector, SETTINGS)
    assert run.report.ok, [v.to_dict() for v in run.report.violations]
    assert run.result is not None
    assert run.result.columns


@pytest.mark.parametrize(("case", "dialect"), _params("adversarial.sql"))
def test_adversarial_refused_and_never_sent(
    case: Case, dialect: str, request: pytest.FixtureRequest
) -> None:
    connector = _connector(request, dialect)
    before = len(connector.statement_log)
    run = run_sql(case.sql, connector, SETTINGS)
    assert not run.report.ok
    assert run.report.sql is None
    assert run.result is None
    assert run.report.violations, "a refusal must name at least one violation"
    sent = [s for s in connector.statement_log[before:] if s.purpose == "query"]
    assert sent == []
