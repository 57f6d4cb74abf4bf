"""Request bodies: refused above a configured size (413), and never read for a caller who is not signed in.

API Gateway refuses a payload over 10 MB before the Lambda runs, and its Cognito authorizer answers 401 before
the integration reads anything; `skymarshal serve` does the same here. `SKYMARSHAL_MAX_BODY_BYTES` sets the
limit (10 MB by default, API Gateway's). The API Lambda checks the same limit on the event's body, so a lower
configured limit holds in AWS too.

`BodyLimit` is ASGI middleware: a `Content-Length` over the limit is answered 413 before anything is read; a
body sent without one (chunked) is counted as it arrives and answered 413 once it passes the limit.
"""

from __future__ import annotations

import json
import os
from typing import Any

MAX_BODY_ENV = "SKYMARSHAL_MAX_BODY_BYTES"
DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024  # API Gateway's payload limit


def max_body_bytes() -> int:
    raw = os.environ.get(MAX_BODY_ENV, "").strip()
    if not raw:
        return DEFAULT_MAX_BODY_BYTES
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{MAX_BODY_ENV}={raw!r} is not a whole number of bytes") from None
    if value <= 0:
        raise ValueError(f"{MAX_BODY_ENV}={raw!r} must be positive")
    return value


def too_large_message(limit: int) -> str:
    return f"the request body is over {limit:,} bytes ({MAX_BODY_ENV}); send less"


class BodyTooLarge(Exception):
    """Raised from the counting `receive` once a body passes the limit."""


class BodyLimit:
    """ASGI middleware: 413 for an HTTP request whose body is over `limit` bytes (a callable, read per request)."""

    def __init__(self, app: Any, limit=max_body_bytes):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit()
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _too_large(send, limit)
            return
        seen = 0
        started = False

        async def counting_receive():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge
            return message

        async def watching_send(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, watching_send)
        except BodyTooLarge:
            if started:  # the app answered before reading it all: nothing more to say
                return
            await _too_large(send, limit)


async def _too_large(send, limit: int) -> None:
    body = json.dumps({"statusCode": 413, "message": too_large_message(limit)}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
