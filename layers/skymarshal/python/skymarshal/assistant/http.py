"""The assistant's HTTP interface: a plain Starlette ASGI app the integrator mounts (under /api, behind auth).

- ``POST /assistant/chat``         ``{"message": str, "thread_id": str | null}`` → JSON
                                   ``{answer, thinking, plan, ui_payload, thread_id, usage}``
- ``POST /assistant/chat/stream``  same body → Server-Sent Events (sse-starlette): plan, thinking,
                                   tool_call_start, tool_call_end, message, ui_payload, done, error
A bad body is a 400 ``{"error": ..., "field": ...}``. The only state is the app's own (``app.state``): the
assistant and its checkpointer, opened in the lifespan (or on the first request when mounted) — nothing
process-global, so the same app runs under ``skymarshal serve`` and in a streaming Lambda (Lambda Web Adapter).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from .config import AssistantConfigError, AssistantSettings
from .graph import Assistant, async_checkpointer_for
from .streaming import stream_turn

MAX_MESSAGE_CHARS = 2000


class ChatRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    message: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)
    thread_id: str | None = Field(None, min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_.:-]+$")


class BadRequest(ValueError):
    def __init__(self, message: str, field: str | None):
        super().__init__(message)
        self.field = field


async def _chat_request(request: Request) -> ChatRequest:
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise BadRequest('the body must be JSON: {"message": "...", "thread_id": null}', None) from None
    if not isinstance(body, dict):
        raise BadRequest('the body must be a JSON object with a "message" field', None)
    try:
        chat = ChatRequest.model_validate(body)
    except ValidationError as exc:
        error = exc.errors()[0]
        field = ".".join(str(p) for p in error["loc"]) or None
        raise BadRequest(f"{field}: {error['msg']}", field) from None
    if not chat.message.strip():
        raise BadRequest("message: must not be blank", "message")
    return chat


def _bad_request(exc: BadRequest) -> JSONResponse:
    return JSONResponse({"error": str(exc), "field": exc.field}, status_code=400)


async def chat(request: Request) -> JSONResponse:
    try:
        body = await _chat_request(request)
    except BadRequest as exc:
        return _bad_request(exc)
    assistant = await _assistant(request)
    reply = await assistant.aask(body.message, body.thread_id)
    return JSONResponse(reply.model_dump(mode="json"))


async def chat_stream(request: Request):
    try:
        body = await _chat_request(request)
    except BadRequest as exc:
        return _bad_request(exc)
    assistant = await _assistant(request)

    async def events():
        async for name, data in stream_turn(assistant, body.message, body.thread_id):
            yield {"event": name, "data": json.dumps(data, default=str)}

    return EventSourceResponse(events(), ping=15)


class _AssistantHolder:
    """The app's one assistant and its checkpointer, opened once (lifespan, or first request) and kept."""

    def __init__(self, factory: Callable[[Any], Assistant], settings: AssistantSettings):
        self.factory, self.settings = factory, settings
        self.assistant: Assistant | None = None
        self.lock = asyncio.Lock()
        self.stack = AsyncExitStack()

    async def open(self) -> Assistant:
        async with self.lock:
            if self.assistant is None:
                saver = await self.stack.enter_async_context(async_checkpointer_for(self.settings))
                self.assistant = self.factory(saver)
        return self.assistant


async def _assistant(request: Request) -> Assistant:
    """Opened by the lifespan; when the app is mounted inside another app (Starlette's Mount does not run a
    sub-app's lifespan), opened on the first request instead and kept for the app's life."""
    holder: _AssistantHolder = request.app.state.assistant_holder
    return holder.assistant or await holder.open()


def create_app(
    assistant_factory: Callable[[Any], Assistant] | None = None, settings: AssistantSettings | None = None
) -> Starlette:
    """The ASGI app. ``assistant_factory(checkpointer)`` lets tests and the integrator inject models/data."""
    settings = settings or AssistantSettings.from_env()
    holder = _AssistantHolder(
        assistant_factory or (lambda saver: Assistant(settings=settings, checkpointer=saver)), settings
    )

    @asynccontextmanager
    async def lifespan(app: Starlette):
        async with holder.stack:
            await holder.open()
            yield

    app = Starlette(
        routes=[
            Route("/assistant/chat", chat, methods=["POST"]),
            Route("/assistant/chat/stream", chat_stream, methods=["POST"]),
        ],
        lifespan=lifespan,
    )
    app.state.assistant_holder = holder
    return app


__all__ = ["AssistantConfigError", "ChatRequest", "create_app"]
