"""Keys by inclusion dependency against declared and specified keys, mangled and not."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest

from assay.catalog import (
    TPCH_KEYS,
    NameMap,
    deep_profile,
    discover_foreign_keys,
    evaluate_keys,
    find_rollups,
    mangle,
    spider_keys,
)
from assay.connectors import connect

SLICE = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "spider-slice"
SPIDER_DBS = ("car_1", "concert_singer", "pets_1")


def _keys(db: Path) -> tuple[tuple[str, str, str, str], ...]:
    with connect(str(db)) as connector:
        profile = deep_profile(connector, connector.catalog())
        found = discover_foreign_keys(connector, profile)
    return tuple((k.table, k.column, k.ref_table, k.ref_column) for k in found.keys)


@pytest.fixture(scope="module")
def tpch(tpch_duckdb: Path) -> Path:
    return tpch_duckdb


@pytest.mark.parametrize("severity", [0.0, 1.0], ids=["names", "opaque"])
def test_tpch_keys(tpch_mangled: Callable[[float], tuple[Path, NameMap]], severity: float) -> None:
    out, names = tpch_mangled(severity)  # mangle(tpch, out, severity=severity, seed=0), shared
    result = evaluate_keys(_keys(out), TPCH_KEYS, names)
    assert result.recall >= 0.90 and result.precision >= 0.90, result.to_dict()


@pytest.mark.skipif(not SLICE.exists(), reason="the Spider slice is not in ../shared/data")
@pytest.mark.parametrize("severity", [0.0, 1.0], ids=["names", "opaque"])
def test_spider_slice_keys(tmp_path: Path, severity: float) -> None:
    found = truth = correct = 0
    for db in SPIDER_DBS:
        out = tmp_path / f"{db}.sqlite"
        names = mangle(SLICE / "database" / db / f"{db}.sqlite", out, severity=severity, seed=0)
        result = evaluate_keys(_keys(out), spider_keys(SLICE / "tables.json", db), names)
        found, truth, correct = (
            found + result.n_found,
            truth + result.n_truth,
            (correct + result.n_correct),
        )
    assert correct / truth >= 0.90 and correct / found >= 0.90


def _build(path: Path, statements: list[str]) -> Path:
    con = duckdb.connect(str(path))
    for sql in statements:
        con.execute(sql)
    con.close()
    return path


def test_small_counters_are_not_keys(tmp_path: Path) -> None:
    db = _build(
        tmp_path / "c.duckdb",
        [
            "CREATE TABLE region (r_id INTEGER, r_name VARCHAR)",
            "INSERT INTO region SELECT i, 'r' || i FROM range(0, 5) t(i)",
            "CREATE TABLE nation (n_id INTEGER, n_region INTEGER, n_name VARCHAR)",
            "INSERT INTO nation SELECT i, i % 5, 'n' || i FROM range(0, 25) t(i)",
            "CREATE TABLE line (l_id INTEGER, l_no INTEGER, l_nation INTEGER)",
            "INSERT INTO line SELECT i, 1 + i % 7, (i * 7) % 25 FROM range(0, 2000) t(i)",
        ],
    )
    found = set(_keys(db))
    assert ("nation", "n_region", "region", "r_id") in found
    assert ("line", "l_nation", "nation", "n_id") in found
    assert not any(k[:2] == ("line", "l_no") for k in found)  # 1..7 sits in any 0..24


def test_rollups_need_amplification_and_reject_aliases(tmp_path: Path) -> None:
    db = _build(
        tmp_path / "r.duckdb",
        [
            "CREATE TABLE school (id INTEGER, city VARCHAR, county VARCHAR, "
            "status_code VARCHAR, status_name VARCHAR)",
            "INSERT INTO school SELECT i, 'city' || (i % 40), 'county' || (i % 40 % 8), "
            "'S' || (i % 4), 'status ' || (i % 4) FROM range(0, 400) t(i)",
        ],
    )
    with connect(str(db)) as connector:
        rollups = find_rollups(connector, deep_profile(connector, connector.catalog()))
    pairs = {(r.fine, r.coarse, r.alias) for r in rollups}
    assert ("city", "county", False) in pairs
    assert not any({a, b} == {"status_code", "status_name"} and not alias for a, b, alias in pairs)
    assert any({a, b} == {"status_code", "status_name"} and alias for a, b, alias in pairs)
