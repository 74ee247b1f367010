"""Shared fixtures: the shop database in each engine, and the PostgreSQL server.

PostgreSQL tests need ``ASSAY_TEST_PG_URL`` (``make test`` starts a server with
``scripts/pg start`` and sets it). In CI (``CI=true``) a missing server fails the run; elsewhere
those tests skip with a message saying how to enable them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from assay.connectors import PooledConnector, connect
from tests.fixtures import shop

PG_HOW = (
    "PostgreSQL tests skipped: start a server with 'scripts/pg start' and set "
    "ASSAY_TEST_PG_URL to the URL it prints (make test does both)."
)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens", action="store_true", help="Rewrite golden files from current output."
    )


# Tests on a server that ``make test`` starts once (PostgreSQL creates fixed database and role
# names; Spark registers fixed table names) run on one pytest-xdist worker per server, so two
# workers never create the same database at once. Everything else is spread over the workers.
_SHARED_SERVERS = {"pg_admin_url": "postgres", "spark_url": "spark"}


def pytest_itemcollected(item: pytest.Item) -> None:
    # At collection of each item, before any pytest_collection_modifyitems (xdist reads the
    # xdist_group marks in its own, whose order against a conftest hook is not guaranteed).
    names = getattr(item, "fixturenames", ())
    group = next((g for f, g in _SHARED_SERVERS.items() if f in names), None)
    # A test parametrized over engines asks for the server's fixture by name at run time
    # (request.getfixturevalue), which fixturenames cannot see: its postgres mark can.
    if item.get_closest_marker("postgres") is not None:
        group = "postgres"
    if group is not None:
        item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(scope="session")
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


@pytest.fixture(scope="session")
def shop_duckdb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shop.build_duckdb(tmp_path_factory.mktemp("shop") / "shop.duckdb")


@pytest.fixture(scope="session")
def tpch_duckdb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """TPC-H at scale factor 0.01 in DuckDB (about 3 s to build), once per session for every
    test that reads it. Treat it as read-only."""
    from assay.bench.datasets import build_tpc

    return build_tpc("tpch", 0.01, tmp_path_factory.mktemp("tpch") / "tpch.duckdb")


@pytest.fixture(scope="session")
def tpcds_duckdb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """TPC-DS at scale factor 0.01 in DuckDB, once per session (per xdist worker) for every test
    that reads it. Treat it as read-only."""
    from assay.bench.datasets import build_tpc

    return build_tpc("tpcds", 0.01, tmp_path_factory.mktemp("tpcds") / "tpcds.duckdb")


@pytest.fixture(scope="session")
def shop_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shop.build_sqlite(tmp_path_factory.mktemp("shop") / "shop.sqlite")


@pytest.fixture(scope="session")
def pg_admin_url() -> str:
    url = os.environ.get("ASSAY_TEST_PG_URL", "")
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but ASSAY_TEST_PG_URL is not set: the PostgreSQL tests must run.")
        pytest.skip(PG_HOW)
    return url


@pytest.fixture(scope="session")
def shop_postgres(pg_admin_url: str) -> str:
    return shop.build_postgres(pg_admin_url, "assay_shop")


@pytest.fixture(scope="session")
def shop_targets(shop_duckdb: Path, shop_sqlite: Path) -> dict[str, str]:
    return {"duckdb": str(shop_duckdb), "sqlite": str(shop_sqlite)}


@pytest.fixture(scope="module")
def duck(shop_duckdb: Path) -> Iterator[PooledConnector]:
    with connect(str(shop_duckdb)) as connector:
        yield connector


@pytest.fixture(scope="module")
def lite(shop_sqlite: Path) -> Iterator[PooledConnector]:
    with connect(str(shop_sqlite)) as connector:
        yield connector


@pytest.fixture(scope="module")
def pg(shop_postgres: str) -> Iterator[PooledConnector]:
    with connect(shop_postgres) as connector:
        yield connector


@pytest.fixture(scope="session")
def shop_postgres_reader(shop_postgres: str) -> str:
    """The shop database as the least-privilege role ``assay pg-role`` creates."""
    import psycopg

    from assay.connectors import pg_role_sql

    role = "assay_reader_test"
    with psycopg.connect(shop_postgres, autocommit=True) as admin:
        admin.execute(
            f"DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{role}') THEN "
            f"EXECUTE 'DROP OWNED BY {role}'; EXECUTE 'DROP ROLE {role}'; END IF; END $$"
        )
        sql = pg_role_sql(role, database="assay_shop", tables=list(shop.rows()))
        admin.execute(sql)  # type: ignore[arg-type]
    return shop_postgres.replace("://postgres@", f"://{role}@")


@pytest.fixture(scope="module")
def pg_reader(shop_postgres_reader: str) -> Iterator[PooledConnector]:
    with connect(shop_postgres_reader) as connector:
        yield connector


WRB_SEED, WRB_SCALE = 0, 0.3


@pytest.fixture(scope="session")
def wrb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reliability benchmark (seed 0, scale 0.3): warehouses, semantic layers, tasks.

    Generated once per test session (about 2 s) for every test that reads it; tests that need
    another seed or scale generate a small one of their own. Treat it as read-only.
    """
    from assay.bench.warehouses import generate_benchmark

    folder = tmp_path_factory.mktemp("wrb-session") / "bench"
    generate_benchmark(folder, seed=WRB_SEED, scale=WRB_SCALE)
    return folder
