"""Formatter strategy choice, template answers, LLM formatting and the ui_payload contract."""

from __future__ import annotations

import pytest
from fakes import ScriptedChatModel
from hypothesis import given, settings
from hypothesis import strategies as st

from skymarshal.assistant.config import AssistantSettings
from skymarshal.assistant.graph import Assistant
from skymarshal.assistant.nodes import formatter_strategy
from skymarshal.assistant.tools import MANIFEST, run_tool
from skymarshal.assistant.ui_payload import build_ui_payload

PAYLOAD_KEYS = {
    "version",
    "kind",
    "tool",
    "departure",
    "destination",
    "icao",
    "region",
    "topic",
    "filters",
    "visualization",
    "airports",
    "suggested_queries",
    "tool_raw",
}
AIRPORT_KEYS = {
    "iata",
    "icao",
    "name",
    "city",
    "country",
    "lat",
    "lon",
    "longest_runway_ft",
    "kind",
    "distance_nm",
    "along_route_nm",
    "curfews",
}


def test_comparisons_get_the_comparison_strategy_and_everything_else_the_general_one():
    assert formatter_strategy("rules_comparison") == "comparison_formatter"
    for spec in MANIFEST.values():
        if spec.tool_type != "rules_comparison":
            assert formatter_strategy(spec.tool_type) == "formatter"
    assert formatter_strategy(None) == "formatter"


def test_the_comparison_prompt_is_used_for_a_comparison():
    llm = ScriptedChatModel(
        replies=[
            {
                "selected_tool": "compare_rules_between_countries",
                "arguments": {"countries": ["GB", "FR"]},
                "answer_style": "comparison",
            },
            "UK pays GBP 520, France EUR 600.",
        ]
    )
    reply = Assistant(settings=AssistantSettings(checkpointer="none"), llm=llm).ask("UK vs France compensation")
    assert reply.answer == "UK pays GBP 520, France EUR 600."
    assert "comparing rules between jurisdictions" in llm.calls[1]["messages"][0].content
    assert "comparison_formatter strategy (llm)" in reply.thinking


def test_a_failing_formatter_model_falls_back_to_the_template():
    llm = ScriptedChatModel(
        replies=[
            {"selected_tool": "get_airport_details", "arguments": {"code": "SYD"}},
            TimeoutError("model timed out"),
        ]
    )
    reply = Assistant(settings=AssistantSettings(checkpointer="none"), llm=llm).ask("Tell me about SYD")
    assert reply.answer.startswith("**SYD / YSSY")
    assert "template after LLM failure (TimeoutError)" in reply.thinking


def test_offline_answers_for_the_two_acceptance_questions(offline_assistant):
    route = offline_assistant.ask("airports near the route from AUH to LHR with a runway long enough for a 787")
    assert "within 150 nm of the AUH–LHR great-circle route" in route.answer
    assert "| KWI Kuwait" in route.answer and "| MUC Munich" in route.answer
    assert route.ui_payload["kind"] == "route" and len(route.ui_payload["airports"]) > 20
    rules = offline_assistant.ask("compare passenger compensation rules between the UK and France")
    assert "GBP 520" in rules.answer and "EUR 600" in rules.answer and "### compensation — differs" in rules.answer
    assert rules.ui_payload["kind"] == "rules" and rules.ui_payload["region"] == "GB, FR"


def test_a_tool_error_is_explained_not_raised():
    llm = ScriptedChatModel(replies=[{"selected_tool": "get_airport_details", "arguments": {"code": "ZZZ"}}])
    reply = Assistant(settings=AssistantSettings(checkpointer="none"), llm=llm).ask("Tell me about ZZZ")
    assert reply.answer.startswith("I could not answer that: unknown airport 'ZZZ'")
    assert len(llm.calls) == 1  # the formatter model is not asked to explain an error
    assert reply.ui_payload["airports"] == [] and set(reply.ui_payload) == PAYLOAD_KEYS


SAMPLES = [
    ("find_airports_near_route", {"departure": "AUH", "destination": "LHR"}, "route"),
    ("find_airports_near_location", {"location": "FRA", "radius_nm": 80}, "airport"),
    ("search_airports", {"query": "Sydney"}, "airport"),
    ("get_airport_details", {"code": "AUH"}, "airport"),
    ("get_notification_for_airport", {"code": "LHR", "at": "2027-01-20T23:45:00Z"}, "airport"),
    ("answer_rules_question", {"country": "GB", "question": "delay compensation"}, "rules"),
    ("browse_rules", {"country": "EU", "limit": 3}, "rules"),
    ("compare_rules_between_countries", {"countries": ["GB", "EU"], "question": "delays"}, "rules"),
]


@pytest.mark.parametrize(("tool", "arguments", "kind"), SAMPLES, ids=[s[0] for s in SAMPLES])
def test_ui_payload_contract(context, tool, arguments, kind):
    result = run_tool(tool, arguments, context)
    payload = build_ui_payload({"selected_tool": tool, "arguments": arguments}, result, ["next?"])
    assert set(payload) == PAYLOAD_KEYS and payload["version"] == 1
    assert payload["kind"] == kind and payload["tool"] == tool
    assert payload["tool_raw"] == result and payload["suggested_queries"] == ["next?"]
    assert isinstance(payload["filters"], dict) and "type" in payload["visualization"]
    assert all(set(a) == AIRPORT_KEYS for a in payload["airports"])
    if kind == "route":
        assert (payload["departure"], payload["destination"]) == ("AUH", "LHR")
        assert payload["visualization"]["type"] == "route_map" and payload["filters"]["required_runway_ft"] is None
    if tool == "get_airport_details":
        assert payload["icao"] == "OMAA" and payload["region"] == "AE"
    if kind == "rules":
        assert payload["topic"] and payload["departure"] is None and payload["airports"] == []


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(sorted(MANIFEST) + ["made_up_tool", ""]),
    st.dictionaries(
        st.sampled_from(["airports", "airport", "departure", "countries", "topics", "question"]), st.none(), max_size=3
    ),
)
def test_ui_payload_keys_never_change_whatever_the_plan_and_result(tool, junk):
    result = {k: v for k, v in junk.items() if k in ("question",)}
    payload = build_ui_payload({"selected_tool": tool}, result)
    assert set(payload) == PAYLOAD_KEYS and payload["kind"] in ("route", "airport", "rules")


def test_uk261_against_eu261_on_long_haul_delays(offline_assistant):
    reply = offline_assistant.ask("How does UK261 differ from EU261 on long-haul delays?")
    assert [t["tag"] for t in reply.ui_payload["tool_raw"]["topics"]] == ["delay", "long_haul"]
    assert "GBP 260" in reply.answer and "EUR 300" in reply.answer  # the 3-4 hour long-haul band on both sides
    quoted = [line for line in reply.answer.splitlines() if line.startswith("- **")]
    assert len(quoted) == len(set(quoted))  # an entry carrying both tags is quoted once
