"""Suggested follow-ups (assistant.nodes.suggest_queries) are shown only when the planner reads them as a question a
tool answers: a subject that is no airport ('EASA' searched as an airport) gets no "Is EASA in curfew at 23:30?";
every suggestion shown plans to a real tool whose airport exists."""

from __future__ import annotations

import pytest

from skymarshal.assistant.nodes import answerable, suggest_queries
from skymarshal.assistant.offline_planner import plan_offline

QUESTIONS = [
    "airports near the route from AUH to LHR with a runway long enough for a 787",
    "Tell me about DXB",
    "Is FRA in curfew at 23:30?",
    "compare passenger compensation rules between the UK and France",
    "what is the max FDP for a 2-pilot crew starting at 06:00 with 3 sectors under EASA?",
    "What are the delay compensation rules in the UK?",
    "what is the max FDP under EASA?",
    "EASA",
]


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_suggestion_shown_is_answerable(question):
    plan = plan_offline(question).model_dump()
    for suggestion in suggest_queries(plan):
        assert answerable(suggestion), suggestion
        assert plan_offline(suggestion).selected_tool != "search_airports", suggestion


def test_a_subject_that_is_no_airport_gets_no_airport_suggestions():
    assert suggest_queries({"selected_tool": "search_airports", "arguments": {"query": "EASA"}}) == []
    assert not answerable("Is EASA in curfew at 23:30?")
    assert "Is DXB in curfew at 23:30?" in suggest_queries(
        {"selected_tool": "get_airport_details", "arguments": {"code": "DXB"}}
    )


def test_rules_suggestions_name_the_jurisdiction_so_the_planner_reads_them():
    rules = suggest_queries({"selected_tool": "answer_rules_question", "arguments": {"country": "GB"}})
    assert len(rules) == 3 and all("United Kingdom" in q for q in rules)
    compared = suggest_queries(
        {"selected_tool": "compare_rules_between_countries", "arguments": {"countries": ["GB", "FR"]}}
    )
    assert compared and all(plan_offline(q).selected_tool == "compare_rules_between_countries" for q in compared)
