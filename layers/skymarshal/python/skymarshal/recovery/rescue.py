"""A search move for the passengers a plan leaves behind: hold the flights that would take them home.

The greedy seating (passengers.py) routes a trip over the plan's flights as they are timed; passengers whose
connection broke before the window (strict reading) or whose flight was cancelled often have no route left
only because the flight onward leaves minutes before they could board it (A02: 28 passengers at NCE for RNS,
ORY-RNS leaving 80 min before the NCE flight lands, each costing 1,500 stranded against a few euros of
delay to the 34 on board). This finds the earliest arrival when every operated flight that is not fixed may
wait up to `MAX_HOLD` minutes for them (and has a free seat), and returns the flights to hold and until when;
the solver then holds them and re-plans their aircraft (their later flights move with them).
"""

from __future__ import annotations

import bisect
import heapq
import random
from collections.abc import Sequence

from .aircraft_plan import Plan, seat_count
from .passengers import PassengerLine, rebooking

MAX_HOLD = 180  # minutes a flight may wait for the passengers it rescues


def free_seats(plan: Plan, lines: Sequence[PassengerLine]) -> dict[int, int]:
    """Seats left on every operated flight (all cabins) once the lines are seated."""
    net = plan.net
    free = {idx: seat_count(net.aircraft[a]) for idx, a in enumerate(plan.aircraft_of) if a is not None}
    for line in lines:
        for idx, _ in line.legs:
            free[idx] -= line.passengers
    return free


def left_behind(plan: Plan, lines: Sequence[PassengerLine]) -> list[tuple[int, float]]:
    """(trip, what its unserved passengers cost) for lines cancelled or ending short of the destination."""
    net = plan.net
    found = []
    for line in lines:
        trip = net.trips[line.trip]
        if line.legs and net.flights[line.legs[-1][0]].destination == trip.facts.destination:
            continue
        if any(plan.aircraft_of[idx] is None for idx in trip.flights[: trip.fixed_legs]):
            continue  # history cancelled under them: nothing can be done
        found.append((line.trip, line.passengers * trip.cancel_cost))
    return found


def holds_for(plan: Plan, trip_idx: int, free: dict[int, int], max_hold: int = MAX_HOLD) -> dict[int, int] | None:
    """Flight → departure to hold it to, so the trip reaches its destination by the earliest arrival a wait
    of at most `max_hold` per flight allows (only flights with a free seat), or None if none does."""
    net = plan.net
    trip = net.trips[trip_idx]
    origin, ready, deadline = rebooking(plan, trip)
    destination = trip.facts.destination
    out: dict[str, list[tuple[int, int]]] = {}
    for idx, a in enumerate(plan.aircraft_of):
        if a is not None and free.get(idx, 0) > 0:
            out.setdefault(net.flights[idx].origin, []).append((plan.departure[idx], idx))
    for flights in out.values():
        flights.sort()
    best = {origin: ready}
    came_by: dict[str, tuple[str, int, int]] = {}  # airport -> (from, flight, departure)
    heap = [(ready, origin)]
    while heap:
        time, airport = heapq.heappop(heap)
        if airport == destination:
            held, at = {}, destination
            while at != origin:
                at, idx, departure = came_by[at]
                if departure > plan.departure[idx]:
                    held[idx] = departure
            return held
        if time > best.get(airport, 1 << 60):
            continue
        leave = time if airport == origin else time + net.instance.min_connection
        flights = out.get(airport, [])
        for scheduled, idx in flights[bisect.bisect_left(flights, (leave - max_hold, -1)) :]:
            f = net.flights[idx]
            departure = max(scheduled, leave)
            if departure > scheduled and f.status != "free":
                continue  # fixed and disrupted flights leave when they must
            arrival = departure + f.duration
            if arrival > deadline or arrival >= best.get(f.destination, 1 << 60):
                continue
            best[f.destination] = arrival
            came_by[f.destination] = (airport, idx, departure)
            heapq.heappush(heap, (arrival, f.destination))
    return None


def pick_rescue(plan: Plan, lines: Sequence[PassengerLine], rng: random.Random) -> dict[int, int] | None:
    """Holds for one left-behind trip, chosen by what its passengers cost; None when nobody is left behind or
    the chosen trip has no route even with holds."""
    waiting = left_behind(plan, lines)
    if not waiting:
        return None
    trip_idx = rng.choices([t for t, _ in waiting], weights=[w + 1.0 for _, w in waiting])[0]
    held = holds_for(plan, trip_idx, free_seats(plan, lines))
    return held or None
