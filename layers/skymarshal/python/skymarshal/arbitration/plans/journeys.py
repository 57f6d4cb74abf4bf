"""The earliest way home for the passengers of cancelled flights (issue 46 item 2), read for one decision.

The search is ``rules.reaccommodation``; this module reads what it needs through the GSIs, once per decision
(``DisruptionContext.memo``): the departures from each cancelled flight's origin and from every station those reach
(origin-departure-index), the arrivals at each final destination (destination-arrival-index) — every path of up to
three flights home is among them — and the onward flight of a connecting passenger (GetItem), for when they were due.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from ...data import queries as q
from ...models.airports import UnknownAirport, airport
from ...models.operational import Booking, Flight
from ...rules import guest
from ...rules.reaccommodation import Network, Party, Reaccommodation, SeatLedger, party_key, protected, reaccommodate
from ..actions import RebookJourney
from ..context import DisruptionContext
from ..memo_keys import FlightRead, StationFlightsRead

HORIZON_DAYS = 1  # the same local day or the next (issue 46): beyond, a partner carrier


def origin_tz(f: Flight) -> str:
    """`f`'s origin's time zone (an airport missing from the reference data: UTC)."""
    try:
        return airport(f.origin).tz
    except UnknownAirport:
        return "UTC"


def horizon(f: Flight) -> datetime:
    """The end of the local day after `f`'s own at its origin: the last departure a re-accommodation takes."""
    zone = ZoneInfo(origin_tz(f))
    day = f.scheduled_departure.astimezone(zone).date() + timedelta(days=HORIZON_DAYS + 1)
    return datetime.combine(day, time(0), tzinfo=zone)


def _day(at: datetime) -> datetime:
    return at.replace(hour=0, minute=0, second=0, microsecond=0)


def _window(ctx: DisruptionContext, kind: str, iata: str, start: datetime, end: datetime) -> list[Flight]:
    """Departures from or arrivals at `iata` over whole UTC days covering [start, end), read once per decision."""
    low, high = _day(start), _day(end) + timedelta(days=1)
    read = q.departures if kind == "departures" else q.arrivals
    return ctx.memo(StationFlightsRead(kind, iata, low, high), lambda: read(ctx.handle, iata, low, high))


def candidate_flights(
    ctx: DisruptionContext, origin: str, destinations: set[str], start: datetime, end: datetime
) -> list[Flight]:
    """Every flight a path of up to three legs from `origin` to one of `destinations` can use: the first leg from
    the origin's departures, the second from the departures of a station the first reaches, the third from the
    arrivals at the destination (whose own origin the second reaches)."""
    first = _window(ctx, "departures", origin, start, end)
    found = {f.flight_id: f for f in first}
    for via in sorted({f.destination for f in first} - {origin}):
        found.update((f.flight_id, f) for f in _window(ctx, "departures", via, start, end))
    for home in sorted(destinations):
        found.update((f.flight_id, f) for f in _window(ctx, "arrivals", home, start, end + timedelta(days=1)))
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
    onward = ctx.memo(FlightRead(b.onward_flight_id or ""), lambda: q.get_flight(ctx.handle, b.onward_flight_id or ""))
    return onward.scheduled_arrival if onward is not None else f.scheduled_arrival


def parties(ctx: DisruptionContext, f: Flight, bookings: Sequence[Booking], ready: datetime, exclude) -> list[Party]:
    """The active passengers of cancelled flight `f` by `party_key`, waiting at its origin from `ready`."""
    groups: dict[str, list[Booking]] = defaultdict(list)
    for b in guest.active(bookings, f.flight_id):
        groups[party_key(b)].append(b)
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
    mct: dict[str, int] = {}
    for iata in sorted({f.destination for f in flights}):
        try:
            profile = ctx.profile(iata)
        except Exception:  # a handle without the airport table: the carrier's default MCT
            profile = None
        if profile is not None and profile.min_connection_minutes:
            mct[iata] = profile.min_connection_minutes
    return mct


def ready_at(ctx: DisruptionContext, f: Flight) -> datetime:
    """The passengers of cancelled `f` can leave from its schedule, or from the decision when it is later (but
    within the horizon: a replay's clock far from the data does not empty the network)."""
    return max(f.scheduled_departure, ctx.now) if ctx.now < horizon(f) else f.scheduled_departure


def reaccommodation(
    ctx: DisruptionContext, cancelled: Sequence[Flight], bookings: dict[str, list[Booking]]
) -> dict[str, Reaccommodation]:
    """Each cancelled flight's passengers on their earliest ways home, the flights of `cancelled` all out and the
    seats shared (one ledger: a seat given to one flight's passengers is not free for the next's)."""
    gone = {f.flight_id for f in cancelled}
    ledger = SeatLedger()
    out: dict[str, Reaccommodation] = {}
    for f in cancelled:
        ready, end = ready_at(ctx, f), horizon(f)
        who = parties(ctx, f, bookings.get(f.flight_id, []), ready, gone)
        flights = candidate_flights(ctx, f.origin, {p.destination for p in who}, ready, end)
        out[f.flight_id] = reaccommodate(who, Network(flights), end, _mct(ctx, flights), ledger)
    return out


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
