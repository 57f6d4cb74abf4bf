"""A sick captain whose reserve reports later than the rest of the crew can wait: the rest are relieved too, at the
reserve's report, before any longer wait is considered (issue 46: the earliest legal departure for passengers)."""

from __future__ import annotations

from test_what_if_plans import _decide

from skymarshal.arbitration.actions import ReassignCrew

# Decided an hour before the 06:20Z departure: a reserve called out reports at 06:20Z, 75 min before a 07:35Z
# departure, while the other twelve of the long-haul crew can take 55 min before their FDP runs out.
SICK_CAPTAIN = "EY141/20JAN27 AUH-YYZ PIC UNWELL, STOOD DOWN. EST DLA 207MIN"


def test_the_whole_crew_is_relieved_at_the_reserves_report_when_the_rest_cannot_wait_for_it(account):
    flight, _, _, decision = _decide(account.handle(), SICK_CAPTAIN)
    refused = {v.scenario.scenario_id: v for v in decision.rejected}
    captain_only = refused.get("crew_swap:75")
    assert captain_only is not None and {r.code for r in captain_only.rejections} >= {"CREW_ILLEGAL"}
    best = decision.ranked[0].scenario
    assert best.scenario_id == "delay:75:crew", [r.scenario.scenario_id for r in decision.ranked]
    (crew,) = [a for a in best.actions if isinstance(a, ReassignCrew) and a.flight_id == flight.flight_id]
    assert len(crew.replacements) == 13  # the captain and the twelve whose FDP a 75-min delay breaks
    assert all(r.scenario.delay_minutes >= 75 for r in decision.ranked)  # nothing earlier is legal
