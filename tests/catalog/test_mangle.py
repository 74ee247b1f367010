"""The schema mangler: deterministic, severity-monotone, data unchanged, map round-trips."""

from __future__ import annotations

import itertools
import json
import sqlite3
from pathlib import Path

import duckdb
import pytest

from assay.catalog import mangle, read_name_map
from assay.errors import InputError


def _source(tmp_path: Path) -> Path:
    path = tmp_path / "src.sqlite"
    if path.exists():
        return path
    con = sqlite3.connect(path)
    con.executescript(
        """
        CREATE TABLE customer (id INTEGER PRIMARY KEY, name TEXT, "home town" TEXT);
        CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customer(id),
                             total REAL);
        INSERT INTO customer VALUES (1, 'Ann', 'Ōsaka'), (2, 'Bo', 'Lund');
        INSERT INTO orders VALUES (10, 1, 9.5), (11, 2, 3.25), (12, 1, 7.0);
        """
    )
    con.commit()
    con.close()
    return path


def _renamed(tmp_path: Path, severity: float, seed: int = 1) -> set[tuple[str, str]]:
    out = tmp_path / f"m-{severity}-{seed}.sqlite"
    names = mangle(_source(tmp_path), out, severity=severity, seed=seed)
    return {(t, "") for t in names.tables} | set(names.columns)


def test_severity_monotone(tmp_path: Path) -> None:
    levels = [_renamed(tmp_path, s) for s in (0.0, 0.25, 0.5, 0.75, 1.0)]
    assert levels[0] == set()
    assert all(a < b for a, b in itertools.pairwise(levels))
    assert len(levels[-1]) == 2 + 6


def test_deterministic_and_round_trips(tmp_path: Path) -> None:
    src = _source(tmp_path)
    a = mangle(src, tmp_path / "a.sqlite", severity=0.6, seed=5)
    b = mangle(src, tmp_path / "b.sqlite", severity=0.6, seed=5)
    assert a.to_dict() == b.to_dict()
    text_a = (tmp_path / "a.sqlite.names.json").read_text()
    assert text_a == (tmp_path / "b.sqlite.names.json").read_text()
    assert read_name_map(tmp_path / "a.sqlite.names.json") == a
    assert json.loads(text_a)["severity"] == 0.6


def test_values_kept_and_keys_dropped(tmp_path: Path) -> None:
    src = _source(tmp_path)
    out = tmp_path / "full.sqlite"
    names = mangle(src, out, severity=1.0, seed=0)
    con = sqlite3.connect(out)
    table, column = names.column("orders", "total")
    rows = con.execute(f'SELECT "{column}" FROM "{table}" ORDER BY 1').fetchall()
    assert rows == [(3.25,), (7.0,), (9.5,)]
    t2, c2 = names.column("customer", "home town")
    assert con.execute(f'SELECT "{c2}" FROM "{t2}" ORDER BY 1').fetchall() == [
        ("Lund",),
        ("Ōsaka",),
    ]
    assert con.execute(f'PRAGMA foreign_key_list("{table}")').fetchall() == []
    con.close()


def test_duckdb_source(tmp_path: Path) -> None:
    src = tmp_path / "s.duckdb"
    con = duckdb.connect(str(src))
    con.execute("CREATE TABLE t (a INTEGER, b VARCHAR)")
    con.execute("INSERT INTO t VALUES (1, 'x'), (2, 'y')")
    con.close()
    names = mangle(src, tmp_path / "o.duckdb", severity=1.0, seed=0)
    con = duckdb.connect(str(tmp_path / "o.duckdb"), read_only=True)
    table, column = names.column("t", "b")
    assert con.execute(f'SELECT "{column}" FROM "{table}" ORDER BY 1').fetchall() == [
        ("x",),
        ("y",),
    ]
    con.close()


@pytest.mark.parametrize("severity", [-0.1, 1.5])
def test_bad_severity(tmp_path: Path, severity: float) -> None:
    with pytest.raises(InputError):
        mangle(_source(tmp_path), tmp_path / "x.sqlite", severity=severity, seed=0)


def test_existing_output_is_refused(tmp_path: Path) -> None:
    src = _source(tmp_path)
    with pytest.raises(InputError, match="already exists"):
        mangle(src, src, severity=1.0, seed=0)
