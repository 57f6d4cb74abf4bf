"""The graph state: every field optional (``total=False``), ``messages`` accumulated by LangGraph's reducer.

Each node returns only the fields it sets. ``error`` is set by a node that could not do its part; the nodes
after it read it and degrade (the tool runner skips, the formatter explains) instead of crashing.
"""

from __future__ import annotations

from typing import Annotated, Any, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages


class AssistantState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]  # the conversation, kept per thread by the checkpointer
    question: str  # this turn's question
    plan: dict[str, Any]  # AviationPlan as JSON
    plan_source: str  # llm | offline | fallback
    planner_notes: list[str]  # refusals and fallbacks, for ``thinking``
    suggested_queries: list[str]
    tool_result: dict[str, Any]  # the tool's DATA, with _tool and _tool_type
    answer: str
    formatter_mode: str  # llm | template | template after LLM failure (...)
    thinking: str
    ui_payload: dict[str, Any]
    error: str | None
