"""The lower bound's passenger columns (lower_bound.py): per itinerary kept (per copy of its last leg),
cancelled, re-routed by its last leg (bound_routes.py; without the timed LP also a new flight in a landing hour),
or late; each trip's passengers on a flight linked to it. The argument that every row holds for a feasible plan is
in lower_bound.py's docstring.
"""

from __future__ import annotations

from collections import defaultdict

from .bound_facts import FlightFacts, TripBound, ready_times
from .bound_lp import _LP, INF, Key, NewFlights, Offer, _Trip
from .bound_routes import Network, by_last_leg, last_legs, two_legs
from .model import Instance


def passengers(
    instance: Instance,
    lp: _LP,
    flights: dict[Key, FlightFacts],
    offers: dict[Key, list[Offer]],
    seat_rows: dict[Key, int],
    new: NewFlights,
    trips: list[TripBound],
    horizon: int,
    first_legs: bool = False,
    new_flights: bool = True,
) -> None:
    """Every trip's columns. `first_legs`: a re-routed line reaching its last leg's origin by one leg uses that
    leg's seats and time (the timed LP; per airport it lifted A01's bound by nothing and kept A05 from any bound
    within 60 s: the untimed new flights stay the way out), else it gets there free over the shortest route path."""
    into: dict[str, list[FlightFacts]] = defaultdict(list)
    between: dict[tuple[str, str], list[FlightFacts]] = defaultdict(list)
    for key, f in flights.items():
        if key in seat_rows:
            into[f.destination].append(f)
            between[(f.origin, f.destination)].append(f)
    reach = ready_times(instance)
    net = Network(into, between, reach, two_legs(instance, reach) if first_legs else {}, first_legs)
    conn = instance.min_connection
    for t in trips:
        p = float(t.itinerary.passengers)
        if p <= 0:
            continue
        trip = _Trip(t, p, lp.row(p, p), lp, offers, seat_rows)
        lp.col("cancel", t.cancel_cost, p, [(trip.count, 1.0)])
        _keep(trip, flights)
        late = None
        for leg in last_legs(trip, net, new, instance):
            late = _least(late, by_last_leg(trip, leg, net, new, instance, horizon))
        at = reach.get(t.origin, {t.origin: 0})
        if new_flights and not first_legs and t.destination in at and t.origin != t.destination:
            late = _by_new_flight(lp, new, trip, t.ready + at[t.destination] - conn, horizon, late)
        if late is not None:
            lp.col("late", t.delay_cost(late), p, [(trip.count, 1.0)])


def _least(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else min(a, b)


def _keep(trip: _Trip, flights: dict[Key, FlightFacts]) -> None:
    """Kept on the booked legs: one column per copy of the last one, at the delay that copy allows at least."""
    t, lp = trip.t, trip.lp
    if t.keep_delay is None or t.planned_arrival + t.keep_delay > t.keep_deadline:
        return
    entries = [(trip.count, 1.0)] + [(trip.seat_rows[k], 1.0) for k in t.legs if k in trip.seat_rows]
    entries += [(trip.link(k), 1.0) for k in t.legs if k in trip.offers]
    last = flights[t.legs[-1]] if t.legs else None
    if last is None:
        lp.col("keep", t.delay_cost(t.keep_delay), trip.p, entries)
        return
    for copy in trip.copies(last):  # a copy leaving before the passengers can board it keeps nobody
        delay = max(t.keep_delay, copy.lower + last.duration - t.planned_arrival)
        if copy.upper >= (t.keep_last_departure or 0) and t.planned_arrival + delay <= t.keep_deadline:
            lp.col("keep", t.delay_cost(delay), trip.p, entries + trip.copy_link(last, copy))


def _by_new_flight(lp: _LP, new: NewFlights, trip: _Trip, arrival: int, horizon: int, late: int | None) -> int | None:
    """Columns landing by a new flight in each clock hour from the earliest arrival (a shortest route path),
    up to the horizon; returns the least delay of those left to the late column."""
    t, p = trip.t, trip.p
    hour = arrival - arrival % 60
    while arrival <= t.deadline:
        delay = max(0, arrival - t.planned_arrival)
        if delay > horizon:
            return delay if late is None else min(late, delay)
        z, seat_row = new.hour(lp, t.destination, hour)
        link = lp.row(-INF, 0.0)  # w ≤ p·Z
        lp.entries[z].append((link, -p))
        entries = [(trip.count, 1.0), (new.seats[t.destination], 1.0), (seat_row, 1.0), (link, 1.0)]
        lp.col("reroute_new", t.delay_cost(delay), p, entries)
        hour += 60
        arrival = hour
    return late
