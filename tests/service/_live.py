"""A real ``assay serve`` process on loopback, for the tests that need sockets and signals."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import yaml

__all__ = ["LiveServer", "free_port", "write_config"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def write_config(folder: Path, db: Path, layer: Path, **extra: object) -> Path:
    config = {
        "databases": {"shop": {"url": str(db), "semantic": str(layer)}},
        "ledger": f"sqlite:///{folder / 'ledger.db'}",
        **extra,
    }
    path = folder / "assay.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path


class LiveServer:
    """``assay serve --config`` in a child process; ``stop`` kills it (SIGKILL by default)."""

    def __init__(self, config: Path, log: Path) -> None:
        self.config = config
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout_s: float = 180.0) -> LiveServer:
        """Start it and wait until it reports healthy (its reading and answer processes open
        the databases first: seconds, more on a busy machine; a deadline, not a timing)."""
        with self.log.open("ab") as sink:
            self.process = subprocess.Popen(
                [
                    str(Path(sys.executable).parent / "assay"),
                    "serve",
                    "--config",
                    str(self.config),
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                ],
                # Its own process group: stop() kills the server and its engine workers, as a
                # crash of the machine or container would.
                start_new_session=True,
                stdout=sink,
                stderr=sink,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"assay serve exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1.0).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"assay serve did not start: {self.log.read_text()[-2000:]}")

    def stop(self, sig: int = signal.SIGKILL) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, sig)
            self.process.wait(timeout=30)
        self.process = None
