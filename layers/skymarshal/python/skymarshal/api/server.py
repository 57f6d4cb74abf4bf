"""`skymarshal serve`: the web console and the API on 127.0.0.1, against local AWS.

An ASGI app (Starlette, run by uvicorn) that
- hands every `/api/...` request to the same Powertools resolver API Gateway invokes in AWS, as the REST
  proxy event API Gateway would build, with the claims of the ID token it verified in
  `requestContext.authorizer.claims` (what the Cognito authorizer does there);
- streams a run's live progress (`/api/disruptions/{id}/events`) and the operations assistant
  (`/api/assistant/...`) as server-sent events (api/streams.py, the AWS streaming function's routes);
- refuses a body over SKYMARSHAL_MAX_BODY_BYTES (10 MB, API Gateway's limit) with 413, and reads no body of a
  caller who is not signed in (api/body_limit.py);
- serves the console's static files, with a clearly marked development login (one user per role in
  moto's user pool) that exists only here.
"""

from __future__ import annotations

import json
import threading
import uuid
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..console import STATIC_DIR as CONSOLE_DIR
from ..workflow.runs.client import WorkflowClient
from . import app as api
from .body_limit import BodyLimit, max_body_bytes
from .identity import DevIdentity, InvalidToken, TokenVerifier
from .roles import Role
from .streams import claims_reader, stream_routes

PUBLIC_PATHS = frozenset({"/openapi.json"})  # the API's routes that need no caller (and read no body)
SIGN_IN = "sign in: the request carries no valid identity token"
METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"]


def proxy_event(
    method: str,
    path: str,
    *,
    query: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
    body: str | None = None,
    claims: dict[str, Any] | None = None,
    stage: str = "local",
) -> dict:
    """The REST API (v1) proxy event API Gateway sends for this request; claims as its Cognito authorizer
    passes them (strings; groups comma-separated)."""
    headers = dict(headers or {})
    authorizer = None
    if claims:
        authorizer = {"claims": {k: ",".join(v) if isinstance(v, list) else str(v) for k, v in claims.items()}}
    return {
        "resource": "/{proxy+}",
        "path": path,
        "httpMethod": method,
        "headers": headers,
        "multiValueHeaders": {k: [v] for k, v in headers.items()},
        "queryStringParameters": dict(query) if query else None,
        "multiValueQueryStringParameters": {k: [v] for k, v in query.items()} if query else None,
        "pathParameters": {"proxy": path.lstrip("/")},
        "stageVariables": None,
        "requestContext": {
            "resourcePath": "/{proxy+}",
            "httpMethod": method,
            "path": f"/{stage}{path}",
            "stage": stage,
            "requestId": str(uuid.uuid4()),
            "identity": {"sourceIp": "127.0.0.1"},
            "authorizer": authorizer,
        },
        "body": body,
        "isBase64Encoded": False,
    }


class _Context:  # the parts of a Lambda context Powertools reads
    function_name = "skymarshal-serve"
    aws_request_id = "local"


# The Powertools resolver keeps the request being handled on the app (`app.context`), as a Lambda instance handles
# one event at a time; two requests at once in the thread pool overwrote each other's route (KeyError '_route',
# a 500 to the console). One at a time here too.
_RESOLVER = threading.Lock()


def _handle_one_at_a_time(event: dict) -> dict:
    with _RESOLVER:
        return api.handle(event, _Context())


def create_app(
    *,
    client: WorkflowClient,
    verifier: TokenVerifier,
    identity: DevIdentity | None = None,
    console_dir: Path = CONSOLE_DIR,
    poll_s: float = 0.5,
) -> Starlette:
    max_body_bytes()  # a bad SKYMARSHAL_MAX_BODY_BYTES stops `serve` at start with its one line, not every request
    api.configure(lambda: client)
    claims_of = claims_reader(verifier)

    async def resolve(request: Request) -> Response:
        try:
            claims = claims_of(request)
        except InvalidToken as exc:
            return JSONResponse({"statusCode": 401, "message": str(exc)}, status_code=401)
        path = "/" + request.path_params["path"]
        # Authenticated before the body is read, as API Gateway's authorizer does: no token, 401 (the resolver
        # would validate the body first and say 400). BodyLimit has already refused an oversized body with 413.
        if claims is None and path not in PUBLIC_PATHS:
            return JSONResponse({"statusCode": 401, "message": SIGN_IN}, status_code=401)
        body = (await request.body()).decode("utf-8", errors="replace") or None if claims is not None else None
        event = proxy_event(
            request.method,
            path,
            query=dict(request.query_params),
            headers={k.lower(): v for k, v in request.headers.items()},
            body=body,
            claims=claims,
        )
        result = await run_in_threadpool(_handle_one_at_a_time, event)
        headers = {k: ", ".join(v) for k, v in (result.get("multiValueHeaders") or {}).items()}
        headers.update(result.get("headers") or {})
        headers.pop("Content-Length", None)
        return Response(result.get("body") or "", status_code=result["statusCode"], headers=headers)

    async def dev_login(request: Request) -> Response:
        assert identity is not None  # the route is mounted only with a development identity
        try:
            role = Role((await request.json()).get("role"))
        except (ValueError, AttributeError, json.JSONDecodeError):
            return JSONResponse(
                {"statusCode": 400, "message": 'body: {"role": "DutyManager" | "Observer" | "Admin"}'}, status_code=400
            )
        return JSONResponse(identity.login(role))

    async def config(request: Request) -> Response:
        return JSONResponse(
            {
                "mode": "local-development" if identity else "aws",
                "api": "/api",
                "stream": "/api",
                "devLogin": identity is not None,
                "assistant": True,
            }
        )

    api_routes = [
        *stream_routes(lambda: client, claims_of, poll_s=poll_s),
        Route("/{path:path}", resolve, methods=METHODS),
    ]
    if identity is not None:
        api_routes.insert(0, Route("/dev/login", dev_login, methods=["POST"]))
    return Starlette(
        middleware=[Middleware(BodyLimit)],
        routes=[
            Route("/config.json", config),
            Mount("/api", routes=api_routes),
            Mount("/", app=StaticFiles(directory=str(console_dir), html=True)),
        ],
    )
