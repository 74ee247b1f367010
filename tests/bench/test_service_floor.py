"""The service benchmark's floor and its one-client load generator (benchmarks/bench_service.py):
the no-op app is served as ``assay serve`` serves, and the blocking client reads each response
whole by its Content-Length, however the bytes arrive."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from benchmarks.bench_service import _Client, _request
from starlette.applications import Starlette

from assay.cli._serve import uvicorn_config

ROOT = Path(__file__).parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_assay_serve_and_the_floor_use_httptools_and_uvloop() -> None:
    pytest.importorskip("uvloop")
    config = uvicorn_config(Starlette(), "127.0.0.1", 0)
    config.load()
    assert config.http_protocol_class.__module__ == "uvicorn.protocols.http.httptools_impl"
    factory = config.get_loop_factory()
    assert factory is not None and factory.__module__.startswith("uvloop")


def test_the_noop_server_answers_each_post_on_one_connection() -> None:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "benchmarks._noop_server", str(port)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                client = _Client(port)
                break
            except OSError:
                assert server.poll() is None, "the no-op server exited"
                assert time.monotonic() < deadline, "the no-op server did not start"
                time.sleep(0.1)
        try:
            answers = [client.post(_request(b'{"question": "q"}')) for _ in range(3)]
        finally:
            client.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert answers == [(200, b'{"ok":true,"verdict":{"id":"noop"}}')] * 3


def test_the_client_reads_a_response_whole_however_it_arrives() -> None:
    # The head and the body in separate writes, then a second response on the same
    # connection whose head arrives one byte at a time: each read by its Content-Length.
    bodies = [b'{"ok":true,"n":1}', b'{"ok":true,"n":22}']
    got: list[bytes] = []

    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]

        def serve() -> None:
            conn, _ = listener.accept()
            with conn:
                for n, body in enumerate(bodies):
                    request = b""
                    while b"\r\n\r\n" not in request or not request.endswith(b"}"):
                        request += conn.recv(1024)
                    got.append(request)
                    head = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body)
                    if n == 0:
                        conn.sendall(head)
                        time.sleep(0.05)
                        conn.sendall(body)
                    else:
                        for i in range(len(head)):
                            conn.sendall(head[i : i + 1])
                            time.sleep(0.001)
                        conn.sendall(body)

        thread = threading.Thread(target=serve)
        thread.start()
        client = _Client(port)
        try:
            answers = [client.post(_request(b'{"question": "q"}')) for _ in bodies]
        finally:
            client.close()
            thread.join(10)
    assert answers == [(200, body) for body in bodies]
    assert all(r.startswith(b"POST /api/ask HTTP/1.1\r\n") for r in got)
    assert all(b"Content-Length: 17\r\n\r\n" in r for r in got)
