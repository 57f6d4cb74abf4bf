"""The rows the operation board is drawn from, and the day's live scorecard, read through the GSIs (no Scan).

Reads for a window of day D: the flights on type-departure-index (one Query per type over the replay's window of D,
widened to the day before the board's window so a long flight already airborne is drawn — read once, for the board
and its header alike); the day's AircraftAvailability on type-date-index (one Query per type); each tail's work
orders on aircraft-registration-index; the drawn flights' crews on sector-day-index (one Query per day they
leave on). The header's scorecard reads the bookings (flight-id-index) only of the flights that are not flying as
scheduled and of the flights their passengers connect to: every disrupted journey has a segment on such a flight,
so the disrupted passengers are counted as the replay counts them, without a Query for each of the day's flights.
The per-tail, per-day and per-hop Queries are sent together (``DataHandle.query_each``): their time is mostly
waiting on the service.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from ..data import queries as q
from ..data.access import DataHandle
from ..data.integrity import fleet_flights
from ..day.realize import DayState, Timing, realize
from ..day.scorecard import Scorecard, illegal_members, score
from ..day.state import MCT, _Lazy, window
from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import AircraftDay, Booking, CrewDuty, CrewMember, Flight, WorkOrder
from ..workflow.execution.ferry import ADDED_LEG_REASONS

LONGEST_FLIGHT = timedelta(hours=20)  # a flight that left this long before the window may still be in the air
CONNECTION_HOPS = 3  # segments of an itinerary beyond the disrupted one (the generator's itineraries have at most 3)
LIVE_POLICY = "live"  # the scorecard's policy name for the day as the tables hold it now


@dataclass(frozen=True)
class LiveDay:
    """The header's scorecard and, for each late flight of the board, its rostered members the crew rules find
    illegal at its estimate (one line each), from the same state the scorecard was computed on."""

    card: Scorecard
    crew_illegal: Mapping[str, list[str]]


@dataclass(frozen=True)
class BoardRows:
    """What the board of one window is assembled from (``views.board.assemble``)."""

    day: date
    start: datetime
    end: datetime
    flights: list[Flight]  # every flight in the air during [start, end)
    availability: list[AircraftDay]  # the day's AircraftAvailability rows (every tail, flying or not)
    work_orders: Mapping[str, list[WorkOrder]]  # registration → its work orders
    crew: Mapping[str, list[CrewDuty]]  # flight id → its FLIGHT roster rows
    day_flights: Mapping[str, Flight]  # the replay's window of the day (day.state.window): the header's flights


def overlaps(f: Flight, start: datetime, end: datetime) -> bool:
    """Whether the flight's bar, at its scheduled or best-known times, falls in [start, end)."""
    return min(f.scheduled_departure, f.departure) < end and max(f.scheduled_arrival, f.arrival) > start


def read_board_rows(handle: DataHandle, day: date, start: datetime, end: datetime) -> BoardRows:
    live_start, live_end = window([day])
    by_tail = fleet_flights(handle, min(start - LONGEST_FLIGHT, live_start), max(end, live_end))
    every = [f for legs in by_tail.values() for f in legs]
    flights = [f for f in every if overlaps(f, start, end)]
    availability = [row for t in AIRCRAFT_TYPES for row in q.fleet_of_type(handle, t, day)]
    tails = sorted({f.aircraft_registration for f in flights} | {a.aircraft_registration for a in availability})
    work_orders = q.work_orders_of(handle, tails)
    crew = q.crews_of_flights(handle, [f for f in flights if f.status != "CANCELLED"])
    day_flights = {f.flight_id: f for f in every if live_start <= f.scheduled_departure <= live_end}
    return BoardRows(day, start, end, flights, availability, work_orders, crew, day_flights)


def disrupted_flights(state: DayState, timings: Mapping[str, Timing]) -> set[str]:
    """The flights not flown as scheduled: cancelled, late (off blocks or at the passengers' destination) or
    diverted — each disrupted journey has a segment on one of them."""
    return {
        fid
        for fid, f in state.flights.items()
        if (t := timings.get(fid)) is None or t.delay(f) > 0 or t.arrival_delay(f) > 0 or f.status == "DIVERTED"
    }


def journeys_through(handle: DataHandle, flights: Mapping[str, Flight], seeds: Iterable[str]) -> list[Booking]:
    """The whole itineraries of the passengers booked on the `seeds` flights: the seeds' bookings, then the rows of
    those passengers only on the flights they connect to or were moved to, CONNECTION_HOPS deep (one Query on
    flight-id-index a flight) — as the scorecard walks them, without every passenger of every connecting flight."""
    read: set[str] = set()
    passengers: set[tuple[str, str]] = set()
    out: list[Booking] = []
    frontier = {fid for fid in seeds if fid in flights}
    for hop in range(CONNECTION_HOPS + 1):
        found: set[str] = set()
        read |= frontier
        answers = q.bookings_of(handle, sorted(frontier))
        for fid in sorted(frontier):
            for b in answers[fid]:
                if hop == 0:
                    passengers.add((b.pnr, b.passenger_id))
                elif (b.pnr, b.passenger_id) not in passengers:
                    continue
                out.append(b)
                found |= {x for x in (b.inbound_flight_id, b.onward_flight_id, b.rebooked_from, b.rebooked_to) if x}
        frontier = {fid for fid in found if fid in flights} - read
        if not frontier:
            break
    return out


def live_day(handle: DataHandle, rows: BoardRows, original_tails: Mapping[str, str]) -> LiveDay:
    """The day replay's scorecard (``day.scorecard.score``) over day `day` as the tables hold it now: the flights at
    their estimates, knock-on through each tail, no cause still to come — from the board's rows: its day's flights, the
    roster rows already read (the rest read on first use), and the drawn flights, whose late ones have their crews
    checked at the estimate. `original_tails`: a flight's tail before an executed swap."""
    day, crew, drawn = rows.day, rows.crew, rows.flights
    start, end = window([day])
    flights = dict(rows.day_flights)
    far_past = datetime(2000, 1, 1, tzinfo=start.tzinfo)

    def crew_on(flight_id: str) -> list[CrewDuty] | None:
        if flight_id in crew:
            return crew[flight_id]
        return (
            [r for r in q.crew_assignments(handle, flight_id) if r.kind == "FLIGHT"] if flight_id in flights else None
        )

    def roster(crew_id: str) -> list[CrewDuty] | None:
        return q.duty_history(handle, crew_id, far_past, end + timedelta(days=30)) or None

    def member(crew_id: str) -> CrewMember | None:
        found = q.crew_members(handle, [crew_id])
        return found[0] if found else None

    state = DayState(
        flights=flights,
        bookings=[],
        crew_on=_Lazy(crew_on),
        rosters=_Lazy(roster),
        members=_Lazy(member),
        original_tails={fid: original_tails.get(fid, f.aircraft_registration) for fid, f in flights.items()},
        min_connection_minutes=MCT,
        # the legs execution added (a rescue's ferry, a diversion's continuation, marked by their reason) are no
        # scheduled flight: costed by their block minutes
        added_legs=frozenset(fid for fid, f in flights.items() if (f.delay_reason or "").startswith(ADDED_LEG_REASONS)),
    )
    timings = realize(state, [])
    # a journey with a segment on the day has its other segments within a day of it
    near = {day + timedelta(days=k) for k in (-1, 0, 1)}
    seeds = {fid for fid in disrupted_flights(state, timings) if flights[fid].flight_date in near}
    state.bookings = journeys_through(handle, flights, seeds)
    card = score(LIVE_POLICY, state, [], [day], timings=timings)
    illegal = {
        f.flight_id: [f"{c.rank} {c.crew_id}: {_first_breach(c.findings)}" for c in found]
        for f in drawn
        if f.status != "CANCELLED"
        and f.departure > f.scheduled_departure
        and (found := illegal_members(state, flights.get(f.flight_id, f), f.departure))
    }
    return LiveDay(card=card, crew_illegal=illegal)


def _first_breach(findings) -> str:
    breach = next((x for x in findings if x.status == "illegal"), findings[0] if findings else None)
    return f"{breach.message} ({breach.clause})" if breach else "illegal at the estimate"
