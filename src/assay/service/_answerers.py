"""Reading and answer processes: where the served asks are read and finished.

An ask settled by its reading (asked back, abstained on, refused) takes 2-5 ms of Python; an ask
that runs SQL takes 20-40 ms of Python around its query (the guard, the checks, the rows, the
written answer). In one process they share one GIL with the event loop, so under load every
short ask and every request and response waits behind the long asks' Python: at 32 clients the
short asks took five times as long as ``Agent.ask`` in-process (benchmarks/bench_service.py).
Reading every question in the server's own process still left the short asks taking turns at
its GIL with each other, the event loop and the responses (2.7x at p50).

The server therefore keeps only HTTP, the ledger and the responses. Reading processes read every
question (``Agent.begin``, at normal priority) and return the verdict of an ask settled by its
reading, or ``None`` for one that runs SQL; a few answer processes (at the lowest CPU priority,
so a reading never waits for an answer's Python) answer those whole (``Agent.ask``: the reading
is repeated there, a few ms, so that nothing but the question crosses) and send back the
verdict's record. Each process has its own agent over the same databases and its own engine
worker.

Fail closed: a process that dies, or answers with an error, makes the request fail (503
``answer.failed`` with the error shape; nothing is shown and nothing is written to the ledger),
and a new process takes its place for the next ask.

One module (about 500 lines): both kinds of process run the same loop (``_serve``) and are kept
by the same pool; the reading pool adds ``read`` and ``read_async``, and hands a process back to
the asks waiting on the event loop first (``_acquire``, ``_release``).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing as mp
import os
import queue
import signal
import threading
from collections import deque
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from assay.errors import ConfigError
from assay.service._deadline import Deadline, timed_out
from assay.service._errors import ApiError
from assay.settings import Settings

__all__ = ["AnswerProcesses", "ReadingProcesses", "Settled"]

_LOG = logging.getLogger("assay.service")
# A verdict settled by its reading: its record, and the ask-back's choices.
Settled = tuple[dict[str, Any], list[dict[str, str]]]
_START_TIMEOUT_S = 120.0
_CHOICES_KEPT = 4096


def _serve(config: Any, settings: Settings, conn: Connection, reading: bool) -> None:
    """A reading or answer process: open every configured database, then read or answer asks
    until told to stop (``None``) or until the server's end of the pipe closes."""
    import gc

    from assay.service._reading import choices_for
    from assay.service._service import open_database
    from assay.types import Verdict

    # The server and the reading processes go first whenever they want a CPU (the asks settled
    # by reading then wait for no answer's Python).
    if not reading and hasattr(os, "nice"):
        os.nice(19)
    databases: dict[str, Any] = {}
    # An ask-back's choices (each re-read to prove it reads as its metric: a few ms) depend on
    # the question's words and the layer alone, which does not change while the server runs.
    known: dict[tuple[str, str, tuple[str, ...]], list[dict[str, str]]] = {}

    def choices(database: Any, record: dict[str, Any]) -> list[dict[str, str]]:
        provenance = record.get("provenance") or {}
        readings = provenance.get("readings") or []
        reasons = tuple(str(r) for r in record.get("reasons") or ())
        if not readings and not {"behaviour.did_you_mean", "behaviour.ambiguous_name"} & set(
            reasons
        ):
            return []
        names = tuple(str(r.get("metric", "")) for r in readings) + reasons
        cached = (database.key, str(provenance.get("question", "")), names)
        if cached not in known:
            if len(known) >= _CHOICES_KEPT:
                known.clear()
            known[cached] = choices_for(record, database.agent.layer, database.agent.lexicon)
        return known[cached]

    try:
        try:
            for key, spec in sorted(config.databases.items()):
                databases[key] = open_database(key, spec.url, spec.semantic, config, settings)
        except Exception as exc:
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
            return
        # What was opened lives as long as the process: out of the garbage collector's reach, a
        # full collection walks only what asks left behind (see cli/_serve.py).
        gc.collect()
        gc.freeze()
        conn.send(("ready", None))
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                return
            if message is None:
                return
            key, question, ident = message
            reply: tuple[str, Any]
            try:
                agent = databases[key].agent
                if reading:
                    verdict = agent.begin(question, ident=ident)
                    if isinstance(verdict, Verdict):
                        record = verdict.to_dict()
                        reply = ("ok", (record, choices(databases[key], record)))
                    else:
                        reply = ("ok", None)
                else:
                    reply = ("ok", agent.ask(question, ident).to_dict())
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
    def __init__(self, context: Any, config: Any, settings: Settings, reading: bool) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(
            target=_serve,
            args=(config, settings, child, reading),
            name="assay-read" if reading else "assay-answer",
        )
        self.process.start()
        child.close()
        self.ready = False

    def wait_ready(self, timeout: float = _START_TIMEOUT_S) -> None:
        if not self.ready:
            self._expect("ready", timeout=timeout)
            self.ready = True

    def call(
        self, message: tuple[str, str, str], deadline: Deadline | None = None
    ) -> dict[str, Any] | None:
        """The process's reply to ``message``, within what is left of ``deadline`` once the
        process is ready (a replacement may still be opening the databases).

        Raises:
            _TimedOut: the deadline passed, before the message was sent or after.
            _Died, _Failed: the process ended, or answered with an error.
        """
        try:
            self.wait_ready()
        except _Failed as exc:
            raise _Died(f"the answer process could not open the databases: {exc}") from exc
        limit_s = None if deadline is None else deadline.left_s()
        if deadline is not None and limit_s == 0.0:
            raise _TimedOut(deadline.limit_s, sent=False)
        try:
            self.conn.send(message)
        except OSError as exc:
            raise _Died(f"the answer process ended ({type(exc).__name__})") from exc
        if deadline is not None and not self.conn.poll(limit_s):
            raise _TimedOut(deadline.limit_s, sent=True)
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

    def stop(self, now: bool = False) -> None:
        """End the process: asked to stop, or (``now``, one still working) killed."""
        try:
            self.conn.send(None)
        except (OSError, ValueError):
            pass
        self.process.join(0 if now else 5)
        if self.process.is_alive():
            # Its engine workers first: one running a query would run on without its parent.
            for child in _descendants(self.process.pid):
                try:
                    os.kill(child, signal.SIGKILL)
                except OSError:
                    pass
            self.process.kill()
            self.process.join(5)
        self.conn.close()


class _Died(Exception):
    pass


class _Failed(Exception):
    pass


class _TimedOut(Exception):
    """A request's deadline of ``limit_s`` passed: before its message was sent to a process
    (``sent`` false: the process is free), or while the process worked on it."""

    def __init__(self, limit_s: float, *, sent: bool) -> None:
        super().__init__(limit_s, sent)
        self.limit_s = limit_s
        self.sent = sent


class AnswerProcesses:
    """``n`` answer processes over the configured databases; ``ask`` blocks until one is free
    (so at most ``n`` asks past their reading are worked on at once) and returns the verdict's
    record."""

    _reading = False
    _kind = "answer"

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
            self._release(self._start())

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
                article = "A" if self._reading else "An"
                raise ConfigError(
                    f"{article} {self._kind} process could not start: {exc}.",
                    hint=f"Check the configured databases, or set "
                    f"limits.{self._kind}_processes: 0.",
                ) from exc

    def _start(self) -> _Process:
        process = _Process(self._context, self._config, self._settings, self._reading)
        with self._lock:
            self._all.append(process)
        return process

    def ask(
        self, key: str, question: str, ident: str, deadline: Deadline | None = None
    ) -> dict[str, Any]:
        """The verdict's record, within what is left of the request's ``deadline`` (504
        ``request.timeout`` past it): an ask still waiting for a free process then stops
        waiting, and a process still answering it is killed, so that its work stops, and
        replaced. The wait counts: before, the limit was counted afresh from when the ask got a
        process, and an ask that had waited for one was answered (and recorded) after its
        client had been told 504."""
        record = self._call(key, question, ident, deadline)
        if record is None:
            raise _failed()
        return record

    def _call(
        self, key: str, question: str, ident: str, deadline: Deadline | None = None
    ) -> dict[str, Any] | None:
        process = self._take(deadline)
        try:
            record = process.call((key, question, ident), deadline)
        except _TimedOut as exc:
            if exc.sent:
                _LOG.warning("%s stopped at the limit: %r", self._kind, question[:80])
                self._replace(process, now=True)
            else:  # handed a process at the limit: nothing was sent, nothing is to be stopped
                self._release(process)
            raise timed_out(exc.limit_s) from exc
        except _Failed as exc:
            self._release(process)
            _LOG.warning("%s failed: %s", self._kind, exc)
            raise _failed() from exc
        except _Died as exc:
            _LOG.warning("%s not finished: %s", self._kind, exc)
            self._replace(process)
            raise _failed() from exc
        except BaseException:
            self._replace(process)
            raise
        self._release(process)
        return record

    def _take(self, deadline: Deadline | None) -> _Process:
        """A free process, waited for no longer than what is left of ``deadline``.

        Raises:
            ApiError: ``request.timeout``: none was free by the limit.
        """
        if deadline is None:
            return self._idle.get()
        try:
            return self._idle.get(timeout=deadline.left_s())
        except queue.Empty:
            raise timed_out(deadline.limit_s) from None

    def _release(self, process: _Process) -> None:
        """Hand a process back: to the next ask waiting for one, else to the idle ones."""
        self._idle.put(process)

    def pids(self) -> list[int]:
        """The answer processes' ids (for the operator's tools and the tests)."""
        with self._lock:
            return [p.process.pid for p in self._all]

    def _replace(self, process: _Process, now: bool = False) -> None:
        _LOG.warning("%s process %s replaced", self._kind, process.process.pid)
        with self._lock:
            if process in self._all:
                self._all.remove(process)
            closed = self._closed
        process.stop(now)
        if not closed:
            self._release(self._start())

    def close(self) -> None:
        with self._lock:
            self._closed = True
            processes = list(self._all)
            self._all.clear()
        for process in processes:
            process.stop()


class ReadingProcesses(AnswerProcesses):
    """``n`` reading processes over the configured databases; ``read`` blocks until one is free
    (within what is left of the request's deadline, as ``ask``) and returns the record of a
    verdict settled by the reading with its ask-back choices (``choices_for``), or ``None`` for
    an ask that runs SQL (answer it with ``AnswerProcesses.ask``, or in this process)."""

    _reading = True
    _kind = "reading"

    def read(
        self, key: str, question: str, ident: str, deadline: Deadline | None = None
    ) -> Settled | None:
        return self._call(key, question, ident, deadline)  # type: ignore[return-value]

    def __init__(self, config: Any, settings: Settings, n: int) -> None:
        # Asks on the event loop waiting for a process, first come first served (a process
        # handed back goes to the first of them before it goes back to the idle ones).
        self._waiting: deque[tuple[asyncio.AbstractEventLoop, asyncio.Future[_Process]]] = deque()
        self._handing = threading.RLock()
        super().__init__(config, settings, n)

    def _release(self, process: _Process) -> None:
        with self._handing:
            while self._waiting:
                loop, wanted = self._waiting.popleft()
                if wanted.done():  # the request stopped waiting
                    continue
                try:
                    on_loop = asyncio.get_running_loop() is loop
                except RuntimeError:
                    on_loop = False
                if on_loop:
                    self._give(wanted, process)
                    return
                try:
                    loop.call_soon_threadsafe(self._give, wanted, process)
                except RuntimeError:  # that loop is closed
                    continue
                return
            self._idle.put(process)

    def _give(self, wanted: asyncio.Future[_Process], process: _Process) -> None:
        if wanted.done():  # the request stopped waiting meanwhile
            self._release(process)
        else:
            wanted.set_result(process)

    async def _acquire(self) -> _Process:
        """An idle process, or the next one handed back: waited for on the event loop (before,
        an ask that found none idle waited in a thread, and under load these asks took 30 to
        60 ms more, the thread's turns at the GIL included)."""
        loop = asyncio.get_running_loop()
        with self._handing:
            try:
                return self._idle.get_nowait()
            except queue.Empty:
                wanted: asyncio.Future[_Process] = loop.create_future()
                self._waiting.append((loop, wanted))
        return await wanted

    async def read_async(self, key: str, question: str, ident: str) -> Settled | None:
        """As ``read``, waiting on the event loop for a process and for its reply rather than
        in a thread (a request settled by its reading then never leaves the loop: no hop to a
        thread and back, no turn at the GIL behind the request threads)."""
        process = await self._acquire()
        if not process.ready:  # a process that replaced one: it is still opening the databases
            try:
                await asyncio.to_thread(process.wait_ready)
            except (_Died, _Failed) as exc:
                _LOG.warning("%s not started: %s", self._kind, exc)
                _in_thread(self._replace, process)
                raise _failed() from exc
            except BaseException:
                self._release(process)
                raise
        loop = asyncio.get_running_loop()
        fd = process.conn.fileno()
        replied: asyncio.Future[None] = loop.create_future()

        def ready() -> None:
            if not replied.done():
                replied.set_result(None)

        try:
            process.conn.send((key, question, ident))
            loop.add_reader(fd, ready)
        except (OSError, ValueError) as exc:
            _LOG.warning("%s not finished: %s", self._kind, exc)
            _in_thread(self._replace, process)
            raise _failed() from exc
        try:
            await replied
        except BaseException:
            # The request stopped waiting (its time limit, a disconnect): the reply is still
            # to come; a thread takes it and hands the process back (or replaces it).
            _unwatch(loop, fd)
            _in_thread(self._drain, process)
            raise
        _unwatch(loop, fd)
        try:
            got, value = process.conn.recv()
        except (EOFError, OSError) as exc:
            _LOG.warning("%s not finished: the process ended (%s)", self._kind, type(exc).__name__)
            _in_thread(self._replace, process)
            raise _failed() from exc
        self._release(process)
        if got != "ok":
            _LOG.warning("%s failed: %s", self._kind, value)
            raise _failed()
        return value  # type: ignore[no-any-return]

    def _drain(self, process: _Process) -> None:
        try:
            process._expect("ok")
        except _Failed:
            pass
        except _Died:
            self._replace(process)
            return
        self._release(process)


def _descendants(pid: int | None) -> list[int]:
    """The processes ``pid`` started, and theirs (the engine workers are started by a fork
    server the process started): Linux; none known elsewhere."""
    try:
        children = [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except (OSError, ValueError):
        return []
    return children + [d for c in children for d in _descendants(c)]


def _unwatch(loop: asyncio.AbstractEventLoop, fd: int) -> None:
    """Stop watching ``fd``, and make it blocking again (an event loop that watched it may have
    made it non-blocking; the process's pipe is read blocking everywhere else)."""
    loop.remove_reader(fd)
    os.set_blocking(fd, True)


def _in_thread(target: Any, *args: Any) -> None:
    threading.Thread(target=target, args=args, daemon=True).start()


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
