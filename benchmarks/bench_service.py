"""The service under load, on loopback only: 2,000 asks at 32 concurrent clients against the
demo warehouse (``assay serve`` in a child process, its own ledger).

Measured in one run: p50 and p99 latency and throughput over HTTP; the ledger afterwards (every
acknowledged verdict stored once: zero lost, zero duplicated); the server's resident memory
(itself and its engine workers) sampled through the run (flat: the last tenth within 10% + 32 MB
of the first tenth); and ``Agent.ask`` in-process on the same questions at the same concurrency,
so that the service's added latency is a ratio (target under 1.2x at p50). Bounded: every
request has a timeout and the run has a deadline.

``python -m benchmarks service``; ``BENCH_SERVICE_N`` and ``BENCH_SERVICE_CLIENTS`` shrink it.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import yaml

from assay.cli._ask import DEMO_QUESTIONS, demo_warehouse
from assay.connectors import connect
from assay.ledger import Ledger
from assay.pipeline import Agent
from assay.semantic import load_semantic
from assay.settings import load_settings
from benchmarks._common import median, percentile, report, write

DEADLINE_S = 900.0
ANSWERED = 5  # DEMO_QUESTIONS[:5] are answered (they run SQL); the rest ask back, abstain, refuse
REQUEST_TIMEOUT_S = 60.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rss_mb(pid: int, children: bool = True) -> float:
    """Resident memory of a process and (by default) its children (the engine workers), in MB."""
    total = 0
    pids = [pid]
    try:
        if children:
            pids += [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        pass
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024.0


async def _post(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, body: bytes
) -> tuple[int, bytes]:
    """One keep-alive HTTP/1.1 POST over raw streams: the load generator stays lean, so that
    what is measured is the server, not the client library."""
    writer.write(
        b"POST /api/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
    )
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    return status, await reader.readexactly(length)


async def _load(
    port: int,
    questions: list[str],
    n: int,
    clients: int,
    memory: list[float],
    pid: int,
    own: list[float],
) -> tuple[list[tuple[int, float]], list[str], int, float]:
    latencies: list[tuple[int, float]] = []
    acknowledged: list[str] = []
    failures = 0
    counter = iter(range(n))
    bodies = [json.dumps({"question": q}).encode() for q in questions]

    async def worker() -> None:
        nonlocal failures
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            for i in counter:
                started = time.perf_counter()
                try:
                    status, raw = await asyncio.wait_for(
                        _post(reader, writer, bodies[i % len(bodies)]), REQUEST_TIMEOUT_S
                    )
                except (OSError, asyncio.IncompleteReadError, TimeoutError):
                    failures += 1
                    return
                latencies.append((i % len(questions), (time.perf_counter() - started) * 1000.0))
                if status == 200:
                    acknowledged.append(json.loads(raw)["verdict"]["id"])
                else:
                    failures += 1
                if i % max(1, n // 20) == 0:
                    memory.append(_rss_mb(pid))
                    own.append(_rss_mb(pid, children=False))
        finally:
            writer.close()

    started = time.perf_counter()
    await asyncio.wait_for(asyncio.gather(*(worker() for _ in range(clients))), DEADLINE_S)
    return latencies, acknowledged, failures, time.perf_counter() - started


def _in_process(
    db: Path, layer_path: Path, questions: list[str], n: int, clients: int
) -> list[float]:
    """``Agent.ask`` in this process, the same questions at the same concurrency."""
    settings = load_settings()
    layer = load_semantic(layer_path)
    latencies: list[tuple[int, float]] = []
    lock = threading.Lock()
    with connect(str(db), settings) as connector:
        agent = Agent(connector, layer, settings)
        for q in questions:
            agent.ask(q)  # warm

        def one(i: int) -> None:
            started = time.perf_counter()
            agent.ask(questions[i % len(questions)], ident=f"b{i}")
            with lock:
                latencies.append((i % len(questions), (time.perf_counter() - started) * 1000.0))

        started = time.perf_counter()
        with ThreadPoolExecutor(clients) as pool:
            list(pool.map(one, range(n)))
        wall = time.perf_counter() - started
    return latencies, wall


def run() -> dict[str, object]:
    n = int(os.environ.get("BENCH_SERVICE_N", "2000"))
    n_serial = max(ANSWERED * 10, n // 10)
    clients = int(os.environ.get("BENCH_SERVICE_CLIENTS", "32"))
    settings = load_settings()
    db, layer = demo_warehouse(settings)
    questions = list(DEMO_QUESTIONS)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        config = folder / "assay.yaml"
        config.write_text(
            yaml.safe_dump(
                {
                    "databases": {"shop": {"url": str(db), "semantic": str(layer)}},
                    "ledger": f"sqlite:///{folder / 'ledger.db'}",
                    "limits": {"rate_per_minute": 0},
                }
            ),
            encoding="utf-8",
        )
        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        log = (folder / "server.log").open("wb")
        server = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "assay"),
                "serve",
                "--config",
                str(config),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--no-mcp",
            ],
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("assay serve did not start")
                time.sleep(0.2)
            for q in questions:  # warm, as in-process is warmed
                httpx.post(url + "/api/ask", json={"question": q}, timeout=REQUEST_TIMEOUT_S)
            memory: list[float] = [_rss_mb(server.pid)]
            own: list[float] = [_rss_mb(server.pid, children=False)]
            latencies, acknowledged, failures, wall = asyncio.run(
                _load(port, questions, n, clients, memory, server.pid, own)
            )
            memory.append(_rss_mb(server.pid))
            serial, serial_ack, _, _ = asyncio.run(
                _load(port, questions, n_serial, 1, [], server.pid, [])
            )
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
            log.close()
        ledger = Ledger(f"sqlite:///{folder / 'ledger.db'}")
        try:
            stored = ledger.ids()
            counts = ledger.counts()
        finally:
            ledger.close()
    acknowledged += serial_ack
    lost = len(set(acknowledged) - set(stored))
    duplicated = counts.verdicts - counts.distinct_ids
    local, local_wall = _in_process(db, layer, questions, n, clients)
    local_serial, _ = _in_process(db, layer, questions, n_serial, 1)
    answered = set(range(ANSWERED))

    def p50(values: list[tuple[int, float]], only: set[int] | None = None) -> float:
        return median([ms for q, ms in values if only is None or q in only])

    tenth = max(1, len(memory) // 10)
    first, last = max(memory[:tenth]), max(memory[-tenth:])
    record: dict[str, Any] = {
        "asks": n,
        "clients": clients,
        "cpus": os.cpu_count(),
        "acknowledged": len(acknowledged) - len(serial_ack),
        "failed": failures,
        "http_p50_ms": round(p50(latencies), 2),
        "http_p99_ms": round(percentile([ms for _, ms in latencies], 99), 2),
        "throughput_per_s": round(len(latencies) / wall, 1),
        "in_process_p50_ms": round(p50(local), 2),
        "in_process_p99_ms": round(percentile([ms for _, ms in local], 99), 2),
        "in_process_throughput_per_s": round(len(local) / local_wall, 1),
        "throughput_ratio": round((len(local) / local_wall) / (len(latencies) / wall), 3),
        "ratio_p50_concurrent_all": round(p50(latencies) / p50(local), 3),
        "ratio_p50_concurrent_answered": round(p50(latencies, answered) / p50(local, answered), 3),
        "serial_asks": n_serial,
        "http_serial_p50_ms": round(p50(serial), 3),
        "in_process_serial_p50_ms": round(p50(local_serial), 3),
        "ratio_p50_serial_all": round(p50(serial) / p50(local_serial), 3),
        "ratio_p50_serial_answered": round(p50(serial, answered) / p50(local_serial, answered), 3),
        "http_serial_added_ms_p50": round(p50(serial) - p50(local_serial), 3),
        "ledger_rows": counts.verdicts,
        "ledger_expected_rows": n + n_serial + len(questions),
        "ledger_lost": lost,
        "ledger_duplicated": duplicated,
        "memory_first_tenth_mb": round(first, 1),
        "memory_last_tenth_mb": round(last, 1),
        "memory_samples_mb": [round(m, 1) for m in memory],
        "memory_server_process_samples_mb": [round(m, 1) for m in own],
    }
    write("service", record)
    ratio = record["ratio_p50_concurrent_answered"]
    report(
        "service",
        [
            ("asks acknowledged", f"{record['acknowledged']} of {n}", f"{n}", failures == 0),
            ("HTTP p50 / p99", f"{record['http_p50_ms']} / {record['http_p99_ms']} ms", "-", True),
            (
                "throughput (in-process / HTTP)",
                f"{record['throughput_per_s']} asks/s "
                f"(in-process {record['in_process_throughput_per_s']}: "
                f"{record['throughput_ratio']}x)",
                "-",
                True,
            ),
            (
                f"added latency over Agent.ask, p50, {clients} clients, answered questions",
                f"{ratio}x (all questions {record['ratio_p50_concurrent_all']}x)",
                "< 1.2x",
                ratio < 1.2,
            ),
            (
                "added latency over Agent.ask, p50, one client, answered questions",
                f"{record['ratio_p50_serial_answered']}x (all {record['ratio_p50_serial_all']}x, "
                f"+{record['http_serial_added_ms_p50']} ms)",
                "< 1.2x",
                record["ratio_p50_serial_answered"] < 1.2,
            ),
            (
                "ledger rows / lost / duplicated",
                f"{counts.verdicts} / {lost} / {duplicated}",
                f"{record['ledger_expected_rows']} / 0 / 0",
                lost == duplicated == 0 and counts.verdicts == record["ledger_expected_rows"],
            ),
            (
                "server memory first / last tenth",
                f"{record['memory_first_tenth_mb']} / {record['memory_last_tenth_mb']} MB",
                "flat (within 10% + 32 MB)",
                last <= first * 1.1 + 32,
            ),
        ],
    )
    return record


if __name__ == "__main__":
    run()
