"""The lower bound's re-routed lines (lower_bound.py): a trip's passengers reaching their destination by a last leg
— a planned flight into it, or (the timed LP) the new flights of a route into it — per copy of that leg, reached
from the trip's origin in one of the ways every line reaching it must: the last leg leaves from there; one leg got
them to its origin (a planned flight, or a route's new flights: their seats, their time); or two legs or more did
(the shortest such route path, free). Without the first legs (the LP per airport) the last leg's origin is
reached free over the shortest route path. The argument is in lower_bound.py's docstring.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .bound_facts import FlightFacts
from .bound_lp import Copy, Entries, NewFlights, _Trip
from .model import Instance

NEVER = 1 << 40


@dataclass(frozen=True, slots=True)
class Network:
    """What re-routing reads of the flights: those flying into each airport and between each pair, the shortest
    ready-to-ready times over the routes (bound_facts.ready_times) with any number of legs and with two or more."""

    into: dict[str, list[FlightFacts]]
    between: dict[tuple[str, str], list[FlightFacts]]
    reach: dict[str, dict[str, int]]
    reach2: dict[str, dict[str, int]]
    first_legs: bool  # whether a line's first leg into its last leg's origin is priced (seats, time), or free


@dataclass(frozen=True, slots=True)
class Leg:
    """One way to fly a leg: a planned flight, or a route's new flights; its copies, and the entries a column
    flying it on a copy takes (made when the column is: the rows they name are made on first use)."""

    origin: str
    destination: str
    duration: int
    copies: list[Copy]
    entries: Callable[[Copy], Entries]
    flight: tuple[int, int] | None = None  # the planned flight's key; None for new flights


def planned(trip: _Trip, f: FlightFacts) -> Leg:
    """Its seats, the trip's link to it and to its copy."""

    def entries(copy: Copy) -> Entries:
        out = [(trip.seat_rows[f.key], 1.0)] + ([(trip.link(f.key), 1.0)] if f.key in trip.offers else [])
        return out + trip.copy_link(f, copy)

    return Leg(f.origin, f.destination, f.duration, trip.copies(f), entries, f.key)


def new_flights(trip: _Trip, new: NewFlights, origin: str, destination: str, duration: int) -> Leg | None:
    """The route's new flights of the timed LP, by slot: their seats there."""
    slots = new.by_route.get((origin, destination))
    if not slots:
        return None
    copies = [copy for copy, _ in slots.values()]

    def entries(c: Copy) -> Entries:
        return new.route_seats(trip.lp, origin, destination, c.slot) + trip.new_link(new, origin, destination, c.slot)

    return Leg(origin, destination, duration, copies, entries)


def last_legs(trip: _Trip, net: Network, new: NewFlights, instance: Instance) -> Iterator[Leg]:
    """Every planned flight into the trip's destination and, timed, every route's new flights into it."""
    t = trip.t
    for g in net.into[t.destination]:
        yield planned(trip, g)
    if net.first_legs:
        for (origin, destination), route in instance.routes.items():
            if destination == t.destination and origin != t.destination:
                leg = new_flights(trip, new, origin, destination, route.duration)
                if leg is not None:
                    yield leg


def by_last_leg(trip: _Trip, last: Leg, net: Network, new: NewFlights, instance: Instance, horizon: int) -> int | None:
    """The columns of lines ending with `last`, per copy of it and way of reaching its origin; returns the least
    delay past the horizon, left to the late column."""
    t = trip.t
    late: int | None = None
    ways = list(_ways_to(trip, last, net, new, instance))
    for copy in last.copies:
        for ready, first, first_copy in ways:
            leave = max(copy.lower, ready)
            if leave > copy.upper or leave + last.duration > t.deadline:
                continue
            delay = max(0, leave + last.duration - t.planned_arrival)
            if delay > horizon:
                late = delay if late is None else min(late, delay)
                continue
            entries = [(trip.count, 1.0)] + last.entries(copy)
            if first is not None and first_copy is not None:
                entries += first.entries(first_copy)
            trip.lp.col("route", t.delay_cost(delay), trip.p, entries)
    return late


def _ways_to(
    trip: _Trip, last: Leg, net: Network, new: NewFlights, instance: Instance
) -> Iterator[tuple[int, Leg | None, Copy | None]]:
    """(when the passengers can leave the last leg's origin, the first leg that took them there and its copy)."""
    t, conn, x = trip.t, instance.min_connection, last.origin
    if x == t.origin:
        yield t.ready, None, None
        return
    if not net.first_legs:
        if x in net.reach.get(t.origin, {}):
            yield t.ready + net.reach[t.origin][x], None, None
        return
    firsts = [planned(trip, f) for f in net.between.get((t.origin, x), ()) if f.key != last.flight]
    route = instance.routes.get((t.origin, x))  # new flights on it are other flights than the last leg's (x ≠ origin)
    leg = new_flights(trip, new, t.origin, x, route.duration) if route is not None else None
    for first in [*firsts, *([leg] if leg else [])]:
        for copy in first.copies:
            if copy.upper >= t.ready:
                yield max(copy.lower, t.ready) + first.duration + conn, first, copy
    if x in net.reach2.get(t.origin, {}):
        yield t.ready + net.reach2[t.origin][x], None, None


def two_legs(instance: Instance, reach: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """The shortest ready-to-ready time from one airport to another over two legs or more: a first route, then
    the shortest way on."""
    conn = instance.min_connection
    out: dict[str, dict[str, int]] = defaultdict(dict)
    for (origin, via), route in instance.routes.items():
        for destination, minutes in reach.get(via, {}).items():
            if destination != via and route.duration + conn + minutes < out[origin].get(destination, NEVER):
                out[origin][destination] = route.duration + conn + minutes
    return out
