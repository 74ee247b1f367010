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
    assert not result.is_error, result
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
        assert ledger.counts().verdicts == 6
    finally:
        ledger.close()
