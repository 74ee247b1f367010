"""The floor under the service's latency: a no-op ASGI app served exactly as ``assay serve``
serves (Starlette, uvicorn with httptools and uvloop, one process, the same ``uvicorn.Config``
and the same interpreter tuning), whose one POST route reads the body and returns a constant
small JSON. What a client waits for here is what HTTP alone costs on this machine; the service
cannot be faster than it.

``python -m benchmarks._noop_server PORT`` (bench_service.py starts it in a child process).
"""

from __future__ import annotations

import sys

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from assay.cli._serve import listen, tune_for_latency, uvicorn_config

# About as long as a short ask's verdict is not: the floor is the per-request cost, not bytes.
BODY = b'{"ok":true,"verdict":{"id":"noop"}}'


async def ask(request: Request) -> Response:
    await request.body()
    return Response(BODY, media_type="application/json", headers={"X-Request-Id": "noop"})


def main(port: int) -> None:
    import uvicorn

    app = Starlette(routes=[Route("/api/ask", ask, methods=["POST"])])
    listening = listen("127.0.0.1", port)
    try:
        tune_for_latency()
        uvicorn.Server(uvicorn_config(app, "127.0.0.1", port)).run(sockets=[listening])
    finally:
        listening.close()


if __name__ == "__main__":
    main(int(sys.argv[1]))
