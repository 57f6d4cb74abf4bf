"""An AOG at the hub with no spare of the type (the seeded airline's EY33, an A350-1000, "about six hours"): another
A350-1000 on the ground at AUH between its own flights takes EY33 at once, and the grounded tail flies that
aircraft's next flights after its release (a swap chain, plans/exchange.py) — where before the only plans were to
wait 12 hours for the crew's rest or to cancel. Both rotations are whole, every flight the grounded tail takes leaves
after its release, the validated plan is the best for the day, and executed it writes both tails' flights as
planned."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from execution_helpers import copy_rows, run
from reported import decided

from skymarshal.arbitration.actions import DelayFlight, SwapAircraft
from skymarshal.data import queries as q
from skymarshal.data.access import DataHandle
from skymarshal.rules.rotation import rotation_breaks

AOG = "EY33 on the 21st January is AOG at Abu Dhabi with a brake unit change, engineering expect about six hours"


NOW = datetime(2027, 1, 21, 9, 55, tzinfo=UTC)  # an hour before EY33's departure


@pytest.fixture(scope="module")
def aog(account):
    """Decided as the workflow does: Validate's facts with the clearance, both rounds, the arbitrator."""
    return decided(account.handle(), AOG, NOW)


def exchanges(decision):
    considered = [r.scenario for r in decision.ranked] + [v.scenario for v in decision.rejected]
    return [s for s in considered if s.scenario_id.endswith(":exchange")]


def rank_1(decision):
    """The decision's rank 1, which must be an exchange."""
    plan = decision.ranked[0].scenario
    assert plan.scenario_id.endswith(":exchange"), [(r.rank, r.scenario.scenario_id) for r in decision.ranked]
    return plan


@pytest.mark.parametrize("which", [0, -1])  # the first and the last exchange considered
def test_the_grounded_tail_takes_the_other_aircrafts_flights_after_its_release(aog, account, which):
    flight, _, _, decision = aog
    plan = exchanges(decision)[which]
    assert plan.registration != flight.aircraft_registration and plan.departure is not None
    swaps = [a for a in plan.actions if isinstance(a, SwapAircraft)]
    given = [a.flight_id for a in swaps if a.to_registration == flight.aircraft_registration]
    assert given and all(
        a.from_registration == plan.registration for a in swaps if a.to_registration == flight.aircraft_registration
    )
    assert decision.estimate is not None and decision.estimate.kind == "aircraft_release"
    release = decision.estimate.expected  # the release is this estimate or maintenance's, if later
    times = {a.flight_id: a.new_departure for a in plan.actions if isinstance(a, DelayFlight)}
    handle = account.handle()
    first = q.get_flight(handle, given[0])
    assert first is not None and first.origin == flight.origin  # where the grounded tail stands
    for flight_id in given:
        other = q.get_flight(handle, flight_id)
        assert other is not None and times.get(flight_id, other.departure) >= release  # released first, then it flies
    assert plan.departure < release  # the passengers of EY33 do not wait for the repair


def test_both_rotations_are_whole_and_the_exchange_is_ranked_first(aog, account):
    flight, _, _, decision = aog
    plan = rank_1(decision)
    # the tails' sequences as the plan leaves them, checked by the rule `skymarshal data check` runs after execution
    handle = account.handle()
    for tail in (flight.aircraft_registration, plan.registration):
        rows = q.rotation(handle, tail, flight.scheduled_departure, flight.scheduled_departure + timedelta(days=3))
        sequence = {x.flight_id: x for x in rows}
        for x in (q.get_flight(handle, a.flight_id) for a in plan.actions if isinstance(a, SwapAircraft)):
            assert x is not None
            sequence.setdefault(x.flight_id, x)
        after = planned_sequence(plan, sequence, tail)
        assert [b for b in rotation_breaks(tail, after) if b.continuity] == []


def planned_sequence(plan, flights, tail):
    out = []
    moved = {a.flight_id: a.to_registration for a in plan.actions if isinstance(a, SwapAircraft)}
    times = {a.flight_id: a for a in plan.actions if isinstance(a, DelayFlight)}
    for x in flights.values():
        if moved.get(x.flight_id, x.aircraft_registration) != tail:
            continue
        a = times.get(x.flight_id)
        out.append(
            x.model_copy(update={"estimated_departure": a.new_departure, "estimated_arrival": a.new_arrival})
            if a
            else x
        )
    return out


def test_executed_each_flight_flies_on_the_tail_and_at_the_time_the_plan_gives(aog, account, blank_account):
    _, _, _, decision = aog
    plan = rank_1(decision)
    copy_rows(account, blank_account, plan)  # both tails' days and every flight that places them
    report = run(blank_account, plan)
    assert report.status == "executed", report.error
    written = DataHandle(naming=blank_account.naming, resource=blank_account.resource())
    times = {a.flight_id: a.new_departure for a in plan.actions if isinstance(a, DelayFlight)}
    for a in plan.actions:
        if isinstance(a, SwapAircraft):
            row = q.get_flight(written, a.flight_id)
            assert row is not None and row.aircraft_registration == a.to_registration
            assert row.departure == times.get(a.flight_id, row.scheduled_departure)
