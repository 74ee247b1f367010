"""DuckDB workers' spill folders are made and removed by the pool's process, never left behind:
a worker killed mid-query (the time limit's kill, a crash, an OOM kill) cannot remove its own,
so the parent removes it when it replaces the worker or closes, and a pool starting sweeps the
folders of owners that are gone (a server killed with its workers)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from assay.connectors import PooledConnector, connect
from assay.connectors._worker import TEMP_PREFIX, sweep_stale_folders
from assay.errors import ExecutionError

SETTING = "SELECT value FROM duckdb_settings() WHERE name = 'temp_directory'"
SLOW = "SELECT sum(hash(i)) FROM range(20000000000) t(i)"  # minutes; killed long before


@pytest.fixture
def private_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The system temp folder, here a private one (the sweep never sees the machine's)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def _folder(connector: PooledConnector) -> Path:
    return Path(str(connector.execute(SETTING, time_limit_ms=5000, max_rows=1).rows[0][0]))


def _spill_folders(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir() if p.name.startswith(TEMP_PREFIX))


def test_a_killed_workers_folder_is_removed_when_it_is_replaced(
    shop_duckdb: Path, private_tmp: Path
) -> None:
    with connect(str(shop_duckdb)) as connector:
        first = _folder(connector)
        assert first.parent == private_tmp and first.is_dir()
        assert first.name.startswith(f"{TEMP_PREFIX}{os.getpid()}-")  # named with its owner
        (worker,) = connector._pool._idle
        failure: list[BaseException] = []

        def slow() -> None:
            try:
                connector.execute(SLOW, time_limit_ms=60_000, max_rows=1)
            except BaseException as exc:
                failure.append(exc)

        thread = threading.Thread(target=slow)
        thread.start()
        time.sleep(0.5)  # the query is running in the worker
        os.kill(worker.process.pid, signal.SIGKILL)
        thread.join(timeout=30)
        assert not thread.is_alive()
        assert failure and isinstance(failure[0], ExecutionError)
        assert not first.exists()  # removed by the pool, not left by the killed worker
        second = _folder(connector)  # a replacement, with a folder of its own
        assert second != first and second.is_dir()
        assert _spill_folders(private_tmp) == [second.name]
    assert _spill_folders(private_tmp) == []  # closing the pool removes the rest


def test_a_timed_out_workers_folder_is_removed(shop_duckdb: Path, private_tmp: Path) -> None:
    with connect(str(shop_duckdb)) as connector:
        first = _folder(connector)
        with pytest.raises(ExecutionError):
            connector.execute(SLOW, time_limit_ms=200, max_rows=1)
        assert not first.exists()
        second = _folder(connector)
        assert _spill_folders(private_tmp) == [second.name]


def test_the_sweep_removes_only_folders_of_dead_owners(
    shop_duckdb: Path, private_tmp: Path
) -> None:
    ended = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    dead = int(ended.stdout)
    stale = private_tmp / f"{TEMP_PREFIX}{dead}-abc123"
    (stale / "sub").mkdir(parents=True)
    (stale / "sub" / "spill.tmp").write_bytes(b"x")
    living = private_tmp / f"{TEMP_PREFIX}{os.getppid()}-def456"  # an owner still running
    living.mkdir()
    unnamed = private_tmp / f"{TEMP_PREFIX}k2j4h_9q"  # no owner in its name: never guessed
    unnamed.mkdir()
    other = private_tmp / "other-123-folder"
    other.mkdir()
    if not os.path.exists(f"/proc/{dead}"):  # the ended pid was not reused meanwhile
        with connect(str(shop_duckdb)):
            assert not stale.exists()
    assert living.is_dir() and unnamed.is_dir() and other.is_dir()
    assert sweep_stale_folders(str(private_tmp)) == []
