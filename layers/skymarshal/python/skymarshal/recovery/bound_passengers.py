"""The LP of the lower bound (lower_bound.py) under construction, and its passenger columns: per itinerary kept,
cancelled, re-routed by its last leg (a planned flight, a new flight in a landing hour, a late one), and each
trip's passengers on a flight g linked to y_g. The argument that every row holds for a feasible plan is in lower_bound.py's docstring.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from .bound_facts import FlightFacts, TripBound, ready_times
from .model import Instance

INF = float("inf")
Key = tuple[int, int]


class _LP:
    """A column-wise LP under construction."""

    def __init__(self) -> None:
        self.cost: list[float] = []
        self.lower: list[float] = []
        self.upper: list[float] = []
        self.entries: list[list[tuple[int, float]]] = []
        self.kinds: list[str] = []  # what each column is (flight, new, ending, short, keep, cancel, route, ...)
        self.row_lower: list[float] = []
        self.row_upper: list[float] = []
        self.constant = 0.0

    def row(self, lower: float, upper: float) -> int:
        self.row_lower.append(lower)
        self.row_upper.append(upper)
        return len(self.row_lower) - 1

    def col(self, kind: str, cost: float, upper: float, entries: list[tuple[int, float]]) -> int:
        self.kinds.append(kind)
        self.cost.append(cost)
        self.lower.append(0.0)
        self.upper.append(upper)
        self.entries.append(entries)
        return len(self.cost) - 1


@dataclass(slots=True)
class NewFlights:
    """The rows new flights give passengers: seats landing per airport (any family, any time), how many land,
    and per landing hour Z_{s,b} (made on demand): each carries at most `most` seats, and a trip uses a
    landing hour's flights only as far as that hour has one (w ≤ p·Z: a flight is whole or absent)."""

    seats: dict[str, int]
    count: dict[str, int]
    most: int
    upper: float
    hours: dict[tuple[str, int], tuple[int, int]] = field(default_factory=dict)  # → (Z column, seat row)

    def hour(self, lp: _LP, airport: str, hour: int) -> tuple[int, int]:
        if (airport, hour) not in self.hours:
            seat_row = lp.row(-INF, 0.0)
            z = lp.col("landing", 0.0, self.upper, [(self.count[airport], -1.0), (seat_row, -float(self.most))])
            self.hours[(airport, hour)] = (z, seat_row)
        return self.hours[(airport, hour)]


@dataclass(slots=True)
class _Trip:
    """One itinerary's rows while its columns are made: passenger count, links to flights."""

    t: TripBound
    p: float
    count: int
    links: dict[Key, int] = field(default_factory=dict)  # flight → Σ trip's passengers on it − p·y ≤ 0


def passengers(
    instance: Instance,
    lp: _LP,
    flights: dict[Key, FlightFacts],
    y: dict[Key, list[int]],
    seat_rows: dict[Key, int],
    new: NewFlights,
    trips: list[TripBound],
    horizon: int,
) -> None:
    into: dict[str, list[FlightFacts]] = defaultdict(list)
    for key, f in flights.items():
        if key in seat_rows:
            into[f.destination].append(f)
    reach = ready_times(instance)
    conn = instance.min_connection
    for t in trips:
        p = float(t.itinerary.passengers)
        if p <= 0:
            continue
        trip = _Trip(t, p, lp.row(p, p))
        lp.col("cancel", t.cancel_cost, p, [(trip.count, 1.0)])
        if t.keep_delay is not None and t.planned_arrival + t.keep_delay <= t.keep_deadline:
            entries = [(trip.count, 1.0)] + [(seat_rows[k], 1.0) for k in t.legs if k in seat_rows]
            entries += [(_link(lp, trip, y, k), 1.0) for k in t.legs if k in y]
            lp.col("keep", t.delay_cost(t.keep_delay), p, entries)
        at = reach.get(t.origin, {t.origin: 0})
        late = None
        for g in into[t.destination]:
            if g.origin != t.origin and g.origin not in at:
                continue
            leave = max(g.earliest, t.ready + at[g.origin])
            if leave > g.latest or leave + g.duration > t.deadline:
                continue
            delay = max(0, leave + g.duration - t.planned_arrival)
            if delay > horizon:
                late = delay if late is None else min(late, delay)
                continue
            entries = [(trip.count, 1.0), (seat_rows[g.key], 1.0)]
            if g.key in y:  # shared with the kept passengers when g is the trip's own last leg
                entries.append((_link(lp, trip, y, g.key), 1.0))
            lp.col("route", t.delay_cost(delay), p, entries)
        if t.destination in at and t.origin != t.destination:
            late = _by_new_flight(lp, new, trip, t.ready + at[t.destination] - conn, horizon, late)
        if late is not None:
            entries = [(trip.count, 1.0)]
            lp.col("late", t.delay_cost(late), p, entries)


def _link(lp: _LP, trip: _Trip, y: dict[Key, list[int]], key: Key) -> int:
    """The row Σ (trip's columns on flight `key`) − p·y_key ≤ 0, made once per trip and flight."""
    if key not in trip.links:
        trip.links[key] = lp.row(-INF, 0.0)
        for col in y[key]:
            lp.entries[col].append((trip.links[key], -trip.p))
    return trip.links[key]


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
