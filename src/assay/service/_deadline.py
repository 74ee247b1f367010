"""``Deadline``: one request's time limit, counted from its start by everything that works on it.

The app starts a request's deadline when it starts its 504 clock and hands it to the service,
which hands it on: to the engine's queries (``connectors.deadline``), to the wait for an answer
process and to the answer process itself. Before, each of them counted the limit afresh from
when it began: an ask that had waited for a busy answer process was given the whole limit again
from when it got one, answered, and recorded after its client had been told 504.

One clock is not enough at the limit itself: the work's last look at the clock and its ledger
write are not one instant, nor are the app's timer and its 504. So the work ``claim``s the
request before it writes its verdict, and the app ``expire``s it before it answers 504; under
one lock, whichever comes first wins. A request told 504 never has a verdict recorded, and a
verdict recorded is always sent to its client (who then waits for the write to finish, past the
limit if need be: a local commit takes a fraction of a millisecond).
"""

from __future__ import annotations

import threading
import time
from contextlib import AbstractContextManager
from typing import Literal

from assay.connectors import deadline
from assay.service._errors import ApiError

__all__ = ["Deadline", "timed_out"]


class Deadline:
    """A request's time limit of ``limit_s`` seconds from ``started`` (``time.monotonic()``;
    now when not given), and who has settled the request at it: nobody yet (``open``), the work
    about to record its verdict (``claimed``), or the app that told its client 504
    (``expired``)."""

    def __init__(self, limit_s: float, started: float | None = None) -> None:
        self.limit_s = limit_s
        self.started = time.monotonic() if started is None else started
        self.state: Literal["open", "claimed", "expired"] = "open"
        self._lock = threading.Lock()

    def left_s(self) -> float:
        """Seconds left before the limit (0 once it has passed)."""
        return max(self.started + self.limit_s - time.monotonic(), 0.0)

    def check(self) -> None:
        """Refuse to go on with work its client will not get: the request's limit has passed,
        or it was answered 504.

        Raises:
            ApiError: ``request.timeout``.
        """
        if self.state == "expired" or self.left_s() <= 0.0:
            raise timed_out(self.limit_s)

    def claim(self) -> None:
        """Take the right to record the request's verdict (call it just before the ledger
        write): from now on its client is sent the verdict, not 504.

        Raises:
            ApiError: ``request.timeout``: the limit has passed, or the client was told 504;
                record nothing.
        """
        with self._lock:
            if self.state == "expired" or self.left_s() <= 0.0:
                self.state = "expired"
                raise timed_out(self.limit_s)
            self.state = "claimed"

    def expire(self) -> bool:
        """Settle the request as timed out (the app, at its limit); ``False`` when the work has
        claimed it already, whose verdict is then being recorded and must be waited for and
        sent."""
        with self._lock:
            if self.state == "claimed":
                return False
            self.state = "expired"
            return True

    def queries(self) -> AbstractContextManager[None]:
        """The engine's queries run in this thread within the block end at the limit: past it,
        the engine's worker is killed (``connectors.deadline``), so an abandoned request frees
        the engine for the next one at once rather than at the engine's own limit."""
        return deadline(self.left_s())


def timed_out(limit_s: float) -> ApiError:
    """The error a request past its time limit is answered with (504)."""
    return ApiError(
        "request.timeout",
        f"No answer within {limit_s:g} s; its work was stopped.",
        "Ask a narrower question; the operator sets limits.request_time_limit_s.",
    )
