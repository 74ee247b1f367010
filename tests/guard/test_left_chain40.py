"""A breakdown two LEFT JOINs away, through a join that leaves rows unmatched (outside tryout
40, F-5): "bookings by home state latest" (fct_bookings LEFT JOIN dim_listings_latest LEFT JOIN
dim_users_latest) and "number of cars by continent" (car_1 drafted, a chain of five LEFT JOINs)
were refused with "the answer would leave them out", which a LEFT JOIN does not: its condition
filters none of the rows on its left, so the unmatched rows stay (in the "(no owner)" group).
The guard lets the planner's chain in, names the reason only where rows are lost, and the
planned answer keeps every booking."""

from __future__ import annotations

import dataclasses

import duckdb
import pytest

from assay.generators import plan
from assay.guard import validate
from assay.semantic import Dimension, JoinPath, Metric, Reading, SemanticLayer

LAYER = SemanticLayer(
    name="stays",
    metrics=(Metric("stays", "stays", (), "stay", "SUM(1)", "stay.ds"),),
    dimensions=(
        Dimension("rooms", "flat.rooms", ()),
        Dimension("owner region", "host.region", ()),
    ),
    joins=(
        JoinPath("stay.flat_id", "flat.flat_id", unmatched=2),
        JoinPath("flat.host_id", "host.host_id"),
    ),
)


@pytest.fixture()
def con() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE stay AS SELECT * FROM (VALUES (DATE '2024-01-01', 1), "
        "(DATE '2024-01-02', 2), (DATE '2024-01-03', 7), (DATE '2024-01-04', NULL), "
        "(DATE '2024-01-05', 1)) t(ds, flat_id)"
    )
    con.execute(
        "CREATE TABLE flat AS SELECT * FROM (VALUES (1, 10, 3), (2, 11, 1)) "
        "t(flat_id, host_id, rooms)"
    )
    con.execute(
        "CREATE TABLE host AS SELECT * FROM (VALUES (10, 'North'), (11, 'South')) "
        "t(host_id, region)"
    )
    return con


def test_a_breakdown_through_a_chain_of_left_joins_is_planned_and_let_in(
    con: duckdb.DuckDBPyConnection,
) -> None:
    reading = dataclasses.replace(Reading("stays", metrics=("stays",)), groups=("owner region",))
    planned = plan(reading, LAYER)
    assert "LEFT JOIN flat" in planned.sql and "LEFT JOIN host" in planned.sql
    report = validate(planned.sql, catalog=None, dialect="duckdb", semantic=LAYER)
    assert report.ok, report.codes
    rows = con.execute(planned.sql).fetchall()
    assert sum(r[-1] for r in rows) == 5  # every stay is in the answer, none left out
    assert ("North", 2) in [(r[0], r[-1]) for r in rows]


@pytest.mark.parametrize(
    "sql",
    [
        # the chain's second join is inner: the stays with no flat are lost
        "SELECT host.region, sum(1) FROM stay LEFT JOIN flat ON stay.flat_id = flat.flat_id "
        "JOIN host ON flat.host_id = host.host_id GROUP BY host.region",
        # a WHERE on the middle table drops them too
        "SELECT host.region, sum(1) FROM stay LEFT JOIN flat ON stay.flat_id = flat.flat_id "
        "LEFT JOIN host ON flat.host_id = host.host_id WHERE flat.rooms IS NOT NULL "
        "GROUP BY host.region, (host.host_id IS NULL)",
    ],
    ids=["inner_second_join", "where_on_the_middle"],
)
def test_a_chain_that_loses_the_unmatched_rows_is_still_refused(sql: str) -> None:
    report = validate(sql, catalog=None, dialect="duckdb", semantic=LAYER)
    assert not report.ok
    assert "guard.forbidden_join" in report.codes
