"""Tier C through the OpenAI-compatible client, against the scripted loopback server."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb

from assay.catalog import deep_profile
from assay.connectors import connect
from assay.generators._namer import chat_namer
from assay.settings import load_settings
from tests.fixtures.llm_server import ScriptedServer


@contextmanager
def _server(rules: list[dict[str, Any]]) -> Iterator[ScriptedServer]:
    server = ScriptedServer(rules)
    thread = threading.Thread(target=server.httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.httpd.shutdown()
        server.httpd.server_close()


def _db(tmp_path: Path) -> Path:
    path = tmp_path / "n.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE t (code VARCHAR)")
    con.execute(
        "INSERT INTO t SELECT 'QX' || lpad(CAST(i AS VARCHAR), 5, '0') || 'z' "
        "FROM range(0, 300) r(i)"
    )
    con.close()
    return path


def _profile(db: Path, url: str | None) -> Any:
    settings = load_settings(llm_base_url=url or "", llm_model="m" if url else "")
    with connect(str(db)) as connector:
        profile = deep_profile(connector, connector.catalog(), namer=chat_namer(settings))
    return profile.tables[0].columns[0]


def _reply(regex: str) -> str:
    return json.dumps(
        {"pattern_name": "qx_code", "semantic_type": "identifier:qx", "verification_regex": regex}
    )


def test_verified_proposal_is_accepted_at_tier_0(tmp_path: Path) -> None:
    db = _db(tmp_path)
    with _server([{"match": "Values", "reply": _reply(r"QX\d{5}z")}]) as server:
        report = _profile(db, server.url)
        assert len(server.log) == 1
    assert report.best is not None and report.best.name == "model:qx_code"
    assert report.best.tier.name == "INTERPRETER_ONLY"


def test_bad_proposals_and_failures_are_rejected(tmp_path: Path) -> None:
    db = _db(tmp_path)
    for rule in (
        {"match": "Values", "reply": _reply(".*")},
        {"match": "Values", "reply": _reply(r"QX\d{4}z")},
        {"match": "Values", "reply": "no json here"},
        {"match": "Values", "status": 500},
    ):
        with _server([rule]) as server:
            assert _profile(db, server.url).best is None


def test_no_model_no_call(tmp_path: Path) -> None:
    assert _profile(_db(tmp_path), None).best is None
