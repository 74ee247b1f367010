"""Guarded execution overhead: TPC-H Q1 at scale factor 1 through the connector (worker process,
fresh cursor, row cap) against DuckDB's own time on a direct warm connection, in the same run."""

from __future__ import annotations

import duckdb

from assay.bench.datasets import build_tpc, tpc_queries
from assay.connectors import connect
from assay.guard import validate
from assay.settings import load_settings
from benchmarks._common import median, report, timings, write

REPEAT = 15


def run() -> dict[str, object]:
    path = build_tpc("tpch", 1, load_settings().cache_path / "tpch-sf1.duckdb")
    q1 = dict(tpc_queries("tpch"))[1]
    direct = duckdb.connect(str(path), read_only=True, config={"threads": 2})
    with connect(str(path)) as connector:
        report_ = validate(q1, catalog=connector.catalog(), dialect="duckdb")
        assert report_.sql is not None
        sql = report_.sql
        for _ in range(3):  # warm both
            direct.execute(sql).fetchall()
            connector.execute(sql, time_limit_ms=60_000, max_rows=1_000)
        engine: list[float] = []
        guarded: list[float] = []
        for _ in range(REPEAT):  # interleaved, so drift hits both alike
            engine += timings(lambda: direct.execute(sql).fetchall(), 1)
            guarded += timings(
                lambda: connector.execute(sql, time_limit_ms=60_000, max_rows=1_000), 1
            )
    direct.close()
    ratio = median(guarded) / median(engine)
    record = {
        "scale_factor": 1,
        "repeat": REPEAT,
        "engine_median_ms": round(median(engine), 2),
        "guarded_median_ms": round(median(guarded), 2),
        "overhead_ratio": round(ratio, 4),
    }
    write("execution", record)
    report(
        "execution",
        [
            ("guarded / engine on TPC-H Q1 SF1", f"{ratio:.3f}x", "< 1.05x", ratio < 1.05),
        ],
    )
    return record
