"""Incremental seating and costing: a search move changes a few aircraft, so most passengers keep their seats.

Seating every trip again after each move (passengers.plan_passengers) took most of a set-B step. Here a
candidate inherits the lines of the plan it was derived from wherever they are untouched: a line whose flights
all fly with the same aircraft at the same time keeps its seats, its connections and its cost. Seated again
(greedily, into the seats left) are the trips with a line on a changed flight, the trips booked on one (whether
they are intact may have changed) and the trips their base leaves short of their destination (a move may have
opened a route). The passenger cost is the base's minus its re-seated lines' plus theirs.
"""

from __future__ import annotations

from dataclasses import dataclass

from .aircraft_plan import Plan
from .network import Network
from .object_cache import PerObject
from .passengers import PassengerLine, plan_passengers
from .plan_cost import passenger_total


@dataclass(slots=True, frozen=True)
class Seating:
    """A plan's passenger lines and their weighted cost (plan_cost.passenger_total)."""

    lines: list[PassengerLine]
    passenger_cost: float


def full_seating(plan: Plan) -> Seating:
    lines = plan_passengers(plan)
    return Seating(lines, passenger_total(plan, lines))


_TRIPS_ON: PerObject[Network, list[list[int]]] = PerObject()


def trips_on(net: Network) -> list[list[int]]:
    """Flight index → the trips booked on it."""

    def build(net: Network) -> list[list[int]]:
        found: list[list[int]] = [[] for _ in net.flights]
        for t, trip in enumerate(net.trips):
            for idx in trip.flights:
                found[idx].append(t)
        return found

    return _TRIPS_ON.get(net, build)


def changed_flights(plan: Plan, base: Plan) -> set[int]:
    """Flights the two plans fly differently: another aircraft (or none), or another departure."""
    return {
        idx
        for idx, (a, b) in enumerate(zip(plan.aircraft_of, base.aircraft_of))
        if a != b or (a is not None and plan.departure[idx] != base.departure[idx])
    }


def reached(plan: Plan, line: PassengerLine) -> bool:
    net = plan.net
    return bool(line.legs) and net.flights[line.legs[-1][0]].destination == net.trips[line.trip].facts.destination


def reseat_touched(plan: Plan, base: Plan, seating: Seating) -> Seating:
    """The plan's seating derived from its base's: untouched lines kept, the touched trips seated again."""
    changed = changed_flights(plan, base)
    on = trips_on(plan.net)
    touched = {t for idx in changed for t in on[idx]}
    for line in seating.lines:
        if not reached(base, line) or any(idx in changed for idx, _ in line.legs):
            touched.add(line.trip)
    kept = [line for line in seating.lines if line.trip not in touched]
    removed = [line for line in seating.lines if line.trip in touched]
    lines = plan_passengers(plan, kept, touched)
    cost = seating.passenger_cost - passenger_total(base, removed) + passenger_total(plan, lines[len(kept) :])
    return Seating(lines, cost)
