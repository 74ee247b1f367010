"""The dates a drafted layer covers, read from the rows that happened, not from a calendar.

A calendar dimension (TPC-DS ``date_dim``: one row per day from 1900 to 2100) holds every date
whether anything happened on it or not; its span is not the data's. A table is a calendar when
its first date column holds each date once and another table's key points at it. The dates the
data covers are then those its referencing rows point at (``store_sales.ss_sold_date_sk`` ->
``date_dim.d_date``: 1998-01-02 to 2003-01-02 at TPC-DS SF 0.01), read with one query per key.
A query that fails gives no span (the layer then says less, never more).
"""

from __future__ import annotations

from collections.abc import Iterable

from assay.catalog import CatalogProfile
from assay.catalog._deep import quote
from assay.catalog._profile import SqlRunner

__all__ = ["calendar_spans", "calendar_tables", "fact_tables"]

# A calendar's date column holds each date once (a share of its rows this unique or more).
CALENDAR_UNIQUE = 0.99
TIME_LIMIT_MS = 60_000


def calendar_tables(
    profile: CatalogProfile, keys: Iterable[tuple[str, str, str, str]]
) -> dict[str, str]:
    """Calendar table -> its date column: a table whose first date column is unique and that
    another table's key ``(table, column, ref_table, ref_column)`` points at."""
    referenced = {rt for t, _, rt, _ in keys if t != rt}
    out: dict[str, str] = {}
    for table in profile.tables:
        if table.name not in referenced:
            continue
        for report in table.columns:
            fp = report.fingerprint
            if fp.family != "date" or not fp.n_nonnull:
                continue
            if fp.unique_ratio >= CALENDAR_UNIQUE:
                out[table.name] = fp.column
            break
    return out


def fact_tables(keys: Iterable[tuple[str, str, str, str]], calendars: dict[str, str]) -> set[str]:
    """The tables whose rows are events: they point at a calendar and at another table, and no
    table points at them (store_sales points at date_dim and item; not customer, which
    store_sales points at, whose first-purchase dates are attributes; not catalog_page, whose
    start and end dates, pointing at nothing else, are a validity range running into 2004;
    nor the calendar itself)."""
    keys = list(keys)
    pointed = {rt for t, _, rt, _ in keys if t != rt}
    relating = {t for t, _, rt, _ in keys if t != rt and rt not in calendars}
    return {
        t
        for t, _, rt, _ in keys
        if rt in calendars and t in relating and t not in pointed | set(calendars)
    }


def calendar_spans(
    runner: SqlRunner,
    profile: CatalogProfile,
    keys: Iterable[tuple[str, str, str, str]],
) -> tuple[dict[str, str], dict[tuple[str, str], tuple[str, str]]]:
    """The calendars (see ``calendar_tables``) and, per key ``(table, column)`` of a fact table
    (``fact_tables``) into one, the first and last calendar dates its rows point at (keys whose
    rows point at none, or whose query failed, are left out)."""
    keys = list(keys)
    calendars = calendar_tables(profile, keys)
    facts = fact_tables(keys, calendars)
    spans: dict[tuple[str, str], tuple[str, str]] = {}
    d = runner.dialect
    for t, c, rt, rc in keys:
        if rt not in calendars or t not in facts:
            continue
        day = f"r.{quote(calendars[rt], d)}"
        sql = (
            f"SELECT MIN({day}), MAX({day}) FROM {quote(t, d)} AS f "
            f"JOIN {quote(rt, d)} AS r ON f.{quote(c, d)} = r.{quote(rc, d)}"
        )
        try:
            rows = runner.execute(sql, time_limit_ms=TIME_LIMIT_MS, max_rows=1).rows
        except Exception:  # no span read: the layer says less, never more
            continue
        if rows and rows[0][0] is not None and rows[0][1] is not None:
            spans[(t, c)] = (str(rows[0][0])[:10], str(rows[0][1])[:10])
    return calendars, spans
