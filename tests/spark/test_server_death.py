"""A Spark Connect server that dies mid-query: a named error, promptly, and no hung client.

Starts its own throwaway server (scripts/spark with another folder and port), so the shared
one is untouched; about 15 s.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from assay.connectors._spark import connect_spark
from assay.errors import ConnectionFailed, ExecutionError, ExecutionTimeout

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "spark"


def _first_connect(url: str) -> Any:
    """The new server's first statement warms a cold JVM: on a loaded 2-core machine it can
    outlast the connect time limit, which is not what this test is about; tried three times."""
    for attempt in range(3):
        try:
            return connect_spark(url)
        except ExecutionTimeout:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


@pytest.mark.slow
def test_server_dying_mid_query_is_a_connection_error(
    spark_url: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    env = {**os.environ, "ASSAY_SPARK_DIR": str(tmp_path_factory.mktemp("doomed-spark"))}
    env["ASSAY_SPARK_MEMORY"] = "512m"
    env["ASSAY_SPARK_CORES"] = "1"  # one core: the bomb below burns less of a loaded machine
    started = subprocess.run(
        [str(SCRIPT), "start"], env=env, capture_output=True, text=True, timeout=180
    )
    assert started.returncode == 0, started.stderr
    url = started.stdout.strip().splitlines()[-1]
    try:
        connector = _first_connect(url)
        killer = threading.Timer(
            3.0, lambda: subprocess.run([str(SCRIPT), "stop"], env=env, check=False)
        )
        killer.start()
        began = time.monotonic()
        with pytest.raises(ExecutionError) as caught:
            connector.execute(
                "SELECT max(sha2(CAST(id AS STRING), 256)) FROM range(100000000000)",
                time_limit_ms=60_000,
                max_rows=1,
            )
        killer.join()
        assert isinstance(caught.value, ConnectionFailed), caught.value
        assert time.monotonic() - began < 30
        with pytest.raises(ConnectionFailed):
            connector.execute("SELECT 1", time_limit_ms=10_000, max_rows=1)
    finally:
        subprocess.run([str(SCRIPT), "stop"], env=env, check=False)
