"""Answer processes: where the served asks that run SQL are finished.

An ask settled by its reading (asked back, abstained on, refused) takes 2-5 ms of Python; an ask
that runs SQL takes 20-40 ms of Python around its query (the guard, the checks, the rows, the
written answer). In one process they share one GIL with the event loop, so under load every
short ask and every request and response waits behind the long asks' Python: at 32 clients the
short asks took five times as long as ``Agent.ask`` in-process (benchmarks/bench_service.py).
The server therefore reads every question in its own process (``Agent.begin``) and hands the
asks that run SQL to a few answer processes, each with its own agent over the same databases
and its own engine worker, which answer them whole (``Agent.ask``: the reading is repeated
there, a few ms, so that nothing but the question crosses) and send back the verdict's record.

Fail closed: an answer process that dies, or answers with an error, makes the request fail
(503 ``answer.failed`` with the error shape; nothing is shown and nothing is written to the
ledger), and a new
process takes its place for the next ask.
"""

from __future__ import annotations

import logging
import multiprocessing as mp
import queue
import threading
from multiprocessing.connection import Connection
from typing import Any

from assay.errors import ConfigError
from assay.service._errors import ApiError
from assay.settings import Settings

__all__ = ["AnswerProcesses"]

_LOG = logging.getLogger("assay.service")
_START_TIMEOUT_S = 120.0


def _serve(config: Any, settings: Settings, conn: Connection) -> None:
    """An answer process: open every configured database, then answer asks until told to stop
    (``None``) or until the server's end of the pipe closes."""
    import os

    from assay.service._service import open_database

    # The server's own process reads every question and answers the short ones: it goes first
    # whenever it wants a CPU (the asks settled by reading then wait for no answer's Python).
    if hasattr(os, "nice"):
        os.nice(19)
    databases: dict[str, Any] = {}
    try:
        try:
            for key, spec in sorted(config.databases.items()):
                databases[key] = open_database(key, spec.url, spec.semantic, config, settings)
        except Exception as exc:
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
            return
        conn.send(("ready", None))
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                return
            if message is None:
                return
            key, question, ident = message
            try:
                reply: tuple[str, Any] = ("ok", databases[key].agent.ask(question, ident).to_dict())
            except Exception as exc:
                reply = ("error", f"{type(exc).__name__}: {exc}")
            try:
                conn.send(reply)
            except OSError:  # the server is gone
                return
    finally:
        for database in databases.values():
            database.connector.close()


class _Process:
    def __init__(self, context: Any, config: Any, settings: Settings) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(
            target=_serve, args=(config, settings, child), name="assay-answer"
        )
        self.process.start()
        child.close()
        self.ready = False

    def wait_ready(self, timeout: float = _START_TIMEOUT_S) -> None:
        if not self.ready:
            self._expect("ready", timeout=timeout)
            self.ready = True

    def call(self, message: tuple[str, str, str]) -> dict[str, Any]:
        try:
            self.wait_ready()
        except _Failed as exc:
            raise _Died(f"the answer process could not open the databases: {exc}") from exc
        try:
            self.conn.send(message)
        except OSError as exc:
            raise _Died(f"the answer process ended ({type(exc).__name__})") from exc
        return self._expect("ok")  # type: ignore[no-any-return]

    def _expect(self, kind: str, timeout: float | None = None) -> Any:
        if timeout is not None and not self.conn.poll(timeout):
            raise _Died(f"the answer process did not start within {timeout:g} s")
        try:
            got, value = self.conn.recv()
        except (EOFError, OSError) as exc:
            raise _Died(f"the answer process ended ({type(exc).__name__})") from exc
        if got != kind:
            raise _Failed(str(value))
        return value

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except (OSError, ValueError):
            pass
        self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)
        self.conn.close()


class _Died(Exception):
    pass


class _Failed(Exception):
    pass


class AnswerProcesses:
    """``n`` answer processes over the configured databases; ``ask`` blocks until one is free
    (so at most ``n`` asks past their reading are worked on at once) and returns the verdict's
    record."""

    def __init__(self, config: Any, settings: Settings, n: int) -> None:
        # Each process has one engine worker of its own: n processes, n engines.
        self._settings = settings.with_values(n_workers=1)
        self._config = config
        self._context = _context()
        self._idle: queue.SimpleQueue[_Process] = queue.SimpleQueue()
        self._all: list[_Process] = []
        self._lock = threading.Lock()
        self._closed = False
        for _ in range(max(1, n)):
            self._idle.put(self._start())

    def wait_ready(self, timeout: float = _START_TIMEOUT_S) -> None:
        """Block until every process has opened the databases (the server is not ready before
        they are: its first answers would wait for them).

        Raises:
            ConfigError: a process could not open them, or did not start in time.
        """
        with self._lock:
            processes = list(self._all)
        for process in processes:
            try:
                process.wait_ready(timeout)
            except (_Died, _Failed) as exc:
                raise ConfigError(
                    f"An answer process could not start: {exc}.",
                    hint="Check the configured databases, or set limits.answer_processes: 0.",
                ) from exc

    def _start(self) -> _Process:
        process = _Process(self._context, self._config, self._settings)
        with self._lock:
            self._all.append(process)
        return process

    def ask(self, key: str, question: str, ident: str) -> dict[str, Any]:
        process = self._idle.get()
        try:
            record = process.call((key, question, ident))
        except _Failed as exc:
            self._idle.put(process)
            _LOG.warning("answer failed: %s", exc)
            raise _failed() from exc
        except _Died as exc:
            _LOG.warning("answer not finished: %s", exc)
            self._replace(process)
            raise _failed() from exc
        except BaseException:
            self._replace(process)
            raise
        self._idle.put(process)
        return record

    def pids(self) -> list[int]:
        """The answer processes' ids (for the operator's tools and the tests)."""
        with self._lock:
            return [p.process.pid for p in self._all]

    def _replace(self, process: _Process) -> None:
        _LOG.warning("answer process %s replaced", process.process.pid)
        with self._lock:
            if process in self._all:
                self._all.remove(process)
            closed = self._closed
        process.stop()
        if not closed:
            self._idle.put(self._start())

    def close(self) -> None:
        with self._lock:
            self._closed = True
            processes = list(self._all)
            self._all.clear()
        for process in processes:
            process.stop()


def _failed() -> ApiError:
    return ApiError(
        "answer.failed",
        "The process answering this question failed; nothing was shown or recorded.",
        "Retry; the operator can find the cause in the server log.",
    )


def _context() -> Any:
    """Spawned, never forked: the server has threads by the time a process is replaced, and a
    fork copies their locks in whatever state they are."""
    return mp.get_context("spawn")
