"""Building a TPC warehouse from the installed generator extension."""

from __future__ import annotations

import duckdb
import pytest

from assay.bench.datasets import build_tpc
from assay.errors import BenchError


def test_a_path_given_as_a_string_is_built_and_returned_as_a_path(tmp_path):
    # A blind set's author passed a string and got AttributeError ('str' has no 'exists').
    target = str(tmp_path / "sub" / "h.duckdb")
    built = build_tpc("tpch", 0.001, target)
    assert str(built) == target and built.exists()
    con = duckdb.connect(target, read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM nation").fetchone() == (25,)
    finally:
        con.close()
    assert build_tpc("tpch", 0.001, target) == built  # already there: kept


def test_an_unknown_benchmark_is_named_with_the_fix(tmp_path):
    with pytest.raises(BenchError) as raised:
        build_tpc("tpcx", 0.01, str(tmp_path / "x.duckdb"))
    assert "'tpcx'" in str(raised.value) and "tpch" in raised.value.hint
