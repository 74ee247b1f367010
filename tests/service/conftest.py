"""Fixtures for the service: the demo warehouse (built once, cached) behind the app."""

from __future__ import annotations

from collections.abc import Iterator
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
