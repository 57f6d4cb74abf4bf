"""Incremental seating and costing: a search move changes a few aircraft, so most passengers keep their seats.

Seating every trip again after each move (passengers.plan_passengers) took most of a set-B step. Here a
candidate inherits the lines of the plan it was derived from wherever they are untouched: a line whose flights
all fly with the same aircraft at the same time keeps its seats, its connections and its cost. Seated again
(greedily, into the seats left) are the trips with a line on a changed flight and the trips booked on one
(whether they are intact may have changed); a trip its base leaves short of its destination is seated again
where that is cheaper than its lines (a move may have opened a route; its lines may be the MIP's). The passenger
cost is the base's minus its re-seated lines' plus theirs.
"""

from __future__ import annotations

from dataclasses import dataclass

from .aircraft_plan import Plan
from .network import Network
from .object_cache import PerObject
from .passengers import PassengerLine, _Router, _Seats, cabin_seats, plan_passengers, seat_trips
from .plan_cost import passenger_total


class Seating:
    """A plan's passenger lines and their weighted cost (plan_cost.passenger_total); what the moves derived
    from it read of it (which trips ride each flight, which are left short, the seats left) is indexed once."""

    __slots__ = ("_index", "lines", "passenger_cost")

    def __init__(self, lines: list[PassengerLine], passenger_cost: float):
        self.lines, self.passenger_cost = lines, passenger_cost
        self._index: _Index | None = None

    def index(self, plan: Plan) -> _Index:
        """The seating's index on its own plan."""
        if self._index is None:
            riding: dict[int, set[int]] = {}
            short: set[int] = set()
            free = {idx: cabin_seats(plan, a) for idx, a in enumerate(plan.aircraft_of) if a is not None}
            for line in self.lines:
                if not reached(plan, line):
                    short.add(line.trip)
                for idx, cabin in line.legs:
                    riding.setdefault(idx, set()).add(line.trip)
                    free[idx][cabin] -= line.passengers
            self._index = _Index(riding, short, free)
        return self._index


@dataclass(slots=True, frozen=True)
class _Index:
    riding: dict[int, set[int]]  # flight -> trips with a line on it
    short: set[int]  # trips with passengers not at their destination
    free: dict[int, dict[str, int]]  # operated flight -> cabin -> seats left


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
    index = seating.index(base)
    changed = changed_flights(plan, base)
    on = trips_on(plan.net)
    touched: set[int] = set()
    for idx in changed:
        touched.update(on[idx])
        touched.update(index.riding.get(idx, ()))
    short = index.short - touched  # left short on unchanged flights: seated again only where that is cheaper
    kept: list[PassengerLine] = []
    removed: list[PassengerLine] = []
    old_short: dict[int, list[PassengerLine]] = {}
    for line in seating.lines:
        if line.trip in touched:
            removed.append(line)
        else:
            kept.append(line)
            if line.trip in short:
                old_short.setdefault(line.trip, []).append(line)
    free = {idx: dict(cabins) for idx, cabins in index.free.items()}
    for idx in changed:  # no kept line rides a changed flight: all its seats are free
        aircraft_id = plan.aircraft_of[idx]
        if aircraft_id is None:
            free.pop(idx, None)
        else:
            free[idx] = cabin_seats(plan, aircraft_id)
    for line in removed:
        for idx, cabin in line.legs:
            if idx not in changed:
                free[idx][cabin] += line.passengers
    rank = seating_rank(plan.net)
    seats = _Seats(None, free)
    new = seat_trips(plan, seats, sorted(touched, key=rank.__getitem__))
    cost = seating.passenger_cost - passenger_total(base, removed) + passenger_total(plan, new)
    # A move may have opened a route for a trip left short; its lines (the MIP's, maybe) stay unless the
    # greedy does better with the seats left: re-seating them regardless lost B07 60,000 on every move.
    replaced: set[int] = set()
    router = _Router(plan, seats)  # its memory of routes found none may miss one the freed seats open: kept
    for t in sorted(short, key=rank.__getitem__):
        old = old_short.get(t, [])
        _shift(seats, old, +1)
        trial = seat_trips(plan, seats, [t], router)
        delta = passenger_total(plan, trial) - passenger_total(base, old)
        if delta < -1e-6:
            new.extend(trial)
            replaced.add(t)
            cost += delta
        else:
            _shift(seats, trial, +1)
            _shift(seats, old, -1)
    if replaced:
        kept = [line for line in kept if line.trip not in replaced]
    return Seating(kept + new, cost)


def _shift(seats: _Seats, lines: list[PassengerLine], sign: int) -> None:
    """Give the lines' seats back (+1) or take them again (-1)."""
    for line in lines:
        for idx, cabin in line.legs:
            seats.free[idx][cabin] += sign * line.passengers


_RANK: PerObject[Network, list[int]] = PerObject()


def seating_rank(net: Network) -> list[int]:
    """Trip → its position in the network's seating order."""

    def build(net: Network) -> list[int]:
        rank = [0] * len(net.trips)
        for position, t in enumerate(net.seating_order):
            rank[t] = position
        return rank

    return _RANK.get(net, build)
