"""Warm worker processes that run queries under a wall-clock watchdog and OS limits.

In-engine interrupts are not enough (DuckDB's ``interrupt()`` stopped ``repeat('x',
2000000000)`` only after 24 s; SQLite's progress handler cannot stop one huge ``printf``), so
each query runs in a worker process that the parent kills at the time limit plus
``KILL_GRACE_S``. Workers stay warm with the database open (opening a file per query costs as
much as a fast query) and are replaced after a kill, a crash, or instance-wide state left
behind.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import pickle
import re
import resource
import shutil
import signal
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext, SpawnContext
from types import FrameType
from typing import Any

from assay.catalog import Catalog
from assay.connectors._drivers import (
    DUCKDB_ERRORS,
    SQLITE_ERRORS,
    classify,
    postgres_errors,
    sqlalchemy_errors,
)
from assay.connectors._engines import CellTooLarge, EngineSpec, open_session
from assay.errors import (
    ConnectionFailed,
    ExecutionError,
    ExecutionTimeout,
    ResourceLimit,
    error_for_code,
)

__all__ = [
    "KILL_GRACE_S",
    "REPLY_HEADROOM_BYTES",
    "TEMP_PREFIX",
    "WorkerPool",
    "reply_limit",
    "start_fork_server",
    "sweep_stale_folders",
]


def reply_limit(spec: EngineSpec) -> int:
    """The most bytes the parent reads of one worker reply."""
    return 2 * spec.max_result_bytes + REPLY_HEADROOM_BYTES


# The engine's own deadline fires at the limit; the watchdog kills half a second later, well
# inside the "limit plus at most one second" promise even with process teardown.
KILL_GRACE_S = 0.5
START_TIMEOUT_S = 60.0
# The parent reads at most this much of one reply beyond twice the result cap (pickling
# overhead); a longer reply kills the worker instead of filling the parent's memory.
REPLY_HEADROOM_BYTES = 4 * 1024 * 1024
# Address space allowed beyond the engine's memory limit: the interpreter, the driver's own
# allocations and thread stacks need about 600 MiB virtual here.
ADDRESS_HEADROOM_MB = 1536
# A DuckDB worker's spill folder under the system's temp: ``assay-duckdb-<owner pid>-<random>``,
# made and removed by the process that owns the pool (the owner), never by the worker.
TEMP_PREFIX = "assay-duckdb-"
_OWNED = re.compile(re.escape(TEMP_PREFIX) + r"(\d+)-")


def _tables(kind: str) -> list[dict[type[BaseException], str]]:
    if kind == "duckdb":
        return [DUCKDB_ERRORS]
    if kind == "sqlite":
        return [SQLITE_ERRORS]
    tables: list[dict[type[BaseException], str]] = []
    try:
        tables.append(postgres_errors())
    except ImportError:
        pass
    try:
        tables.append(sqlalchemy_errors())
    except ImportError:
        pass
    return tables


def _set_limits(spec: EngineSpec) -> None:
    limit = (spec.memory_limit_mb + ADDRESS_HEADROOM_MB) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _cpu_budget(time_limit_ms: int, threads: int) -> None:
    """Cap CPU seconds for the next query: used so far plus the limit on every thread."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    used = usage.ru_utime + usage.ru_stime
    soft = int(used + threads * time_limit_ms / 1000.0) + 2
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def _serve(spec: EngineSpec, conn: Connection) -> None:
    """The worker's loop: open the engine, then answer requests until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    tables = _tables(spec.kind)
    try:
        _set_limits(spec)
        session = open_session(spec)
    except BaseException as exc:  # report any failure to open, then exit
        conn.send(("error", "execution.connection_failed", _message(exc), []))
        return
    conn.send(("ready", None, None, list(session.sent)))
    session.sent.clear()
    while True:
        try:
            request = conn.recv()
        except EOFError:
            return
        op = request[0]
        try:
            if op == "execute":
                _, sql, max_rows, time_limit_ms = request
                _cpu_budget(time_limit_ms, spec.threads)
                payload: Any = session.run(sql, max_rows, time_limit_ms)
            elif op == "catalog":
                payload = session.catalog()
            else:
                return
            reply: tuple[Any, ...] = ("ok", payload, session.dirty(), list(session.sent))
        except CellTooLarge as exc:
            reply = ("error", ResourceLimit.code, _message(exc), list(session.sent))
        except BaseException as exc:  # every driver error goes back as a code and message
            reply = ("error", classify(exc, tables), _message(exc), list(session.sent))
        session.sent.clear()
        conn.send(reply)


def _main_script_at_top_level() -> str | None:
    """The main script's path when the caller runs in its module-level code (not under
    ``if __name__ == "__main__":``): a worker process imports that script again (spawn and the
    fork server both do), runs the same code, and dies."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or path is None:
        return None
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "<module>" and frame.f_globals is vars(main):
            return str(path)
        frame = frame.f_back
    return None


def _message(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:500]


def _start_context() -> ForkServerContext | SpawnContext:
    """Workers start from a fork server where there is one (Linux, macOS): a single-threaded
    process that imported this module once, so a new worker costs a fork (milliseconds) instead
    of a fresh interpreter importing the engines (a second or more). Elsewhere: spawn."""
    if "forkserver" not in mp.get_all_start_methods():
        return mp.get_context("spawn")
    context = mp.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    return context


def start_fork_server() -> bool:
    """Start the workers' fork server now, without waiting for it: it imports the engines in
    its own process while the caller goes on importing (a command that will open a database
    calls this first, so the two overlap on a cold start). True when one is running; where
    there is no fork server (spawn), nothing happens and False is returned."""
    context = _start_context()
    if not isinstance(context, ForkServerContext):
        return False
    from multiprocessing import forkserver

    forkserver.ensure_running()
    return True


@dataclass
class _Worker:
    process: Any
    conn: Connection
    folder: str = ""  # its spill folder, removed when it is retired


def _alive(pid: int) -> bool:
    """Whether a process with this id exists (one of another user's counts as alive)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep_stale_folders(under: str | None = None) -> list[str]:
    """Remove the spill folders (``TEMP_PREFIX<pid>-...``) whose owner process is gone: a pool
    killed with its workers (a server killed, a crash) could not remove them. Only this user's
    folders named with an owner pid are touched; a living owner's are kept. Returns the paths
    removed."""
    root = under if under is not None else tempfile.gettempdir()
    removed: list[str] = []
    try:
        entries = list(os.scandir(root))
    except OSError:
        return removed
    uid = os.getuid() if hasattr(os, "getuid") else None
    for entry in entries:
        match = _OWNED.match(entry.name)
        if match is None or _alive(int(match.group(1))):
            continue
        try:
            if not entry.is_dir(follow_symlinks=False):
                continue
            if uid is not None and entry.stat(follow_symlinks=False).st_uid != uid:
                continue
        except OSError:
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        if not os.path.exists(entry.path):
            removed.append(entry.path)
    return removed


class WorkerPool:
    """A small pool of warm workers for one database.

    ``call`` takes an idle worker, sends one request and waits at most the time limit plus
    ``KILL_GRACE_S``; a worker that does not answer is killed and replaced.
    """

    def __init__(self, spec: EngineSpec, n_workers: int = 1):
        self.spec = spec
        self.n_workers = max(1, n_workers)
        self._context = _start_context()
        self._idle: list[_Worker] = []
        self._lock = threading.Lock()
        self._available = threading.Semaphore(self.n_workers)
        self._closed = False
        self.startup_sent: list[str] = []
        if spec.kind == "duckdb":
            sweep_stale_folders()

    def start(self) -> None:
        """Start one worker now, so that a database that cannot be opened fails here."""
        with self._lock:
            if not self._idle:
                self._idle.append(self._spawn())

    def _spawn(self) -> _Worker:
        spec, folder = self.spec, ""
        if spec.kind == "duckdb":
            # Made here, before the worker starts, and removed here when it is retired.
            folder = tempfile.mkdtemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-")
            spec = replace(spec, temp_directory=folder)
        try:
            return self._start(spec, folder)
        except BaseException:
            _remove(folder)
            raise

    def _start(self, spec: EngineSpec, folder: str) -> _Worker:
        parent, child = self._context.Pipe()
        process = self._context.Process(target=_serve, args=(spec, child), daemon=True)
        process.start()
        child.close()
        if not parent.poll(START_TIMEOUT_S):
            _kill(process)
            raise ConnectionFailed(
                f"The database {self.spec.target!r} did not open within {START_TIMEOUT_S:.0f} s.",
                hint="Check that the file is not locked by a writer.",
            )
        try:
            status, code, message, sent = parent.recv()
        except EOFError:
            _kill(process)
            script = _main_script_at_top_level()
            raise ConnectionFailed(
                f"The worker for {self.spec.target!r} died while opening it.",
                hint=(
                    f"The database was opened at the top level of the script {script!r}, which "
                    "every worker process imports again: put that code under "
                    '`if __name__ == "__main__":`.'
                    if script
                    else "Raise --memory-limit-mb if the database needs more memory to open."
                ),
            ) from None
        if status != "ready":
            _kill(process)
            raise error_for_code(code)(
                f"Cannot open {self.spec.kind} database {self.spec.target!r}: {message}",
                hint="Check the path or URL, and that the file is a database of that kind.",
            )
        self.startup_sent.extend(sent)
        return _Worker(process, parent, folder)

    def call(self, request: tuple[Any, ...], time_limit_ms: int) -> tuple[Any, list[str]]:
        """Send one request; return its payload and the statements the engine was sent."""
        if self._closed:
            raise ConnectionFailed("This connector is closed.", hint="Open a new connector.")
        self._available.acquire()
        try:
            with self._lock:
                worker = self._idle.pop() if self._idle else None
            if worker is None:
                worker = self._spawn()
            try:
                reply, keep = self._exchange(worker, request, time_limit_ms)
            except BaseException:
                _retire(worker)
                raise
            with self._lock:
                if keep and not self._closed:
                    self._idle.append(worker)
                    worker = None
            if worker is not None:
                _retire(worker)
        finally:
            self._available.release()
        status, payload, extra, sent = reply
        if status == "ok":
            return payload, sent
        raise error_for_code(payload)(extra, hint=_hint(payload), details={"sent": sent})

    def _exchange(
        self, worker: _Worker, request: tuple[Any, ...], time_limit_ms: int
    ) -> tuple[tuple[Any, ...], bool]:
        started = time.monotonic()
        try:
            worker.conn.send(request)
            ready = worker.conn.poll(time_limit_ms / 1000.0 + KILL_GRACE_S)
        except (BrokenPipeError, OSError):
            ready = False
        if not ready:
            elapsed = time.monotonic() - started
            if worker.process.is_alive():
                _kill(worker.process)
                message = (
                    f"Query exceeded the time limit of {time_limit_ms} ms and was stopped after "
                    f"{elapsed:.1f} s."
                )
                return ("error", ExecutionTimeout.code, message, []), False
            return self._died(worker), False
        try:
            data = worker.conn.recv_bytes(reply_limit(self.spec))
        except OSError as exc:
            if "too long" in str(exc).lower() or "message" in str(exc).lower():
                _kill(worker.process)
                message = (
                    f"The result is larger than the {reply_limit(self.spec):,} bytes the "
                    "parent reads of one reply; it was dropped."
                )
                return ("error", ResourceLimit.code, message, []), False
            return self._died(worker), False
        except EOFError:
            return self._died(worker), False
        reply = pickle.loads(data)  # the worker is this package's own child process
        status, _payload, extra, _sent = reply
        # A dirty instance (something attached or a secret created) is not reused.
        keep = status == "ok" and not extra
        if status == "error" and reply[1] in {ResourceLimit.code, ExecutionTimeout.code}:
            keep = False
        return reply, keep

    def _died(self, worker: _Worker) -> tuple[Any, ...]:
        worker.process.join(timeout=2)
        code = worker.process.exitcode
        if code in (-signal.SIGXCPU, -signal.SIGKILL, -signal.SIGSEGV, -signal.SIGABRT):
            name = signal.Signals(-code).name if code is not None and code < 0 else str(code)
            message = f"The query exceeded the worker's CPU or memory limit ({name})."
            return ("error", ResourceLimit.code, message, [])
        return ("error", ExecutionError.code, f"The worker process ended (exit {code}).", [])

    def close(self) -> None:
        self._closed = True
        with self._lock:
            workers, self._idle = self._idle, []
        for worker in workers:
            try:
                worker.conn.send(("stop",))
            except (BrokenPipeError, OSError):
                pass
            worker.process.join(timeout=1)
            _retire(worker)

    def catalog(self, time_limit_ms: int) -> tuple[Catalog, list[str]]:
        payload, sent = self.call(("catalog",), time_limit_ms)
        assert isinstance(payload, Catalog)
        return payload, sent


def _hint(code: str) -> str:
    if code == ExecutionTimeout.code:
        return "Raise it with --time-limit-ms or ASSAY_TIME_LIMIT_MS, or simplify the query."
    if code == ResourceLimit.code:
        return "Raise --memory-limit-mb (ASSAY_MEMORY_LIMIT_MB) or make the query smaller."
    if code == ConnectionFailed.code:
        return "Check that the database exists and can be reached."
    return "Fix the query and try again."


def _retire(worker: _Worker) -> None:
    """Kill a worker (if it still runs) and remove its spill folder."""
    _kill(worker.process)
    _remove(worker.folder)


def _remove(folder: str) -> None:
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


def _kill(process: Any) -> None:
    if process.is_alive():
        try:
            os.kill(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    process.join(timeout=5)
