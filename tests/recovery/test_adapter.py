"""The adapter on the synthetic airline, and the network agent proposing the optimizer's plan."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest

from skymarshal.data import queries as q
from skymarshal.data import schema as s
from skymarshal.models.fleet import compatible_types
from skymarshal.network.optimizer_proposal import analyse_network_with_optimizer, tails_touched
from skymarshal.recovery.adapter import build_snapshot, planned_changes, to_instance
from skymarshal.recovery.checker import check
from skymarshal.recovery.solver import solve

NOW = datetime(2027, 1, 19, 12, 0, tzinfo=UTC)


def _ey123(airline):
    situation = next(x for x in airline.situations if x.key == "mechanical")
    return next(
        f
        for f in airline.tables[s.FLIGHTS]
        if f.flight_number == situation.flight_number and f.flight_date == situation.flight_date
    )


@pytest.fixture(scope="module")
def ey123_snapshot(airline):
    flight = _ey123(airline)
    day = flight.scheduled_departure.date()
    day_start = datetime.combine(day, time(0), tzinfo=UTC)
    types = compatible_types(flight.aircraft_type)
    fleet = [d for d in airline.tables[s.AIRCRAFT_AVAILABILITY] if d.aircraft_type in types and d.date == day]
    tails = {d.aircraft_registration for d in fleet}
    rotations: dict = {}
    for f in airline.tables[s.FLIGHTS]:
        if f.aircraft_registration in tails and day_start <= f.scheduled_departure < day_start + timedelta(days=1):
            rotations.setdefault(f.aircraft_registration, []).append(f)
    ids = {f.flight_id for rows in rotations.values() for f in rows}
    bookings = [b for b in airline.tables[s.BOOKINGS] if b.flight_id in ids]
    snapshot = build_snapshot(
        flight,
        fleet,
        rotations,
        bookings,
        decision=flight.scheduled_departure - timedelta(hours=2),
        release=flight.scheduled_departure + timedelta(hours=5),
    )
    return flight, snapshot


def test_snapshot_becomes_a_consistent_instance(ey123_snapshot):
    flight, snapshot = ey123_snapshot
    adapted = to_instance(snapshot)
    instance = adapted.instance
    assert len(instance.rotations) == len(snapshot.flights) and set(instance.aircraft) == {
        a.aircraft_registration for a in snapshot.aircraft
    }
    assert {a.family for a in instance.aircraft.values()} == {"B787"}
    seated = sum(it.passengers for it in instance.itineraries)
    live = {b.pnr + b.passenger_id for b in snapshot.bookings if b.status not in ("CANCELLED", "REBOOKED")}
    assert seated == len(live)
    outage = next(u for u in instance.unavailabilities if u.aircraft == flight.aircraft_registration)
    assert outage.end - outage.start >= 5 * 60 - 2 * 60  # unavailable until the release


def test_optimizer_plan_for_ey123_is_feasible_and_moves_the_flight(ey123_snapshot):
    flight, snapshot = ey123_snapshot
    adapted = to_instance(snapshot)
    solution, result = solve(adapted.instance, 3.0, seed=1)
    assert result.feasible and check(adapted.instance, solution) == []
    change = planned_changes(adapted, solution)[flight.flight_id]
    # the tail is grounded for five hours: the plan swaps it, or delays it at least that long, or cancels
    assert change.action == "tail_swap" or change.action == "cancel" or change.delay_minutes >= 3 * 60
    if change.action == "tail_swap":
        assert change.registration != flight.aircraft_registration


def test_network_agent_proposes_the_optimizer_plan_first(handle, airline):
    """With bookings readable, EY123's passengers connecting onto other tails make it a network disruption."""
    flight = q.find_flight(handle, "EY123", _ey123(airline).flight_date)
    analysis = analyse_network_with_optimizer(handle, flight, delay_minutes=300, now=NOW, seconds=3.0)
    first = analysis.proposals[0]
    assert first.parameters.get("source") == "network_optimizer", (analysis.facts, analysis.limits)
    assert first.kind in ("tail_swap", "delay", "cancel")
    assert any("Network optimizer over" in fact for fact in analysis.facts)
    # the rotation-level proposals the agent made before stay: the arbitrator still sees every spare
    assert {"tail_swap", "delay"} & {p.kind for p in analysis.proposals[1:]}


def test_network_agent_on_its_own_tables_keeps_a_one_tail_disruption_local(handle, airline):
    """The network agent may read flights and fleet only: EY123 alone touches one tail, so no optimizer."""
    flight = q.find_flight(handle, "EY123", _ey123(airline).flight_date)
    analysis = analyse_network_with_optimizer(
        handle.for_agent("network"), flight, delay_minutes=300, now=NOW, seconds=3.0
    )
    assert all(p.parameters.get("source") != "network_optimizer" for p in analysis.proposals)
    assert any("Network optimizer not needed" in fact for fact in analysis.facts) and not analysis.limits


def test_a_second_disrupted_tail_makes_it_a_network_disruption(ey123_snapshot):
    flight, snapshot = ey123_snapshot
    flights = {f.flight_id: f for f in snapshot.flights}
    assert tails_touched(flight, 300, snapshot.aircraft, flights, []) == {flight.aircraft_registration}
    other = next(f for f in snapshot.flights if f.aircraft_registration != flight.aircraft_registration)
    flights[other.flight_id] = other.model_copy(update={"status": "DELAYED", "delay_minutes": 90})
    assert tails_touched(flight, 300, snapshot.aircraft, flights, []) == {
        flight.aircraft_registration,
        other.aircraft_registration,
    }


def test_snapshot_without_bookings_uses_booked_counts(ey123_snapshot):
    _, snapshot = ey123_snapshot
    adapted = to_instance(snapshot.model_copy(update={"bookings": []}))
    assert sum(it.passengers for it in adapted.instance.itineraries) == sum(
        sum(f.booked.values()) for f in snapshot.flights if f.status != "CANCELLED"
    )
    assert all(len(it.legs) == 1 and it.price == 0.0 for it in adapted.instance.itineraries)
