"""The streaming endpoints: a run's live progress, the ends of the board's open runs, and the operations assistant, as server-sent events.

API Gateway's REST API with a Python Lambda cannot stream, so in AWS these run in their own function
behind a function URL in RESPONSE_STREAM mode (Lambda Web Adapter + uvicorn; functions/stream). Locally
`skymarshal serve` mounts the same routes under /api. Either way the ID token is verified here, and any
SkyMarshal group may read.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route

from ..workflow.runs.client import RunNotFound, WorkflowClient
from .identity import InvalidToken, TokenVerifier
from .roles import READERS, caller_from_claims

ClaimsOf = Callable[[Request], "dict | None"]


def claims_reader(verifier: TokenVerifier) -> ClaimsOf:
    def claims_of(request: Request) -> dict | None:
        """The verified claims, None without a token; InvalidToken for a bad one."""
        header = request.headers.get("authorization")
        return verifier.claims(header) if header else None

    return claims_of


def reader_denied(request: Request, claims_of: ClaimsOf) -> Response | None:
    """401 without a valid token, 403 without a SkyMarshal group, None when the caller may read."""
    try:
        who = caller_from_claims(claims_of(request))
    except InvalidToken as exc:
        return JSONResponse({"statusCode": 401, "message": str(exc)}, status_code=401)
    if who is None:
        return JSONResponse(
            {"statusCode": 401, "message": "sign in: the request carries no valid identity token"}, status_code=401
        )
    if not who.roles & set(READERS):
        return JSONResponse({"statusCode": 403, "message": f"{who.username} has no SkyMarshal group"}, status_code=403)
    return None


class _Gate:
    """An ASGI app behind the readers' sign-in; restores the prefix the mount point took off the path."""

    def __init__(self, app, claims_of: ClaimsOf, prefix: str):
        self.app, self.claims_of, self.prefix = app, claims_of, prefix

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            denied = reader_denied(Request(scope), self.claims_of)
            if denied:
                await denied(scope, receive, send)
                return
            path, root = scope["path"], scope.get("root_path", "")
            inner = path[len(root) :] if root and path.startswith(root) else path  # below the mount point
            scope = {**scope, "path": self.prefix + inner, "root_path": ""}
        await self.app(scope, receive, send)


def assistant_app():
    """The operations assistant's ASGI app (one per process; it opens its checkpointer on first use)."""
    global _ASSISTANT
    if _ASSISTANT is None:
        from ..assistant.http import create_app as create_assistant

        _ASSISTANT = create_assistant()
    return _ASSISTANT


_ASSISTANT = None


def stream_routes(client: Callable[[], WorkflowClient], claims_of: ClaimsOf, *, poll_s: float = 0.5) -> list[BaseRoute]:
    """`GET /disruptions/{run_id}/events`, `/operations/events?runs=a,b` (the board's: when each run ends) and
    `/assistant/...`, relative to wherever they are mounted."""

    async def events(request: Request) -> Response:
        from sse_starlette.sse import EventSourceResponse

        from .live import progress_events

        denied = reader_denied(request, claims_of)
        if denied:
            return denied
        run_id, wf = request.path_params["run_id"], client()
        try:
            wf.describe(run_id)
        except RunNotFound as exc:
            return JSONResponse({"statusCode": 404, "message": str(exc)}, status_code=404)
        stream = (
            {"event": name, "data": json.dumps(data, default=str)}
            for name, data in progress_events(wf, run_id, poll_s=poll_s)
        )
        return EventSourceResponse(stream, ping=15)

    async def runs_ended(request: Request) -> Response:
        from sse_starlette.sse import EventSourceResponse

        from .live import MAX_FOLLOWED_RUNS, runs_ended_events

        denied = reader_denied(request, claims_of)
        if denied:
            return denied
        run_ids = [r for r in request.query_params.get("runs", "").split(",") if r]
        watch_new = request.query_params.get("new") == "1"  # also `started` for runs reported after it opened
        least = 0 if watch_new else 1
        if len(run_ids) < least or len(run_ids) > MAX_FOLLOWED_RUNS or any(len(r) > 128 for r in run_ids):
            message = f"runs: {least} to {MAX_FOLLOWED_RUNS} run ids, comma-separated"
            return JSONResponse({"statusCode": 400, "message": message}, status_code=400)
        wf = client()
        stream = (
            {"event": name, "data": json.dumps(data)}
            for name, data in runs_ended_events(wf, run_ids, poll_s=poll_s, watch_new=watch_new)
        )
        return EventSourceResponse(stream, ping=15)

    return [
        Route("/disruptions/{run_id}/events", events),
        Route("/operations/events", runs_ended),
        Mount("/assistant", app=_Gate(assistant_app(), claims_of, prefix="/assistant")),
    ]


def create_stream_app() -> Starlette:
    """The AWS streaming function's app, for the tokens of the pool SKYMARSHAL_USER_POOL_ID issues to the console's
    client SKYMARSHAL_USER_POOL_CLIENT_ID (CORS is the function URL's)."""
    region = os.environ.get("AWS_REGION", "us-east-1")
    verifier = TokenVerifier(
        issuer=f"https://cognito-idp.{region}.amazonaws.com/{os.environ['SKYMARSHAL_USER_POOL_ID']}",
        audience=os.environ["SKYMARSHAL_USER_POOL_CLIENT_ID"],
    )
    clients: list[WorkflowClient] = []

    def client() -> WorkflowClient:
        if not clients:
            clients.append(WorkflowClient.from_env())
        return clients[0]

    # CloudFront sends /stream/* here, so the console, the API (/api) and these share one origin.
    return Starlette(routes=[Mount("/stream", routes=stream_routes(client, claims_reader(verifier), poll_s=1.0))])
