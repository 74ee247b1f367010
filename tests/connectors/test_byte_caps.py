"""Byte caps (issue 11 item 3): the worker keeps at most ``max_result_bytes`` of a result and
refuses a value over ``max_cell_bytes``; the parent's memory stays under a stated bound while a
worker returns the largest result the caps allow."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from assay.connectors import connect
from assay.connectors._engines import value_size
from assay.connectors._worker import reply_limit
from assay.errors import ResourceLimit

MIB = 1024 * 1024
RESULT_CAP = 24 * MIB
# The stated bound on the parent's growth while it reads one reply: the pickled reply (at
# most reply_limit) and the rows unpickled from it (about the result cap), plus 64 MiB.
PARENT_BOUND = 2 * RESULT_CAP + 4 * MIB + RESULT_CAP + 64 * MIB


def _rss() -> int:
    with open(f"/proc/{os.getpid()}/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _peak_growth(call: Callable[[], Any]) -> tuple[Any, int]:
    """Run ``call`` while sampling this process's resident memory; return its value (or the
    exception it raised) and the peak growth in bytes."""
    baseline = _rss()
    peak = baseline
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _rss())
            time.sleep(0.002)

    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        value: Any = call()
    except ResourceLimit as exc:
        value = exc
    finally:
        done.set()
        sampler.join()
    return value, max(peak, _rss()) - baseline


pytestmark = pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs /proc")


def test_largest_allowed_result_keeps_the_parent_under_its_bound(shop_duckdb: Path) -> None:
    with connect(
        str(shop_duckdb), max_result_bytes=RESULT_CAP, max_cell_bytes=200_000
    ) as connector:
        sql = "SELECT repeat('x', 190000) AS s FROM range(400)"
        result, growth = _peak_growth(
            lambda: connector.execute(sql, time_limit_ms=20_000, max_rows=100_000)
        )
    assert not isinstance(result, Exception)
    kept = sum(value_size(v) for row in result.rows for v in row)
    assert result.truncated
    assert RESULT_CAP - 200_000 < kept <= RESULT_CAP  # the largest result the caps allow
    assert growth < PARENT_BOUND, f"parent grew {growth / MIB:.0f} MiB"
    assert reply_limit(connector.spec) == 2 * RESULT_CAP + 4 * MIB


def test_the_reviews_bomb_is_a_resource_limit_and_the_parent_stays_small(
    shop_duckdb: Path,
) -> None:
    with connect(str(shop_duckdb)) as connector:  # default caps: 8 MB a cell
        sql = "SELECT repeat(repeat('x', 10000), 10000) AS s FROM range(3)"
        error, growth = _peak_growth(
            lambda: connector.execute(sql, time_limit_ms=20_000, max_rows=10)
        )
        assert isinstance(error, ResourceLimit)
        assert "cell cap" in str(error)
        assert growth < 64 * MIB, f"parent grew {growth / MIB:.0f} MiB"
        # the worker answers the next request
        assert connector.execute("SELECT 1 AS x", time_limit_ms=5_000, max_rows=1).rows == ((1,),)


@pytest.mark.parametrize("target", ["shop_duckdb", "shop_sqlite"])
def test_row_cap_and_byte_cap_both_truncate(target: str, request: pytest.FixtureRequest) -> None:
    path = request.getfixturevalue(target)
    with connect(str(path), max_result_bytes=1_000) as connector:
        result = connector.execute(
            "SELECT name, email FROM customers ORDER BY id", time_limit_ms=5_000, max_rows=1_000
        )
        assert result.truncated and 0 < len(result.rows) < 50
        full = connector.execute(
            "SELECT id FROM customers WHERE id <= 10", time_limit_ms=5_000, max_rows=1_000
        )
        assert not full.truncated and len(full.rows) == 10


def test_a_reply_over_the_parents_bound_kills_the_worker(
    shop_duckdb: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import assay.connectors._worker as worker

    with connect(str(shop_duckdb)) as connector:
        monkeypatch.setattr(worker, "reply_limit", lambda spec: 500)
        with pytest.raises(ResourceLimit, match="parent reads"):
            connector.execute(
                "SELECT name, email FROM customers", time_limit_ms=5_000, max_rows=1_000
            )
        monkeypatch.undo()
        # a fresh worker answers the next request
        small = connector.execute("SELECT 1 AS x", time_limit_ms=5_000, max_rows=1)
        assert small.rows == ((1,),)
