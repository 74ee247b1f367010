"""Issue 11: the first wall resolves names by scope, reads only allowed catalogue views, bounds
what a query can allocate, and accepts the SQL analysts write.

- every attack of ``attacks.sql`` is refused with its expected code and never sent;
- every query of ``analyst.sql`` is accepted and returns the engine's own rows (PostgreSQL as
  the ``assay pg-role`` role, never a superuser);
- generated nested CTEs and subqueries whose names shadow a real table resolve in the guard's
  analysis exactly as the engine reads them (a marker column says which table was read).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pytest
import sqlglot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlglot import exp

from assay.catalog import Catalog, ColumnInfo, TableInfo
from assay.connectors import PooledConnector, connect
from assay.guard import analyse
from assay.pipeline import run_sql
from assay.semantic import SemanticLayer
from assay.semantic._model import ForbiddenJoin, RetiredColumn
from assay.settings import load_settings
from tests.fixtures import shop
from tests.fixtures.corpus import read_blocks

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "guard"
SETTINGS = load_settings({}, time_limit_ms=2_000, max_rows=1_000)
SEMANTIC = SemanticLayer(
    name="shop",
    retired_columns=(RetiredColumn("customers", "email", reason="moved to the CRM"),),
    forbidden_joins=(ForbiddenJoin("customers", "products", reason="no key between them"),),
)
VIEW = "CREATE VIEW paid_orders AS SELECT * FROM orders WHERE status = 'paid'"
PG_ROLE = "assay_reader_i11"
PG_DATABASE = "assay_issue11"


@dataclass(frozen=True)
class Case:
    title: str
    dialects: tuple[str, ...]
    code: str
    sql: str


def load(name: str) -> list[Case]:
    return [
        Case(title, tuple(headers["dialects"].split()), headers.get("code", ""), body.strip())
        for title, headers, body in read_blocks(HERE / name, ("dialects", "code"))
    ]


def _params(name: str) -> list[Any]:
    params = []
    for case in load(name):
        for dialect in case.dialects:
            marks = [pytest.mark.postgres] if dialect == "postgres" else []
            params.append(pytest.param(case, dialect, id=f"{dialect}-{case.title}", marks=marks))
    return params


# -- databases: the shop with a view, in each engine ----------------------------------------


@pytest.fixture(scope="module")
def i11_duckdb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = shop.build_duckdb(tmp_path_factory.mktemp("i11") / "shop.duckdb")
    con = duckdb.connect(str(path))
    con.execute(VIEW)
    con.close()
    return path


@pytest.fixture(scope="module")
def i11_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = shop.build_sqlite(tmp_path_factory.mktemp("i11") / "shop.sqlite")
    con = sqlite3.connect(path)
    con.execute(VIEW)
    con.commit()
    con.close()
    return path


@pytest.fixture(scope="module")
def i11_postgres(pg_admin_url: str) -> str:
    """The shop with a view, read as the least-privilege role ``assay pg-role`` creates."""
    import psycopg

    from assay.connectors import pg_role_sql

    url = shop.build_postgres(pg_admin_url, PG_DATABASE)
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(VIEW.replace("CREATE VIEW", "CREATE OR REPLACE VIEW"))
        admin.execute("DROP TABLE IF EXISTS t1")
        admin.execute("CREATE TABLE t1 (src TEXT)")
        admin.execute("INSERT INTO t1 VALUES ('real')")
        admin.execute(
            f"DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{PG_ROLE}') THEN "
            f"EXECUTE 'DROP OWNED BY {PG_ROLE}'; EXECUTE 'DROP ROLE {PG_ROLE}'; END IF; END $$"
        )
        tables = [*shop.rows(), "paid_orders", "t1"]
        admin.execute(pg_role_sql(PG_ROLE, database=PG_DATABASE, tables=tables))  # type: ignore[arg-type]
        assert not admin.execute(
            f"SELECT rolsuper FROM pg_roles WHERE rolname = '{PG_ROLE}'"
        ).fetchone()[0]  # type: ignore[index]
    return re.sub(r"://[^@/]*@", f"://{PG_ROLE}@", url)


def _target(request: pytest.FixtureRequest, dialect: str) -> str:
    name = {"duckdb": "i11_duckdb", "sqlite": "i11_sqlite", "postgres": "i11_postgres"}[dialect]
    return str(request.getfixturevalue(name))


_CONNECTORS: dict[str, PooledConnector] = {}


@pytest.fixture(scope="module", autouse=True)
def _close_connectors() -> Iterator[None]:
    yield
    for connector in _CONNECTORS.values():
        connector.close()
    _CONNECTORS.clear()


def _connector(request: pytest.FixtureRequest, dialect: str) -> PooledConnector:
    target = _target(request, dialect)
    if target not in _CONNECTORS:
        _CONNECTORS[target] = connect(target, SETTINGS)
    return _CONNECTORS[target]


def _engine_rows(dialect: str, target: str, sql: str) -> list[tuple[Any, ...]]:
    """The engine's own rows for ``sql``, run directly (PostgreSQL as the same role)."""
    if dialect == "duckdb":
        con = duckdb.connect(target, read_only=True)
        try:
            return [tuple(r) for r in con.execute(sql).fetchall()]
        finally:
            con.close()
    if dialect == "sqlite":
        lite = sqlite3.connect(f"file:{target}?mode=ro", uri=True)
        try:
            return [tuple(r) for r in lite.execute(sql).fetchall()]
        finally:
            lite.close()
    import psycopg

    with psycopg.connect(target) as pg:
        return [tuple(r) for r in pg.execute(sql).fetchall()]  # type: ignore[arg-type]


# -- the corpora ------------------------------------------------------------------------------


def test_corpus_sizes_and_classes() -> None:
    attacks, benign = load("attacks.sql"), load("analyst.sql")
    assert len(attacks) >= 60 and len(benign) >= 60
    assert {d for c in attacks for d in c.dialects} == {"duckdb", "sqlite", "postgres"}
    assert {c.code for c in attacks} >= {
        "guard.catalogue_view",
        "guard.forbidden_function",
        "guard.unbounded_allocation",
        "guard.unbounded_recursion",
        "guard.cartesian_product",
        "guard.retired_column",
        "guard.forbidden_join",
        "guard.unknown_column",
        "guard.forbidden_statement",
    }
    assert all(c.code.startswith("guard.") for c in attacks)


@pytest.mark.parametrize(("case", "dialect"), _params("attacks.sql"))
def test_attack_refused_with_its_code_and_never_sent(
    case: Case, dialect: str, request: pytest.FixtureRequest
) -> None:
    connector = _connector(request, dialect)
    before = len(connector.statement_log)
    run = run_sql(case.sql, connector, SETTINGS, semantic=SEMANTIC)
    assert not run.report.ok and run.report.sql is None and run.result is None
    assert case.code in run.report.codes, [v.to_dict() for v in run.report.violations]
    assert [s for s in connector.statement_log[before:] if s.purpose == "query"] == []


@pytest.mark.parametrize(("case", "dialect"), _params("analyst.sql"))
def test_analyst_sql_accepted_with_the_engines_own_rows(
    case: Case, dialect: str, request: pytest.FixtureRequest
) -> None:
    connector = _connector(request, dialect)
    run = run_sql(case.sql, connector, SETTINGS, semantic=SEMANTIC)
    assert run.report.ok, [v.to_dict() for v in run.report.violations]
    assert run.result is not None and not run.result.truncated
    own = _engine_rows(dialect, _target(request, dialect), case.sql)
    assert sorted(map(repr, run.result.rows)) == sorted(map(repr, own))


# -- scope-correct resolution against the engine ---------------------------------------------

_MARKER_CATALOG = Catalog(
    (TableInfo("t1", (ColumnInfo("src", "TEXT"),)),), (), "duckdb", ("main",), "main"
)


@st.composite
def _shadowing_query(draw: st.DrawFn, depth: int = 0) -> str:
    """``SELECT src FROM ...`` nesting derived tables and CTEs named ``t1`` (shadowing the
    real table ``t1``) at random levels, in the probe's path or beside it."""
    n = draw(st.integers(min_value=0, max_value=999))
    if depth < 4 and draw(st.booleans()):
        inner = draw(_shadowing_query(depth + 1))
        source = f"({inner}) AS d{depth}"
    else:
        source = "t1"
    query = f"SELECT src FROM {source}"
    if draw(st.booleans()):  # a CTE beside the probe's path: must not hide the real table
        query = (
            f"SELECT src, (WITH t1 AS (SELECT 'side{n}' AS src) SELECT src FROM t1) AS side "
            f"FROM {source}"
        )
    kind = draw(st.sampled_from(["none", "constant", "pass"]))
    if kind == "constant":
        query = f"WITH t1 AS (SELECT 'cte{n}' AS src) {query}"
    elif kind == "pass":  # a CTE body reading t1 reads the t1 visible outside the CTE
        query = f"WITH t1 AS (SELECT src FROM t1) {query}"
    return query


def _guard_marker(sql: str, dialect: str) -> str:
    """Which source the probe reads, by the guard's analysis alone."""
    tree = sqlglot.parse_one(sql, read=dialect)
    analysis = analyse(tree, dialect, _MARKER_CATALOG)
    assert analysis.error is None

    def probe_of(select: exp.Expr) -> exp.Table:
        from_ = select.args["from_"].this
        if isinstance(from_, exp.Subquery):
            return probe_of(from_.this)
        assert isinstance(from_, exp.Table)
        return from_

    def read(table: exp.Table) -> str:
        ref = analysis.table_ref(table)
        if ref.kind == "base":
            return "real"
        scope = analysis.cte_scope(table)
        assert scope is not None and ref.kind == "cte"
        body = analysis.original(scope.expression)
        projection = body.expressions[0]
        if isinstance(projection, exp.Alias) and isinstance(projection.this, exp.Literal):
            return projection.this.name
        return read(probe_of(body))

    return read(probe_of(tree))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sql=_shadowing_query())
def test_shadowing_resolution_equals_the_engines(sql: str) -> None:
    duck = duckdb.connect()
    duck.execute("CREATE TABLE t1 (src TEXT); INSERT INTO t1 VALUES ('real')")
    lite = sqlite3.connect(":memory:")
    lite.executescript("CREATE TABLE t1 (src TEXT); INSERT INTO t1 VALUES ('real');")
    try:
        for dialect, engine in (("duckdb", duck), ("sqlite", lite)):
            try:
                rows = engine.execute(sql).fetchall()
            except sqlite3.OperationalError as exc:
                # SQLite reads a CTE naming itself as recursion and refuses it: nothing to read.
                assert "circular reference" in str(exc) and dialect == "sqlite"
                continue
            assert {r[0] for r in rows} == {_guard_marker(sql, dialect)}, (dialect, sql)
    finally:
        duck.close()
        lite.close()


@pytest.mark.postgres
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sql=_shadowing_query())
def test_shadowing_resolution_equals_postgres(sql: str, i11_postgres: str) -> None:
    import psycopg

    with psycopg.connect(i11_postgres) as pg:
        rows = pg.execute(sql).fetchall()  # type: ignore[arg-type]
    assert {r[0] for r in rows} == {_guard_marker(sql, "postgres")}, sql
