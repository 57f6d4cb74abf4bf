"""Tail continuity of a network plan: where each aircraft is, flight after flight, once the plan has cancelled,
retimed or swapped some of them; and the cancellations a cancellation forces (a tail that did not fly out cannot
fly back).

Pure functions over `Leg`s (no data access), shared by the baseline, crewability's re-plans and the validation.
A turn is held to the type's scheduled minimum (AIRCRAFT_TYPES.min_turn_minutes) unless both flights keep their
scheduled times and tail: the schedule's own turns are the operator's to publish, not the plan's to re-check.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from ..models.fleet import AIRCRAFT_TYPES
from ..models.network_plan import FlightAction
from ..models.operational import Flight
from ..rules.rotation import arrival_airport
from .scope import NetworkScope


@dataclass(frozen=True)
class Leg:
    flight_id: str
    origin: str
    destination: str
    departure: datetime
    arrival: datetime
    registration: str
    aircraft_type: str
    unchanged: bool  # flies at its scheduled times on its planned tail


def plan_legs(actions: Iterable[FlightAction], rotations: Mapping[str, list[Flight]]) -> dict[str, list[Leg]]:
    """Each tail's operated legs under the plan: the plan's own rows at their new times on the tail flying them,
    the rotations' other flights at their best-known times (the estimate, else the schedule: a tail still flying
    into the day lands when it is expected to) to where they land (a diverted flight at its alternate); cancelled
    flights fly nowhere."""
    planned = {a.flight_id: a for a in actions}
    legs: dict[str, list[Leg]] = defaultdict(list)
    for registration, rows in rotations.items():
        for f in rows:
            if f.flight_id not in planned and f.status != "CANCELLED":
                legs[registration].append(
                    Leg(
                        f.flight_id,
                        f.origin,
                        arrival_airport(f),
                        f.departure,
                        f.arrival,
                        registration,
                        f.aircraft_type,
                        True,
                    )
                )
    for a in planned.values():
        if a.new_registration is None or a.new_departure is None or a.new_arrival is None:
            continue
        same = a.new_registration == a.registration and a.new_departure == a.scheduled_departure
        legs[a.new_registration].append(
            Leg(
                a.flight_id,
                a.origin,
                a.destination,
                a.new_departure,
                a.new_arrival,
                a.new_registration,
                a.aircraft_type,
                same and a.action != "ferry",
            )
        )
    return {reg: sorted(rows, key=lambda leg: leg.departure) for reg, rows in legs.items()}


def broken_turn(previous: Leg, leg: Leg) -> str | None:
    """Why `leg` cannot follow `previous` on the same tail, or None."""
    if leg.origin != previous.destination:
        return f"{leg.registration} is at {previous.destination} after {previous.flight_id}, not at {leg.origin}"
    if previous.unchanged and leg.unchanged:
        return None
    turn = AIRCRAFT_TYPES[leg.aircraft_type].min_turn_minutes if leg.aircraft_type in AIRCRAFT_TYPES else 60
    if leg.departure < previous.arrival + timedelta(minutes=turn):
        gap = int((leg.departure - previous.arrival).total_seconds() // 60)
        return f"{leg.registration} turns in {gap} min after {previous.flight_id}, under the {turn}-min minimum"
    return None


def tail_starts(rotations: Mapping[str, list[Flight]]) -> dict[str, str]:
    """Where each tail is before its first flight of the rotations (that flight's origin: the day's station)."""
    return {reg: min(rows, key=lambda f: f.scheduled_departure).origin for reg, rows in rotations.items() if rows}


def cascade(legs: Mapping[str, list[Leg]], cancelled: set[str], starts: Mapping[str, str] | None = None) -> set[str]:
    """`cancelled` and every leg it strands: walking each tail in time order, a leg whose tail is not at its origin
    (or not turned round in time) is cancelled too. A tail starts at `starts` (else where its first leg leaves)."""
    out = set(cancelled)
    for registration, rows in legs.items():
        previous: Leg | None = None
        at = (starts or {}).get(registration, rows[0].origin if rows else "")
        for leg in rows:
            if leg.flight_id in out:
                continue
            if (previous is None and leg.origin != at) or (previous is not None and broken_turn(previous, leg)):
                out.add(leg.flight_id)
                continue
            previous = leg
    return out


def scheduled_legs(rotations: Mapping[str, list[Flight]]) -> dict[str, list[Leg]]:
    return plan_legs((), rotations)


def _movement(scope: NetworkScope, f: Flight) -> list[tuple[str, datetime]]:
    r, w = scope.restriction, scope.restriction.window
    out = []
    if f.origin == r.airport and w.start <= f.scheduled_departure < w.end:
        out.append(("D", f.scheduled_departure.replace(minute=0, second=0, microsecond=0)))
    if f.destination == r.airport and w.start <= f.scheduled_arrival < w.end:
        out.append(("A", f.scheduled_arrival.replace(minute=0, second=0, microsecond=0)))
    return out


def baseline_cancellations(scope: NetworkScope, rotations: Mapping[str, list[Flight]]) -> set[str]:
    """The conservative baseline's cancellations. A closure or a slot regulation: every affected flight; slots by
    ration-by-schedule: every flight they delay. A rate:
    the flights beyond each hour's allowance, latest first kept out (the first scheduled keep their slot).
    Then whatever those cancellations strand."""
    r = scope.restriction
    legs = scheduled_legs(rotations)
    if r.kind == "closure" or r.slot_delay_minutes is not None or r.departures_per_hour is None:
        return cascade(legs, {f.flight_id for f in scope.affected}, tail_starts(rotations))
    if r.held_minutes:  # slots by ration-by-schedule (rules/slots.py): every flight they delay
        held = {f.flight_id for rows in rotations.values() for f in rows if f.flight_id in r.held_minutes}
        return cascade(
            legs, held | {f.flight_id for f in scope.affected if f.flight_id in r.held_minutes}, tail_starts(rotations)
        )
    allowed = {"D": r.departures_per_hour, "A": r.arrivals_per_hour or 0}
    cancelled: set[str] = set()
    while True:
        used: Counter[tuple[str, datetime]] = Counter()
        over = None
        for f in sorted(scope.affected, key=lambda f: f.scheduled_departure):
            if f.flight_id in cancelled:
                continue
            for kind, hour in _movement(scope, f):
                used[(kind, hour)] += 1
                if used[(kind, hour)] > allowed[kind] and over is None:
                    over = f.flight_id
        if over is None:
            return cancelled
        cancelled = cascade(legs, cancelled | {over}, tail_starts(rotations))


def scheduled_row(f: Flight) -> FlightAction:
    """A flight as the schedule has it (for counting the hours it uses)."""
    return FlightAction(
        flight_id=f.flight_id,
        flight_number=f.flight_number,
        origin=f.origin,
        destination=f.destination,
        action="operate",
        scheduled_departure=f.scheduled_departure,
        scheduled_arrival=f.scheduled_arrival,
        new_departure=f.scheduled_departure,
        new_arrival=f.scheduled_arrival,
        registration=f.aircraft_registration,
        new_registration=f.aircraft_registration,
        aircraft_type=f.aircraft_type,
    )


def baseline_actions(
    rotations: Mapping[str, list[Flight]],
    scope: NetworkScope,
    reasons: dict[str, str],
    unavailable: frozenset[str] = frozenset(),
) -> list[FlightAction]:
    """Cancel the affected flights and every later flight of their tails the cancellations strand (the tail is no
    longer where the flight leaves from); the rest fly as they stand (as scheduled, or at the estimate an earlier
    decision set: its passengers' wait is the baseline's too, as in the hold plan). No retime, no swap."""
    cancelled = baseline_cancellations(scope, rotations)
    # a tail its work orders ground flies none of the plan's flights (the validation would refuse them)
    grounded = {f.flight_id for f in scope.flights if f.aircraft_registration in unavailable}
    if grounded:
        cancelled = cascade(scheduled_legs(rotations), cancelled | grounded, tail_starts(rotations))
    in_scope = {f.flight_id for f in scope.flights}
    actions = []
    for rows in rotations.values():
        for f in rows:
            if f.flight_id not in cancelled and f.flight_id not in in_scope:
                continue
            cancel = f.flight_id in cancelled
            actions.append(
                FlightAction(
                    flight_id=f.flight_id,
                    flight_number=f.flight_number,
                    origin=f.origin,
                    destination=f.destination,
                    action="cancel" if cancel else "operate",
                    scheduled_departure=f.scheduled_departure,
                    scheduled_arrival=f.scheduled_arrival,
                    new_departure=None if cancel else f.departure,  # where it stands: an earlier delay holds
                    new_arrival=None if cancel else f.arrival,
                    registration=f.aircraft_registration,
                    new_registration=None if cancel else f.aircraft_registration,
                    aircraft_type=f.aircraft_type,
                    reason=reasons.get(f.flight_id, "its tail is stranded by an earlier cancellation"),
                )
            )
    return sorted(actions, key=lambda a: (a.scheduled_departure, a.flight_id))
