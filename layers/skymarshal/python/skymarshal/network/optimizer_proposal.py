"""The network agent with the recovery optimizer: when a disruption reaches beyond one tail or limits an
airport, the agent runs the optimizer over the rating group's day and proposes its plan for the
disrupted flight (a tail swap or a delay) first; the arbitrator validates that proposal like any other.

A disruption "touches more than one aircraft" when, besides the disrupted tail, another tail of the group
that day is delayed, cancelled, AOG or in maintenance, or carries passengers who connect off the
disrupted flight and would miss at the delay under assessment (bookings, when the handle may read them).
It "touches an airport's capacity" when a closure NOTAM covers an airport of those rotations (when the
handle may read AirportReference; the network agent's own policy grants only flights and fleet): a runway
closure halves the schedule's busiest hour there, an airport closure stops all movements (the tables hold
no declared capacity, so the schedule's own peak stands in for it).
"""

from __future__ import annotations

import os
from collections import Counter
from datetime import UTC, datetime, time, timedelta

from ..analysis.base import Analysis, decision_time
from ..analysis.business import analyse_network, delay_for
from ..data import queries as q
from ..data import schema as s
from ..data.access import DataHandle
from ..models.agent_response import RecoveryProposal
from ..models.fleet import compatible_types
from ..models.operational import Booking, Flight
from ..recovery.adapter import CapacityLimit, build_snapshot, planned_changes, to_instance
from ..recovery.solver import NoFeasibleSolution, solve

OPTIMIZER_SECONDS = 5.0  # inside the agents' deadline with room for the rest of the analysis
# The search stops sooner once it has gone this long without improving: a rating group's day converges in well under
# the budget, and every round of the run waits for this agent (bench.workflow: 5.2 s of a 5.5 s round before).
STALL_SECONDS = 1.0
SECONDS_ENV = "SKYMARSHAL_NETWORK_OPTIMIZER_SECONDS"  # the search's time budget, in (0, 60]; default above
CONNECTION_MINUTES = 30
DISRUPTED_STATUSES = ("DELAYED", "CANCELLED")


def optimizer_seconds() -> float:
    """The optimizer's time budget: SKYMARSHAL_NETWORK_OPTIMIZER_SECONDS if set (the test suite runs it at 1 s: it
    checks the path, `make bench-recovery` the quality), else 5 s."""
    raw = os.environ.get(SECONDS_ENV, "")
    if not raw:
        return OPTIMIZER_SECONDS
    try:
        seconds = float(raw)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= 60:
        raise ValueError(
            f"{SECONDS_ENV}={raw!r}: give the network optimizer's time budget in seconds, over 0 and at most 60"
        )
    return seconds


def analyse_network_with_optimizer(
    handle: DataHandle,
    flight: Flight,
    *,
    delay_minutes: int | None = None,
    now=None,
    seconds: float | None = None,
) -> Analysis:
    """The network agent's analysis plus, when the disruption reaches other tails or a limited airport, the
    recovery optimizer's plan found within `seconds` (default: ``optimizer_seconds()``)."""
    analysis = analyse_network(handle, flight, delay_minutes=delay_minutes, now=now)
    delay, _ = delay_for(flight, delay_minutes)
    day_start = datetime.combine(flight.scheduled_departure.date(), time(0), tzinfo=UTC)
    fleet = [
        d
        for t in compatible_types(flight.aircraft_type)
        for d in q.fleet_of_type(handle, t, flight.scheduled_departure.date())
    ]
    rotations = q.tail_rotations(  # one Query per type, not one per tail
        handle,
        compatible_types(flight.aircraft_type),
        [*(d.aircraft_registration for d in fleet), flight.aircraft_registration],
        day_start,
        day_start + timedelta(days=1),
    )
    flights = {f.flight_id: f for rows in rotations.values() for f in rows}
    # The agent reads only the tables its policy grants (the network agent: flights and fleet); with more
    # (a duty manager's handle) the plan also sees connecting passengers and NOTAM'd airports.
    bookings = (
        [b for flight_id in sorted(flights) for b in q.bookings(handle, flight_id)]
        if handle.allowed(s.BOOKINGS)
        else []
    )
    touched = tails_touched(flight, delay, fleet, flights, bookings)
    limits = capacity_limits(handle, flights.values(), day_start) if handle.allowed(s.AIRPORTS) else []
    if len(touched) < 2 and not limits:
        analysis.facts.append(
            "Network optimizer not needed: the disruption stays on one tail and no airport is limited."
        )
        return analysis
    release = flight.scheduled_departure + timedelta(minutes=delay)
    try:
        snapshot = build_snapshot(
            flight,
            fleet,
            rotations,
            bookings,
            capacity_limits=limits,
            decision=min(decision_time(flight, now), flight.scheduled_departure),
            release=release,
        )
        adapted = to_instance(snapshot)
        budget = optimizer_seconds() if seconds is None else seconds
        solution, result = solve(adapted.instance, budget, stall_seconds=STALL_SECONDS)
    except (LookupError, NoFeasibleSolution, ValueError, PermissionError) as exc:
        analysis.limits.append(f"Network optimizer could not plan this disruption: {exc}")
        return analysis
    if not result.feasible:
        analysis.limits.append("Network optimizer's plan failed its own checker; not proposed.")
        return analysis
    changes = planned_changes(adapted, solution)
    proposal = _proposal(flight, changes[flight.flight_id], changes, result.cost.total, len(touched), limits)
    if proposal is not None:
        analysis.proposals.insert(0, proposal)
        analysis.recommendation = f"Network plan: {proposal.title} ({proposal.detail})"
    analysis.facts.append(
        f"Network optimizer over {len(fleet)} tails and {len(flights)} flights ({len(touched)} tails "
        f"touched, {len(limits)} airport limits): cost {result.cost.total:,.0f} by the ROADEF 2009 measure."
    )
    return analysis


def tails_touched(flight: Flight, delay: int, fleet, flights: dict[str, Flight], bookings: list[Booking]) -> set[str]:
    touched = {flight.aircraft_registration}
    touched |= {d.aircraft_registration for d in fleet if d.status in ("AOG", "MAINTENANCE")}
    touched |= {
        f.aircraft_registration
        for f in flights.values()
        if f.flight_id != flight.flight_id and (f.status in DISRUPTED_STATUSES or f.delay_minutes > 0)
    }
    arrival = flight.scheduled_arrival + timedelta(minutes=delay)
    for b in bookings:
        onward = flights.get(b.onward_flight_id) if b.flight_id == flight.flight_id and b.onward_flight_id else None
        if onward and onward.scheduled_departure < arrival + timedelta(minutes=CONNECTION_MINUTES):
            touched.add(onward.aircraft_registration)
    return touched


def capacity_limits(handle: DataHandle, flights, day_start: datetime) -> list[CapacityLimit]:
    flights = list(flights)
    peak: Counter[tuple[str, str, datetime]] = Counter()
    for f in flights:
        peak[(f.origin, "D", f.scheduled_departure.replace(minute=0, second=0, microsecond=0))] += 1
        peak[(f.destination, "A", f.scheduled_arrival.replace(minute=0, second=0, microsecond=0))] += 1
    limits = []
    for airport in sorted({f.origin for f in flights} | {f.destination for f in flights}):
        for notam in q.notams(handle, airport, day_start, day_start + timedelta(days=1)):
            if notam.kind not in ("AIRPORT_CLOSED", "RUNWAY_CLOSED"):
                continue
            departures = max([n for (a, k, _), n in peak.items() if a == airport and k == "D"], default=1)
            arrivals = max([n for (a, k, _), n in peak.items() if a == airport and k == "A"], default=1)
            share = 0 if notam.kind == "AIRPORT_CLOSED" else 0.5
            limits.append(
                CapacityLimit(
                    airport=airport,
                    start=notam.starts_at,
                    end=notam.ends_at,
                    departures_per_hour=int(departures * share) or int(share > 0),
                    arrivals_per_hour=int(arrivals * share) or int(share > 0),
                )
            )
    return limits


def _proposal(flight: Flight, change, changes, cost: float, touched: int, limits) -> RecoveryProposal | None:
    others = [c for c in changes.values() if c.flight_id != flight.flight_id and c.action != "operate"]
    summary = (
        f"network plan over {touched} touched tails{' and limited airports' if limits else ''}: "
        f"{sum(c.action == 'tail_swap' for c in others)} other flights change tail, "
        f"{sum(c.action == 'delay' for c in others)} are delayed, {sum(c.action == 'cancel' for c in others)} cancelled"
    )
    parameters = {
        "source": "network_optimizer",
        "network_cost": round(cost, 2),
        "network_changes": {c.flight_id: c.model_dump() for c in others},
    }
    if change.action == "tail_swap":
        return RecoveryProposal(
            kind="tail_swap",
            title=f"Swap to {change.registration} (network optimizer)",
            detail=summary,
            parameters={**parameters, "registration": change.registration},
            estimated_delay_minutes=change.delay_minutes,
        )
    if change.action in ("delay", "operate"):
        return RecoveryProposal(
            kind="delay",
            title=f"Delay {change.delay_minutes} min (network optimizer)",
            detail=summary,
            parameters={**parameters, "delay_minutes": change.delay_minutes},
            estimated_delay_minutes=change.delay_minutes,
        )
    return RecoveryProposal(kind="cancel", title="Cancel (network optimizer)", detail=summary, parameters=parameters)
