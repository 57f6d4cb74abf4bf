"""One streamed turn as SSE events, from LangGraph's ``astream_events(version="v2")``.

Event order for an answered turn: ``plan``, ``thinking`` (the planner's reasoning), ``tool_call_start``,
``tool_call_end``, ``message`` (answer deltas: the formatter model's tokens, or the template answer in
chunks), ``ui_payload``, ``done`` (full thinking, thread id, token usage). When the tool could not answer,
an ``error`` event (``fatal: false``) follows ``tool_call_end`` and the turn still ends with an explained
answer and ``done``. When the run itself fails, an ``error`` event (``fatal: true``) ends the stream.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

from .graph import Assistant, Usage

log = logging.getLogger("skymarshal.assistant")
CHUNK_CHARS = 80  # template answers are sent in pieces so the console renders progressively


def _is_node(event: dict, node: str) -> bool:
    return event.get("name") == node and event.get("metadata", {}).get("langgraph_node") == node


def _chunks(text: str) -> list[str]:
    return [text[i : i + CHUNK_CHARS] for i in range(0, len(text), CHUNK_CHARS)]


async def stream_turn(assistant: Assistant, question: str, thread_id: str | None) -> AsyncIterator[tuple[str, dict]]:
    """(event name, data) pairs for one question; never raises."""
    config, thread = assistant.run_config(thread_id)
    usage = Usage(mode="llm" if assistant.online else "offline")
    plan: dict[str, Any] = {}
    streamed = False
    final: dict[str, Any] = {}
    try:
        async for event in assistant.graph.astream_events({"question": question}, config, version="v2"):
            kind = event["event"]
            if kind == "on_chain_end" and _is_node(event, "planner"):
                output = event["data"].get("output") or {}
                plan = output.get("plan", {})
                yield (
                    "plan",
                    {"plan": plan, "source": output.get("plan_source"), "notes": output.get("planner_notes", [])},
                )
                yield (
                    "thinking",
                    {"text": "\n".join([plan.get("reasoning", ""), *output.get("planner_notes", [])]).strip()},
                )
            elif kind == "on_chain_start" and _is_node(event, "tool_runner"):
                yield "tool_call_start", {"tool": plan.get("selected_tool"), "arguments": plan.get("arguments", {})}
            elif kind == "on_chain_end" and _is_node(event, "tool_runner"):
                output = event["data"].get("output") or {}
                result = output.get("tool_result") or {}
                yield (
                    "tool_call_end",
                    {
                        "tool": plan.get("selected_tool"),
                        "ok": not output.get("error"),
                        "tool_type": result.get("_tool_type"),
                        "count": result.get("count"),
                    },
                )
                if output.get("error"):
                    yield "error", {"message": output["error"], "fatal": False}
            elif kind == "on_chat_model_stream" and event.get("metadata", {}).get("langgraph_node") == "formatter":
                text = _text(event["data"]["chunk"].content)
                if text:
                    streamed = True
                    yield "message", {"delta": text}
            elif kind == "on_chat_model_end":
                usage.add(getattr(event["data"].get("output"), "usage_metadata", None))
            elif kind == "on_chain_end" and _is_node(event, "formatter"):
                final = event["data"].get("output") or {}
    except Exception as exc:  # the run failed: say so on the stream, end it
        log.exception("assistant stream failed")
        yield "error", {"message": f"{type(exc).__name__}: {exc}", "fatal": True}
        return
    if not streamed or final.get("formatter_mode") != "llm":
        # The template answered (offline, or after the model failed mid-stream): send the kept answer; "reset"
        # tells the client to drop any partial model text it already shows.
        for i, piece in enumerate(_chunks(final.get("answer", ""))):
            yield "message", {"delta": piece, **({"reset": True} if i == 0 and streamed else {})}
    yield "ui_payload", final.get("ui_payload", {})
    yield "done", {"thread_id": thread, "thinking": final.get("thinking", ""), "usage": usage.model_dump()}


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content if isinstance(part, dict))
