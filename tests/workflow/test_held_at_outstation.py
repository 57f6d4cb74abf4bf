"""A flight held at an outstation longer than its crew's duty allows (the seeded airline's EY362 at Islamabad, an
unattended bag stopping screening, "190 minutes", its crew out of FDP at 185): before, every operating plan was
refused and rank 1 cancelled EY362 with the 12 later flights of its rotation through 23 January. Now the crew rests
at the outstation and flies EY362 the same day (ORO.FTL.235), another A321 at the hub flies the tail's next
out-and-back as scheduled (plans/hand_over.py), and the rested cabin crew's evening duty — which they can no longer
rest for and no reserve can take — is cancelled with its passengers re-accommodated (crew/next_duty_cancel.py),
where re-timing it would run short of rest into the next day's duties. Ranked first because the day it leaves
costs fewer passenger-minutes than the rotation's cancellation; executed, every flight is where the plan put it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from execution_helpers import copy_rows, run
from reported import decided

from skymarshal.arbitration.actions import CancelFlight, DelayFlight, RestCrew, SwapAircraft
from skymarshal.data import queries as q
from skymarshal.data.access import DataHandle
from skymarshal.rules.rotation import rotation_breaks

HELD = "EY362 on 20 January is held at Islamabad: an unattended bag in the terminal has stopped screening, expect 190 minutes"
NOW = datetime(2027, 1, 20, 0, 39, tzinfo=UTC)


@pytest.fixture(scope="module")
def held(account):
    """Decided as the workflow does: Validate's facts with the clearance, both rounds, the arbitrator."""
    flight, _, _, decision = decided(account.handle(), HELD, NOW)
    return flight, decision


def test_the_rested_crew_flies_it_and_the_rotation_is_handed_over_not_cancelled(held):
    flight, decision = held
    plan = decision.ranked[0].scenario
    assert plan.operates and plan.crew_rested, [r.scenario.scenario_id for r in decision.ranked]
    rest = next(a for a in plan.actions if isinstance(a, RestCrew) and a.flight_id == flight.flight_id)
    assert min(rest.reports.values()) >= NOW + timedelta(hours=10)  # the minimum rest away from base
    handed = [a for a in plan.actions if isinstance(a, SwapAircraft)]
    assert handed and all(a.from_registration == flight.aircraft_registration for a in handed)
    later = [a.flight_id for a in plan.actions if isinstance(a, DelayFlight) and a.flight_id != flight.flight_id]
    assert not {a.flight_id for a in handed} & set(later)  # the handed flights leave as scheduled
    cancellation = next(r.scenario for r in decision.ranked if r.scenario.kind == "cancel")
    assert plan.passenger_minutes is not None and cancellation.passenger_minutes is not None
    assert plan.passenger_minutes < cancellation.passenger_minutes / 2


def test_only_the_duty_its_crew_cannot_rest_for_is_cancelled_and_every_tail_still_flies(held, account):
    flight, decision = held
    plan = decision.ranked[0].scenario
    handle = account.handle()
    cancelled = [a.flight_id for a in plan.actions if isinstance(a, CancelFlight)]
    assert cancelled and flight.flight_id not in cancelled
    rest = next(a for a in plan.actions if isinstance(a, RestCrew) and a.flight_id == flight.flight_id)
    crews = {c.crew_id for fid in cancelled for c in q.crew_assignments(handle, fid)}
    assert crews & set(rest.reports)  # a rested member's next duty, no one else's
    assert "no legal crew" in " ".join(plan.execution_notes)
    for tail in {x.aircraft_registration for x in (q.get_flight(handle, fid) for fid in cancelled) if x}:
        after = [
            x
            for x in q.rotation(handle, tail, NOW, NOW + timedelta(days=3))
            if x.flight_id not in cancelled and x.status != "CANCELLED"
        ]
        assert [b for b in rotation_breaks(tail, after) if b.continuity] == [], tail


def test_executed_the_cancelled_duty_and_the_handed_flights_are_written_as_planned(held, account, blank_account):
    _, decision = held
    plan = decision.ranked[0].scenario
    copy_rows(account, blank_account, plan)
    report = run(blank_account, plan)
    assert report.status == "executed", report.error
    written = DataHandle(naming=blank_account.naming, resource=blank_account.resource())
    for a in plan.actions:
        row = q.get_flight(written, a.flight_id)
        assert row is not None
        if isinstance(a, CancelFlight):
            assert row.status == "CANCELLED"
        elif isinstance(a, SwapAircraft):
            assert row.aircraft_registration == a.to_registration
