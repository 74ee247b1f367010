"""A script that opens a database at its top level, not under ``if __name__ == "__main__":``:
every worker process imports the script again and dies; the error must say why and how to fix
it (found when a benchmark script hung on "the worker died while opening it")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb

SCRIPT = """\
from assay.connectors import connect
{indent}c = connect({db!r})
{indent}print("rows", c.execute("SELECT count(*) FROM t").rows)
"""


def _run(tmp_path: Path, guarded: bool) -> subprocess.CompletedProcess[str]:
    db = tmp_path / "x.duckdb"
    if not db.exists():
        with duckdb.connect(str(db)) as con:
            con.execute("CREATE TABLE t AS SELECT 1 AS a")
    body = SCRIPT.format(db=str(db), indent="    " if guarded else "")
    if guarded:
        body = body.replace("    c = connect", 'if __name__ == "__main__":\n    c = connect')
    script = tmp_path / ("guarded.py" if guarded else "unguarded.py")
    script.write_text(body, encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False
    )


def test_top_level_open_names_the_script_and_the_fix(tmp_path: Path) -> None:
    done = _run(tmp_path, guarded=False)
    assert done.returncode != 0
    assert "unguarded.py" in done.stderr
    assert 'if __name__ == "__main__":' in done.stderr


def test_guarded_script_opens(tmp_path: Path) -> None:
    done = _run(tmp_path, guarded=True)
    assert done.returncode == 0, done.stderr
    assert "rows ((1,),)" in done.stdout


def test_the_fork_server_can_start_before_a_connector(tmp_path: Path) -> None:
    """`assay ask` starts the workers' fork server before importing itself, so that the
    engines load in parallel; a connector opened afterwards uses it, and starting twice is
    harmless."""
    import multiprocessing

    from assay.connectors import connect
    from assay.connectors._worker import start_fork_server

    expected = "forkserver" in multiprocessing.get_all_start_methods()
    assert start_fork_server() is expected
    assert start_fork_server() is expected
    db = tmp_path / "y.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute("CREATE TABLE t AS SELECT 2 AS a")
    connector = connect(str(db))
    try:
        assert connector.execute("SELECT a FROM t").rows == ((2,),)
    finally:
        connector.close()
