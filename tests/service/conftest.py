"""Fixtures for the service: the demo warehouse (built once, cached) behind the app."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

from assay.cli._ask import demo_warehouse
from assay.service import Service, ServiceConfig, create_app, demo_config
from assay.settings import load_settings


@pytest.fixture(scope="session")
def demo_paths() -> tuple[Path, Path]:
    return demo_warehouse(load_settings())


@pytest.fixture(scope="session")
def filled_ledger(
    demo_paths: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory
) -> Callable[[Path], tuple[str, list[str]]]:
    """Fifty answered questions with feedback in a ledger (``_fill(demo_paths, url, 50)`` of
    tests/service/test_calibrate.py), asked once per run and shared by the xdist workers: each
    call copies the ledger into the test's folder and gives its URL and the answers' ids."""
    from tests.conftest import built_once
    from tests.service.test_calibrate import _fill

    def fill(folder: Path) -> None:
        folder.mkdir()
        ids = _fill(demo_paths, f"sqlite:///{folder / 'ledger.db'}", 50)
        (folder / "ids.json").write_text(json.dumps(ids), encoding="utf-8")

    shared = built_once(tmp_path_factory, "ledger-of-50", fill)

    def copy(tmp_path: Path) -> tuple[str, list[str]]:
        folder = Path(shutil.copytree(shared, tmp_path / "filled-ledger"))
        ids = json.loads((folder / "ids.json").read_text(encoding="utf-8"))
        return f"sqlite:///{folder / 'ledger.db'}", ids

    return copy


def make_service(demo_paths: tuple[Path, Path], ledger_url: str, **update: object) -> Service:
    settings = load_settings()
    config = demo_config(*demo_paths, settings, ledger_url)
    if update:
        config = ServiceConfig.model_validate({**config.model_dump(), **update})
    return Service(config, settings)


@pytest.fixture(scope="module")
def service(
    demo_paths: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Service]:
    folder = tmp_path_factory.mktemp("ledger")
    svc = make_service(demo_paths, f"sqlite:///{folder / 'ledger.db'}")
    yield svc
    svc.close()
    svc.ledger.close()


@pytest.fixture(scope="module")
def client(service: Service) -> Iterator[TestClient]:
    with TestClient(create_app(service), base_url="http://testserver") as c:
        yield c
