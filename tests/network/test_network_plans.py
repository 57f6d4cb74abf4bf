"""The AUH fog closure (14:00-17:00 UTC, 22 January) on the seeded airline: at least three valid network plans,
the hold plan and the baseline, no flight moving at AUH inside the closure, every operated flight legally crewed, and the bad
inputs refused with one typed line each."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from skymarshal.intake.airport_facts import network_report
from skymarshal.network.crew import CrewData, next_duty, verdicts
from skymarshal.network.objectives import NetworkPlanConfig
from skymarshal.network.plan_roster import plan_times
from skymarshal.network.restriction import NetworkInputRefused
from skymarshal.network.scope import network_scope
from skymarshal.network.totals import PlanData
from skymarshal.network.validation import network_plans

FOG = "Abu Dhabi airport is closed by fog from 14:00 to 17:00 UTC on January 22nd"
NOW = datetime(2026, 11, 24, 18, tzinfo=UTC)


@pytest.fixture(scope="module")
def fog(account):
    handle = account.handle()
    disruption, overlay = network_report(FOG, handle, NOW)
    seen = handle.with_overlay(overlay)
    return seen, disruption, network_plans(seen, disruption, config=NetworkPlanConfig(seconds_per_solve=1.0))


def test_the_fog_closure_gives_three_valid_plans_and_the_baseline(fog):
    _, _, decision = fog
    valid = {v.plan.objective for v in decision.valid}
    assert {"min_delay", "min_cancellations", "protect_connections", "hold"} <= valid and "baseline" in valid
    assert all(not v.rejections for v in decision.valid)
    assert decision.flights_affected == 18


def test_no_valid_plan_moves_a_flight_at_auh_inside_the_closure(fog):
    _, disruption, decision = fog
    window = disruption.window
    for v in decision.valid:
        for a in v.plan.actions:
            if a.operates:
                assert not (a.origin == "AUH" and window.start <= a.new_departure < window.end), a
                assert not (a.destination == "AUH" and window.start <= a.new_arrival < window.end), a
    baseline = next(v.plan for v in decision.plans if v.plan.objective == "baseline")
    assert all(not a.operates for a in baseline.actions if a.flight_id in disruption.scope.flights)


def test_every_operated_flight_is_legally_crewed(fog):
    handle, _, decision = fog
    for v in decision.valid:
        plan = v.plan
        crew = CrewData(PlanData(handle, {}, {}), decision.decision_at)
        replaced = {(c.replaced, a.flight_id) for a in plan.actions for c in a.crew_changes}
        operated = [a for a in plan.actions if a.operates and a.action != "ferry"]
        assert all(crew.assignments(a.flight_id) for a in operated)
        times, types = plan_times(plan.actions), {a.flight_id: a.aircraft_type for a in plan.actions}
        for verdict in verdicts(crew, plan.actions):
            if verdict.sectors and (verdict.crew_id, verdict.sectors[0]) not in replaced:
                if verdict.short_of_rest_only:  # flies it; a reserve the plan calls takes the next duty
                    following = next_duty(crew, verdict, times, types)
                    assert following is not None and (verdict.crew_id, following.sectors[0]) in replaced
                else:
                    assert verdict.legal, verdict.reason()
        reserves = [c.reserve for a in plan.actions for c in a.crew_changes]
        assert len(reserves) == len(set(reserves))


@pytest.mark.parametrize(
    ("report", "code"),
    [
        (
            "Runway works at Abu Dhabi airport: 60 movements per hour from 14:00 to 16:00 UTC on January 22nd",
            "CAPACITY_ABOVE_NORMAL",
        ),
        ("Abu Dhabi airport is closed by fog from 20:00 to 07:00 UTC on January 23rd", "WINDOW_BEYOND_DATA"),
    ],
)
def test_bad_input_is_refused_in_one_typed_line(handle, report, code):
    disruption, overlay = network_report(report, handle, NOW)
    with pytest.raises(NetworkInputRefused) as caught:
        network_scope(handle.with_overlay(overlay), disruption)
    assert caught.value.reason.code == code and "\n" not in str(caught.value)


def test_too_many_flights_proposes_a_narrower_window(handle):
    disruption, overlay = network_report(FOG, handle, NOW)
    with pytest.raises(NetworkInputRefused, match=r"narrower window, e\.g\. 14:00 to") as caught:
        network_scope(handle.with_overlay(overlay), disruption, max_flights=10)
    assert caught.value.reason.code == "TOO_MANY_FLIGHTS"


def test_an_exclusion_that_leaves_a_flight_in_the_closure_is_refused_and_changes_nothing(fog):
    from skymarshal.network.exclusions import exclude_flights

    handle, disruption, decision = fog
    window = disruption.window
    top = decision.valid[0].plan
    closed = next(a for a in top.actions if a.origin == "AUH" and window.start <= a.scheduled_departure < window.end)
    after = exclude_flights(handle, disruption, decision, {closed.flight_id: "crew already boarded"}, now=NOW)
    assert after.plans == decision.plans and after.excluded == {}
    assert after.exclusion_refused and closed.flight_id in after.exclusion_refused
    assert "CLOSED_AIRPORT" in after.exclusion_refused
    unknown = exclude_flights(handle, disruption, decision, {"EY0000-20270122": "not ours"}, now=NOW)
    assert unknown.plans == decision.plans and "no plan touches EY0000-20270122" in (unknown.exclusion_refused or "")


def test_an_excluded_flight_is_left_as_scheduled_and_every_plan_validated_again(fog):
    """Leaving an inheriting flight as scheduled: its row reverts in every plan; each plan is validated again and
    is valid only if the rules find nothing (its tail may now be late for it: ROTATION_BROKEN)."""
    from skymarshal.network.exclusions import exclude_flights

    handle, disruption, decision = fog
    top = decision.valid[0].plan
    moved = [a for a in top.actions if a.action == "retime" and a.flight_id not in disruption.scope.flights]
    if not moved:
        pytest.skip("the recommended plan retimes no inheriting flight")
    target = moved[-1]
    after = exclude_flights(handle, disruption, decision, {target.flight_id: "slot kept"}, now=NOW)
    if after.exclusion_refused:
        assert target.flight_id in after.exclusion_refused or "ROTATION_BROKEN" in after.exclusion_refused
        return
    assert after.excluded == {target.flight_id: "slot kept"}
    for v in after.plans:
        row = next((a for a in v.plan.actions if a.flight_id == target.flight_id), None)
        if row is not None:
            assert row.action == "operate" and row.new_departure == row.scheduled_departure
            assert "excluded by the duty manager" in row.reason
    assert any(v.valid for v in after.plans)
