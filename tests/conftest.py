"""Shared fixtures: the shop database in each engine, and the PostgreSQL server.

PostgreSQL tests need ``ASSAY_TEST_PG_URL`` (``make test`` starts a server with
``scripts/pg start`` and sets it). In CI (``CI=true``) a missing server fails the run; elsewhere
those tests skip with a message saying how to enable them.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from assay.catalog import NameMap
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


def built_once(
    tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], object]
) -> Path:
    """``build(path)`` run once per test run, shared by every pytest-xdist worker.

    The first worker to ask builds under a file lock in the run's shared temporary folder (the
    parent of the workers' own; the session's own folder without xdist); the others wait for it
    and reuse what it built. Callers copy what they may open for writing.
    """
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    shared = root / "built-once"
    shared.mkdir(exist_ok=True)
    path = shared / name
    with open(shared / f".{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not path.exists():
                partial = shared / f".{name}.partial"
                shutil.rmtree(partial, ignore_errors=True)
                partial.unlink(missing_ok=True)
                build(partial)
                partial.rename(path)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return path


def _copy(source: Path, target: Path) -> Path:
    if source.is_dir():
        shutil.copytree(source, target)
    else:
        shutil.copyfile(source, target)
    return target


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

    built = built_once(tmp_path_factory, "tpch.duckdb", lambda p: build_tpc("tpch", 0.01, p))
    return _copy(built, tmp_path_factory.mktemp("tpch") / "tpch.duckdb")


@pytest.fixture(scope="session")
def tpch_draft(tpch_duckdb: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The layer ``assay semantic init`` drafts from the session's TPC-H (seed 0), drafted once
    per session (per xdist worker) for every test that reads it: profiling the catalog is most of
    a draft's time. Treat it as read-only."""
    from click.testing import CliRunner

    from assay.cli import main

    def draft(out: Path) -> None:
        args = ["semantic", "init", "--db", str(tpch_duckdb), "--out", str(out)]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output

    # shared by the workers (a text file, only read); its name is the data's, not the file's
    return built_once(tmp_path_factory, "tpch-draft.yaml", draft)


@pytest.fixture(scope="session")
def tpch_mangled(
    tpch_duckdb: Path, tmp_path_factory: pytest.TempPathFactory
) -> Callable[[float], tuple[Path, NameMap]]:
    """The session's TPC-H mangled at a severity (seed 0): its path and name map, written once
    per run for each severity and shared by the xdist workers. Treat it as read-only."""
    from assay.catalog import mangle, read_name_map

    def get(severity: float) -> tuple[Path, NameMap]:
        def build(folder: Path) -> None:
            folder.mkdir()
            mangle(tpch_duckdb, folder / "m.duckdb", severity=severity, seed=0)

        folder = built_once(tmp_path_factory, f"tpch-mangled-{severity}", build)
        return folder / "m.duckdb", read_name_map(folder / "m.duckdb.names.json")

    return get


@pytest.fixture(scope="session")
def tpcds_duckdb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """TPC-DS at scale factor 0.01 in DuckDB, once per session (per xdist worker) for every test
    that reads it. Treat it as read-only."""
    from assay.bench.datasets import build_tpc

    built = built_once(tmp_path_factory, "tpcds.duckdb", lambda p: build_tpc("tpcds", 0.01, p))
    return _copy(built, tmp_path_factory.mktemp("tpcds") / "tpcds.duckdb")


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

    Generated once per test run (about 2 s; shared by the xdist workers, each reading its own
    copy) for every test that reads it; tests that need
    another seed or scale generate a small one of their own. Treat it as read-only.
    """
    from assay.bench.warehouses import generate_benchmark

    def generate(folder: Path) -> None:
        generate_benchmark(folder, seed=WRB_SEED, scale=WRB_SCALE)

    built = built_once(tmp_path_factory, "wrb", generate)
    return _copy(built, tmp_path_factory.mktemp("wrb-session") / "bench")
