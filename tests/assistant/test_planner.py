"""The LLM planner with scripted chat models: tool selection, refusal of a hallucinated tool, fallbacks."""

from __future__ import annotations

import pytest
from fakes import ScriptedChatModel
from langchain_core.messages import SystemMessage

from skymarshal.assistant.aviation_plan import AviationPlan
from skymarshal.assistant.config import AssistantSettings
from skymarshal.assistant.graph import Assistant
from skymarshal.assistant.plan import PlanRefused, validate_plan


def _assistant(planner_replies, formatter_replies=("The answer.",)):
    llm = ScriptedChatModel(replies=[*planner_replies, *formatter_replies])
    return Assistant(settings=AssistantSettings(checkpointer="none"), llm=llm), llm


def test_llm_plan_selects_the_route_tool_and_its_filters_reach_the_tool():
    assistant, llm = _assistant(
        [
            {
                "selected_tool": "find_airports_near_route",
                "answer_style": "table",
                "arguments": {
                    "departure": "AUH",
                    "destination": "LHR",
                    "corridor_nm": 100,
                    "filters": {"aircraft_type": "B789"},
                },
                "reasoning": "Alternates along AUH-LHR for a 787.",
            }
        ]
    )
    reply = assistant.ask("Alternates along AUH-LHR for a 787 within 100 nm?")
    assert reply.plan["selected_tool"] == "find_airports_near_route"
    assert reply.ui_payload["kind"] == "route" and reply.ui_payload["departure"] == "AUH"
    assert reply.ui_payload["filters"]["required_runway_ft"] == 9186  # 2,800 m for the B789 in models.fleet
    assert all(a["distance_nm"] <= 100 for a in reply.ui_payload["airports"])
    assert "Plan (llm)" in reply.thinking
    assert llm.calls[0]["tools"] == ["AviationPlan"]
    system = llm.calls[0]["messages"][0]
    assert isinstance(system, SystemMessage) and "compare_rules_between_countries" in system.content


def test_llm_plan_selects_a_rules_comparison():
    assistant, _ = _assistant(
        [
            {
                "selected_tool": "compare_rules_between_countries",
                "answer_style": "comparison",
                "arguments": {"countries": ["GB", "EU"], "tags": ["delay"]},
            }
        ]
    )
    reply = assistant.ask("How does UK261 differ from EU261 on delays?")
    assert reply.ui_payload["kind"] == "rules"
    assert reply.ui_payload["tool_raw"]["countries"] == ["GB", "EU"]


def test_hallucinated_tool_is_refused_and_the_offline_planner_answers():
    assistant, _ = _assistant([{"selected_tool": "book_hotel_rooms", "arguments": {"city": "Frankfurt"}}])
    reply = assistant.ask("What are the curfew rules at Frankfurt?")
    assert reply.plan["selected_tool"] == "answer_rules_question"
    assert "UNKNOWN_TOOL" in reply.thinking and "book_hotel_rooms" in reply.thinking
    assert "Plan (fallback)" in reply.thinking


def test_bad_arguments_are_refused_with_the_field_named():
    with pytest.raises(PlanRefused) as refused:
        validate_plan(AviationPlan(selected_tool="find_airports_near_route", arguments={"departure": "AUH"}))
    assert refused.value.refusal.code == "BAD_ARGUMENTS"
    assert "destination" in str(refused.value)


def test_a_failing_planner_model_falls_back_without_crashing():
    assistant, _ = _assistant([RuntimeError("throttled")])
    reply = assistant.ask("hello there, anything new?")
    assert reply.plan["selected_tool"] == "search_airports"  # the last resort: a search
    assert "PLANNER_FAILED" not in reply.answer and "Planner failed: RuntimeError: throttled" in reply.thinking


def test_the_formatter_model_writes_the_answer_and_usage_is_reported():
    assistant, llm = _assistant(
        [{"selected_tool": "get_airport_details", "arguments": {"code": "LHR"}}], ["Heathrow: 12,802 ft runway."]
    )
    reply = assistant.ask("Tell me about Heathrow")
    assert reply.answer == "Heathrow: 12,802 ft runway."
    assert reply.usage.mode == "llm"
    assert "Tool data" in llm.calls[1]["messages"][1].content
