"""Spark: guarded execution against Spark alone on TPC-H Q1, and profiling pushed into Spark
against DuckDB's, at two scale factors, in one run.

Needs a Spark Connect server: ``ASSAY_BENCH_SPARK_URL``, or one started here with
``scripts/spark start`` (local[2], a 1 GiB driver) and stopped after. Run it with
``python -m benchmarks spark``; ``ASSAY_BENCH_SPARK_SF`` sets Q1's scale factor (1).

Guarded means what Assay does per query: the Spark guard with Spark's analysis as the
cross-check, then the connector's fresh session, tag, row cap and release. Plain means one
warm Spark Connect session running the same text and collecting it.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Any

import sqlglot

from assay.bench.datasets import build_tpc, tpc_queries
from assay.catalog._profile import profile_column
from assay.connectors import connect
from assay.connectors._spark import SparkConnector, close_channel, connect_spark
from assay.connectors._spark_load import load_duckdb_into_spark
from assay.guard._spark import validate_spark
from assay.settings import load_settings
from benchmarks._common import median, report, write

ROOT = Path(__file__).resolve().parent.parent
REPEAT = 5
PROFILED = {"lineitem": None, "orders": None}  # every column of these tables
# Profiling scales: at SF 1 one count(DISTINCT) over lineitem passes the catalog's 30 s limit
# on this machine's two shared cores (local[2], 1 GiB driver).
PROFILE_SCALES = (0.01, 0.1)


def _server() -> tuple[str, bool]:
    url = os.environ.get("ASSAY_BENCH_SPARK_URL", "")
    if url:
        return url, False
    out = subprocess.run(
        [str(ROOT / "scripts" / "spark"), "start"], check=True, capture_output=True, text=True
    )
    return out.stdout.strip().splitlines()[-1], True


def _load(url: str, scale_factor: float) -> Path:
    cache = load_settings().cache_path
    database = build_tpc("tpch", scale_factor, cache / f"tpch-sf{scale_factor:g}.duckdb")
    load_duckdb_into_spark(url, database, cache / f"spark-tpch-sf{scale_factor:g}")
    return database


def _q1_ratio(url: str) -> dict[str, Any]:
    from pyspark.sql.connect.session import SparkSession

    q1 = sqlglot.transpile(dict(tpc_queries("tpch"))[1], read="duckdb", write="spark")[0]
    connector = connect_spark(url)
    assert isinstance(connector, SparkConnector)
    catalog = connector.catalog()
    plain_session = SparkSession.builder.remote(url).create()

    def guarded() -> None:
        checked = validate_spark(q1, catalog=catalog, plan=connector.plan)
        assert checked.sql is not None, checked.violations
        connector.execute(checked.sql, time_limit_ms=600_000, max_rows=1_000)

    def plain() -> None:
        plain_session.sql(q1).collect()

    # The connector's own text (the parse wrapper and the row cap), run plainly: the difference
    # to ``guarded`` is the guard, the analysis request and the fresh session alone. (The cap
    # turns Q1's global sort into a top-k, which spares Spark a range-partitioning job.)
    wrapped = f"SELECT * FROM (\n{q1}\n) AS assay_query LIMIT 1001"

    def plain_wrapped() -> None:
        plain_session.sql(wrapped).collect()

    for _ in range(2):  # warm all three (JIT, file listing caches)
        plain()
        plain_wrapped()
        guarded()
    engine: list[float] = []
    engine_wrapped: list[float] = []
    checked: list[float] = []
    for _ in range(REPEAT):  # interleaved, so drift hits all alike
        for func, out in ((plain, engine), (plain_wrapped, engine_wrapped), (guarded, checked)):
            started = time.perf_counter()
            func()
            out.append((time.perf_counter() - started) * 1000.0)
    plain_session.client.release_session()
    close_channel(plain_session)
    return {
        "repeat": REPEAT,
        "spark_median_ms": round(median(engine), 1),
        "guarded_median_ms": round(median(checked), 1),
        "overhead_ratio": round(median(checked) / median(engine), 4),
        "spark_same_text_median_ms": round(median(engine_wrapped), 1),
        "overhead_ratio_same_text": round(median(checked) / median(engine_wrapped), 4),
    }


def _profile_seconds(runner: Any) -> float:
    catalog = runner.catalog()
    started = time.perf_counter()
    for table in PROFILED:
        info = catalog.table(table)
        assert info is not None
        for column in info.columns:
            profile_column(runner, info.name, column.name, column.type)
    return time.perf_counter() - started


def run() -> dict[str, object]:
    url, started_here = _server()
    large = float(os.environ.get("ASSAY_BENCH_SPARK_SF", "1"))
    record: dict[str, Any] = {"spark_url_local": url.startswith("sc://127.0.0.1"), "cores": 2}
    try:
        profiles: dict[str, Any] = {}
        for scale in PROFILE_SCALES:
            database = _load(url, scale)
            spark = connect_spark(url)
            spark_s = _profile_seconds(spark)
            with connect(str(database)) as duck:
                duck_s = _profile_seconds(duck)
            profiles[f"sf{scale:g}"] = {
                "spark_s": round(spark_s, 2),
                "duckdb_s": round(duck_s, 3),
                "spark_over_duckdb": round(spark_s / duck_s, 1),
            }
        _load(url, large)
        q1 = _q1_ratio(url)
    finally:
        if started_here:
            subprocess.run([str(ROOT / "scripts" / "spark"), "stop"], check=False)
    record.update({"q1_scale_factor": large, "q1": q1, "profiling": profiles})
    write("spark", record)
    ratio = q1["overhead_ratio"]
    same = q1["overhead_ratio_same_text"]
    rows = [
        (f"guarded / Spark on TPC-H Q1 SF{large:g}", f"{ratio:.3f}x", "< 1.05x", ratio < 1.05),
        (f"guarded / Spark, same capped text, SF{large:g}", f"{same:.3f}x", "< 1.05x", same < 1.05),
    ]
    for scale, values in profiles.items():
        rows.append(
            (
                f"profiling lineitem+orders {scale}: Spark / DuckDB",
                f"{values['spark_over_duckdb']}x ({values['spark_s']} s vs {values['duckdb_s']} s)",
                "reported",
                True,
            )
        )
    report("spark", rows)
    return record


if __name__ == "__main__":
    run()
