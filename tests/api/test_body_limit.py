"""Request bodies in `skymarshal serve` and the API Lambda: a caller who is not signed in is answered 401 before
any byte of the body is read, and a body over the configured limit is refused with 413 — by its declared length,
or counted as it arrives when it has none — never parsed into a 400."""

from __future__ import annotations

import asyncio
import json

import pytest

from skymarshal.api import app as api
from skymarshal.api import server
from skymarshal.api.body_limit import DEFAULT_MAX_BODY_BYTES, MAX_BODY_ENV
from skymarshal.api.identity import InvalidToken
from skymarshal.api.server import proxy_event

CLAIMS = {"sub": "u-1", "cognito:username": "dana", "name": "Dana Duty", "cognito:groups": ["DutyManager"]}


class _Verifier:
    def claims(self, header: str | None) -> dict:
        if header != "Bearer good":
            raise InvalidToken("the token was refused")
        return CLAIMS


class _Client:
    """What the start route calls: records the runs it was asked to start."""

    def __init__(self):
        self.started: list[str] = []

    def start(self, prompt: str, **_) -> dict:
        self.started.append(prompt)
        return {"disruption_id": "d-1", "execution_name": "d-1", "started": True}


@pytest.fixture
def app(monkeypatch):
    monkeypatch.setattr(server, "stream_routes", lambda *a, **k: [])  # the assistant is not what this is about
    return server.create_app(client=_Client(), verifier=_Verifier())  # type: ignore[arg-type]


def _send(app, *, body_chunks: list[bytes], headers: dict[str, str]) -> tuple[int, dict, int]:
    """One POST /api/disruptions through the ASGI app; returns the status, the JSON answer, and how many body
    chunks the app read."""
    reads = 0
    pending = list(body_chunks)
    sent: list[dict] = []

    async def receive():
        nonlocal reads
        reads += 1
        chunk = pending.pop(0) if pending else b""
        return {"type": "http.request", "body": chunk, "more_body": bool(pending)}

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/disruptions",
        "raw_path": b"/api/disruptions",
        "root_path": "",
        "query_string": b"",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], json.loads(body or b"{}"), reads


def test_a_caller_who_is_not_signed_in_is_refused_before_the_body_is_read(app):
    payload = json.dumps({"prompt": "EY123 on 20 January had a mechanical failure " + " " * 1000}).encode()
    for headers in ({}, {"authorization": "Bearer forged"}):
        status, answer, reads = _send(
            app, body_chunks=[payload], headers={**headers, "content-length": str(len(payload))}
        )
        assert status == 401 and reads == 0, (headers, status, answer, reads)
    status, answer, reads = _send(
        app, body_chunks=[payload], headers={"authorization": "Bearer good", "content-length": str(len(payload))}
    )
    assert status == 202 and reads >= 1


def test_a_body_over_the_limit_is_413_by_its_declared_length_or_as_it_arrives(app, monkeypatch):
    monkeypatch.setenv(MAX_BODY_ENV, "1000")
    big = b"{" + b" " * 2000 + b"}"
    status, answer, reads = _send(
        app, body_chunks=[big], headers={"authorization": "Bearer good", "content-length": str(len(big))}
    )
    assert status == 413 and reads == 0 and MAX_BODY_ENV in answer["message"]
    # chunked: no length declared; refused once the count passes the limit, not parsed into a 400
    status, answer, reads = _send(
        app, body_chunks=[big[:600], big[600:1200], big[1200:]], headers={"authorization": "Bearer good"}
    )
    assert status == 413 and reads == 2, (status, answer, reads)
    small = b'{"prompt": "EY123 mechanical"}'
    status, _, _ = _send(app, body_chunks=[small], headers={"authorization": "Bearer good"})
    assert status == 202


def test_the_default_limit_is_api_gateways_and_the_lambda_keeps_a_configured_one(monkeypatch):
    assert DEFAULT_MAX_BODY_BYTES == 10 * 1024 * 1024
    monkeypatch.setenv(MAX_BODY_ENV, "100")
    event = proxy_event("POST", "/disruptions", body=json.dumps({"prompt": "é" * 60}), claims=CLAIMS)
    reply = api.handle(event, None)
    assert reply["statusCode"] == 413 and MAX_BODY_ENV in json.loads(reply["body"])["message"]
    # counted in bytes, not characters: 30 two-byte letters (4 × 45 characters > 100, 75 bytes ≤ 100) pass
    within = json.dumps({"prompt": "é" * 30}, ensure_ascii=False)
    assert len(within) * 4 > 100 >= len(within.encode())
    reply = api.handle(proxy_event("POST", "/disruptions", body=within, claims=CLAIMS), None)
    assert reply["statusCode"] != 413, reply


def test_a_bad_limit_fails_the_api_lambdas_start_with_its_line(monkeypatch):
    import importlib

    import skymarshal.handlers.api as handler_module

    monkeypatch.setenv(MAX_BODY_ENV, "-5")
    with pytest.raises(ValueError, match="SKYMARSHAL_MAX_BODY_BYTES='-5' must be positive"):
        importlib.reload(handler_module)
    monkeypatch.delenv(MAX_BODY_ENV)
    importlib.reload(handler_module)


def test_a_bad_limit_stops_serve_at_start_with_its_line(monkeypatch):
    from skymarshal.api import server

    monkeypatch.setenv("SKYMARSHAL_MAX_BODY_BYTES", "ten megabytes")
    with pytest.raises(ValueError, match="SKYMARSHAL_MAX_BODY_BYTES='ten megabytes' is not a whole number of bytes"):
        server.create_app(client=_Client(), verifier=_Verifier())  # type: ignore[arg-type]
