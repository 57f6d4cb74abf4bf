"""The deterministic planner on twenty phrased questions, and its entity readers."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from skymarshal.assistant.offline_planner import airports_named, distance_nm, filters_in, plan_offline
from skymarshal.assistant.plan import validate_plan

NOW = datetime(2027, 1, 20, 12, 0, tzinfo=UTC)

QUESTIONS = [
    (
        "Which airports within 150 nm of the AUH–LHR route can take a 787 at night?",
        "find_airports_near_route",
        {"departure": "AUH", "destination": "LHR", "corridor_nm": 150.0},
    ),
    (
        "airports near the route from AUH to LHR with a runway long enough for a 787",
        "find_airports_near_route",
        {"departure": "AUH", "destination": "LHR"},
    ),
    (
        "en-route alternates between Abu Dhabi and Frankfurt for an A350",
        "find_airports_near_route",
        {"departure": "AUH", "destination": "FRA"},
    ),
    (
        "Alternates along JFK to AUH within 200 km",
        "find_airports_near_route",
        {"departure": "JFK", "destination": "AUH"},
    ),
    ("What are the curfew rules at Frankfurt?", "answer_rules_question", {"country": "DE"}),
    ("What compensation do UK passengers get for a 5 hour delay?", "answer_rules_question", {"country": "GB"}),
    ("What are the crew duty limits in the United States?", "answer_rules_question", {"country": "US"}),
    ("Are there night flight rules at Sydney?", "answer_rules_question", {"country": "AU"}),
    (
        "compare passenger compensation rules between the UK and France",
        "compare_rules_between_countries",
        {"countries": ["GB", "FR"]},
    ),
    (
        "How does UK261 differ from EU261 on long-haul delays?",
        "compare_rules_between_countries",
        {"countries": ["GB", "EU"]},
    ),
    ("Germany versus the Netherlands on night flights", "compare_rules_between_countries", {"countries": ["DE", "NL"]}),
    ("Is Sydney in curfew at 23:30?", "get_notification_for_airport", {"code": "SYD"}),
    ("Any NOTAMs at LHR right now?", "get_notification_for_airport", {"code": "LHR"}),
    ("Can we land at FRA at 04:30Z?", "get_notification_for_airport", {"code": "FRA"}),
    ("airports near Heathrow within 50 km", "find_airports_near_location", {"location": "LHR"}),
    ("diversion airports around DOH for a 777", "find_airports_near_location", {"location": "DOH"}),
    ("Tell me about EGLL", "get_airport_details", {"code": "LHR"}),
    ("What is the longest runway at Manchester?", "get_airport_details", {"code": "MAN"}),
    ("list the care rules in the UK", "browse_rules", {"country": "GB"}),
    ("Tell me about XQZ9 please", "search_airports", {"query": "XQZ9"}),
]


def test_twenty_questions_are_listed():
    assert len(QUESTIONS) == 20


@pytest.mark.parametrize(("question", "tool", "expected"), QUESTIONS, ids=[q for q, _, _ in QUESTIONS])
def test_offline_planner_picks_the_expected_tool(question, tool, expected):
    plan = validate_plan(plan_offline(question, now=NOW))  # every offline plan passes the manifest
    assert plan.selected_tool == tool
    for key, value in expected.items():
        assert plan.arguments[key] == value


def test_readers():
    assert airports_named("from Abu Dhabi to London") == ["AUH", "LHR"]
    assert distance_nm("within 185.2 km") == 100.0
    assert filters_in("a 787 at night with a runway of 3000 m") == {
        "aircraft_type": "B789",
        "min_runway_ft": 9843,
        "no_curfew": True,
    }


def test_local_clock_times_are_read_in_the_airports_zone():
    plan = plan_offline("Is Sydney in curfew at 23:30?", now=NOW)
    assert plan.arguments["at"] == "2027-01-20T12:30:00+00:00"  # 23:30 AEDT (UTC+11)


def test_a_follow_up_reuses_the_previous_plan_with_the_new_subject():
    first = plan_offline("What are the curfew rules at Frankfurt?", now=NOW)
    follow = plan_offline("and Australia?", previous=first.model_dump(), now=NOW)
    assert follow.selected_tool == "answer_rules_question"
    assert follow.arguments == {"country": "AU", "question": "What are the curfew rules at Frankfurt?"}


@pytest.mark.parametrize(("question", "tool", "expected"), QUESTIONS, ids=[q for q, _, _ in QUESTIONS])
def test_every_question_is_answered_end_to_end_offline(offline_assistant, question, tool, expected):
    reply = offline_assistant.ask(question)
    assert reply.plan["selected_tool"] == tool
    assert reply.answer.strip() and reply.ui_payload["tool"] == tool
    assert reply.ui_payload["tool_raw"] or reply.answer.startswith("I could not answer that")


def test_follow_ups_change_a_time_or_a_filter():
    status = plan_offline("Is Sydney in curfew at 21:00?", now=NOW)
    later = plan_offline("and at 23:30?", previous=status.model_dump(), now=NOW)
    assert later.selected_tool == "get_notification_for_airport" and later.arguments["code"] == "SYD"
    assert later.arguments["at"] == "2027-01-20T12:30:00+00:00"  # 23:30 AEDT
    route = plan_offline("alternates along the route from AUH to LHR for a 787", now=NOW)
    bigger = plan_offline("and for an A350?", previous=route.model_dump(), now=NOW)
    assert bigger.arguments["filters"] == {"scheduled_service": True, "aircraft_type": "A35K"}
    assert plan_offline("and Narnia?", previous=route.model_dump(), now=NOW).selected_tool == "search_airports"
