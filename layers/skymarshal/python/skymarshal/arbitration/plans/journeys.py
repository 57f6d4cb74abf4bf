"""The earliest way home for the passengers of cancelled flights (issue 46 item 2), read for one decision.

The search is ``rules.reaccommodation``; this module reads what it needs through the GSIs, once per decision
(``DisruptionContext.memo``) over one window for all the cancelled flights (the earliest ready to the last horizon):
the departures from each cancelled flight's origin (origin-departure-index), the arrivals at each final destination
(destination-arrival-index), and for the middle flight of a three-flight path the departures from the stations the
first flights reach or the arrivals at the stations the last flights leave, whichever are fewer — every path of up
to three flights home is among them — and the onward flight of a connecting passenger (GetItem), for when they
were due.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from ...data import queries as q
from ...data.access import AccessDenied
from ...models.operational import Booking, Flight
from ...rules import guest
from ...rules.network import DEFAULT_NETWORK
from ...rules.reaccommodation import (
    Network,
    Party,
    Reaccommodation,
    SeatLedger,
    local_tz,
    party_key,
    protected,
    reaccommodate,
)
from ..actions import RebookJourney
from ..context import DisruptionContext
from ..memo_keys import FlightRead, LandingCost, StationFlightsRead

HORIZON_DAYS = 1  # the same local day or the next (issue 46): beyond, a partner carrier


def origin_tz(f: Flight) -> str:
    """`f`'s origin's time zone (an airport missing from the reference data: UTC)."""
    return local_tz(f.origin)


def horizon(f: Flight) -> datetime:
    """The end of the local day after `f`'s own at its origin: the last departure a re-accommodation takes."""
    zone = ZoneInfo(origin_tz(f))
    day = f.scheduled_departure.astimezone(zone).date() + timedelta(days=HORIZON_DAYS + 1)
    return datetime.combine(day, time(0), tzinfo=zone)


def _window(ctx: DisruptionContext, kind: str, iata: str, start: datetime, end: datetime) -> list[Flight]:
    """Departures from (arrivals at) `iata` scheduled from the start of `start`'s UTC day (a delayed flight of the
    day still leaves after it) to the end of `end`'s, read once per decision: whole days, so the windows of the
    decision's flights (each with its own horizon) share their reads; the search keeps to each one's horizon."""
    if start >= end:  # nothing leaves in an empty window (a landing past its horizon)
        return []
    start, end = start.astimezone(UTC), end.astimezone(UTC)
    low = start.replace(hour=0, minute=0, second=0, microsecond=0)
    high = end.replace(hour=0, minute=0, second=0, microsecond=0)
    high += timedelta(days=1) if high < end else timedelta(0)
    read = q.departures if kind == "departures" else q.arrivals
    return ctx.memo(StationFlightsRead(kind, iata, low, high), lambda: read(ctx.handle, iata, low, high))


def candidate_flights(
    ctx: DisruptionContext, homes: Mapping[str, set[str]], start: datetime, end: datetime
) -> list[Flight]:
    """Every flight a path of up to three legs leaving in [start, end) from an origin of `homes` to one of its
    destinations can use: the first leg from the origins' departures, the last from the destinations' arrivals (a
    last leg leaving before `end` lands within a day of it), and the middle leg of three — from a station a first
    leg reaches to one a last leg leaves, two different stations neither already read — from the departures of the
    first kind or the arrivals at the second, whichever are fewer stations to read (per origin)."""
    origins, destinations = set(homes), set().union(*homes.values())
    first = {o: _window(ctx, "departures", o, start, end) for o in sorted(origins)}
    last = {d: _window(ctx, "arrivals", d, start, end + timedelta(days=1)) for d in sorted(destinations)}
    middle: list[Flight] = []
    for origin, to in sorted(homes.items()):
        reached = {f.destination for f in first[origin]} - origins
        feeding = {f.origin for d in to for f in last[d]} - destinations - {origin}
        if not reached or not feeding or len(reached | feeding) == 1:  # no middle leg joins two stations
            continue
        if len(reached) <= len(feeding):
            middle += [f for x in sorted(reached) for f in _window(ctx, "departures", x, start, end)]
        else:
            middle += [f for y in sorted(feeding) for f in _window(ctx, "arrivals", y, start, end + timedelta(days=1))]
    found = {f.flight_id: f for group in (*first.values(), middle, *last.values()) for f in group}
    return [f for f in found.values() if not unusable(ctx, f)]


def unusable(ctx: DisruptionContext, f: Flight) -> bool:
    """A flight the disruption's own facts catch cannot take anyone home as scheduled (facts only make things
    worse): landing at or leaving the weather window's airport inside the window (a crosswind or visibility limit
    binds take-off as well as landing), or flown by the grounded tail before its estimated release (open-ended: not
    at all)."""
    if ctx.weather_window is not None:
        station, start, until = ctx.weather_window
        if (f.destination == station and start <= f.arrival < until) or (
            f.origin == station and start <= f.departure < until
        ):
            return True
    if ctx.tail_grounded and f.aircraft_registration == ctx.flight.aircraft_registration:
        return ctx.release_at is None or f.departure < ctx.release_at
    return False


def _due(ctx: DisruptionContext, f: Flight, b: Booking) -> datetime:
    """When the booking was due at its final destination: its flight's arrival, or its onward flight's (one read
    per onward flight). An onward flight that does not reach the final destination gives a lower bound (the
    delay is then counted longer, never shorter)."""
    if b.final_destination == f.destination or not b.onward_flight_id:
        return f.scheduled_arrival
    onward = _onward(ctx, b)
    return onward.scheduled_arrival if onward is not None else f.scheduled_arrival


def _read_onward(ctx: DisruptionContext, bookings: Sequence[Booking]) -> None:
    """The onward flights `_due` will ask for, not yet read in this decision: one BatchGetItem for them all."""
    wanted = {b.onward_flight_id for b in bookings if b.onward_flight_id}
    wanted = {i for i in wanted if not ctx.memoised(FlightRead(i))}
    if not wanted:
        return
    found = q.flights_by_id(ctx.handle, wanted)
    for flight_id in wanted:
        ctx.memo(FlightRead(flight_id), lambda flight_id=flight_id: found.get(flight_id))


def parties(ctx: DisruptionContext, f: Flight, bookings: Sequence[Booking], ready: datetime, exclude) -> list[Party]:
    """The active passengers of cancelled flight `f` by `party_key`, waiting at its origin from `ready`."""
    groups: dict[str, list[Booking]] = defaultdict(list)
    for b in guest.active(bookings, f.flight_id):
        groups[party_key(b)].append(b)
    _read_onward(ctx, [rows[0] for rows in groups.values() if rows[0].final_destination != f.destination])
    return [
        Party(
            party_id=f"{f.flight_id}|{key}",
            passengers=len(rows),
            cabin=rows[0].cabin,
            origin=f.origin,
            ready=ready,
            waiting_since=f.scheduled_departure,
            destination=rows[0].final_destination,
            scheduled_arrival=_due(ctx, f, rows[0]),
            protected=protected(rows[0]),
            exclude=frozenset(exclude),
        )
        for key, rows in sorted(groups.items())
        if rows[0].final_destination != f.origin
    ]


def _mct(ctx: DisruptionContext, flights: Sequence[Flight]) -> dict[str, int]:
    """The minimum connection time of each station where a connection can be made (a flight lands there and
    another leaves), the profiles read in one batch once per decision; elsewhere none is needed."""
    stations = {f.destination for f in flights} & {f.origin for f in flights}
    try:
        profiles = ctx.read_profiles(stations)
    except AccessDenied:  # a handle without the airport table: the carrier's default MCT
        profiles = {}
    return {iata: p.min_connection_minutes for iata, p in sorted(profiles.items()) if p.min_connection_minutes}


def ready_at(ctx: DisruptionContext, f: Flight) -> datetime:
    """The passengers of cancelled `f` can leave from its schedule, or from the decision when it is later (but
    within the horizon: a replay's clock far from the data does not empty the network)."""
    return max(f.scheduled_departure, ctx.now) if ctx.now < horizon(f) else f.scheduled_departure


def reaccommodation(
    ctx: DisruptionContext, cancelled: Sequence[Flight], bookings: dict[str, list[Booking]]
) -> dict[str, Reaccommodation]:
    """Each cancelled flight's passengers on their earliest ways home, the flights of `cancelled` all out and the
    seats shared (one ledger: a seat given to one flight's passengers is not free for the next's)."""
    if not cancelled:
        return {}
    gone = {f.flight_id for f in cancelled}
    ready = {f.flight_id: ready_at(ctx, f) for f in cancelled}
    who = {f.flight_id: parties(ctx, f, bookings.get(f.flight_id, []), ready[f.flight_id], gone) for f in cancelled}
    homes: dict[str, set[str]] = defaultdict(set)
    for f in cancelled:
        homes[f.origin] |= {p.destination for p in who[f.flight_id]}
    # one read of the network for every cancelled flight
    flights = candidate_flights(ctx, homes, min(ready.values()), max(horizon(f) for f in cancelled))
    network, mct, ledger = Network(flights), _mct(ctx, flights), SeatLedger()
    return {f.flight_id: reaccommodate(who[f.flight_id], network, horizon(f), mct, ledger) for f in cancelled}


def journeys(result: Reaccommodation) -> list[RebookJourney]:
    """The plan's record of each party's journeys (the party key without the flight id)."""
    return [
        RebookJourney(
            party=j.party_id.split("|", 1)[1],
            flights=list(j.flight_ids),
            passengers=j.passengers,
            arrival=j.arrival,
            delay_minutes=j.delay_minutes,
            overnight=j.overnight,
        )
        for j in result.journeys
    ]


@dataclass(frozen=True)
class Landed:
    """What a flight's passengers' day costs when it lands late: minutes at their final destinations, those whose
    way home waits over a night at the connection, and those no own flight takes home in the horizon."""

    minutes: int
    stranded: int
    unplaced: int


def landing(
    ctx: DisruptionContext,
    f: Flight,
    bookings: Sequence[Booking],
    arrival: datetime,
    moved: Mapping[str, datetime],
    costed: Set[str] = frozenset(),
) -> Landed:
    """`f`'s active passengers when it lands at `arrival`, walked to their final destinations as the day scorecard
    walks an itinerary: one ending there (or with no onward flight on record) at `f`'s arrival delay; a connecting
    one who makes the onward flight (lands the connecting airport's MCT before its departure as planned, `moved`
    the plan's new departures) at that flight's delay; one who misses it on the earliest direct flight home from the
    connection (``rules.reaccommodation``, seats checked). One whose onward flight is in `costed` (the plan re-times
    or cancels it) is left to that flight's own rows. Once per flight, landing and onward moves a decision."""
    active = guest.active(bookings, f.flight_id)
    onward_ids = {b.onward_flight_id for b in active if b.onward_flight_id and b.final_destination != f.destination}
    left = frozenset(onward_ids & set(costed))
    rows = [b for b in active if b.onward_flight_id not in left]
    _read_onward(ctx, [b for b in rows if b.final_destination != f.destination])
    key = LandingCost(f.flight_id, arrival, tuple(sorted((i, moved[i]) for i in onward_ids if i in moved)), left)
    return ctx.memo(key, lambda: _landing(ctx, f, rows, arrival, moved))


def _onward(ctx: DisruptionContext, b: Booking) -> Flight | None:
    """The booking's onward flight, read once per decision (`_read_onward` batches them first)."""
    return ctx.memo(FlightRead(b.onward_flight_id or ""), lambda: q.get_flight(ctx.handle, b.onward_flight_id or ""))


def _landing(
    ctx: DisruptionContext, f: Flight, rows: Sequence[Booking], arrival: datetime, moved: Mapping[str, datetime]
) -> Landed:
    late = max(0, math.ceil((arrival - f.scheduled_arrival).total_seconds() / 60))
    onwards = {
        b.booking_id: _onward(ctx, b) for b in rows if b.onward_flight_id and b.final_destination != f.destination
    }
    connect = timedelta(minutes=mct_at(ctx, f.destination) if any(onwards.values()) else 0)
    minutes, missed = 0, 0
    groups: dict[str, list[tuple[Booking, Flight]]] = defaultdict(list)
    for b in rows:
        onward = onwards.get(b.booking_id)
        if onward is None:
            minutes += late
            continue
        leaves = moved.get(onward.flight_id, onward.departure)
        if arrival + connect <= leaves:
            lands = onward.arrival + (leaves - onward.departure)
            minutes += max(0, math.ceil((lands - onward.scheduled_arrival).total_seconds() / 60))
        else:
            groups[party_key(b)].append((b, onward))
            missed += 1
    if not missed:
        return Landed(minutes, 0, 0)
    who = [
        Party(
            party_id=f"{f.flight_id}|{key}",
            passengers=len(group),
            cabin=group[0][0].cabin,
            origin=f.destination,
            ready=arrival + connect,
            waiting_since=group[0][1].scheduled_departure,  # due to leave the connection on the onward flight
            destination=group[0][0].final_destination,
            scheduled_arrival=_due(ctx, f, group[0][0]),
            protected=True,  # a connection: seated first (as rules.reaccommodation.protected)
            exclude=frozenset({f.flight_id}),
        )
        for key, group in sorted(groups.items())
    ]
    # the next direct flights from the connecting airport: a carrier's connections are at its hubs, which fly direct
    # to their spokes — one read where the whole network's search read the arrivals at every final destination
    # (a decision's Arbitrate 1.7 → 2.3 s); a destination with no direct flight in the horizon goes on a partner
    flights = _window(ctx, "departures", f.destination, arrival + connect, horizon(f))
    home = reaccommodate(who, Network(flights), horizon(f), {}, SeatLedger())
    placed = sum(j.passengers for j in home.journeys)
    return Landed(minutes + home.passenger_delay_minutes, home.overnight, missed - placed)


def mct_at(ctx: DisruptionContext, iata: str) -> int:
    """The minimum connection time at `iata` (its profile's, else the carrier's default)."""
    try:
        profile = ctx.read_profiles({iata}).get(iata)
    except AccessDenied:  # a handle without the airport table
        profile = None
    return (profile.min_connection_minutes if profile else None) or DEFAULT_NETWORK.default_mct
