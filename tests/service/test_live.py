"""A real server on loopback: a slow client, a kill mid-load that loses no acknowledged
verdict, and a restart that serves on."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from assay.ledger import Ledger
from tests.service._live import LiveServer, write_config

pytestmark = pytest.mark.slow


@pytest.fixture
def live(demo_paths: tuple[Path, Path], tmp_path: Path) -> Iterator[LiveServer]:
    config = write_config(
        tmp_path, *demo_paths, limits={"body_read_timeout_s": 1.0, "rate_per_minute": 0}
    )
    server = LiveServer(config, tmp_path / "server.log").start()
    yield server
    server.stop()


def _read_reply(sock: socket.socket) -> str:
    """The whole reply: headers and body may arrive in separate packets."""
    data = b""
    while b"\r\n\r\n" not in data or len(data.partition(b"\r\n\r\n")[2]) < _length(data):
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data.decode()


def _length(data: bytes) -> int:
    for line in data.partition(b"\r\n\r\n")[0].split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return 0


def test_slow_client_is_cut_off_and_the_server_serves_on(live: LiveServer) -> None:
    with socket.create_connection(("127.0.0.1", live.port), timeout=10) as sock:
        sock.sendall(
            b"POST /api/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 60\r\n\r\n" + b'{"question": '
        )
        reply = _read_reply(sock)
    assert reply.startswith("HTTP/1.1 408"), reply
    assert '"request.body_timeout"' in reply
    ok = httpx.post(live.url + "/api/ask", json={"question": "What was the gross revenue in 2023?"})
    assert ok.status_code == 200 and ok.json()["badge"] == "show"


def test_kill_mid_load_loses_no_acknowledged_verdict(live: LiveServer, tmp_path: Path) -> None:
    acknowledged: list[str] = []
    lock = threading.Lock()
    stop = threading.Event()
    questions = [
        "What was the gross revenue in 2023?",
        "What was the number of orders per month in 2024?",
        "What was revenue in 2023?",
        "Top 3 country by net revenue last year",
    ]

    def client(n: int) -> None:
        with httpx.Client(base_url=live.url, timeout=10) as http:
            i = 0
            while not stop.is_set():
                try:
                    response = http.post("/api/ask", json={"question": questions[(n + i) % 4]})
                except httpx.HTTPError:
                    return  # the server died under us: this answer was never acknowledged
                i += 1
                if response.status_code == 200:
                    with lock:
                        acknowledged.append(response.json()["verdict"]["id"])

    threads = [threading.Thread(target=client, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    # Kill as soon as a score of answers is acknowledged (the eight clients keep asking: the kill
    # still lands mid-load), not after a fixed 3 s.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with lock:
            if len(acknowledged) > 20:
                break
        time.sleep(0.05)
    with lock:
        before_kill = len(acknowledged)
    live.stop()  # SIGKILL to the whole process group, mid-load
    stop.set()
    for t in threads:
        t.join(timeout=30)
    assert before_kill > 10
    ledger = Ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
    try:
        stored = ledger.ids()
        counts = ledger.counts()
        assert set(acknowledged) <= set(stored), "an acknowledged verdict was lost"
        assert counts.verdicts == counts.distinct_ids, "a verdict was recorded twice"
        for ident in acknowledged[-5:]:
            record = ledger.verdict(ident)
            assert record is not None and record["verdict"]["id"] == ident
    finally:
        ledger.close()
    live.start()  # the same ledger, a new process: it serves on
    again = httpx.post(live.url + "/api/ask", json={"question": questions[0]})
    assert again.status_code == 200
    old = httpx.get(f"{live.url}/api/verdicts/{acknowledged[0]}")
    assert old.status_code == 200 and old.json()["verdict"]["id"] == acknowledged[0]


def test_mcp_over_streamable_http(demo_paths: tuple[Path, Path], tmp_path: Path) -> None:
    """`assay serve` also serves MCP at /mcp, behind the same tokens."""
    import anyio
    import httpx2
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    token = "t" * 24
    config = write_config(tmp_path, *demo_paths, tokens={"agent": token})
    server = LiveServer(config, tmp_path / "server.log").start()
    try:
        # The start line names the ledger's file (before: "ledger sqlite", no path).
        log = (tmp_path / "server.log").read_text(encoding="utf-8")
        assert f"(ledger sqlite:///{tmp_path / 'ledger.db'}; tokens on)" in log
        refused = httpx.post(server.url + "/mcp", json={})
        assert refused.status_code == 401
        assert refused.json()["error"]["code"] == "auth.missing_token"

        async def session() -> tuple[list[str], dict[str, object]]:
            headers = {"Authorization": f"Bearer {token}"}
            async with (
                httpx2.AsyncClient(headers=headers, timeout=30) as http,
                streamable_http_client(server.url + "/mcp", http_client=http) as streams,
                ClientSession(streams[0], streams[1]) as client,
            ):
                await client.initialize()
                tools = sorted(t.name for t in (await client.list_tools()).tools)
                result = await client.call_tool("ask", {"question": "Delete all cancelled orders."})
                assert result.structured_content is not None
                return tools, dict(result.structured_content)

        tools, refusal = anyio.run(session)
        assert tools == ["ask", "catalog", "semantic", "sql"]
        assert refusal["badge"] == "refuse" and refusal["reasons"]
    finally:
        server.stop()
