"""A lower bound on the day's passenger delay at the final destination: no policy, the hindsight's included, can
fly a day whose scorecard (``scorecard``) counts fewer passenger-minutes.

It is the day's delay in a relaxation of every day a policy can fly: each flight leaves at the earliest any policy
could make it leave — its schedule, or later where the cause holds the flight itself whatever aircraft and crew fly
it (a flight held: a slot, security, passengers; a departure from a station the weather closes, which leaves as it
reopens) — with any aircraft and crew (an AOG or a sick crew member delays nobody: a spare or a reserve might
have flown it), every seat free and no cancellation forced. Each passenger then takes the earliest arrival at
their final destination the relaxed network offers from their booked departure, connecting at the airport's
minimum connection time as the scorecard walks them, or a partner carrier for a booked segment (the scorecard's
``INTERLINE_MINUTES``), or is stranded (the scorecard's next-day delay, less the journey's scheduled length it
may already have flown). A capacity cut, a diversion and the rotation's knock-on only ever add delay: relaxed.

Every day a policy flies is a day of the relaxation with more constraints, and the scorecard's walk is the
relaxation's walk with the flights as flown, so each journey's delay there is at least its delay here (a test
checks it against every baseline). The bound is cheap and loose where the day's causes are aircraft and crews;
it is tight where they hold flights and stations.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from pydantic import BaseModel, ConfigDict

from ..models.operational import Booking, Flight
from ..rules.finance import STRANDED_MINUTES
from .realize import DayState, flights_of
from .scorecard import ACTIVE, DEFAULT_MCT, INTERLINE_MINUTES
from .stream import StreamEvent


class DelayBound(BaseModel):
    """The bound and what it is made of."""

    model_config = ConfigDict(frozen=True)

    passenger_delay_minutes: int
    journeys: int  # the journeys counted (a segment on the days' flights)
    journeys_delayed: int  # those the relaxation cannot bring home on time
    flights_held: int  # flights a cause holds whatever flies them


def earliest_departure(f: Flight, events: Iterable[StreamEvent]) -> datetime:
    """The earliest `f` can leave in any policy's day: its schedule (or an earlier estimate, as found), after a hold
    on the flight itself, or after a closure of its origin it would leave in (``realize._held``: the flight and the
    closure cases; the judge's queue at the reopening only adds)."""
    start = min(f.scheduled_departure, f.departure)
    ends = [e.end for e in events if _holds_whatever_flies(f, start, e)]
    return max([start, *ends])


def _holds_whatever_flies(f: Flight, start: datetime, e: StreamEvent) -> bool:
    """A hold on the flight itself, or a closure of its origin while it would leave."""
    if e.holds == "flight":
        return e.flight_id == f.flight_id
    return e.holds == "station" and e.closes and f.origin == e.station and e.start <= start < e.end


def _block(f: Flight) -> timedelta:
    """The shortest block the judge may fly `f` in: its scheduled one or its estimate's (``realize``)."""
    return min(f.scheduled_arrival - f.scheduled_departure, f.arrival - f.departure)


@dataclass(frozen=True)
class _Leg:
    departure: datetime
    arrival: datetime
    destination: str


class _Relaxed:
    """The relaxed network: every flight not cancelled as found, at its earliest departure and shortest block."""

    def __init__(self, flights: Sequence[Flight], events: Sequence[StreamEvent], mct: dict[str, int]):
        self.mct = mct
        self.leg: dict[str, _Leg] = {}
        by_origin: dict[str, list[tuple[datetime, str]]] = defaultdict(list)
        for f in flights:
            departure = earliest_departure(f, events)
            self.leg[f.flight_id] = _Leg(departure, departure + _block(f), f.destination)
            by_origin[f.origin].append((departure, f.flight_id))
        self.departures = {k: sorted(v) for k, v in by_origin.items()}
        self.held = sum(self.leg[f.flight_id].departure > f.scheduled_departure for f in flights)

    def connect(self, airport: str) -> timedelta:
        return timedelta(minutes=self.mct.get(airport, DEFAULT_MCT))

    def earliest_arrival(
        self, origin: str, ready: datetime, destination: str, partner: dict[str, list[tuple[str, datetime]]]
    ) -> datetime | None:
        """The earliest arrival at `destination` leaving `origin` from `ready` (a time-dependent Dijkstra: at an
        airport reached by a flight, the next flight leaves after the MCT); `partner`: from an airport, booked
        segments a partner carrier flies, each arriving at its fixed time whenever the passenger is there."""
        best: dict[str, datetime] = {origin: ready}
        queue: list[tuple[datetime, str]] = [(ready, origin)]
        while queue:
            at, airport = heapq.heappop(queue)
            if airport == destination:
                return at
            if at > best.get(airport, at):
                continue
            leave = at if airport == origin else at + self.connect(airport)
            options = self.departures.get(airport, [])
            for _, flight_id in options[bisect_left(options, (leave, "")) :]:
                leg = self.leg[flight_id]
                if leg.arrival < best.get(leg.destination, datetime.max.replace(tzinfo=leg.arrival.tzinfo)):
                    best[leg.destination] = leg.arrival
                    heapq.heappush(queue, (leg.arrival, leg.destination))
            for to, arrival in partner.get(airport, ()):
                if arrival < best.get(to, datetime.max.replace(tzinfo=arrival.tzinfo)):
                    best[to] = arrival
                    heapq.heappush(queue, (arrival, to))
        return None


def _journey_bound(rows: list[Booking], flights: dict[str, Flight], relaxed: _Relaxed) -> int | None:
    """The journey's least delay in minutes at its final destination (None: not a journey the scorecard counts)."""
    rows = sorted(rows, key=lambda b: b.segment)
    legs = [flights.get(b.rebooked_from or b.flight_id) for b in rows]
    if any(f is None for f in legs):
        return None
    booked = [f for f in legs if f is not None]
    first, last = booked[0], booked[-1]
    due = last.scheduled_arrival
    ready, on_time = first.scheduled_departure, True
    for f in booked:  # as booked, when every leg is at its schedule in the relaxation: home on time
        leg = relaxed.leg.get(f.flight_id)
        on_time &= leg is not None and leg.departure >= ready and leg.arrival <= f.scheduled_arrival
        ready = f.scheduled_arrival + relaxed.connect(f.destination)
    if on_time:
        return 0
    partner: dict[str, list[tuple[str, datetime]]] = defaultdict(list)
    for f in booked:
        partner[f.origin].append((f.destination, f.scheduled_arrival + timedelta(minutes=INTERLINE_MINUTES)))
    home = relaxed.earliest_arrival(first.origin, first.scheduled_departure, rows[-1].final_destination, partner)
    flown_before_stranding = round((due - first.scheduled_departure).total_seconds() / 60)
    stranded = max(0, STRANDED_MINUTES - flown_before_stranding)
    if home is None:
        return stranded
    return min(max(0, round((home - due).total_seconds() / 60)), stranded)


def delay_bound(state: DayState, events: Sequence[StreamEvent], days: Iterable[date]) -> DelayBound:
    """The bound on `state` as found (before any decision) for the journeys with a segment on `days`' flights."""
    network = [f for f in state.flights.values() if f.status != "CANCELLED" and f.flight_id not in state.added_legs]
    relaxed = _Relaxed(network, events, dict(state.min_connection_minutes))
    on_days = {f.flight_id for f in flights_of(state, days)}
    journeys: dict[tuple[str, str], list[Booking]] = defaultdict(list)
    for b in state.bookings:
        if b.status in ACTIVE:
            journeys[(b.pnr, b.passenger_id)].append(b)
    total = counted = delayed = 0
    for rows in journeys.values():
        if not any((b.rebooked_from or b.flight_id) in on_days for b in rows):
            continue
        minutes = _journey_bound(rows, state.flights, relaxed)
        if minutes is None:
            continue
        counted += 1
        delayed += minutes > 0
        total += minutes
    return DelayBound(
        passenger_delay_minutes=total, journeys=counted, journeys_delayed=delayed, flights_held=relaxed.held
    )
