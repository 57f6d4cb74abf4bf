"""`skymarshal serve`: the web console and the API on 127.0.0.1, against local AWS.

An ASGI app (Starlette, run by uvicorn) that
- hands every `/api/...` request to the same Powertools resolver API Gateway invokes in AWS, as the REST
  proxy event API Gateway would build, with the claims of the ID token it verified in
  `requestContext.authorizer.claims` (what the Cognito authorizer does there);
- streams a run's live progress (`/api/disruptions/{id}/events`, server-sent events) and the operations
  assistant (`/api/assistant/...`) when it is installed;
- serves the console's static files, with a clearly marked development login (one user per role in
  moto's user pool) that exists only here.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..workflow.client import RunNotFound, WorkflowClient
from . import app as api
from .identity import DevIdentity, InvalidToken, TokenVerifier
from .roles import READERS, Role, caller_from_claims

CONSOLE_DIR = Path(__file__).resolve().parent.parent / "console" / "static"
METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"]


def proxy_event(method: str, path: str, *, query: dict[str, str] | None = None, headers: dict[str, str] | None = None,
                body: str | None = None, claims: dict[str, Any] | None = None, stage: str = "api") -> dict:
    """The REST API (v1) proxy event API Gateway sends for this request; claims as its Cognito authorizer
    passes them (strings; groups comma-separated). The stage is "api": locally the API is served under /api."""
    headers = dict(headers or {})
    authorizer = None
    if claims:
        authorizer = {"claims": {k: ",".join(v) if isinstance(v, list) else str(v) for k, v in claims.items()}}
    return {
        "resource": "/{proxy+}", "path": path, "httpMethod": method, "headers": headers,
        "multiValueHeaders": {k: [v] for k, v in headers.items()},
        "queryStringParameters": dict(query) if query else None,
        "multiValueQueryStringParameters": {k: [v] for k, v in query.items()} if query else None,
        "pathParameters": {"proxy": path.lstrip("/")}, "stageVariables": None,
        "requestContext": {"resourcePath": "/{proxy+}", "httpMethod": method, "path": f"/{stage}{path}",
                           "stage": stage, "requestId": str(uuid.uuid4()), "identity": {"sourceIp": "127.0.0.1"},
                           "authorizer": authorizer},
        "body": body, "isBase64Encoded": False,
    }


class _Context:  # the parts of a Lambda context Powertools reads
    function_name = "skymarshal-serve"
    aws_request_id = "local"


def create_app(*, client: WorkflowClient, verifier: TokenVerifier, identity: DevIdentity | None = None,
               console_dir: Path = CONSOLE_DIR, poll_s: float = 0.5) -> Starlette:
    api.configure(lambda: client)

    def claims_of(request: Request) -> dict | None:
        """The verified claims, None without a token; InvalidToken for a bad one."""
        header = request.headers.get("authorization")
        return verifier.claims(header) if header else None

    async def resolve(request: Request) -> Response:
        try:
            claims = claims_of(request)
        except InvalidToken as exc:
            return JSONResponse({"statusCode": 401, "message": str(exc)}, status_code=401)
        body = (await request.body()).decode("utf-8", errors="replace") or None
        event = proxy_event(request.method, "/" + request.path_params["path"], query=dict(request.query_params),
                            headers={k.lower(): v for k, v in request.headers.items()}, body=body, claims=claims)
        from starlette.concurrency import run_in_threadpool

        result = await run_in_threadpool(api.handle, event, _Context())
        headers = {k: ", ".join(v) for k, v in (result.get("multiValueHeaders") or {}).items()}
        headers.update(result.get("headers") or {})
        headers.pop("Content-Length", None)
        return Response(result.get("body") or "", status_code=result["statusCode"], headers=headers)

    async def events(request: Request) -> Response:
        from sse_starlette.sse import EventSourceResponse

        from .live import progress_events

        denied = _reader_denied(request, claims_of)
        if denied:
            return denied
        run_id = request.path_params["run_id"]
        try:
            client.describe(run_id)
        except RunNotFound as exc:
            return JSONResponse({"statusCode": 404, "message": str(exc)}, status_code=404)
        stream = ({"event": name, "data": json.dumps(data, default=str)}
                  for name, data in progress_events(client, run_id, poll_s=poll_s))
        return EventSourceResponse(stream, ping=15)

    async def dev_login(request: Request) -> Response:
        try:
            role = Role((await request.json()).get("role"))
        except (ValueError, AttributeError, json.JSONDecodeError):
            return JSONResponse({"statusCode": 400, "message": "body: {\"role\": \"DutyManager\" | \"Observer\" | "
                                                               "\"Admin\"}"}, status_code=400)
        return JSONResponse(identity.login(role))

    async def config(request: Request) -> Response:
        return JSONResponse({"mode": "local-development" if identity else "aws", "api": "/api",
                             "devLogin": identity is not None, "assistant": _assistant_app() is not None})

    routes = [Route("/config.json", config)]
    if identity is not None:
        routes.append(Route("/api/dev/login", dev_login, methods=["POST"]))
    routes.append(Route("/api/disruptions/{run_id}/events", events))
    assistant = _assistant_app()
    if assistant is not None:
        routes.append(Mount("/api/assistant", app=_Gate(assistant, claims_of, prefix="/assistant")))
    routes.append(Route("/api/{path:path}", resolve, methods=METHODS))
    routes.append(Mount("/", app=StaticFiles(directory=str(console_dir), html=True)))
    return Starlette(routes=routes)


def _reader_denied(request: Request, claims_of) -> Response | None:
    try:
        who = caller_from_claims(claims_of(request))
    except InvalidToken as exc:
        return JSONResponse({"statusCode": 401, "message": str(exc)}, status_code=401)
    if who is None:
        return JSONResponse({"statusCode": 401, "message": "sign in: the request carries no valid identity token"},
                            status_code=401)
    if not who.roles & set(READERS):
        return JSONResponse({"statusCode": 403, "message": f"{who.username} has no SkyMarshal group"}, status_code=403)
    return None


class _Gate:
    """An ASGI app behind the same sign-in as the API (any SkyMarshal group); restores the mounted prefix."""

    def __init__(self, app, claims_of, prefix: str):
        self.app, self.claims_of, self.prefix = app, claims_of, prefix

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            denied = _reader_denied(Request(scope), self.claims_of)
            if denied:
                await denied(scope, receive, send)
                return
            path, root = scope["path"], scope.get("root_path", "")
            inner = path[len(root):] if root and path.startswith(root) else path  # below the mount point
            scope = {**scope, "path": self.prefix + inner, "root_path": ""}
        await self.app(scope, receive, send)


def _assistant_app():
    """The operations assistant's ASGI app, when that package is installed."""
    try:
        from ..assistant.http import create_app as create_assistant
    except ImportError:
        return None
    global _ASSISTANT
    if _ASSISTANT is None:
        _ASSISTANT = create_assistant()
    return _ASSISTANT


_ASSISTANT = None
