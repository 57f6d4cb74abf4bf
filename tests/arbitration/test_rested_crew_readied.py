"""Issue 46: a crew told to report later for a wait on a history estimate (CS FTL.1.205(d) delayed reporting) is
readied for the estimate's early end, as a called-out reserve is — so the flight can leave when the fog lifts before
the estimate — where the longer duty stays legal at the planned departure; a stated estimate has no early end.

Ordinary seed 11's day (`bench.day`): EY424's fog lifted at 19:25Z, 65 min before the median, and its crew, told to
report for the median, held 180 passengers until 20:30Z (+11,650 passenger-minutes against the baselines)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from reported import flight_of
from test_what_if_plans import considered

from skymarshal.arbitration.actions import RestCrew
from skymarshal.arbitration.arbitrator import arbitrate
from skymarshal.arbitration.plans.clearance_wait import ready_from
from skymarshal.data import queries as q
from skymarshal.intake.clearance import with_clearance
from skymarshal.intake.disruption_facts import resolve_flight_report
from skymarshal.workflow.steps.rounds import run_rounds

FOG = "Flight EY424 on January 20 AUH-MNL: held by dense fog at AUH (RVR below 200 m)."
NOW = datetime(2027, 1, 20, 14, 44, tzinfo=UTC)  # when the day's stream reports it, 2 h 41 min before departure


def _decide(handle, stated: bool):
    flight = flight_of(handle, FOG)
    facts, overlay = resolve_flight_report(FOG, flight, handle, NOW)
    facts = with_clearance(facts, FOG, handle, NOW, flight)
    if stated:  # the same estimate as the report's own: no spread to ready for
        assert facts.clears is not None
        facts = facts.model_copy(
            update={"clears": facts.clears.model_copy(update={"source": "stated", "earliest": None})}
        )
    collation = run_rounds(FOG, handle=handle, llm=None, disruption=facts, overlay=overlay, now=NOW)[1]
    decision = arbitrate(collation, FOG, handle=handle.with_overlay(overlay), llm=None, disruption=facts, now=NOW)
    return flight, facts, decision


def _rested(flight, decision):
    for s in considered(decision):
        rests = [a for a in s.actions if isinstance(a, RestCrew) and a.flight_id == flight.flight_id]
        if rests:
            yield s, rests[0]


def _ready(handle, flight, rest: RestCrew) -> datetime:
    """When the crew is ready to leave: each member's report plus their rostered sign-on lead."""
    seats = {r.crew_id: r for r in q.crew_assignments(handle, flight.flight_id)}
    return max(at + (flight.scheduled_departure - seats[c].duty_start) for c, at in rest.reports.items())


@pytest.fixture(scope="module")
def history(account):
    return _decide(account.handle(), stated=False)


def test_the_crew_waiting_for_the_estimate_is_ready_for_its_early_end(history, account):
    flight, facts, decision = history
    first = ready_from(facts.clears)
    assert facts.clears is not None and facts.clears.source == "history" and first is not None
    readied = 0
    for plan, rest in _rested(flight, decision):
        ready = _ready(account.handle(), flight, rest)
        assert plan.departure is not None and first <= ready <= plan.departure
        if ready < plan.departure:  # readied: said so, and legal for the longer duty at the planned departure
            readied += 1
            assert any(f"ready from {ready:%H:%MZ}" in n for n in plan.execution_notes), plan.execution_notes
            assert plan.scenario_id not in {v.scenario.scenario_id for v in decision.rejected}, plan.scenario_id
    assert readied, [p.scenario_id for p, _ in _rested(flight, decision)]


def test_a_stated_estimate_keeps_the_report_for_the_planned_departure(account):
    flight, _, decision = _decide(account.handle(), stated=True)
    plans = list(_rested(flight, decision))
    assert plans
    for plan, rest in plans:
        assert plan.departure is not None
        assert _ready(account.handle(), flight, rest) == plan.departure
        assert not any("ready from" in n for n in plan.execution_notes)
