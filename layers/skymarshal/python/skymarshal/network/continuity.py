"""Every tail a network plan touches kept flying in sequence over the data, not only over the optimizer's horizon.

The optimizer and the baseline see each rotation up to the recovery horizon; the flights after it stay on the tails
the schedule gave them. A tail the plan leaves elsewhere (swapped onto another rotation, its outbound cancelled) or
late would then be planned on a flight it cannot reach. `keep_continuous` walks every tail the plan touches over the
data and repairs each first break on a flight the plan did not list, in this order (and says which in the row's
reason):

1. knock-on: the tail is where the flight leaves but late: the flight and the ones after it are re-timed to the
   type's minimum turn until the schedule's slack absorbs the delay (at most `MAX_KNOCK_ON`);
2. swap the rest of the rotations: two tails each where the other's next flight leaves (the optimizer's end
   positions count aircraft per airport, not per tail) exchange their remaining flights, and swap back at the
   first station where both are on the ground in time for each other's next flight (or to the end of the data);
3. cancel until back on sequence: the flights the tail can no longer reach are cancelled, up to the first one
   that leaves from where it is (an out-and-back's return with its outbound).

Pure functions over `FlightAction`s and `Flight`s; the validation (network.validation) checks every turn of every
touched tail again and refuses what is still broken (ROTATION_BROKEN).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from ..models.fleet import AIRCRAFT_TYPES
from ..models.network_plan import FlightAction
from ..models.operational import Flight
from .tails import Leg, broken_turn, plan_legs, tail_starts

MAX_KNOCK_ON = timedelta(hours=3)  # a later delay beyond this is a cancellation's decision, not a knock-on's
MAX_ROUNDS = 6  # each round repairs every tail's first break; a repair can reveal the next one further on


def touched_tails(actions: Sequence[FlightAction]) -> set[str]:
    """The tails a plan moves, re-times, cancels or ferries a flight of (a row flown as scheduled touches none)."""
    out: set[str] = set()
    for a in actions:
        if a.action != "operate" or a.new_registration != a.registration or a.new_departure != a.scheduled_departure:
            out.add(a.registration)
            if a.new_registration:
                out.add(a.new_registration)
    return out


@dataclass(frozen=True)
class Frontier:
    """A tail's first break on a flight the plan did not list: where the tail is, from when, and the flights of
    its own rotation from the break on (up to the next flight the plan lists on it)."""

    registration: str
    at: str
    ready: datetime  # the previous arrival plus the type's minimum turn
    after: str  # the flight the tail last flew
    rest: tuple[Flight, ...]
    open_ended: bool  # no flight the plan lists on this tail after the rest: it may be handed to another tail


def _turn(aircraft_type: str) -> timedelta:
    spec = AIRCRAFT_TYPES.get(aircraft_type)
    return timedelta(minutes=spec.min_turn_minutes if spec else 60)


def _frontier(
    registration: str, legs: list[Leg], listed: set[str], flights: Mapping[str, Flight], start: str | None
) -> Frontier | None:
    if legs and start is not None and legs[0].origin != start and legs[0].flight_id not in listed:
        # its first flights cancelled: the tail is still where the day started
        rest = tuple(flights[x.flight_id] for x in itertools.takewhile(lambda x: x.flight_id not in listed, legs))
        start_of_data = datetime.min.replace(tzinfo=UTC)
        return Frontier(registration, start, start_of_data, "the start of the data", rest, len(rest) == len(legs))
    for previous, leg in itertools.pairwise(legs):
        if leg.flight_id in listed or broken_turn(previous, leg) is None:
            continue
        after = legs[legs.index(leg) :]
        rest = tuple(flights[x.flight_id] for x in itertools.takewhile(lambda x: x.flight_id not in listed, after))
        ready = previous.arrival + _turn(leg.aircraft_type)
        return Frontier(registration, previous.destination, ready, previous.flight_id, rest, len(rest) == len(after))
    return None


def flight_row(f: Flight, action: str, reason: str, **update) -> FlightAction:
    cancel = action == "cancel"
    fields = {
        "flight_id": f.flight_id,
        "flight_number": f.flight_number,
        "origin": f.origin,
        "destination": f.destination,
        "action": action,
        "scheduled_departure": f.scheduled_departure,
        "scheduled_arrival": f.scheduled_arrival,
        "new_departure": None if cancel else f.scheduled_departure,
        "new_arrival": None if cancel else f.scheduled_arrival,
        "registration": f.aircraft_registration,
        "new_registration": None if cancel else f.aircraft_registration,
        "aircraft_type": f.aircraft_type,
        "reason": reason,
    }
    return FlightAction.model_validate(fields | update)


def knock_on(front: Frontier) -> list[FlightAction] | None:
    """The rest re-timed behind the late tail, or None when it is elsewhere or the delay would exceed the cap."""
    if not front.rest or front.rest[0].origin != front.at:
        return None
    if front.ready - front.rest[0].scheduled_departure > MAX_KNOCK_ON:
        return None
    out, ready = [], front.ready
    for f in front.rest:
        if ready <= f.scheduled_departure:
            break
        delay = ready - f.scheduled_departure
        why = f"knock-on: {front.registration} is late from {front.after}; re-timed to its minimum turn"
        out.append(
            flight_row(
                f,
                "retime",
                why,
                new_departure=ready,
                new_arrival=f.scheduled_arrival + delay,
                delay_minutes=int(delay.total_seconds() // 60),
            )
        )
        ready = f.scheduled_arrival + delay + _turn(f.aircraft_type)
    return out


def _flies(tail_type: str, flights: Sequence[Flight]) -> bool:
    """Same rating group (the crews stay qualified) and range for every flight."""
    spec = AIRCRAFT_TYPES.get(tail_type)
    return spec is not None and all(
        f.aircraft_type in AIRCRAFT_TYPES
        and AIRCRAFT_TYPES[f.aircraft_type].rating_group == spec.rating_group
        and f.distance_km <= spec.range_km
        for f in flights
    )


def swap_back(ours: Sequence[Flight], theirs: Sequence[Flight], t_type: str, u_type: str) -> tuple[int, int] | None:
    """(i, j): the first station where tail t, flying `theirs[: i + 1]`, and tail u, flying `ours[: j + 1]`, are
    both on the ground in time for each other's next flight there; None when they never are."""
    best: tuple[int, int] | None = None
    for i, a in enumerate(theirs[:-1]):
        for j, b in enumerate(ours[:-1]):
            if a.destination != b.destination:
                continue
            t_ready, u_ready = a.scheduled_arrival + _turn(t_type), b.scheduled_arrival + _turn(u_type)
            if t_ready > ours[j + 1].scheduled_departure or u_ready > theirs[i + 1].scheduled_departure:
                continue
            sooner = max(a.scheduled_arrival, b.scheduled_arrival)
            if best is None or sooner < max(theirs[best[0]].scheduled_arrival, ours[best[1]].scheduled_arrival):
                best = (i, j)
    return best


def exchange(t: Frontier, u: Frontier, types: Mapping[str, str]) -> list[FlightAction] | None:
    """t flies u's rest and u flies t's, until they swap back; None when they cannot."""
    if not (t.open_ended and u.open_ended and t.rest and u.rest):
        return None
    if t.at != u.rest[0].origin or u.at != t.rest[0].origin:
        return None
    if t.ready > u.rest[0].scheduled_departure or u.ready > t.rest[0].scheduled_departure:
        return None
    t_type, u_type = types[t.registration], types[u.registration]
    back = swap_back(t.rest, u.rest, t_type, u_type)
    theirs, ours = (u.rest[: back[0] + 1], t.rest[: back[1] + 1]) if back else (u.rest, t.rest)
    if not _flies(t_type, theirs) or not _flies(u_type, ours):
        return None
    where = f"swap back at {theirs[-1].destination} after {theirs[-1].flight_id}" if back else "to the end of the data"
    out = []
    for tail, tail_type, rows, other in ((t, t_type, theirs, u), (u, u_type, ours, t)):
        why = (
            f"the rest of {other.registration}'s rotation swaps to {tail.registration} (at {tail.at} after "
            f"{tail.after}): {where}"
        )
        out += [
            flight_row(f, "tail_swap", why, new_registration=tail.registration, aircraft_type=tail_type) for f in rows
        ]
    return out


def strand(front: Frontier) -> list[FlightAction]:
    """Cancel the rest the tail cannot reach, up to the first flight that leaves from where it is, in time."""
    out = []
    for f in front.rest:
        if f.origin == front.at and f.scheduled_departure >= front.ready:
            break
        why = f"cancelled: {front.registration} is at {front.at} after {front.after}, not at {f.origin}"
        out.append(flight_row(f, "cancel", why))
    return out


def keep_continuous(
    actions: Sequence[FlightAction], rotations: Mapping[str, list[Flight]], types: Mapping[str, str]
) -> list[FlightAction]:
    """The plan with every touched tail flying its flights in sequence over `rotations` (each tail's flights
    over the data): the repairs above appended as rows. `types`: each tail's aircraft type."""
    rows = list(actions)
    starts = tail_starts(rotations)
    flights = {f.flight_id: f for fs in rotations.values() for f in fs}
    for _ in range(MAX_ROUNDS):
        listed = {a.flight_id for a in rows}
        legs = plan_legs(rows, rotations)
        fronts = {
            reg: front
            for reg in sorted(touched_tails(rows) & set(legs))
            if (front := _frontier(reg, legs[reg], listed, flights, starts.get(reg))) is not None
        }
        if not fronts:
            break
        added: list[FlightAction] = []
        done: set[str] = set()
        for reg, front in fronts.items():
            if reg in done:
                continue
            fix = knock_on(front)
            partner = None
            if fix is None:
                partner = next(
                    (
                        other
                        for r, other in fronts.items()
                        if r not in done and r != reg and exchange(front, other, types) is not None
                    ),
                    None,
                )
                fix = exchange(front, partner, types) if partner is not None else strand(front)
            done |= {reg} | ({partner.registration} if partner is not None else set())
            added += fix or []
        if not added:
            break
        rows += added
    return sorted(rows, key=lambda a: (a.scheduled_departure, a.flight_id))
