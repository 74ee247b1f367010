"""Joins that leave fact rows without a partner, and metrics with their own filter (issue 12).

A join marked ``unmatched`` (rows of its left table with no partner, counted at import) is
used inner only where a positive filter on a plain column of the partner keeps it to values:
no unmatched row (NULL there) can pass that filter, so the inner join gives the rows a LEFT
JOIN would. A grouping through it is LEFT joined, the unmatched rows a group of their own
("(no listing)"; outside tryout 22: "total sales by state" was abstained on). A total, a
negated filter or an expression dimension through it is refused by the planner and vetoed by
the guard: here a negated filter is NOT answered (our choice), since its orphans are "not X"
and an inner join would lose them. The planner, the guard and the fit check are asked the
same questions and must agree.

A metric with its own filter (MetricFlow's ``filter``) asked alone and grouped leaves out the
groups where the filter keeps no row, as MetricFlow's WHERE does; asked with an unfiltered
metric, every group stays (MetricFlow joins the metrics on the groups).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

import duckdb
import pytest

from assay.catalog import Catalog, ColumnInfo, TableInfo
from assay.checks import fit_check
from assay.errors import UnmatchedRows
from assay.generators import plan
from assay.guard import validate
from assay.semantic import (
    Comparison,
    Dimension,
    Filter,
    JoinPath,
    Metric,
    Period,
    Reading,
    SemanticLayer,
    metric_filter,
)

LAYER = SemanticLayer(
    name="bookings",
    metrics=(
        Metric("bookings", "bookings", (), "fct", "SUM(1)", "fct.ds"),
        Metric(
            "instant_value",
            "instant value",
            (),
            "fct",
            "SUM(CASE WHEN (fct.is_instant) THEN fct.value END)",
            "fct.ds",
            filter="(fct.is_instant)",
        ),
        Metric(
            "big_value",
            "big value",
            (),
            "fct",
            "SUM(CASE WHEN (fct.value > 10) THEN fct.value END)",
            "fct.ds",
            filter="(fct.value > 10)",
        ),
    ),
    dimensions=(
        Dimension("country", "listing.country", ()),
        Dimension("capacity", "listing.capacity", ()),
        Dimension(
            "big",
            "listing.big",
            (),
            expression="CASE WHEN listing.capacity > 3 THEN 'y' ELSE 'n' END",
        ),
        Dimension("channel", "fct.channel", ()),
    ),
    joins=(JoinPath("fct.listing_id", "listing.listing_id", unmatched=2),),
)


CATALOG = Catalog(
    (TableInfo("listing", (ColumnInfo("country", "VARCHAR"), ColumnInfo("capacity", "INTEGER"))),)
)


@pytest.fixture()
def con() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE fct AS SELECT * FROM (VALUES "
        "(DATE '2024-01-01', 1, TRUE, 5.0, 'web'), (DATE '2024-01-01', 2, FALSE, 20.0, 'app'), "
        "(DATE '2024-01-02', NULL, TRUE, 7.0, 'web'), (DATE '2024-01-03', 9, FALSE, 3.0, 'web')"
        ") t(ds, listing_id, is_instant, value, channel)"
    )
    con.execute(
        "CREATE TABLE listing AS SELECT * FROM (VALUES (1, 'FR', 4), (2, 'US', 2)) "
        "t(listing_id, country, capacity)"
    )
    return con


def _guard_ok(sql: str) -> bool:
    return validate(sql, catalog=None, dialect="duckdb", semantic=LAYER).ok


def _reading(**kw: Any) -> Reading:
    return dataclasses.replace(Reading("bookings", metrics=("bookings",)), **kw)


def test_a_positive_filter_through_an_unmatched_join_is_answered_with_the_right_rows(
    con: duckdb.DuckDBPyConnection,
) -> None:
    for reading, sql in (
        (
            _reading(filters=(Filter("country", ("FR",)),)),
            "SELECT sum(1) FROM fct LEFT JOIN listing l ON fct.listing_id = l.listing_id "
            "WHERE l.country = 'FR'",
        ),
        (
            _reading(comparisons=(Comparison("capacity", ">", "3"),), groups=("capacity",)),
            "SELECT l.capacity, sum(1) FROM fct LEFT JOIN listing l "
            "ON fct.listing_id = l.listing_id WHERE l.capacity > 3 GROUP BY 1",
        ),
    ):
        planned = plan(reading, LAYER)
        assert " JOIN listing" in planned.sql
        assert _guard_ok(planned.sql), planned.sql
        assert fit_check(planned.sql, reading, LAYER, catalog=CATALOG).mismatches == ()
        assert sorted(con.execute(planned.sql).fetchall()) == sorted(con.execute(sql).fetchall())


@pytest.mark.parametrize(
    ("reading", "sql"),
    [
        (
            _reading(groups=("country",)),
            "SELECT coalesce(l.country, '(no listing)'), sum(1) FROM fct "
            "LEFT JOIN listing l ON fct.listing_id = l.listing_id GROUP BY 1",
        ),
        (
            _reading(filters=(Filter("channel", ("web",)),), groups=("country",)),
            "SELECT coalesce(l.country, '(no listing)'), sum(1) FROM fct "
            "LEFT JOIN listing l ON fct.listing_id = l.listing_id WHERE fct.channel = 'web' "
            "GROUP BY 1",
        ),
    ],
)
def test_a_breakdown_through_an_unmatched_join_keeps_the_unmatched_rows_apart(
    con: duckdb.DuckDBPyConnection, reading: Reading, sql: str
) -> None:
    planned = plan(reading, LAYER)
    assert "LEFT JOIN listing" in planned.sql
    assert _guard_ok(planned.sql), planned.sql
    assert fit_check(planned.sql, reading, LAYER, catalog=CATALOG).mismatches == ()
    assert sorted(con.execute(planned.sql).fetchall()) == sorted(con.execute(sql).fetchall())


@pytest.mark.parametrize(
    "reading",
    [
        _reading(filters=(Filter("country", ("FR",), negated=True),)),  # orphans are "not FR"
        _reading(filters=(Filter("big", ("n",)),)),  # an expression: orphans give 'n'
    ],
)
def test_any_other_use_of_an_unmatched_join_is_not_planned(reading: Reading) -> None:
    with pytest.raises(UnmatchedRows, match="2 rows of fct have no match in listing") as caught:
        plan(reading, LAYER)
    assert caught.value.code == "plan.unmatched_rows"  # a decision, not a failure


@pytest.mark.parametrize(
    ("sql", "ok"),
    [
        (
            "SELECT sum(1) FROM fct JOIN listing ON fct.listing_id = listing.listing_id "
            "WHERE listing.country = 'FR'",
            True,
        ),
        (
            "SELECT sum(1) FROM fct f LEFT JOIN listing l ON f.listing_id = l.listing_id "
            "WHERE l.capacity >= 2 AND f.channel = 'web'",
            True,
        ),
        (
            "SELECT sum(1) FROM fct f JOIN listing l ON f.listing_id = l.listing_id "
            "WHERE l.country IN ('FR', 'US')",
            True,
        ),
        # a negated filter, a filter under OR, a NULL, an expression, no filter: refused
        (
            "SELECT sum(1) FROM fct JOIN listing ON fct.listing_id = listing.listing_id "
            "WHERE listing.country <> 'FR'",
            False,
        ),
        (
            "SELECT sum(1) FROM fct JOIN listing ON fct.listing_id = listing.listing_id "
            "WHERE NOT listing.country = 'FR'",
            False,
        ),
        (
            "SELECT sum(1) FROM fct JOIN listing ON fct.listing_id = listing.listing_id "
            "WHERE listing.country = 'FR' OR fct.channel = 'web'",
            False,
        ),
        (
            "SELECT sum(1) FROM fct JOIN listing ON fct.listing_id = listing.listing_id "
            "WHERE coalesce(listing.country, 'FR') = 'FR'",
            False,
        ),
        (
            "SELECT listing.country, sum(1) FROM fct JOIN listing "
            "ON fct.listing_id = listing.listing_id GROUP BY 1",
            False,
        ),
        (
            "SELECT sum(1) FROM fct JOIN listing ON fct.listing_id = listing.listing_id "
            "WHERE fct.channel = 'web'",
            False,
        ),
        # LEFT joined and grouped: kept only with the unmatched rows grouped apart
        (
            "SELECT listing.country, sum(1) FROM fct LEFT JOIN listing "
            "ON fct.listing_id = listing.listing_id "
            "GROUP BY listing.country, (listing.listing_id IS NULL)",
            True,
        ),
        (
            "SELECT listing.country, sum(1) FROM fct LEFT JOIN listing "
            "ON fct.listing_id = listing.listing_id GROUP BY listing.country",
            False,
        ),
        (
            "SELECT listing.country, sum(1) FROM fct LEFT JOIN listing "
            "ON fct.listing_id = listing.listing_id WHERE listing.capacity IS NULL "
            "GROUP BY listing.country, (listing.listing_id IS NULL)",
            False,
        ),
        (
            "SELECT listing.country, sum(1) FROM fct LEFT JOIN listing "
            "ON fct.listing_id = listing.listing_id "
            "GROUP BY listing.country, (listing.listing_id IS NULL) "
            "HAVING max(listing.capacity) > 0 OR listing.country = 'FR'",
            False,
        ),
        (
            "SELECT sum(1) FROM fct JOIN (SELECT * FROM listing WHERE country = 'FR') l "
            "ON fct.listing_id = l.listing_id",
            False,
        ),  # not a source of the scope itself
        ("SELECT sum(1) FROM fct", True),
    ],
)
def test_the_guard_lets_an_unmatched_join_in_only_under_a_positive_filter(
    sql: str, ok: bool
) -> None:
    report = validate(sql, catalog=None, dialect="duckdb", semantic=LAYER)
    assert report.ok is ok, report.codes
    if not ok:
        assert "guard.forbidden_join" in report.codes


def test_a_filtered_metric_alone_leaves_out_the_groups_its_filter_keeps_nothing_of(
    con: duckdb.DuckDBPyConnection,
) -> None:
    reading = Reading("q", metrics=("instant_value",), groups=("channel",))
    planned = plan(reading, LAYER)
    assert fit_check(planned.sql, reading, LAYER).mismatches == ()
    # MetricFlow: the filter as WHERE; 'app' has no instant booking, so no 'app' row.
    assert sorted(con.execute(planned.sql).fetchall()) == [("web", 12.0)]
    # Two filtered metrics: a group stays when either filter keeps a row of it.
    both = Reading("q", metrics=("instant_value", "big_value"), groups=("channel",))
    planned = plan(both, LAYER)
    assert fit_check(planned.sql, both, LAYER).mismatches == ()
    assert sorted(con.execute(planned.sql).fetchall()) == [("app", None, 20.0), ("web", 12.0, None)]
    # With an unfiltered metric every group stays, NULL where the filter keeps nothing.
    mixed = Reading("q", metrics=("bookings", "instant_value"), groups=("channel",))
    planned = plan(mixed, LAYER)
    assert "WHERE" not in planned.sql
    assert sorted(con.execute(planned.sql).fetchall()) == [("app", 1, None), ("web", 3, 12.0)]


def test_metric_filter_joins_the_asked_filters() -> None:
    bookings, instant, big = LAYER.metrics
    assert metric_filter([instant]) == "(fct.is_instant)"
    assert metric_filter([instant, big]) == "((fct.is_instant)) OR ((fct.value > 10))"
    assert metric_filter([instant, instant]) == "(fct.is_instant)"
    assert metric_filter([bookings, instant]) == ""


def test_the_fit_check_sets_aside_the_metric_filter_and_nothing_else() -> None:
    """The fit check drops the metric's own filter from the WHERE it compares, and only that:
    any other filter the reading lacks is still a mismatch."""
    reading = Reading("q", metrics=("instant_value",))
    sql = (
        "SELECT SUM(CASE WHEN (fct.is_instant) THEN fct.value END) AS value FROM fct "
        "WHERE (fct.is_instant) AND fct.channel = 'web'"
    )
    assert fit_check(sql, reading, LAYER).mismatches != ()


# A star schema's fact timed through its date key (outside tryout 22, TPC-DS store_sales:
# 1,208 of 28,810 rows without ss_sold_date_sk): a period keeps the calendar to dates, which
# no undated row has, so the inner join keeps the right rows; a grain LEFT joins it (the
# undated rows a NULL year of their own); a total never joins it.
STAR = SemanticLayer(
    name="star",
    metrics=(Metric("sales", "sales", (), "sales", "SUM(sales.amount)", "date_dim.d_date"),),
    dimensions=(Dimension("channel", "sales.channel", ()),),
    joins=(JoinPath("sales.sold_date_sk", "date_dim.d_date_sk", unmatched=1),),
    clock=dt.date(2024, 12, 31),
)


def _year(y: int) -> Period:
    return Period(dt.date(y, 1, 1), dt.date(y + 1, 1, 1), str(y), str(y))


@pytest.fixture()
def star() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE sales AS SELECT * FROM (VALUES (1, 10.0, 'web'), (2, 20.0, 'app'), "
        "(NULL, 5.0, 'web'), (3, 1.0, 'web')) t(sold_date_sk, amount, channel)"
    )
    con.execute(
        "CREATE TABLE date_dim AS SELECT * FROM (VALUES (1, DATE '2023-05-01'), "
        "(2, DATE '2024-02-01'), (3, DATE '2024-07-01'), (4, DATE '2025-01-01')) "
        "t(d_date_sk, d_date)"
    )
    return con


@pytest.mark.parametrize(
    ("reading", "sql"),
    [
        (
            Reading("sales in 2024", metrics=("sales",), periods=(_year(2024),)),
            "SELECT sum(amount) FROM sales JOIN date_dim ON sold_date_sk = d_date_sk "
            "WHERE year(d_date) = 2024",
        ),
        (
            Reading("sales by year", metrics=("sales",), grain="year"),
            "SELECT year(d_date), sum(amount) FROM sales "
            "LEFT JOIN date_dim ON sold_date_sk = d_date_sk GROUP BY 1",
        ),
        (
            Reading("web sales by year", metrics=("sales",), grain="year", groups=("channel",)),
            "SELECT year(d_date), channel, sum(amount) FROM sales "
            "LEFT JOIN date_dim ON sold_date_sk = d_date_sk GROUP BY 1, 2",
        ),
        (
            Reading("sales", metrics=("sales",)),
            "SELECT sum(amount) FROM sales",
        ),
    ],
)
def test_a_fact_timed_through_its_date_key_answers_periods_grains_and_totals(
    star: duckdb.DuckDBPyConnection, reading: Reading, sql: str
) -> None:
    planned = plan(reading, STAR)
    assert validate(planned.sql, catalog=None, dialect="duckdb", semantic=STAR).ok, planned.sql
    assert fit_check(planned.sql, reading, STAR).mismatches == ()
    if not reading.periods and reading.grain is None:
        assert "date_dim" not in planned.sql  # no undated row lost from a total
    if reading.grain is not None:
        assert "LEFT JOIN date_dim" in planned.sql
    got = sorted(star.execute(planned.sql).fetchall(), key=str)
    assert got == sorted(star.execute(sql).fetchall(), key=str)


def test_two_compared_periods_keep_the_calendar_to_dates(star: duckdb.DuckDBPyConnection) -> None:
    """ "2023 vs 2024": the periods OR-ed, each keeping the calendar to dates; no undated row
    can be in either, so the guard lets the inner join in."""
    reading = Reading("sales 2023 vs 2024", metrics=("sales",), periods=(_year(2023), _year(2024)))
    planned = plan(reading, STAR)
    assert validate(planned.sql, catalog=None, dialect="duckdb", semantic=STAR).ok, planned.sql
    truth = star.execute(
        "SELECT year(d_date), sum(amount) FROM sales JOIN date_dim ON sold_date_sk = d_date_sk "
        "WHERE year(d_date) IN (2023, 2024) GROUP BY 1"
    ).fetchall()
    assert sorted(star.execute(planned.sql).fetchall()) == sorted(truth)
    # an OR one side of which keeps nothing of the calendar is no such filter
    sql = (
        "SELECT sum(amount) FROM sales JOIN date_dim ON sold_date_sk = d_date_sk "
        "WHERE (d_date >= DATE '2024-01-01') OR (sales.channel = 'web')"
    )
    assert not validate(sql, catalog=None, dialect="duckdb", semantic=STAR).ok
