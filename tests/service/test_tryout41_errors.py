"""Errors an outside tester found outside the documented shape, or refused otherwise than the
docs say (tryout 41, F6-F9).

F6: a CORS preflight from an unlisted origin was 400 text/plain ("Disallowed CORS origin"); /mcp
with an unlisted Origin 403 text/plain ("Invalid Origin header", the SDK's); an unknown MCP tool
plain text with no request id. Each is now the one JSON error shape.
F7: a GET with a foreign Origin was answered (200), though docs/deploy.md says such a request is
refused; it is now (the page's own requests carry its own origin, or none).
F8: a body giving a key twice was taken, the last one winning; it is refused, naming the key.
F9: SQLite's load_extension() was withheld; loading code is refused, as docs/api.md says.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from assay.guard._changes import statement_change
from assay.service import create_app, mcp_http
from tests.service.conftest import make_service
from tests.service.test_api import _error

_TOKEN = "c" * 24
_AUTH = {"Authorization": f"Bearer {_TOKEN}"}
_ALLOWED = "http://allowed.example"


@pytest.fixture(scope="module")
def app(
    demo_paths: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    folder = tmp_path_factory.mktemp("tryout41")
    svc = make_service(
        demo_paths,
        f"sqlite:///{folder / 'ledger.db'}",
        tokens={"ci": _TOKEN},
        cors_origins=[_ALLOWED],
    )
    routes, lifespan = mcp_http(svc, "127.0.0.1")
    with TestClient(
        create_app(svc, extra_routes=routes, lifespan=lifespan), base_url="http://127.0.0.1:8000"
    ) as c:
        yield c
    svc.close()
    svc.ledger.close()


def _preflight(origin: str, method: str = "POST") -> dict[str, str]:
    return {"Origin": origin, "Access-Control-Request-Method": method}


def test_a_preflight_from_an_unlisted_origin_is_refused_in_the_json_shape(
    app: TestClient,
) -> None:
    refused = app.options("/api/ask", headers=_preflight("https://evil.example"))
    body = _error(refused, 403, "csrf.failed")
    assert "'https://evil.example'" in body["error"]["message"]
    assert "cors_origins" in body["error"]["hint"]
    assert "access-control-allow-origin" not in refused.headers
    method = app.options("/api/ask", headers=_preflight(_ALLOWED, "DELETE"))
    assert "'DELETE'" in _error(method, 403, "csrf.failed")["error"]["message"]
    allowed = app.options("/api/ask", headers=_preflight(_ALLOWED))
    assert allowed.status_code == 200
    assert allowed.headers["access-control-allow-origin"] == _ALLOWED


def test_a_get_from_a_foreign_origin_is_refused_as_the_docs_say(app: TestClient) -> None:
    foreign = app.get("/api/semantic", headers={**_AUTH, "Origin": "https://evil.example"})
    _error(foreign, 403, "csrf.failed")
    # the server's own origin, a listed one, and none (a program, the page's same-origin GET)
    for origin in ("http://127.0.0.1:8000", _ALLOWED, None):
        headers = {**_AUTH, **({"Origin": origin} if origin else {})}
        assert app.get("/api/semantic", headers=headers).status_code == 200, origin
    page = TestClient(app.app, base_url="http://127.0.0.1:8000")  # its own cookie jar
    assert page.get("/", headers={"Origin": "https://evil.example"}).status_code == 200


def test_a_key_given_twice_is_refused_naming_it(app: TestClient) -> None:
    twice = app.post(
        "/api/ask",
        content=b'{"question": "gross revenue in 2023", "database": "shop", "database": "x"}',
        headers={**_AUTH, "Content-Type": "application/json"},
    )
    body = _error(twice, 422, "request.invalid")
    assert "'database'" in body["error"]["message"]
    assert body["error"]["details"] == {"field": "database"}
    nested = app.post(
        "/api/score",
        content=b'{"records": [{"id": "a", "id": "b", "question": "q", "samples": []}]}',
        headers={**_AUTH, "Content-Type": "application/json"},
    )
    assert _error(nested, 422, "request.invalid")["error"]["details"] == {"field": "id"}


def _mcp(app: TestClient, payload: dict[str, Any], **headers: str) -> Any:
    return app.post(
        "/mcp",
        headers={**_AUTH, "Accept": "application/json, text/event-stream", **headers},
        json={"jsonrpc": "2.0", "id": 1, **payload},
    )


def test_an_unknown_mcp_tool_is_refused_in_the_json_shape(app: TestClient) -> None:
    response = _mcp(app, {"method": "tools/call", "params": {"name": "nosuch", "arguments": {}}})
    assert response.status_code == 200, response.text
    result = response.json()["result"]
    assert result["isError"] is True
    body = result["structuredContent"]
    assert body["ok"] is False and body["request_id"]
    assert body["error"]["code"] == "request.invalid"
    assert "'nosuch'" in body["error"]["message"]
    assert "ask" in body["error"]["hint"] and body["error"]["details"]["tools"]


def test_mcp_from_a_foreign_origin_is_refused_in_the_json_shape(app: TestClient) -> None:
    init = {
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    refused = _mcp(app, init, Origin="https://evil.example")
    assert refused.status_code == 403
    body = refused.json()
    assert set(body) == {"ok", "error", "request_id"} and body["request_id"]
    assert body["error"]["code"] == "csrf.failed"
    assert "'https://evil.example'" in body["error"]["message"]
    assert _mcp(app, init, Origin="http://127.0.0.1:8000").status_code == 200


@pytest.mark.parametrize("dialect", ["sqlite", "duckdb"])
def test_loading_code_is_a_refusal(dialect: str) -> None:
    change = statement_change("SELECT load_extension('/tmp/x.so')", dialect)
    assert change is not None and change.does == "loads native code"


def test_load_extension_over_the_api_is_refused(app: TestClient) -> None:
    body = app.post(
        "/api/sql", json={"sql": "SELECT load_extension('/tmp/x.so')"}, headers=_AUTH
    ).json()
    assert body["badge"] == "refuse", body
    assert body["verdict"]["behaviour"] == "refuse"
    assert body["answer"] is None


def test_a_missing_database_file_names_the_configuration_s_key(
    demo_paths: tuple[Path, Path], tmp_path: Path
) -> None:
    """`assay serve` has no --db option; its hint named one (outside tryout 41, F14)."""
    from assay.errors import ConnectionFailed
    from assay.service import DatabaseConfig

    missing = {"shop": DatabaseConfig(url=str(tmp_path / "gone.duckdb"), semantic=demo_paths[1])}
    with pytest.raises(ConnectionFailed) as raised:
        make_service(demo_paths, f"sqlite:///{tmp_path / 'l.db'}", databases=missing)
    assert "--db" not in raised.value.hint
    assert "databases.shop.url" in raised.value.hint
    assert "gone.duckdb" in raised.value.message and "'shop'" in raised.value.message
