"""The second wall for Spark: every adversarial Spark statement sent straight to the connector,
bypassing the guard. Commands (writes, DDL, settings, code, cache, views) must fail in Spark
(they do not parse inside the connector's SELECT * FROM (...)); queries Spark does run (file
reads, reflection, bombs) are listed, since only the guard and the grants stop them (see
docs/spark.md). After each, a canary query must give the same answer, and no file may appear."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from assay.connectors._spark import SparkConnector
from assay.errors import ExecutionError
from tests.spark._corpus import SparkCase, load_spark

CASES = load_spark("adversarial.sql")
MUST_FAIL = {"write", "ddl", "config", "code", "state"}
CANARY = (
    "SELECT (SELECT count(*) FROM lineitem) AS n_lines, (SELECT count(*) FROM nation) AS n, "
    "(SELECT sum(o_totalprice) FROM orders) AS total"
)
LEFTOVERS = ["/tmp/assay_export", "/tmp/assay_stolen", "/tmp/assay_other"]
# The outcome of each command the test below sent raw (its error code), for the report, which
# sends only the cases no test before it has sent (all of them when it runs alone).
_OUTCOMES: dict[str, str] = {}


@pytest.fixture(scope="module")
def canary(spark: SparkConnector) -> tuple[object, ...]:
    return spark.execute(CANARY, time_limit_ms=60_000, max_rows=1).rows[0]


@pytest.mark.parametrize(
    "case", [c for c in CASES if c.attempts in MUST_FAIL], ids=lambda c: c.title
)
def test_commands_fail_in_spark_itself(
    case: SparkCase, spark: SparkConnector, canary: tuple[object, ...]
) -> None:
    sql = case.sql
    with pytest.raises(ExecutionError) as raised:
        spark.execute(sql, time_limit_ms=5_000, max_rows=5)
    assert spark.execute(CANARY, time_limit_ms=60_000, max_rows=1).rows[0] == canary
    assert [p for p in LEFTOVERS if os.path.exists(p)] == []
    _OUTCOMES[case.title] = raised.value.code


def test_second_wall_report(spark: SparkConnector, canary: tuple[object, ...]) -> None:
    """Every case sent raw; the outcome per category is the report the docs quote."""
    outcome: dict[str, list[str]] = {}
    for case in CASES:
        if case.title in _OUTCOMES:  # sent raw above, with the same canary check after it
            outcome.setdefault(f"{case.attempts}:{_OUTCOMES[case.title]}", []).append(case.title)
            continue
        try:
            spark.execute(case.sql, time_limit_ms=3_000, max_rows=5)
            verdict = "ran"
        except ExecutionError as exc:
            verdict = exc.code
        outcome.setdefault(f"{case.attempts}:{verdict}", []).append(case.title)
        assert spark.execute(CANARY, time_limit_ms=60_000, max_rows=1).rows[0] == canary
    ran = {k for k in outcome if k.endswith(":ran")}
    assert all(k.split(":")[0] == "read" for k in ran), outcome
    # Spark itself runs some reads the guard refuses (a path read, reflection): the guard and
    # the grants are what stop those. Say so, with the count, in the report.
    print({k: len(v) for k, v in sorted(outcome.items())})
    assert [p for p in LEFTOVERS if Path(p).exists()] == []
