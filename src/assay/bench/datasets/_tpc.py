"""TPC-H and TPC-DS warehouses generated offline with DuckDB's extensions from PyPI.

The ``duckdb-extension-tpch`` and ``duckdb-extension-tpcds`` packages carry the extension
files; they are loaded by path, so nothing is downloaded at run time.
"""

from __future__ import annotations

import os
from importlib import util
from pathlib import Path

from assay.errors import BenchError

__all__ = ["TPC_BENCHMARKS", "build_tpc", "tpc_extension_path", "tpc_queries"]

TPC_BENCHMARKS: dict[str, tuple[str, str]] = {
    "tpch": ("dbgen", "tpch_queries"),
    "tpcds": ("dsdgen", "tpcds_queries"),
}


def tpc_extension_path(name: str) -> Path:
    """The ``.duckdb_extension`` file inside the installed ``duckdb-extension-<name>``."""
    spec = util.find_spec(f"duckdb_extension_{name}")
    if spec is None or not spec.submodule_search_locations:
        raise BenchError(
            f"The DuckDB {name} extension package is not installed.",
            hint=f"Install it with: pip install duckdb-extension-{name}==1.5.5",
        )
    for location in spec.submodule_search_locations:
        found = sorted(Path(location).rglob(f"{name}.duckdb_extension"))
        if found:
            return found[0]
    raise BenchError(
        f"No {name}.duckdb_extension file inside duckdb-extension-{name}.",
        hint=f"Reinstall it: pip install --force-reinstall duckdb-extension-{name}==1.5.5",
    )


def build_tpc(name: str, scale_factor: float, path: str | os.PathLike[str]) -> Path:
    """Generate a TPC warehouse at ``path`` (a string or a path) unless it is already there
    (atomic rename)."""
    import duckdb

    if name not in TPC_BENCHMARKS:
        raise BenchError(f"Unknown TPC benchmark {name!r}.", hint="Use 'tpch' or 'tpcds'.")
    path = Path(path)
    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    partial.unlink(missing_ok=True)
    generator, _ = TPC_BENCHMARKS[name]
    con = duckdb.connect(str(partial))
    try:
        con.execute(f"LOAD '{tpc_extension_path(name)}'")
        con.execute(f"CALL {generator}(sf = {float(scale_factor)})")
        con.execute("CHECKPOINT")
    finally:
        con.close()
    partial.replace(path)
    return path


def tpc_queries(name: str) -> list[tuple[int, str]]:
    """The official queries, numbered from 1."""
    import duckdb

    _, function = TPC_BENCHMARKS[name]
    con = duckdb.connect()
    try:
        con.execute(f"LOAD '{tpc_extension_path(name)}'")
        rows = con.execute(f"SELECT query_nr, query FROM {function}() ORDER BY 1").fetchall()
    finally:
        con.close()
    return [(int(n), str(q)) for n, q in rows]
