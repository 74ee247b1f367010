"""The HTTP protocol ``assay serve`` runs under uvicorn: uvicorn's httptools protocol, with each
response's writes sent together.

uvicorn writes a response's status line and headers as soon as the app starts the response, and
the body when the app sends it: two sends on the socket for one answer. The client wakes for
the headers, finds no body, and sleeps again until the second send; on a busy machine each of
those wake-ups waits for a CPU. Here the writes made in one turn of the event loop go out in one
send at the end of that turn (the app starts and finishes a response in the same turn), and
anything written before the connection closes is sent before it closes.
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

__all__ = ["CoalescingTransport", "http_protocol"]


class CoalescingTransport:
    """A transport whose writes in one turn of the event loop are sent together.

    Example:
        >>> class Sink:
        ...     def __init__(self): self.sent = []
        ...     def write(self, data): self.sent.append(data)
        ...     def is_closing(self): return False
        ...     def close(self): self.sent.append("closed")
        >>> loop = asyncio.new_event_loop()
        >>> sink = Sink()
        >>> transport = CoalescingTransport(sink, loop)
        >>> transport.write(b"HTTP/1.1 200 OK\\r\\n\\r\\n"); transport.write(b"{}")
        >>> sink.sent
        []
        >>> loop.run_until_complete(asyncio.sleep(0)); sink.sent
        [b'HTTP/1.1 200 OK\\r\\n\\r\\n{}']
        >>> transport.write(b"last"); transport.close(); sink.sent[1:]
        [b'last', 'closed']
        >>> loop.close()
    """

    def __init__(self, transport: Any, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._pending: list[bytes] = []

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not self._pending:
            self._loop.call_soon(self._flush)
        self._pending.append(bytes(data))

    def writelines(self, chunks: Any) -> None:
        for chunk in chunks:
            self.write(chunk)

    def _flush(self) -> None:
        if not self._pending:
            return
        data = b"".join(self._pending)
        self._pending.clear()
        if not self._transport.is_closing():
            self._transport.write(data)

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def abort(self) -> None:
        self._pending.clear()
        self._transport.abort()

    def get_write_buffer_size(self) -> int:
        return int(self._transport.get_write_buffer_size()) + sum(len(p) for p in self._pending)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


def http_protocol() -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol over a ``CoalescingTransport`` (imported here: uvicorn is
    needed only to serve)."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class CoalescingHttpToolsProtocol(HttpToolsProtocol):
        def connection_made(self, transport: Any) -> None:
            super().connection_made(
                cast(asyncio.Transport, CoalescingTransport(transport, self.loop))
            )

    return CoalescingHttpToolsProtocol
