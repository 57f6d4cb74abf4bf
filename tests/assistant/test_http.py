"""The Starlette app: JSON chat, SSE event order (answer, tool error, failed run), bad bodies, memory."""

from __future__ import annotations

import json

import pytest
from fakes import ScriptedChatModel
from starlette.testclient import TestClient

from skymarshal.assistant.config import AssistantSettings
from skymarshal.assistant.graph import Assistant
from skymarshal.assistant.http import create_app

REPLY_KEYS = {"answer", "thinking", "plan", "ui_payload", "thread_id", "usage"}


def sse_events(text: str) -> list[tuple[str, dict]]:
    events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        lines = [line for line in block.split("\n") if line and not line.startswith(":")]
        name = next((line[6:].strip() for line in lines if line.startswith("event:")), None)
        data = "\n".join(line[5:].strip() for line in lines if line.startswith("data:"))
        if name:
            events.append((name, json.loads(data)))
    return events


def stream(
    client: TestClient, message: str, thread_id: str | None = None, path: str = "/assistant/chat/stream"
) -> list[tuple[str, dict]]:
    with client.stream("POST", path, json={"message": message, "thread_id": thread_id}) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        return sse_events(response.read().decode())


def names(events):
    """Event names with consecutive repeats folded (message deltas come in several pieces)."""
    folded = []
    for name, _ in events:
        if not folded or folded[-1] != name:
            folded.append(name)
    return folded


@pytest.fixture
def client():
    with TestClient(create_app(settings=AssistantSettings(checkpointer="memory"))) as test_client:
        yield test_client


def test_chat_returns_the_reply_fields(client):
    response = client.post("/assistant/chat", json={"message": "What are the curfew rules at Frankfurt?"})
    assert response.status_code == 200
    body = response.json()
    assert set(body) == REPLY_KEYS and body["thread_id"]
    assert "23:00 to 05:00" in body["answer"] and body["ui_payload"]["kind"] == "rules"
    assert body["usage"] == {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0, "mode": "offline"}


def test_stream_event_order_for_an_answer(client):
    events = stream(client, "airports near the route from AUH to LHR with a runway long enough for a 787")
    assert names(events) == ["plan", "thinking", "tool_call_start", "tool_call_end", "message", "ui_payload", "done"]
    data = dict(events)
    assert data["plan"]["plan"]["selected_tool"] == "find_airports_near_route"
    assert data["tool_call_end"] == {
        "tool": "find_airports_near_route",
        "ok": True,
        "tool_type": "route_alternates",
        "count": 60,
    }
    answer = "".join(d["delta"] for n, d in events if n == "message")
    assert answer.startswith("**72 airports")
    assert data["ui_payload"]["kind"] == "route" and data["done"]["usage"]["mode"] == "offline"
    assert data["done"]["thread_id"]


def test_stream_event_order_when_the_tool_cannot_answer():
    llm = ScriptedChatModel(replies=[{"selected_tool": "get_airport_details", "arguments": {"code": "ZZZ"}}])
    app = create_app(
        lambda saver: Assistant(settings=AssistantSettings(checkpointer="none"), llm=llm),
        settings=AssistantSettings(checkpointer="none"),
    )
    with TestClient(app) as test_client:
        events = stream(test_client, "Tell me about ZZZ")
    assert names(events) == [
        "plan",
        "thinking",
        "tool_call_start",
        "tool_call_end",
        "error",
        "message",
        "ui_payload",
        "done",
    ]
    assert dict(events)["error"] == {
        "message": "unknown airport 'ZZZ': give a three-letter IATA or four-letter ICAO code",
        "fatal": False,
    }
    assert dict(events)["tool_call_end"]["ok"] is False


class _BrokenGraph:
    """A graph whose run fails after planning, as a lost checkpointer connection would."""

    def __init__(self, graph):
        self.graph = graph

    async def astream_events(self, *args, **kwargs):
        async for event in self.graph.astream_events(*args, **kwargs):
            yield event
            if event["event"] == "on_chain_start" and event["name"] == "tool_runner":
                raise ConnectionError("checkpointer connection lost")


def test_stream_event_order_when_the_run_fails():
    def factory(saver):
        assistant = Assistant(settings=AssistantSettings(checkpointer="none"))
        assistant.graph = _BrokenGraph(assistant.graph)
        return assistant

    with TestClient(create_app(factory, settings=AssistantSettings(checkpointer="none"))) as test_client:
        events = stream(test_client, "Tell me about AUH")
    assert names(events) == ["plan", "thinking", "tool_call_start", "error"]
    assert dict(events)["error"] == {"message": "ConnectionError: checkpointer connection lost", "fatal": True}


def test_streamed_llm_answer_reports_token_usage():
    from langchain_core.messages import AIMessage

    answer = AIMessage(
        content="Frankfurt: 23:00-05:00.", usage_metadata={"input_tokens": 120, "output_tokens": 8, "total_tokens": 128}
    )
    llm = ScriptedChatModel(
        replies=[
            {
                "selected_tool": "answer_rules_question",
                "arguments": {"country": "DE", "question": "curfew at Frankfurt"},
            },
            answer,
        ]
    )
    app = create_app(
        lambda saver: Assistant(settings=AssistantSettings(checkpointer="none"), llm=llm),
        settings=AssistantSettings(checkpointer="none"),
    )
    with TestClient(app) as test_client:
        events = stream(test_client, "curfew at Frankfurt?")
    assert "".join(d["delta"] for n, d in events if n == "message") == "Frankfurt: 23:00-05:00."
    assert dict(events)["done"]["usage"] == {
        "input_tokens": 120,
        "output_tokens": 8,
        "total_tokens": 128,
        "mode": "llm",
    }


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "message"),
        ({"message": ""}, "message"),
        ({"message": "   "}, "message"),
        ({"message": 3}, "message"),
        ({"message": "hi", "thread_id": "a b"}, "thread_id"),
        ({"message": "hi", "extra": 1}, "extra"),
        ([1, 2], None),
    ],
)
@pytest.mark.parametrize("path", ["/assistant/chat", "/assistant/chat/stream"])
def test_bad_bodies_are_400_naming_the_field(client, path, body, field):
    response = client.post(path, json=body)
    assert response.status_code == 400
    assert response.json()["field"] == field and response.json()["error"]


def test_non_json_body_is_400(client):
    response = client.post("/assistant/chat", content=b"not json", headers={"content-type": "application/json"})
    assert response.status_code == 400 and "must be JSON" in response.json()["error"]


def test_conversation_memory_with_the_sqlite_checkpointer_over_http(tmp_path):
    settings = AssistantSettings(checkpointer="sqlite", sqlite_path=tmp_path / "threads.sqlite")
    with TestClient(create_app(settings=settings)) as test_client:
        first = stream(test_client, "What are the curfew rules at Frankfurt?", "ops-1")
        follow = stream(test_client, "and Australia?", "ops-1")
        other = test_client.post("/assistant/chat", json={"message": "and Australia?", "thread_id": "ops-2"}).json()
    assert dict(first)["done"]["thread_id"] == "ops-1"
    assert dict(follow)["plan"]["plan"]["arguments"]["question"] == "What are the curfew rules at Frankfurt?"
    assert "Sydney Airport Curfew Act" in "".join(d["delta"] for n, d in follow if n == "message")
    assert other["plan"]["arguments"]["question"] == "and Australia?"  # another thread remembers nothing
    # A new app (a new process, a cold Lambda) on the same file still has the thread.
    with TestClient(create_app(settings=settings)) as test_client:
        again = test_client.post("/assistant/chat", json={"message": "and the United States?", "thread_id": "ops-1"})
    assert again.json()["plan"]["arguments"] == {"country": "US", "question": "What are the curfew rules at Frankfurt?"}


def test_formatter_tokens_stream_as_message_deltas_without_a_repeat():
    from langchain_core.language_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    from skymarshal.assistant.graph import build_graph
    from skymarshal.assistant.rules import load_rules
    from skymarshal.assistant.tools import ToolContext

    planner = ScriptedChatModel(replies=[{"selected_tool": "get_airport_details", "arguments": {"code": "FRA"}}])
    writer = GenericFakeChatModel(messages=iter([AIMessage(content="Frankfurt has a 23:00-05:00 curfew.")]))

    def factory(saver):
        assistant = Assistant(settings=AssistantSettings(checkpointer="none"), llm=planner)
        assistant.graph = build_graph(
            assistant.behaviour,
            ToolContext(behaviour=assistant.behaviour, rules=load_rules()),
            planner_llm=planner,
            formatter_llm=writer,
        )
        return assistant

    with TestClient(create_app(factory, settings=AssistantSettings(checkpointer="none"))) as test_client:
        events = stream(test_client, "Tell me about FRA")
    deltas = [d["delta"] for n, d in events if n == "message"]
    assert len(deltas) > 3 and "".join(deltas) == "Frankfurt has a 23:00-05:00 curfew."
    assert names(events) == ["plan", "thinking", "tool_call_start", "tool_call_end", "message", "ui_payload", "done"]


def test_mounted_under_api_without_the_sub_apps_lifespan(tmp_path):
    from starlette.applications import Starlette
    from starlette.routing import Mount

    settings = AssistantSettings(checkpointer="sqlite", sqlite_path=tmp_path / "threads.sqlite")
    outer = Starlette(routes=[Mount("/api", app=create_app(settings=settings))])
    with TestClient(outer) as test_client:
        first = test_client.post(
            "/api/assistant/chat", json={"message": "What are the curfew rules at Frankfurt?", "thread_id": "m-1"}
        )
        events = stream(test_client, "and Australia?", "m-1", path="/api/assistant/chat/stream")
    assert first.status_code == 200 and first.json()["ui_payload"]["kind"] == "rules"
    assert dict(events)["plan"]["plan"]["arguments"]["country"] == "AU"
