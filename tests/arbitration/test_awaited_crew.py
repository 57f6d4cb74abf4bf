"""Issue 46 items 1 and 4 end to end (emulated AWS): a captain who has not reported for duty away from base, with the
report's own estimate of the delay, gets the wait for them as a plan — the captain judged fit only for a departure
from the estimate on (the sign-on lead after it), their duty still counted from its rostered report, the plan at
risk with its re-decision point — and every plan that keeps them before the estimate is refused."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from reported import flight_of

from skymarshal.analysis.base import decision_time
from skymarshal.arbitration.arbitrator import arbitrate
from skymarshal.arbitration.bounds import CrewIllegalBound, check_bound
from skymarshal.arbitration.context import awaited_crew, with_crew_available
from skymarshal.arbitration.plans.clearance_wait import departs_after
from skymarshal.intake.clearance import with_clearance
from skymarshal.intake.disruption_facts import resolve_flight_report
from skymarshal.models.disruption import Clearance
from skymarshal.rules.standby import REPORT_BEFORE_DEPARTURE
from skymarshal.workflow.steps.rounds import run_rounds

REPORT = (
    "EY20 on January 21st will go late as the commander has not reported for duty. Expected delay about 100 minutes."
)


def _decide(handle, report):
    flight = flight_of(handle, report)
    disruption, overlay = resolve_flight_report(report, flight, handle, None)
    disruption = with_clearance(disruption, report, handle, decision_time(flight, None), flight)
    collation = run_rounds(report, handle=handle, llm=None, disruption=disruption, overlay=overlay)[1]
    decision = arbitrate(collation, report, handle=handle.with_overlay(overlay), llm=None, disruption=disruption)
    return flight, disruption, decision


@pytest.fixture(scope="module")
def decided(account):
    return _decide(account.handle(), REPORT)


def test_the_captain_is_awaited_from_the_stated_estimate(decided):
    flight, disruption, _ = decided
    assert disruption.clears is not None and disruption.clears.kind == "crew_available"
    assert disruption.clears.source == "stated"
    awaited = awaited_crew(disruption)
    sick = [str(f.value) for f in disruption.facts if f.name == "crew_unavailable" and f.source == "data"]
    assert sorted(awaited) == sorted(sick) and len(sick) == 1
    # "delay about 100 minutes" is a departure: the captain reports a sign-on lead before it, the flight leaves then
    assert disruption.clears.departs
    assert set(awaited.values()) == {disruption.clears.expected}
    assert disruption.clears.expected == flight.scheduled_departure + timedelta(minutes=100)


def test_only_the_reports_own_estimate_awaits_the_member(decided):
    """A history or policy estimate is how long a replacement usually takes, not this member's return."""
    _, disruption, _ = decided
    assert disruption.clears is not None
    for source in ("history", "policy"):
        other = disruption.clears.model_copy(update={"source": source, "cases": 12, "percentile": 80})
        assert awaited_crew(disruption.model_copy(update={"clears": other})) == {}


def test_a_crew_member_available_at_a_time_reports_then_and_leaves_a_sign_on_lead_later():
    at = datetime(2027, 1, 21, 15, 0, tzinfo=UTC)
    available = Clearance(kind="crew_available", expected=at, latest=at, source="policy", evidence="policy")
    assert departs_after(available, at) == at + REPORT_BEFORE_DEPARTURE
    assert departs_after(available.model_copy(update={"departs": True}), at) == at


def test_the_wait_for_the_captain_is_a_valid_plan_at_risk(decided):
    _, disruption, decision = decided
    valid = [r.scenario for r in decision.ranked]
    checks = {r.scenario.scenario_id: r.compliance for r in decision.ranked}
    (captain,) = awaited_crew(disruption)
    waits = [s for s in valid if s.waits is not None and captain not in s.crew_replacements]
    assert waits, [(v.scenario.scenario_id, [r.code for r in v.rejections]) for v in decision.rejected]
    for s in waits:
        availability = [c for c in checks[s.scenario_id] if c.constraint == "crew availability"]
        assert [c.status for c in availability] == ["at_risk"] and captain in availability[0].subject
        assert "look again" in availability[0].message


def test_no_plan_keeps_the_captain_before_the_estimate(decided):
    _, disruption, decision = decided
    (captain, at), *_ = awaited_crew(disruption).items()
    for r in decision.ranked:
        s = r.scenario
        keeps = s.operates and captain not in {*s.crew_replacements, *s.crew_rested, *s.crew_stood_down}
        assert not keeps or (s.departure is not None and s.departure >= at), s.scenario_id
    # the bound the crew agent's availability finding makes: a plan keeping the captain before the estimate is
    # refused whatever its delay, one from the estimate on passes it (the rules then judge the duty)
    wait = next(r.scenario for r in decision.ranked if r.scenario.waits is not None)
    bound = CrewIllegalBound(agent="crew_compliance", text="sick", crew_ids=(captain,), from_delay_minutes=0)
    fit_from = with_crew_available([bound, bound.model_copy(update={"unavailable": True})], {captain: at})
    assert [b.available_from for b in fit_from] == [None, at]  # only an availability finding is bounded in time
    early = wait.model_copy(update={"departure": at - timedelta(minutes=5), "delay_minutes": wait.delay_minutes - 5})
    assert check_bound(early, fit_from[1])[1] == "CREW_ILLEGAL"
    assert check_bound(wait, fit_from[1])[1] is None and check_bound(wait, fit_from[0])[1] == "CREW_ILLEGAL"
