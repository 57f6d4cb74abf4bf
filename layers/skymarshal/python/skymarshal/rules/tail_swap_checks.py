"""Tail swap: the single checks behind ``rules.tail_swap.tail_swap_eligibility``, one finding or plan each.

- ``cabin_plan``          passengers per cabin onto the seats (EU261 Art. 10(2) downgrading, Art. 4 denied boarding).
- ``type_finding``        same type-rating group, crew stay qualified (FCL.700, ORO.CC.125).
- ``range_finding``       type range against the flight's distance (fuel planning CAT.OP.MPA.150 decides, verify).
- ``position_finding``    at the departure station and turned round in time (operator ground-handling standard).
- ``conflicting_flights`` own flights that need the aircraft while it flies the swapped flight (same standard).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from ..models.findings import Finding, status_for_margin
from ..models.fleet import AIRCRAFT_TYPES, compatible_types
from ..models.operational import AircraftDay, Cabin, Flight
from ._clock import minutes_between
from .tail_swap_models import (
    CABINS,
    DEFAULT_SWAP,
    RANGE_CLAUSE,
    TURN_CLAUSE,
    TYPE_CLAUSE,
    CabinPlan,
    SwapConfig,
)


def cabin_plan(booked: Mapping[Cabin, int], capacity: Mapping[Cabin, int]) -> CabinPlan:
    """Passengers per cabin onto the seats: excess downgraded to the nearest lower cabin with room, economy excess
    upgraded to the nearest higher one, the rest offloaded."""
    seated = {c: min(booked.get(c, 0), capacity.get(c, 0)) for c in CABINS}
    spare = {c: capacity.get(c, 0) - seated[c] for c in CABINS}
    over = {c: booked.get(c, 0) - seated[c] for c in CABINS}
    down: dict[str, int] = {}
    up: dict[str, int] = {}
    for i, cabin in enumerate(CABINS):
        for lower in CABINS[i + 1 :]:
            moved = min(over[cabin], spare[lower])
            if moved:
                down[f"{cabin}>{lower}"] = moved
                over[cabin], spare[lower] = over[cabin] - moved, spare[lower] - moved
    for i in range(len(CABINS) - 1, -1, -1):
        cabin = CABINS[i]
        for higher in reversed(CABINS[:i]):
            moved = min(over[cabin], spare[higher])
            if moved:
                up[f"{cabin}>{higher}"] = moved
                over[cabin], spare[higher] = over[cabin] - moved, spare[higher] - moved
    return CabinPlan(
        booked=dict(booked), capacity=dict(capacity), downgraded=down, upgraded=up, offloaded=sum(over.values())
    )


def type_finding(candidate_type: str, flight: Flight, registration: str) -> Finding:
    """Binding unless the candidate's type is in ``compatible_types`` of the flight's type."""
    ok = flight.aircraft_type in AIRCRAFT_TYPES and candidate_type in compatible_types(flight.aircraft_type)
    return Finding(
        rule="fleet.swap_type",
        clause=TYPE_CLAUSE,
        status="legal" if ok else "illegal",
        binding=not ok,
        subject=registration,
        message=(
            f"{registration} ({candidate_type}) is {'in' if ok else 'not in'} the type-rating group of "
            f"{flight.flight_number}'s {flight.aircraft_type}."
        ),
        details={"candidate_type": candidate_type, "flight_type": flight.aircraft_type},
    )


def range_finding(candidate_type: str, flight: Flight, registration: str) -> Finding:
    """Binding when the type's range is under the flight's distance."""
    range_km = AIRCRAFT_TYPES[candidate_type].range_km
    ok = range_km >= flight.distance_km
    return Finding(
        rule="fleet.swap_range",
        clause=RANGE_CLAUSE,
        status="legal" if ok else "illegal",
        binding=not ok,
        subject=registration,
        limit=range_km,
        actual=flight.distance_km,
        unit="km",
        message=(
            f"{candidate_type} range {range_km} km {'covers' if ok else 'is short of'} "
            f"{flight.origin}-{flight.destination} ({flight.distance_km} km)."
        ),
    )


def own_flights(rotation: Sequence[Flight], flight: Flight, registration: str) -> list[Flight]:
    """The candidate's other flights of ``rotation``, not cancelled, by departure (what the turn-round and conflict
    checks are measured against)."""
    return sorted(
        (
            f
            for f in rotation
            if f.flight_id != flight.flight_id and f.status != "CANCELLED" and f.aircraft_registration == registration
        ),
        key=lambda f: f.departure,
    )


def position_finding(
    candidate: AircraftDay,
    own: Sequence[Flight],
    flight: Flight,
    departure: datetime,
    config: SwapConfig = DEFAULT_SWAP,
) -> tuple[Finding, str, datetime | None, int | None]:
    """Where the aircraft is before ``departure`` and when it is turned round: (finding, station, ready_at, margin).

    The last own flight departing before ``departure`` fixes the station (its destination) and ready time (its
    arrival + the candidate type's minimum turn); with none, the row's start-of-day station, ready at once.
    """
    reg, turn = candidate.aircraft_registration, AIRCRAFT_TYPES[candidate.aircraft_type].min_turn_minutes
    before = [f for f in own if f.departure < departure]
    last = before[-1] if before else None
    station = last.destination if last else candidate.station
    ready_at = last.arrival + timedelta(minutes=turn) if last else None
    margin = minutes_between(ready_at, departure) if ready_at else None
    details = {
        "station": station,
        "last_flight": last.flight_id if last else None,
        "min_turn_minutes": turn,
        "ready_at": ready_at.isoformat() if ready_at else None,
    }
    if station != flight.origin:
        return (
            Finding(
                rule="fleet.swap_position",
                clause=TURN_CLAUSE,
                status="illegal",
                subject=reg,
                message=f"{reg} is at {station}, not at {flight.origin}, before {flight.flight_number}.",
                details=details,
            ),
            station,
            ready_at,
            margin,
        )
    if last is None or margin is None:
        return (
            Finding(
                rule="fleet.swap_position",
                clause=TURN_CLAUSE,
                status="legal",
                subject=reg,
                message=f"{reg} is on the ground at {station} with no earlier flight that day.",
                details=details,
            ),
            station,
            ready_at,
            margin,
        )
    status = status_for_margin(margin, config.at_risk_minutes)
    return (
        Finding(
            rule="fleet.swap_position",
            clause=TURN_CLAUSE,
            status=status,
            subject=reg,
            margin_minutes=margin,
            message=(
                f"{reg} arrives at {station} at {last.arrival:%H:%M}Z and needs {turn} min to turn: "
                f"ready {ready_at:%H:%M}Z for a {departure:%H:%M}Z departure."
            ),
            details=details,
        ),
        station,
        ready_at,
        margin,
    )


def conflicting_flights(
    own: Sequence[Flight], departure: datetime, arrival: datetime, turn_minutes: int
) -> list[Flight]:
    """Own flights departing at/after ``departure`` and before ``arrival`` + turn: the aircraft is not free for them."""
    free_at = arrival + timedelta(minutes=turn_minutes)
    return [f for f in own if departure <= f.departure < free_at]
