"""The service under load, on loopback only: 2,000 asks at 32 concurrent clients against the
demo warehouse (``assay serve`` in a child process, its own ledger).

Measured in one run: p50 and p99 latency and throughput over HTTP; the ledger afterwards (every
acknowledged verdict stored once: zero lost, zero duplicated); the server's resident memory
(itself and its engine workers) sampled through the run (flat: the last tenth within 10% + 32 MB
of the first tenth); and the service's added latency over ``Agent.ask`` in-process as a ratio of
p50s (target under 1.2x).

What "the service's added latency over ``Agent.ask``" means here (issue 14: "the service's
added latency over ``Agent.ask`` in-process as a ratio measured in the same run", under "2,000
asks at 32 concurrent clients"): the p50 of what a client of the service waits for, divided by
the p50 of ``Agent.ask`` called in-process on the same questions at the same concurrency.
Everything the service does on behalf of an ask beyond ``Agent.ask`` counts as added: HTTP,
the checks, the thread hop, turning the verdict into a dict, the ledger commit (the service's
promise that an acknowledged verdict is stored) and the response. So:

- HTTP: what a client waits for: the request written on a kept-alive connection, uvicorn
  (httptools, uvloop), the app's checks (query string, tokens, rate, CSRF, body size and time,
  JSON and schema), the question sent to a reading process and its reading (``Agent.begin``)
  sent back, for an ask that runs SQL the hop to a thread and an answer process (which answers
  it whole, ``Agent.ask``), the ledger row committed, the response (badge, reading, choices)
  encoded as JSON, and the whole body read back (the client parses it afterwards, outside the
  timing). The server's processes are its defaults (service/_answerers.py).
- In-process: ``Agent.ask`` alone, on an agent over the same warehouse and layer with the
  same settings, in this process (its own engine worker, as the server has); no HTTP, no
  ``to_dict``, no ledger.

The target is the ratio over all asks (the 12 demo questions in turn: 5 answered with SQL, 7
asked back, abstained on or refused in about 2 ms, so the p50 over all asks is one of the
short ones and a fixed cost per request weighs most there). The ratio over the answered
questions alone is reported beside it, never in its place.

The floor, in the same run: a no-op app (benchmarks/_noop_server.py: Starlette, one POST route
returning a constant small JSON) served as ``assay serve`` serves (uvicorn with httptools and
uvloop, one process, the same settings), in a child process, posted the same bodies by the
same clients: at one client (a no-op request before each HTTP/in-process pair) and at the 32
clients (a block after each repeat's in-process block). Its p50 is what HTTP alone costs here;
``(in-process p50 + floor p50) / in-process p50`` is the best ratio any server on uvicorn could
reach, reported beside the measured one. (At 32 clients every no-op client is in flight at
once, where in the service's mix most clients wait on long asks: the 32-client floor is the
harsher of the two.) The server CPU a request is over a whole phase, idle ticks included.

The load generator shares the machine's two cores with the server (the in-process side has no
client), so it is kept lean and its own CPU a request is reported: the one-client phase posts
on a blocking socket (``_Client``: the prebuilt request written whole on a kept-alive
connection, the response read by its Content-Length, as wrk does); the 32 clients are raw
asyncio streams on uvloop. The timing boundary is the same for both: from just before the
request is written to the whole body read.

Both sides start each 32-client block alike: every client (an HTTP connection, or an
in-process thread) is made first, then all are released at once, each taking the next ask from
one shared counter until it runs out. The first asks of a block therefore arrive together on both
sides and queue (at the reading processes over HTTP, at the GIL in-process). Before, the
in-process side was a thread pool fed the block's asks: it added one thread per ask submitted, so
its first asks met no others, while the 32 HTTP clients' first asks arrived at once. That made up
about 13% of the HTTP side's asks, waiting 25-90 ms on the two reading processes (timed in the
server): part of the gap between the two p50s.

The machine this runs on is shared, so both sides are measured interleaved: the one-client
ratio alternates an HTTP ask and an in-process ask of the same question (which goes first
alternating), and is also given as the median of these pairs; the 32-client ratio
alternates blocks (HTTP, then in-process, ``BENCH_SERVICE_REPEATS`` times). Each repeat's ratio
is reported, and their spread. Bounded: every request has a timeout and the run a deadline.

``python -m benchmarks service``; ``BENCH_SERVICE_N``, ``BENCH_SERVICE_CLIENTS`` and
``BENCH_SERVICE_REPEATS`` shrink it.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

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
_T = TypeVar("_T")


def _cpu_s(pid: int) -> float:
    """CPU seconds (user and system) of one process, all its threads, not its children."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _own_cpu_s() -> float:
    """CPU seconds (user and system) of this process, all its threads: the load generator's."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _autogroup() -> str:
    try:
        return Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip()
    except OSError:
        return "unknown"


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


def _request(body: bytes) -> bytes:
    """The whole HTTP/1.1 request posting ``body`` to /api/ask (kept alive: HTTP/1.1's
    default)."""
    return (
        b"POST /api/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
    )


def _status_and_length(head: bytes) -> tuple[int, int]:
    """A response head's status and Content-Length (the service always sends one).

    Example:
        >>> _status_and_length(b"HTTP/1.1 200 OK\r\ncontent-length: 12")
        (200, 12)
    """
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    return status, length


async def _post(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, body: bytes
) -> tuple[int, bytes]:
    """One keep-alive HTTP/1.1 POST over raw streams: the load generator stays lean, so that
    what is measured is the server, not the client library."""
    writer.write(_request(body))
    await writer.drain()
    status, length = _status_and_length(await reader.readuntil(b"\r\n\r\n"))
    return status, await reader.readexactly(length)


class _Client:
    """One client's kept-alive connection on a blocking socket, as wrk's is: the prebuilt
    request written whole, the response read by its Content-Length. The one-client phase uses
    it: no event loop, no task a request, so the client's own CPU inside the timing (a few
    hundredths of a millisecond) is as small as it can be."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=REQUEST_TIMEOUT_S)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as asyncio's are
        self.left = b""  # bytes read past the previous response (none from a server that waits)

    def post(self, request: bytes) -> tuple[int, bytes]:
        self.sock.sendall(request)
        data = self.left
        end = data.find(b"\r\n\r\n")
        while end < 0:
            data += self._recv()
            end = data.find(b"\r\n\r\n")
        status, length = _status_and_length(data[:end])
        start = end + 4
        while len(data) - start < length:
            data += self._recv()
        self.left = data[start + length :]
        return status, data[start : start + length]

    def _recv(self) -> bytes:
        chunk = self.sock.recv(1 << 16)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        return chunk

    def close(self) -> None:
        self.sock.close()


async def _load(
    port: int,
    questions: list[str],
    first: int,
    n: int,
    clients: int,
    memory: list[float],
    pid: int,
    own: list[float],
) -> tuple[list[tuple[int, float]], list[str], int, float]:
    latencies: list[tuple[int, float]] = []
    acknowledged: list[str] = []
    failures = 0
    counter = iter(range(first, first + n))
    bodies = [json.dumps({"question": q}).encode() for q in questions]

    start = asyncio.Barrier(clients + 1)

    async def worker() -> None:
        nonlocal failures
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        await start.wait()  # every client connected, then all start at once (as in-process)
        try:
            for i in counter:
                started = time.perf_counter()
                try:
                    async with asyncio.timeout(REQUEST_TIMEOUT_S):  # no task a request
                        status, raw = await _post(reader, writer, bodies[i % len(bodies)])
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

    async def timed() -> float:
        await start.wait()
        return time.perf_counter()

    clock = asyncio.ensure_future(timed())
    await asyncio.wait_for(asyncio.gather(clock, *(worker() for _ in range(clients))), DEADLINE_S)
    return latencies, acknowledged, failures, time.perf_counter() - clock.result()


def _run(load: Coroutine[Any, Any, _T]) -> _T:
    """Run the load generator's clients on uvloop where it is installed (as the server's event
    loop is): its own CPU a request, which shares the machine's cores with the server, is then
    about half of asyncio's."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - installed with the [service] extra
        return asyncio.run(load)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(load)


def _local_one(agent: Agent, question: str, ident: str) -> float:
    """One in-process ask as the baseline counts it: ``Agent.ask`` alone."""
    started = time.perf_counter()
    agent.ask(question, ident=ident)
    return (time.perf_counter() - started) * 1000.0


def _in_process(
    agent: Agent, questions: list[str], first: int, n: int, clients: int
) -> tuple[list[tuple[int, float]], float]:
    """``Agent.ask`` in this process, the same questions at the same concurrency, started as
    the HTTP clients are (``_load``): ``clients`` threads, released together once all exist,
    each taking the next ask from one shared counter until it runs out. (A thread pool fed a
    list ramps up one thread per submitted ask: its first asks met no others, where the 32
    HTTP clients' first asks all arrive at once and queue.)"""
    latencies: list[tuple[int, float]] = []
    lock = threading.Lock()
    counter = iter(range(first, first + n))
    start = threading.Barrier(clients + 1)

    def client() -> None:
        start.wait()
        while True:
            with lock:
                i = next(counter, None)
            if i is None:
                return
            ms = _local_one(agent, questions[i % len(questions)], f"b{i}")
            with lock:
                latencies.append((i % len(questions), ms))

    threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    start.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join(DEADLINE_S)
    return latencies, time.perf_counter() - started


def _interleaved(
    port: int,
    agent: Agent,
    questions: list[str],
    first: int,
    n: int,
    cpu: list[float],
    noop_port: int,
    noop: list[float],
) -> tuple[list[tuple[int, float]], list[tuple[int, float]], list[str]]:
    """One client: each question over HTTP and in-process, one right after the other, ``n``
    times; which goes first alternates round by round (what one side leaves running, such as
    its engine's threads winding down, then slows each side alike). Before each pair the same
    body is posted to the no-op server (``noop``: its latencies, the floor). ``cpu`` adds up
    CPU seconds of this thread: [0] in the in-process asks, [1] in the client's side of the
    HTTP asks (writing the request, reading the response), [2] the same for the no-op ones."""
    http: list[tuple[int, float]] = []
    local: list[tuple[int, float]] = []
    acknowledged: list[str] = []
    requests = [_request(json.dumps({"question": q}).encode()) for q in questions]
    client, noop_client = _Client(port), _Client(noop_port)

    def in_process(i: int, q: int) -> None:
        before = time.thread_time()
        local.append((q, _local_one(agent, questions[q], f"s{i}")))
        cpu[0] += time.thread_time() - before

    try:
        for i in range(first, first + n):
            q = i % len(questions)
            local_first = (i // len(questions)) % 2 == 1
            before = time.thread_time()
            started = time.perf_counter()
            noop_client.post(requests[q])
            noop.append((time.perf_counter() - started) * 1000.0)
            cpu[2] += time.thread_time() - before
            if local_first:
                in_process(i, q)
            before = time.thread_time()
            started = time.perf_counter()
            status, raw = client.post(requests[q])
            http.append((q, (time.perf_counter() - started) * 1000.0))
            cpu[1] += time.thread_time() - before
            if status == 200:
                acknowledged.append(json.loads(raw)["verdict"]["id"])
            if not local_first:
                in_process(i, q)
    finally:
        client.close()
        noop_client.close()
    return http, local, acknowledged


def run() -> dict[str, object]:
    n = int(os.environ.get("BENCH_SERVICE_N", "2000"))
    clients = int(os.environ.get("BENCH_SERVICE_CLIENTS", "32"))
    repeats = max(1, int(os.environ.get("BENCH_SERVICE_REPEATS", "4")))
    n_serial = max(ANSWERED * 10, n // 10) // repeats * repeats
    block = n // repeats
    n = block * repeats
    load_at_start = os.getloadavg()[0]
    settings = load_settings()
    db, layer = demo_warehouse(settings)
    questions = list(DEMO_QUESTIONS)
    answered = set(range(ANSWERED))

    def p50(values: list[tuple[int, float]], only: set[int] | None = None) -> float:
        return median([ms for q, ms in values if only is None or q in only])

    with tempfile.TemporaryDirectory() as tmp, connect(str(db), settings) as connector:
        agent = Agent(connector, load_semantic(layer), settings)
        for q in questions:
            agent.ask(q)  # warm, as the server is warmed
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
            # Same session as this process (its own process group, for killpg): the kernel's
            # autogroup scheduler then shares one CPU quota between the server and the
            # in-process baseline, as it would if they ran in one process; a new session would
            # give the server a second quota on a busy machine and flatter the HTTP side.
            process_group=0,
        )
        noop_port = _free_port()
        noop_server = subprocess.Popen(
            [sys.executable, "-m", "benchmarks._noop_server", str(noop_port)],
            stdout=log,
            stderr=log,
            process_group=0,  # as the server's, for the same reason
            cwd=Path(__file__).parent.parent,
        )
        noop: list[float] = []
        noop_serial: list[float] = []
        noop_wall = 0.0
        client_cpu = {"http": 0.0, "noop": 0.0}
        noop_cpu = 0.0
        latencies: list[tuple[int, float]] = []
        local: list[tuple[int, float]] = []
        acknowledged: list[str] = []
        failures, wall, local_wall = 0, 0.0, 0.0
        concurrent_ratios: list[float] = []
        concurrent_answered_ratios: list[float] = []
        serial: list[tuple[int, float]] = []
        local_serial: list[tuple[int, float]] = []
        serial_ratios: list[float] = []
        serial_answered_ratios: list[float] = []
        serial_ack: list[str] = []
        try:
            deadline = time.monotonic() + 180  # its processes start first (more on a busy machine)
            while True:
                try:
                    if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("assay serve did not start")
                time.sleep(0.2)
            while True:
                try:
                    noop_url = f"http://127.0.0.1:{noop_port}/api/ask"
                    if httpx.post(noop_url, json={}, timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline or noop_server.poll() is not None:
                    raise RuntimeError("the no-op server did not start")
                time.sleep(0.2)
            for q in questions:  # warm, as in-process is warmed
                httpx.post(url + "/api/ask", json={"question": q}, timeout=REQUEST_TIMEOUT_S)
            memory: list[float] = [_rss_mb(server.pid)]
            own: list[float] = [_rss_mb(server.pid, children=False)]
            for r in range(repeats):
                before = _own_cpu_s()
                got, ack, failed, took = _run(
                    _load(port, questions, r * block, block, clients, memory, server.pid, own)
                )
                client_cpu["http"] += _own_cpu_s() - before
                mine, mine_wall = _in_process(agent, questions, r * block, block, clients)
                before, before_server = _own_cpu_s(), _cpu_s(noop_server.pid)
                floor, _, floor_failed, floor_took = _run(
                    _load(noop_port, questions, r * block, block, clients, [], noop_server.pid, [])
                )
                client_cpu["noop"] += _own_cpu_s() - before
                noop_cpu += _cpu_s(noop_server.pid) - before_server
                noop += [ms for _, ms in floor]
                noop_wall += floor_took
                failures += floor_failed
                latencies += got
                acknowledged += ack
                failures += failed
                wall += took
                local += mine
                local_wall += mine_wall
                concurrent_ratios.append(p50(got) / p50(mine))
                concurrent_answered_ratios.append(p50(got, answered) / p50(mine, answered))
            memory.append(_rss_mb(server.pid))
            per = n_serial // repeats
            local_cpu = [0.0, 0.0, 0.0]
            server_cpu = _cpu_s(server.pid)
            noop_serial_cpu = _cpu_s(noop_server.pid)
            for r in range(repeats):
                got, mine, ack = _interleaved(
                    port, agent, questions, r * per, per, local_cpu, noop_port, noop_serial
                )
                serial += got
                local_serial += mine
                serial_ack += ack
                serial_ratios.append(p50(got) / p50(mine))
                serial_answered_ratios.append(p50(got, answered) / p50(mine, answered))
            server_cpu = _cpu_s(server.pid) - server_cpu
            noop_serial_cpu = _cpu_s(noop_server.pid) - noop_serial_cpu
        finally:
            noop_server.terminate()
            noop_server.wait(timeout=30)
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
            log.close()
        ledger = Ledger(f"sqlite:///{folder / 'ledger.db'}")
        try:
            stored = ledger.ids()
            counts = ledger.counts()
        finally:
            ledger.close()
    lost = len(set(acknowledged + serial_ack) - set(stored))
    duplicated = counts.verdicts - counts.distinct_ids

    def spread(values: list[float]) -> str:
        return f"{min(values):.3f}-{max(values):.3f}"

    # Paired: each HTTP ask against the in-process ask of the same question next to it
    # (robust to the load of a shared machine drifting between phases).
    every_pair = [(q, h, m) for (q, h), (_, m) in zip(serial, local_serial, strict=True)]
    pairs = [(h, m) for q, h, m in every_pair if q in answered]
    all_pairs = [(h, m) for _, h, m in every_pair]
    tenth = max(1, len(memory) // 10)
    first, last = max(memory[:tenth]), max(memory[-tenth:])
    record: dict[str, Any] = {
        "asks": n,
        "clients": clients,
        "repeats": repeats,
        "cpus": os.cpu_count(),
        "load_average_1m_start": round(load_at_start, 2),
        "load_average_1m": round(os.getloadavg()[0], 2),
        "sched_autogroup": _autogroup(),
        "acknowledged": len(acknowledged),
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
        "ratio_p50_concurrent_all_per_repeat": [round(r, 3) for r in concurrent_ratios],
        "ratio_p50_concurrent_answered_per_repeat": [
            round(r, 3) for r in concurrent_answered_ratios
        ],
        "http_p50_ms_by_question": [round(p50(latencies, {q}), 2) for q in range(len(questions))],
        "in_process_p50_ms_by_question": [round(p50(local, {q}), 2) for q in range(len(questions))],
        "serial_asks": n_serial,
        "http_serial_p50_ms": round(p50(serial), 3),
        "in_process_serial_p50_ms": round(p50(local_serial), 3),
        "http_serial_answered_p50_ms": round(p50(serial, answered), 3),
        "in_process_serial_answered_p50_ms": round(p50(local_serial, answered), 3),
        "ratio_p50_serial_all": round(p50(serial) / p50(local_serial), 3),
        "ratio_p50_serial_answered": round(p50(serial, answered) / p50(local_serial, answered), 3),
        "ratio_p50_serial_all_per_repeat": [round(r, 3) for r in serial_ratios],
        "ratio_p50_serial_answered_per_repeat": [round(r, 3) for r in serial_answered_ratios],
        "ratio_serial_all_paired_median": round(median([h / m for h, m in all_pairs]), 3),
        "http_serial_added_ms_paired_median": round(median([h - m for h, m in all_pairs]), 3),
        "ratio_serial_answered_paired_median": round(median([h / m for h, m in pairs]), 3),
        "http_serial_answered_added_ms_paired_median": round(median([h - m for h, m in pairs]), 3),
        "server_cpu_ms_per_ask_serial": round(server_cpu * 1000 / len(serial), 3),
        "noop_p50_ms_serial": round(median(noop_serial), 3),
        "noop_p50_ms_concurrent": round(median(noop), 3),
        "noop_p99_ms_concurrent": round(percentile(noop, 99), 3),
        "noop_throughput_per_s": round(len(noop) / noop_wall, 1),
        "noop_server_cpu_ms_per_request_serial": round(
            noop_serial_cpu * 1000 / len(noop_serial), 3
        ),
        "noop_server_cpu_ms_per_request_concurrent": round(noop_cpu * 1000 / len(noop), 3),
        "ratio_p50_serial_all_reachable": round(
            (p50(local_serial) + median(noop_serial)) / p50(local_serial), 3
        ),
        "ratio_p50_concurrent_all_reachable": round((p50(local) + median(noop)) / p50(local), 3),
        "http_serial_added_over_noop_ms_p50": round(
            p50(serial) - p50(local_serial) - median(noop_serial), 3
        ),
        "client_cpu_ms_per_ask_serial": round(local_cpu[1] * 1000 / len(serial), 3),
        "client_cpu_ms_per_noop_serial": round(local_cpu[2] * 1000 / len(noop_serial), 3),
        "client_cpu_ms_per_ask_concurrent": round(client_cpu["http"] * 1000 / n, 3),
        "client_cpu_ms_per_noop_concurrent": round(client_cpu["noop"] * 1000 / len(noop), 3),
        "in_process_cpu_ms_per_ask_serial": round(local_cpu[0] * 1000 / len(local_serial), 3),
        "http_serial_added_ms_p50": round(p50(serial) - p50(local_serial), 3),
        "http_serial_answered_added_ms_p50": round(
            p50(serial, answered) - p50(local_serial, answered), 3
        ),
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
    serial_ratio = record["ratio_p50_serial_answered"]
    report(
        "service",
        [
            (
                "machine (shared: the load is everyone's)",
                f"{record['cpus']} CPUs, load average (1 min) {record['load_average_1m_start']} "
                f"at the start, {record['load_average_1m']} at the end",
                "-",
                True,
            ),
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
                f"added latency over Agent.ask, p50, {clients} clients, all asks (the target)",
                f"{record['ratio_p50_concurrent_all']}x (repeats {spread(concurrent_ratios)}; "
                f"{record['http_p50_ms']} against {record['in_process_p50_ms']} ms)",
                "< 1.2x",
                record["ratio_p50_concurrent_all"] < 1.2,
            ),
            (
                "  the same, answered questions only (reported, not the target)",
                f"{ratio}x (repeats {spread(concurrent_answered_ratios)})",
                "-",
                True,
            ),
            (
                "added latency over Agent.ask, p50, one client, all asks",
                f"{record['ratio_p50_serial_all']}x (repeats {spread(serial_ratios)}; "
                f"{record['http_serial_p50_ms']} against {record['in_process_serial_p50_ms']} ms, "
                f"+{record['http_serial_added_ms_p50']} ms; paired: median ratio "
                f"{record['ratio_serial_all_paired_median']}x, median added "
                f"{record['http_serial_added_ms_paired_median']} ms)",
                "< 1.2x",
                record["ratio_p50_serial_all"] < 1.2,
            ),
            (
                "  the same, answered questions only (reported, not the target)",
                f"{serial_ratio}x (repeats {spread(serial_answered_ratios)}; "
                f"{record['http_serial_answered_p50_ms']} against "
                f"{record['in_process_serial_answered_p50_ms']} ms; paired: median ratio "
                f"{record['ratio_serial_answered_paired_median']}x, median added "
                f"{record['http_serial_answered_added_ms_paired_median']} ms)",
                "-",
                True,
            ),
            (
                f"floor: a no-op app served the same way, p50, one client / {clients} clients",
                f"{record['noop_p50_ms_serial']} / {record['noop_p50_ms_concurrent']} ms "
                f"(server CPU {record['noop_server_cpu_ms_per_request_serial']} ms a request)",
                "-",
                True,
            ),
            (
                "  best reachable ratio, all asks ((in-process p50 + floor) / in-process p50)",
                f"one client {record['ratio_p50_serial_all_reachable']}x, {clients} clients "
                f"{record['ratio_p50_concurrent_all_reachable']}x; the service adds "
                f"{record['http_serial_added_over_noop_ms_p50']} ms over the floor (one client)",
                "-",
                True,
            ),
            (
                f"  load generator's CPU a request, one client / {clients} clients (ask; no-op)",
                f"{record['client_cpu_ms_per_ask_serial']} / "
                f"{record['client_cpu_ms_per_ask_concurrent']} ms; "
                f"{record['client_cpu_ms_per_noop_serial']} / "
                f"{record['client_cpu_ms_per_noop_concurrent']} ms",
                "-",
                True,
            ),
            (
                "CPU per ask, one client, all questions (server process / in-process thread)",
                f"{record['server_cpu_ms_per_ask_serial']} / "
                f"{record['in_process_cpu_ms_per_ask_serial']} ms",
                "-",
                True,
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
