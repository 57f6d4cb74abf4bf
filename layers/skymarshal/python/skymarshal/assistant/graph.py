"""The assistant graph (planner → predictor → tool_runner → formatter), its checkpointer, and one-shot asks.

``Assistant`` bundles a compiled graph with the pieces a caller needs: ``ask`` (sync, for the CLI and
``POST /assistant/chat``) and the ``graph`` itself for ``streaming.stream_turn`` (``astream_events`` v2).
Conversation memory is the checkpointer's: one thread per ``thread_id``, chosen by
SKYMARSHAL_ASSISTANT_CHECKPOINTER (memory|sqlite|none); the backend is logged when the graph is built.
"""

from __future__ import annotations

import logging
import sqlite3
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from langchain_core.callbacks import UsageMetadataCallbackHandler
from langchain_core.messages.ai import UsageMetadata
from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel

from .config import AssistantBehaviour, AssistantSettings, load_behaviour, resolve_chat_model
from .nodes import make_formatter, make_planner, make_predictor, make_tool_runner
from .rules import load_rules
from .state import AssistantState
from .tools import NotamLookup, ToolContext

log = logging.getLogger("skymarshal.assistant")
NODES = ("planner", "predictor", "tool_runner", "formatter")


class Usage(BaseModel):
    input_tokens: int = 0
    output_tokens: int = 0
    total_tokens: int = 0
    mode: str = "offline"  # offline: no model was called, so no tokens

    def add(self, usage: UsageMetadata | None) -> None:
        if usage:
            self.input_tokens += int(usage.get("input_tokens", 0))
            self.output_tokens += int(usage.get("output_tokens", 0))
            self.total_tokens += int(usage.get("total_tokens", 0))


class AssistantReply(BaseModel):
    answer: str
    thinking: str
    plan: dict[str, Any]
    ui_payload: dict[str, Any]
    thread_id: str | None
    usage: Usage


def build_graph(
    behaviour: AssistantBehaviour,
    context: ToolContext,
    *,
    planner_llm: Any = None,
    formatter_llm: Any = None,
    comparison_llm: Any = None,
    checkpointer: Any = None,
):
    graph = StateGraph(AssistantState)
    graph.add_node("planner", make_planner(planner_llm, behaviour))
    graph.add_node("predictor", make_predictor(behaviour))
    graph.add_node("tool_runner", make_tool_runner(context))
    graph.add_node(
        "formatter", make_formatter({"formatter": formatter_llm, "comparison_formatter": comparison_llm}, behaviour)
    )
    graph.add_edge(START, "planner")
    graph.add_edge("planner", "predictor")
    graph.add_edge("predictor", "tool_runner")
    graph.add_edge("tool_runner", "formatter")
    graph.add_edge("formatter", END)
    return graph.compile(checkpointer=checkpointer)


class Assistant:
    """A compiled graph plus whether it remembers threads and whether any model is configured."""

    def __init__(
        self,
        behaviour: AssistantBehaviour | None = None,
        *,
        settings: AssistantSettings | None = None,
        llm: Any = None,
        checkpointer: Any = None,
        notams: NotamLookup | None = None,
    ):
        self.behaviour = behaviour or load_behaviour()
        self.settings = settings or AssistantSettings.from_env()
        models = {
            role: resolve_chat_model(role, self.behaviour, llm)
            for role in ("planner", "formatter", "comparison_formatter")
        }
        self.online = any(m is not None for m in models.values())
        context = ToolContext(
            behaviour=self.behaviour, rules=load_rules(str(self.settings.rules_path or "") or None), notams=notams
        )
        self.remembers = checkpointer is not None
        self.graph = build_graph(
            self.behaviour,
            context,
            planner_llm=models["planner"],
            formatter_llm=models["formatter"],
            comparison_llm=models["comparison_formatter"],
            checkpointer=checkpointer,
        )

    def run_config(self, thread_id: str | None, callbacks: list | None = None) -> tuple[dict, str | None]:
        thread = (thread_id or str(uuid.uuid4())) if self.remembers else None
        config: dict[str, Any] = {"callbacks": callbacks or []}
        if thread:
            config["configurable"] = {"thread_id": thread}
        return config, thread

    def ask(self, question: str, thread_id: str | None = None) -> AssistantReply:
        """One turn, synchronously (the CLI; needs a synchronous checkpointer)."""
        usage_handler = UsageMetadataCallbackHandler()
        config, thread = self.run_config(thread_id, [usage_handler])
        return self._reply(self.graph.invoke({"question": question}, config), thread, usage_handler)

    async def aask(self, question: str, thread_id: str | None = None) -> AssistantReply:
        """One turn on the event loop (the HTTP app; works with the async sqlite checkpointer)."""
        usage_handler = UsageMetadataCallbackHandler()
        config, thread = self.run_config(thread_id, [usage_handler])
        return self._reply(await self.graph.ainvoke({"question": question}, config), thread, usage_handler)

    def _reply(self, state: dict, thread: str | None, usage_handler: UsageMetadataCallbackHandler) -> AssistantReply:
        usage = Usage(mode="llm" if self.online else "offline")
        for model_usage in usage_handler.usage_metadata.values():
            usage.add(model_usage)
        return reply_from_state(state, thread, usage)


def reply_from_state(state: dict, thread_id: str | None, usage: Usage) -> AssistantReply:
    return AssistantReply(
        answer=state.get("answer", ""),
        thinking=state.get("thinking", ""),
        plan=state.get("plan", {}),
        ui_payload=state.get("ui_payload", {}),
        thread_id=thread_id,
        usage=usage,
    )


@contextmanager
def checkpointer_for(settings: AssistantSettings) -> Iterator[Any]:
    """The synchronous checkpointer the settings name (for ``Assistant.ask``)."""
    log.info("assistant checkpointer: %s", settings.checkpointer)
    if settings.checkpointer == "none":
        yield None
    elif settings.checkpointer == "memory":
        from langgraph.checkpoint.memory import InMemorySaver

        yield InMemorySaver()
    else:
        from langgraph.checkpoint.sqlite import SqliteSaver

        settings.sqlite_path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(settings.sqlite_path, check_same_thread=False)
        try:
            yield SqliteSaver(connection)
        finally:
            connection.close()


@asynccontextmanager
async def async_checkpointer_for(settings: AssistantSettings) -> AsyncIterator[Any]:
    """The asynchronous checkpointer the settings name (for streaming with ``astream_events``)."""
    log.info("assistant checkpointer: %s (async)", settings.checkpointer)
    if settings.checkpointer != "sqlite":
        with checkpointer_for(settings) as saver:
            yield saver
        return
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    settings.sqlite_path.parent.mkdir(parents=True, exist_ok=True)
    async with AsyncSqliteSaver.from_conn_string(str(settings.sqlite_path)) as saver:
        yield saver
