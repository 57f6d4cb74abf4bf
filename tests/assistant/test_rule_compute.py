"""Rules questions the rules engine computes (assistant.rule_compute): the issue's question gets 750 min and
ORO.FTL.205(b)(1), as `skymarshal rules max-fdp` does; any phrasing of a start time and sectors gets the rules
engine's own figure; a question that leaves out what the computation needs, or an augmented crew, is not
computed (the rules corpus answers it in words)."""

from __future__ import annotations

from datetime import time

from hypothesis import given
from hypothesis import strategies as st

from skymarshal.assistant.offline_planner import plan_offline
from skymarshal.assistant.rule_compute import fdp_plan
from skymarshal.assistant.templates import TEMPLATES
from skymarshal.assistant.tools import run_tool
from skymarshal.rules import ftl_easa, ftl_faa

ISSUE = "what is the max FDP for a 2-pilot crew starting at 06:00 with 3 sectors under EASA?"


def test_the_issue_question_is_answered_by_the_rules_engine_with_its_clause(offline_assistant):
    reply = offline_assistant.ask(ISSUE)
    assert "Maximum daily FDP: 12:30 (750 min)" in reply.answer and "ORO.FTL.205(b)(1)" in reply.answer
    assert "airports match" not in reply.answer
    raw = reply.ui_payload["tool_raw"]
    assert (raw["max_fdp_minutes"], raw["clause"], reply.ui_payload["kind"]) == (750, "ORO.FTL.205(b)(1)", "rules")


PHRASES = [
    "maximum FDP for a crew reporting at {hh}:{mm} with {n} sectors",
    "max daily FDP, start {hh}{mm}, {n} legs",
    "What's the FDP limit if we report at {hh}.{mm} and fly {n} sectors?",
]


@given(st.integers(0, 23), st.integers(0, 59), st.integers(1, 10), st.sampled_from(PHRASES), st.booleans())
def test_any_phrasing_gets_the_rules_engines_own_figure(hour, minute, sectors, phrase, faa):
    text = phrase.format(hh=f"{hour:02d}", mm=f"{minute:02d}", n=sectors) + (" under FAA part 117" if faa else "")
    plan = plan_offline(text)
    assert plan.selected_tool == "compute_max_fdp", (text, plan)
    result = run_tool(plan.selected_tool, plan.arguments, None)  # type: ignore[arg-type]
    start = time(hour, minute)
    expected = ftl_faa.max_fdp_minutes(start, sectors) if faa else ftl_easa.max_fdp_minutes(start, sectors)
    assert (result["max_fdp_minutes"], result["clause"]) == (expected.minutes, expected.clause)
    assert f"({expected.minutes} min)" in TEMPLATES[result["_tool_type"]](result)


def test_what_the_computation_needs_missing_or_an_augmented_crew_is_not_computed():
    assert fdp_plan("what is the max FDP under EASA?") is None  # no start, no sectors
    assert fdp_plan("max FDP starting at 06:00 under EASA") is None  # no sectors
    assert fdp_plan("max FDP for a 4-pilot crew starting at 06:00 with 2 sectors") is None  # augmented
    assert fdp_plan("Is AUH in curfew at 23:30 with 2 sectors?") is None  # not an FDP question
