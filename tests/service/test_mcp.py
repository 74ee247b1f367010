"""An MCP client from the official SDK lists Assay's tools and calls each over stdio."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from assay.ledger import Ledger
from assay.service import TOOLS
from tests.service._live import write_config

pytestmark = pytest.mark.slow


def _payload(result: Any) -> dict[str, Any]:
    """The call's JSON; flagged as an error (``isError``) exactly when it is one."""
    structured = result.structured_content or {}
    assert bool(result.is_error) == (structured.get("ok") is False), result
    if result.structured_content is not None:
        return dict(result.structured_content)
    return dict(json.loads(result.content[0].text))


async def _session(config: Path) -> dict[str, Any]:
    params = StdioServerParameters(
        command=str(Path(sys.executable).parent / "assay"), args=["mcp", "--config", str(config)]
    )
    out: dict[str, Any] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        listed = await session.list_tools()
        out["tools"] = sorted(t.name for t in listed.tools)
        out["ask"] = _payload(
            await session.call_tool("ask", {"question": "What was the gross revenue in 2023?"})
        )
        out["clarify"] = _payload(
            await session.call_tool("ask", {"question": "What was revenue in 2023?"})
        )
        # an agent answering the ask-back with the choice: the question asked back, not a
        # fresh question over all dates (outside tryout 10 #129)
        out["chosen"] = _payload(
            await session.call_tool(
                "ask",
                {"question": "gross revenue", "follow_up_of": out["clarify"]["verdict_id"]},
            )
        )
        out["sql"] = _payload(
            await session.call_tool("sql", {"sql": "SELECT count(*) AS n FROM orders"})
        )
        out["refused"] = _payload(await session.call_tool("sql", {"sql": "DROP TABLE orders"}))
        # an agent's query counting order lines for orders: the layer's own answer differs
        # (outside tryout 41, F2: shown with a warning, 16,123 for 5,532 orders)
        out["fanned"] = _payload(
            await session.call_tool(
                "sql",
                {
                    "sql": "SELECT count(*) FROM orders o JOIN order_lines l "
                    "ON o.order_id = l.order_id WHERE year(o.order_date) = 2022 "
                    "AND o.status <> 'cancelled'",
                    "question": "number of orders in 2022",
                },
            )
        )
        out["withheld"] = _payload(
            await session.call_tool("ask", {"question": "What was the latest ship date in 2023?"})
        )
        out["catalog"] = _payload(await session.call_tool("catalog", {}))
        out["semantic"] = _payload(await session.call_tool("semantic", {}))
        out["unknown"] = _payload(
            await session.call_tool("ask", {"question": "x", "database": "/etc/passwd"})
        )
        # a misspelt argument is refused, not ignored (nothing asked, nothing recorded)
        out["misspelt"] = _payload(
            await session.call_tool(
                "ask", {"question": "What was the gross revenue in 2023?", "databse": "shop"}
            )
        )
        out["extra"] = _payload(
            await session.call_tool("catalog", {"database": "shop", "table": "orders"})
        )
    return out


def test_mcp_stdio_tools(demo_paths: tuple[Path, Path], tmp_path: Path) -> None:
    config = write_config(tmp_path, *demo_paths)
    out = anyio.run(_session, config)
    assert out["tools"] == sorted(TOOLS)
    assert out["ask"]["badge"] == "show" and out["ask"]["reasons"] == []
    assert out["ask"]["result"]["rows"]
    assert out["clarify"]["badge"] == "ask back"
    assert out["clarify"]["reasons"] == ["behaviour.ambiguous_metric"]
    # SELECT SUM(quantity * unit_price) ... status <> 'cancelled' AND order_date in 2023
    assert out["chosen"]["badge"] == "show"
    assert [round(float(v), 2) for v in out["chosen"]["result"]["rows"][0]] == [1530888.69]
    assert out["chosen"]["follow_up"]["inherited"] == ["period 2023"]
    assert out["sql"]["result"]["rows"][0][0] > 0
    assert out["refused"]["action"] == "withhold"
    assert out["refused"]["result"] is None and out["refused"]["text"] is None
    assert out["refused"]["reasons"] == ["guard.forbidden_statement"]
    assert out["withheld"]["action"] == "withhold" and out["withheld"]["reasons"]
    assert out["fanned"]["action"] == "withhold", out["fanned"]["reasons"]
    assert "veto.layer_answer_differs" in out["fanned"]["reasons"]
    assert out["fanned"]["result"] is None and out["fanned"]["text"] is None
    assert out["withheld"]["text"] is None and out["withheld"]["result"] is None
    assert "orders" in json.dumps(out["catalog"])
    assert "gross_revenue" in json.dumps(out["semantic"])
    assert out["unknown"]["ok"] is False
    assert out["unknown"]["error"]["code"] == "database.unknown"
    assert out["misspelt"]["ok"] is False
    assert out["misspelt"]["error"]["code"] == "request.unknown_field"
    assert "'databse'" in out["misspelt"]["error"]["message"]
    assert "database" in out["misspelt"]["error"]["hint"]
    assert out["extra"]["error"]["details"] == {"unknown": ["table"]}
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    try:  # the agent's answers are in the same ledger as a person's
        assert out["ask"]["verdict_id"] in ledger.ids()
        assert ledger.counts().verdicts == 7
    finally:
        ledger.close()


def test_mcp_over_http_records_the_token_and_answers_errors_in_the_json_shape(
    demo_paths: tuple[Path, Path], tmp_path: Path
) -> None:
    """Over HTTP with tokens on, a call is recorded as its token's name (before: ``mcp-http``,
    though docs/deploy.md says the token's name); a refused call is flagged ``isError`` and
    says why in the JSON error shape (before: ``isError`` false, and an argument of the wrong
    type was answered with pydantic's text); a refused token says what to send."""
    from starlette.testclient import TestClient

    from assay.service import create_app, mcp_http
    from tests.service.conftest import make_service

    token = "t" * 24
    svc = make_service(demo_paths, f"sqlite:///{tmp_path / 'l.db'}", tokens={"laptop": token})
    routes, lifespan = mcp_http(svc, "127.0.0.1")
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"}

    def call(c: TestClient, arguments: dict[str, Any]) -> dict[str, Any]:
        response = c.post(
            "/mcp",
            headers=headers,
            json={
                "jsonrpc": "2.0",
                "id": 1,
                "method": "tools/call",
                "params": {"name": "ask", "arguments": arguments},
            },
        )
        assert response.status_code == 200, response.text
        return dict(response.json()["result"])

    try:
        app = create_app(svc, extra_routes=routes, lifespan=lifespan)
        with TestClient(app, base_url="http://127.0.0.1:8000") as c:
            asked = call(c, {"question": "Delete all cancelled orders."})
            assert asked["isError"] is False
            ident = asked["structuredContent"]["verdict_id"]
            typed = call(c, {"question": 3})
            assert typed["isError"] is True
            error = typed["structuredContent"]["error"]
            assert error["code"] == "request.invalid" and error["details"] == {"field": "question"}
            assert (
                error["message"]
                == "The 'ask' tool's argument 'question' is a number, not a string."
            )
            assert "pydantic" not in json.dumps(typed)
            unknown = call(c, {"question": "x", "database": "nope"})
            assert unknown["isError"] is True
            assert unknown["structuredContent"]["error"]["code"] == "database.unknown"
            # MCP words, and each call its own id (outside tryout 36: "GET /api/semantic
            # lists them", and every request_id was "mcp").
            hint = unknown["structuredContent"]["error"]["hint"]
            assert "the MCP tool 'semantic'" in hint and "/api/" not in hint
            ids = {
                typed["structuredContent"]["request_id"],
                unknown["structuredContent"]["request_id"],
                asked["structuredContent"]["request_id"],
            }
            assert len(ids) == 3 and "mcp" not in ids
            named = call(c, {"question": "x", "db": "/etc/passwd"})
            assert named["structuredContent"]["error"]["code"] == "request.forbidden_field"
            bare = c.post("/mcp", json={}, headers={"Authorization": token})
            assert bare.status_code == 401
            assert "no scheme" in bare.json()["error"]["message"]
            missing = c.post("/mcp", json={})
            assert missing.status_code == 401 and missing.json()["error"]["hint"]
        stored = svc.ledger.verdict(ident)
        assert stored is not None and stored["client"] == "token:laptop"
        assert svc.ledger.counts().verdicts == 1  # the refused calls recorded nothing
    finally:
        svc.close()
        svc.ledger.close()
