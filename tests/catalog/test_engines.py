"""The profile and the keys are the same on DuckDB, SQLite and PostgreSQL (the shop database)."""

from __future__ import annotations

import pytest

from assay.catalog import deep_profile, discover_foreign_keys
from assay.connectors import PooledConnector


def _summary(connector: PooledConnector) -> tuple[object, ...]:
    profile = deep_profile(connector, connector.catalog())
    keys = discover_foreign_keys(connector, profile)
    counts = sorted(
        (c.fingerprint.table, c.fingerprint.column, c.fingerprint.n_distinct, c.fingerprint.n_null)
        for t in profile.tables
        for c in t.columns
    )
    found = sorted((k.table, k.column, k.ref_table, k.ref_column) for k in keys.keys)
    return tuple(counts), tuple(found)


def test_sqlite_matches_duckdb(duck: PooledConnector, lite: PooledConnector) -> None:
    d_counts, d_keys = _summary(duck)
    l_counts, l_keys = _summary(lite)
    assert d_keys and d_keys == l_keys
    assert d_counts == l_counts


@pytest.mark.postgres
def test_postgres_matches_duckdb(duck: PooledConnector, pg: PooledConnector) -> None:
    d_counts, d_keys = _summary(duck)
    p_counts, p_keys = _summary(pg)
    assert d_keys and d_keys == p_keys
    assert d_counts == p_counts
