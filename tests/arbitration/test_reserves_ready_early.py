"""Reserves called out for a hold whose end the report does not state are readied for how soon the cause may clear
(the history's low percentile), not for the estimate: when the fog lifts early the flight can go then, decided again
at the clearance, instead of waiting on its new crew's report (issue 46)."""

from __future__ import annotations

from datetime import timedelta

from reported import flight_of
from test_what_if_plans import considered

from skymarshal.analysis.base import decision_time
from skymarshal.arbitration.actions import ReassignCrew
from skymarshal.arbitration.arbitrator import arbitrate
from skymarshal.intake.clearance import with_clearance
from skymarshal.intake.disruption_facts import resolve_flight_report
from skymarshal.rules.standby import CALL_OUT, REPORT_BEFORE_DEPARTURE
from skymarshal.workflow.steps.rounds import run_rounds

# A hub long-haul held by fog with no end stated: the history of AUH's weather waits estimates it, and the rostered
# crew cannot wait that long (their FDP), so reserves are called
FOG_HOLD = "Flight EY424 on January 20 AUH-MNL: held by dense fog at AUH (RVR below 200 m)."


def test_reserves_for_a_hold_of_unstated_end_are_ready_when_the_cause_may_first_clear(account):
    handle = account.handle()
    flight = flight_of(handle, FOG_HOLD)
    facts, overlay = resolve_flight_report(FOG_HOLD, flight, handle, None)
    facts = with_clearance(facts, FOG_HOLD, handle, decision_time(flight, None), flight)  # as Validate does
    collation = run_rounds(FOG_HOLD, handle=handle, llm=None, disruption=facts, overlay=overlay)[1]
    decision = arbitrate(collation, FOG_HOLD, handle=handle.with_overlay(overlay), llm=None, disruption=facts)
    clears = facts.clears
    assert clears is not None and clears.source == "history" and clears.earliest is not None
    assert clears.earliest < clears.expected
    crewed = [
        (s, a)
        for s in considered(decision)
        for a in s.actions
        if s.kind == "delay" and isinstance(a, ReassignCrew) and a.flight_id == flight.flight_id
    ]
    assert crewed, [s.scenario_id for s in considered(decision)]
    called = decision_time(flight, None) + CALL_OUT
    for s, crew in crewed:
        ready = crew.report_at + REPORT_BEFORE_DEPARTURE
        assert s.departure is not None and ready <= s.departure
        # readied for the earliest clearance, or as soon as a call-out allows when that is later
        assert ready == max(clears.earliest, called + REPORT_BEFORE_DEPARTURE), (s.scenario_id, crew.report_at)
    assert any(crew.report_at + REPORT_BEFORE_DEPARTURE < s.departure - timedelta(minutes=30) for s, crew in crewed)
