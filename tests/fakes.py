"""A scripted chat model for tests: structured output and tool calls with no network.

LangChain's own fakes (``GenericFakeChatModel``, ``FakeMessagesListChatModel``) do not implement
``bind_tools``, so ``with_structured_output`` raises NotImplementedError on them. In langchain-core 1.x,
``BaseChatModel.with_structured_output(Schema)`` is ``bind_tools([Schema], tool_choice="any") |
PydanticToolsParser(first_tool_only=True)``: any model whose ``bind_tools`` works and whose reply carries a
tool call named after the schema gets parsed into the schema. ``ScriptedChatModel`` does exactly that.

Usage::

    llm = ScriptedChatModel(replies=[{"flight_number": "EY123", ...}])   # a dict = args of a call to the
    llm.with_structured_output(FlightReport).invoke("...")              # bound tool → FlightReport(...)

    llm = ScriptedChatModel(replies=[tool_call("current_datetime"), "It is 08:15 UTC."])
    bound = llm.bind_tools([current_datetime])      # a tool-calling loop (e.g. langgraph create_react_agent)
    bound.invoke(messages)                          # → AIMessage(tool_calls=[{"name": "current_datetime", ...}])

Each reply is, in order of the model's calls:
- a ``dict``: the arguments of a call to the bound tool (the one named by ``tool_choice``, else the only or
  first bound tool) — what a provider returns for structured output;
- a ``str``: a plain text answer;
- an ``AIMessage``: returned as is (``tool_call(name, **args)`` builds one with a tool call);
- an ``Exception`` instance: raised (a provider error, a throttle);
- a callable ``(messages, tool_names) -> reply``: computed from what the model was sent.
Every call is recorded in ``calls`` (messages, bound tool names, tool_choice). Running out of replies is an
error, so a test states exactly how many model calls it expects.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field

_ids = itertools.count(1)


def tool_call(name: str, **args: Any) -> AIMessage:
    """An AI message that calls one tool."""
    return AIMessage(
        content="", tool_calls=[{"name": name, "args": args, "id": f"call_{next(_ids)}", "type": "tool_call"}]
    )


class ScriptedChatModel(BaseChatModel):
    replies: list[Any]
    calls: list[dict] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted-fake"

    def bind_tools(self, tools: Sequence[Any], *, tool_choice: str | None = None, **kwargs: Any):
        formatted = [convert_to_openai_tool(t) for t in tools]
        return self.bind(tools=formatted, tool_choice=tool_choice, **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        names = [t["function"]["name"] for t in kwargs.get("tools") or []]
        choice = kwargs.get("tool_choice")
        self.calls.append({"messages": list(messages), "tools": names, "tool_choice": choice})
        index = len(self.calls) - 1
        if index >= len(self.replies):
            raise AssertionError(f"ScriptedChatModel: no reply scripted for call {index + 1}")
        reply = self.replies[index]
        if callable(reply) and not isinstance(reply, (BaseMessage, Exception)):
            reply = reply(messages, names)
        if isinstance(reply, Exception):
            raise reply
        if isinstance(reply, dict):
            reply = tool_call(self._target(names, choice), **reply)
        elif isinstance(reply, str):
            reply = AIMessage(content=reply)
        return ChatResult(generations=[ChatGeneration(message=reply)])

    @staticmethod
    def _target(names: list[str], choice: Any) -> str:
        if isinstance(choice, str) and choice in names:
            return choice
        if isinstance(choice, dict):  # {"type": "function", "function": {"name": ...}}
            return choice.get("function", {}).get("name") or choice.get("name")
        if not names:
            raise AssertionError(
                "ScriptedChatModel: a dict reply needs a bound tool (bind_tools or with_structured_output)"
            )
        return names[0]
