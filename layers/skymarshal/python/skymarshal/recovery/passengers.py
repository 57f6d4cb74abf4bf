"""Passenger recovery on a fixed aircraft plan: keep intact trips, re-route the rest, cancel what is left.

Trips whose booked legs all still fly with a legal connection keep their seats first (changing cabin on a
booked leg only where a smaller aircraft forces it). The others are re-routed by an earliest-arrival
search over the operated flights with free seats (from where their fixed part ends, never leaving before
the booked departure, within the outbound delay limit), split over several routes if seats run short.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .aircraft_plan import Plan
from .checker import MAX_OUTBOUND_DELAY
from .model import CABINS, Cabin
from .network import Network, Trip
from .object_cache import PerObject


@dataclass(slots=True)
class PassengerLine:
    trip: int  # index into Network.trips
    passengers: int
    legs: list[tuple[int, Cabin]]  # (flight idx, cabin); empty = cancelled


def _cabin_order(preferred: Cabin) -> list[Cabin]:
    """Preferred cabin, then better cabins (free), then worse ones (downgrade cost), nearest first."""
    p = CABINS.index(preferred)
    better = [CABINS[i] for i in range(p - 1, -1, -1)]
    worse = [CABINS[i] for i in range(p + 1, len(CABINS))]
    return [preferred] + better + worse


CABIN_ORDER = {cabin: _cabin_order(cabin) for cabin in CABINS}


def cabin_seats(plan: Plan, aircraft_id: str) -> dict[str, int]:
    """Seats per cabin. The CDG-ORY 'TranspCom' links list -1 seats per cabin: nobody is seated there. Left
    negative, their total (-3) passed the router's "any seat free" test and the route then failed to seat
    anyone, so passengers whose earliest route crossed Paris were cancelled."""
    return {cabin: max(0, n) for cabin, n in plan.net.aircraft[aircraft_id].seats.items()}


class _Seats:
    def __init__(self, plan: Plan | None, free: dict[int, dict[str, int]] | None = None):
        """Every operated flight's seats, or the given free seats (incremental.py)."""
        if free is not None or plan is None:
            self.free = free or {}
            return
        self.free = {idx: cabin_seats(plan, a) for idx, a in enumerate(plan.aircraft_of) if a is not None}

    def total(self, idx: int) -> int:
        return sum(self.free[idx].values())

    def place(self, trip_idx: int, legs: Sequence[tuple[int, Cabin]], n: int) -> list[PassengerLine]:
        """Seat up to n passengers on the legs (each with a preferred cabin); lines split by cabin mix."""
        free = self.free
        if all(free[idx][asked] >= n for idx, asked in legs):  # the common case: everyone as asked
            for idx, asked in legs:
                free[idx][asked] -= n
            return [PassengerLine(trip_idx, n, list(legs))]
        lines: list[PassengerLine] = []
        while n > 0:
            chosen: list[tuple[int, Cabin]] = []
            for idx, preferred in legs:
                cabin = next((c for c in CABIN_ORDER[preferred] if self.free[idx][c] > 0), None)
                if cabin is None:
                    return lines
                chosen.append((idx, cabin))
            m = min(n, min(self.free[idx][c] for idx, c in chosen))
            for idx, c in chosen:
                self.free[idx][c] -= m
            lines.append(PassengerLine(trip_idx, m, chosen))
            n -= m
        return lines


def _intact(plan: Plan, trip: Trip) -> bool:
    """Every booked leg flies and every connection holds (the lenient reading exempts those before the window;
    under the strict one a connection the imposed delays broke sends the trip to re-accommodation)."""
    net = plan.net
    exempt_before = net.instance.config.window_start if net.rules.connections == "lenient" else -(1 << 60)
    arrival = None
    for idx in trip.flights:
        if plan.aircraft_of[idx] is None:
            return False
        departure = plan.departure[idx]
        if arrival is not None and departure - arrival < net.instance.min_connection and departure >= exempt_before:
            return False
        arrival = departure + net.flights[idx].duration
    assert arrival is not None, f"itinerary {trip.itinerary.id} has no leg (trip_facts reads its last one)"
    return trip.itinerary.kind == "R" or arrival - trip.facts.planned_arrival <= MAX_OUTBOUND_DELAY[trip.facts.haul]


_MINUTES_TO: PerObject[Network, dict[str, dict[str, int]]] = PerObject()


def minutes_to(net: Network, destination: str) -> dict[str, int]:
    """The least time from landing at each airport to landing at the destination over the instance's flights
    (legs and minimum connections, no waits): a bound the router prunes by, computed once per destination."""
    bounds = _MINUTES_TO.get(net, lambda _: {})
    if destination not in bounds:
        inbound: dict[str, list[tuple[int, str]]] = {}
        for f in net.flights:
            inbound.setdefault(f.destination, []).append((f.duration, f.origin))
        found = {destination: 0}
        heap = [(0, destination)]
        while heap:
            minutes, airport = heapq.heappop(heap)
            if minutes > found[airport]:
                continue
            for duration, origin in inbound.get(airport, ()):
                # from landing at origin: connect, fly; the destination itself needs no connection onward
                total = minutes + duration + net.instance.min_connection
                if total < found.get(origin, 1 << 60):
                    found[origin] = total
                    heapq.heappush(heap, (total, origin))
        bounds[destination] = found
    return bounds[destination]


class _Router:
    """Earliest-arrival search over the operated flights of a plan."""

    def __init__(self, plan: Plan, seats: _Seats):
        self.plan, self.seats = plan, seats
        self.out: dict[str, list[tuple[int, int]]] = {}
        for idx, aircraft_id in enumerate(plan.aircraft_of):
            if aircraft_id is not None:
                self.out.setdefault(plan.net.flights[idx].origin, []).append((plan.departure[idx], idx))
        for flights in self.out.values():
            flights.sort()
        # Seats only ever fill up while a plan's passengers are placed, so an earliest route whose flights all
        # still have a seat is still the earliest, and where none was found none will be.
        self.known: dict[tuple[str, int, str, int], list[int] | None] = {}

    def route(self, origin: str, ready: int, destination: str, deadline: int) -> list[int] | None:
        """Flight indices from origin (leaving at or after ready) to destination arriving by deadline."""
        key = (origin, ready, destination, deadline)
        if key in self.known:
            path = self.known[key]
            if path is None or all(self.seats.total(idx) for idx in path):
                return path
        path = self.known[key] = self._earliest(origin, ready, destination, deadline)
        return path

    def _earliest(self, origin: str, ready: int, destination: str, deadline: int) -> list[int] | None:
        net = self.plan.net
        to_go = minutes_to(net, destination)
        best = {origin: ready}
        came_by: dict[str, tuple[str, int]] = {}
        heap = [(ready, origin)]
        while heap:
            time, airport = heapq.heappop(heap)
            if airport == destination:
                return self._path(came_by, origin, destination)
            if time > best.get(airport, 1 << 60):
                continue
            leave = time if airport == origin else time + net.instance.min_connection
            flights = self.out.get(airport, [])
            for departure, idx in flights[bisect.bisect_left(flights, (leave, -1)) :]:
                limit = min(deadline, best.get(destination, 1 << 60) - 1)  # the latest useful arrival
                if departure > limit:
                    break  # every later flight lands after the best arrival found (or the deadline)
                f = net.flights[idx]
                arrival = departure + f.duration
                if (
                    arrival + to_go.get(f.destination, 1 << 60) > limit
                    or arrival >= best.get(f.destination, 1 << 60)
                    or self.seats.total(idx) == 0
                ):
                    continue
                best[f.destination] = arrival
                came_by[f.destination] = (airport, idx)
                heapq.heappush(heap, (arrival, f.destination))
        return None

    @staticmethod
    def _path(came_by, origin: str, destination: str) -> list[int]:
        path, airport = [], destination
        while airport != origin:
            airport, idx = came_by[airport]
            path.append(idx)
        return path[::-1]


def plan_passengers(plan: Plan) -> list[PassengerLine]:
    """Every trip's passengers seated greedily, in the network's seating order."""
    return seat_trips(plan, _Seats(plan), plan.net.seating_order)


def seat_trips(plan: Plan, seats: _Seats, order: Iterable[int], router: _Router | None = None) -> list[PassengerLine]:
    """The trips' passengers (in this order) seated greedily into the free seats: intact trips as booked,
    partly flown ones re-routed at once, the others re-routed once every intact trip is seated. A caller
    seating trip by trip passes one router over `seats` (building one reads every flight)."""
    net = plan.net
    lines: list[PassengerLine] = []
    pending: list[tuple[int, int]] = []
    router = router or _Router(plan, seats)
    for t in order:
        trip = net.trips[t]
        n = trip.itinerary.passengers
        if _intact(plan, trip):
            placed = seats.place(t, trip.booked, n)
            lines.extend(placed)
            n -= sum(line.passengers for line in placed)
        if n and trip.fixed_legs:  # partly flown: re-routed at once (stopping them costs an inbound trip)
            lines.extend(_reroute(plan, seats, router, t, n))
        elif n:
            pending.append((t, n))
    for t, n in pending:
        lines.extend(_reroute(plan, seats, router, t, n))
    return lines


def rebooking(plan: Plan, trip: Trip) -> tuple[str, int, int]:
    """Where and when a trip's re-booked legs may start, and by when they must land: after its fixed part
    (and a connection) or at its first leg's origin and planned departure, once the window is open; an
    outbound trip within its delay limit."""
    net = plan.net
    if trip.fixed_legs:
        last = net.flights[trip.flights[trip.fixed_legs - 1]]
        origin, ready = last.destination, plan.departure[last.idx] + last.duration + net.instance.min_connection
    else:
        first = net.flights[trip.flights[0]]
        origin, ready = first.origin, first.planned_departure
    ready = max(ready, net.instance.config.window_start)  # re-booked legs leave once the window is open
    deadline = net.instance.config.window_end
    if trip.itinerary.kind == "A":
        deadline = min(deadline, trip.facts.planned_arrival + MAX_OUTBOUND_DELAY[trip.facts.haul])
    return origin, ready, deadline


def _reroute(plan: Plan, seats: _Seats, router: _Router, t: int, n: int) -> list[PassengerLine]:
    net = plan.net
    trip = net.trips[t]
    fixed = trip.booked[: trip.fixed_legs]
    if any(plan.aircraft_of[idx] is None for idx, _ in fixed):  # history cancelled under them: no recovery
        return [PassengerLine(t, n, [])]
    origin, ready, deadline = rebooking(plan, trip)
    lines = []
    while n > 0:
        path = router.route(origin, ready, trip.facts.destination, deadline)
        if not path:
            break
        placed = seats.place(t, fixed + [(idx, trip.facts.reference_cabin) for idx in path], n)
        if not placed:
            break
        lines.extend(placed)
        n -= sum(line.passengers for line in placed)
    if n > 0 and fixed:  # they flew part of their trip before the window: they stop where it left them
        lines.extend(placed := seats.place(t, fixed, n))
        n -= sum(line.passengers for line in placed)
    if n > 0:
        lines.append(PassengerLine(t, n, []))
    return lines
