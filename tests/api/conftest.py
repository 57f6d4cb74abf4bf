"""The API on the session's account: the resolver called with API Gateway's events, and the local server.

`call` sends one request through the same resolver the API Lambda runs, as the REST proxy event API
Gateway builds (claims from a Cognito token as its authorizer passes them); `tokens` are real ID tokens of
the development users from moto's user pool; `server` is `skymarshal serve`'s app on a free port.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from dataclasses import dataclass

import pytest

from skymarshal.api import app as api
from skymarshal.api.identity import DevIdentity
from skymarshal.api.roles import Role
from skymarshal.api.server import proxy_event
from skymarshal.local.pool_key import public_jwks


@dataclass
class Reply:
    status: int
    body: dict | list | None

    @property
    def message(self) -> str:
        return (self.body or {}).get("message", "") if isinstance(self.body, dict) else ""


@pytest.fixture(scope="session")
def identity(account) -> DevIdentity:
    return DevIdentity(account.client("cognito-idp"))


@pytest.fixture(scope="session")
def tokens(identity) -> dict[Role | None, str | None]:
    return {role: identity.login(role)["id_token"] for role in Role} | {None: None}


@pytest.fixture
def call(wf, identity, tokens):
    """call(method, path, role=None, body=None, raw=None) -> Reply, through the API Lambda's resolver."""
    verifier = identity.verifier(public_jwks())
    api.configure(lambda: wf)

    def send(
        method: str, path: str, role: Role | None = None, body=None, raw: str | None = None, query: dict | None = None
    ) -> Reply:
        claims = verifier.claims(f"Bearer {tokens[role]}") if role else None
        text = raw if raw is not None else (json.dumps(body) if body is not None else None)
        result = api.handle(
            proxy_event(
                method, path, body=text, claims=claims, query=query, headers={"content-type": "application/json"}
            ),
            None,
        )
        payload = result.get("body")
        return Reply(result["statusCode"], json.loads(payload) if payload else None)

    return send


@pytest.fixture(scope="session")
def server(wf, identity):
    """`skymarshal serve`'s app (uvicorn on 127.0.0.1, a free port) on the session's account."""
    import uvicorn

    from skymarshal.api.server import create_app

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    app = create_app(client=wf, verifier=identity.verifier(public_jwks()), identity=identity, poll_s=0.25)
    runner = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not runner.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    runner.should_exit = runner.force_exit = True  # open event streams would otherwise hold it up
    thread.join(timeout=10)
