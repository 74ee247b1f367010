"""A small club of members and two years of sales, for agreed22's checks (``test_shares22.py``,
``test_right22.py``): a column with NULLs, measures per year."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from assay.catalog import Profiles
from assay.checks import CheckContext
from assay.connectors import PooledConnector, connect
from assay.types import Candidate


@contextmanager
def club_at(path: Path) -> Iterator[PooledConnector]:
    """100 members, 10 with no plan recorded (NULL), 30 on 'gold'; an id never NULL; sales of
    two years (2020: 10 a month, 2021: 15 a month) with a cost beside each amount."""
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE members AS SELECT i AS id, CASE WHEN i <= 10 THEN NULL WHEN i <= 40 "
        "THEN 'gold' ELSE 'basic' END AS plan FROM range(1, 101) t(i)"
    )
    con.execute(
        "CREATE TABLE sales AS SELECT y AS yr, m AS mo, CASE WHEN y = 2020 THEN 10 ELSE 15 END "
        "AS amount, 4 AS cost FROM range(2020, 2022) a(y), range(1, 13) b(m)"
    )
    con.close()
    with connect(str(path)) as connector:
        yield connector


def club_ctx(connector: PooledConnector, question: str, sql: str) -> CheckContext:
    """The check context of one SQL answer on the club, with its profiles."""
    catalog = connector.catalog()
    return CheckContext(
        question, Candidate(sql), connector.dialect, catalog, Profiles(connector, catalog)
    )
