"""Seed 000's query patterns 1-6 and the other reads the agents and rules need.

Every function is a GetItem, a Query on a key or GSI, or a BatchGetItem; results are pydantic rows.
A flight that does not exist gives an empty result, not an exception.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, timedelta

from boto3.dynamodb.conditions import Key

from ..models.common import iso_z
from ..models.history import DisruptionRecord
from ..models.operational import (
    AircraftDay,
    AirportProfile,
    Bag,
    Booking,
    CargoAssignment,
    CargoShipment,
    CrewDuty,
    CrewMember,
    Flight,
    MaintenanceEngineer,
    MaintenanceShift,
    Notam,
    WeatherObservation,
    WorkOrder,
)
from . import schema as s
from .access import DataHandle


# Pattern 1: flight by number and date.
def flights_by_number(
    handle: DataHandle, flight_number: str, around: date | None = None, days: int = 2
) -> list[Flight]:
    """Flights with this number, optionally only those whose local date is within `days` of `around`."""
    condition = Key("flight_number").eq(flight_number.upper())
    if around is not None:
        # The local date can differ from the UTC date by up to a day either side.
        low = datetime.combine(around - timedelta(days=days), datetime.min.time())
        high = datetime.combine(around + timedelta(days=days + 1), datetime.min.time())
        condition &= Key("scheduled_departure").between(
            low.strftime("%Y-%m-%dT%H:%M:%SZ"), high.strftime("%Y-%m-%dT%H:%M:%SZ")
        )
    rows = handle.query(s.FLIGHTS, condition, index=s.FLIGHT_NUMBER_DATE_INDEX)
    return [Flight.model_validate(r) for r in rows]


def find_flight(handle: DataHandle, flight_number: str, flight_date: date) -> Flight | None:
    """The flight with this number on this local date at its origin, or None."""
    matches = [f for f in flights_by_number(handle, flight_number, flight_date, days=1) if f.flight_date == flight_date]
    return matches[0] if matches else None


def get_flight(handle: DataHandle, flight_id: str) -> Flight | None:
    item = handle.get(s.FLIGHTS, {"flight_id": flight_id})
    return Flight.model_validate(item) if item else None


def flights_by_id(handle: DataHandle, flight_ids: Iterable[str]) -> dict[str, Flight]:
    """The flights of these ids the table holds, by id (BatchGetItem, a hundred at a time)."""
    rows = handle.batch_get(s.FLIGHTS, [{"flight_id": i} for i in sorted({i for i in flight_ids if i})])
    return {f.flight_id: f for f in (Flight.model_validate(r) for r in rows)}


def rotation(handle: DataHandle, registration: str, start: datetime, end: datetime) -> list[Flight]:
    """A tail's flights departing in [start, end), in time order."""
    rows = handle.query(
        s.FLIGHTS,
        Key("aircraft_registration").eq(registration) & Key("scheduled_departure").between(iso_z(start), iso_z(end)),
        index=s.AIRCRAFT_REGISTRATION_INDEX,
    )
    return [Flight.model_validate(r) for r in rows]


def last_flight_before(handle: DataHandle, registration: str, before: datetime, look: int = 8) -> Flight | None:
    """The tail's last flight (not cancelled) scheduled to leave before `before`: where its day starts and when it
    is free there. One Query on aircraft-registration-index newest first (ScanIndexForward=False), the first `look`
    rows read (a run of cancellations longer than that: None, the start unknown)."""
    rows = handle.query(
        s.FLIGHTS,
        Key("aircraft_registration").eq(registration) & Key("scheduled_departure").lt(iso_z(before)),
        index=s.AIRCRAFT_REGISTRATION_INDEX,
        forward=False,
        limit=look,
    )
    return next((f for f in map(Flight.model_validate, rows) if f.status != "CANCELLED"), None)


def tail_rotations(
    handle: DataHandle, aircraft_types: Iterable[str], registrations: Iterable[str], start: datetime, end: datetime
) -> dict[str, list[Flight]]:
    """`rotation(handle, r, start, end)` for each registration `r` (in the order given), read with one Query per
    aircraft type on type-departure-index instead of one per tail. `aircraft_types` must hold every tail's type:
    a flight carries its tail's type (the generator writes them together; a tail swap rewrites both)."""
    by_tail: dict[str, list[Flight]] = {r: [] for r in registrations}
    for aircraft_type in dict.fromkeys(aircraft_types) if by_tail else ():
        rows = handle.query(
            s.FLIGHTS,
            Key("aircraft_type").eq(aircraft_type) & Key("scheduled_departure").between(iso_z(start), iso_z(end)),
            index=s.TYPE_DEPARTURE_INDEX,
        )
        for row in rows:
            flight = Flight.model_validate(row)
            if flight.aircraft_registration in by_tail:
                by_tail[flight.aircraft_registration].append(flight)
    for flights in by_tail.values():  # each tail's flights in departure order, as its own index sorts them
        flights.sort(key=lambda f: iso_z(f.scheduled_departure))
    return by_tail


def flights_at_airport(handle: DataHandle, iata: str, start: datetime, end: datetime) -> list[Flight]:
    """Flights scheduled to depart from or arrive at `iata` in [start, end), by departure time (two GSI queries)."""
    low, high = iso_z(start), iso_z(end - timedelta(seconds=1))
    departing = handle.query(
        s.FLIGHTS,
        Key("origin").eq(iata) & Key("scheduled_departure").between(low, high),
        index=s.ORIGIN_DEPARTURE_INDEX,
    )
    arriving = handle.query(
        s.FLIGHTS,
        Key("destination").eq(iata) & Key("scheduled_arrival").between(low, high),
        index=s.DESTINATION_ARRIVAL_INDEX,
    )
    rows = {r["flight_id"]: r for r in [*departing, *arriving]}
    return sorted((Flight.model_validate(r) for r in rows.values()), key=lambda f: (f.scheduled_departure, f.flight_id))


def departures(handle: DataHandle, iata: str, start: datetime, end: datetime) -> list[Flight]:
    """Flights scheduled to leave `iata` in [start, end), by departure time (one Query on origin-departure-index)."""
    rows = handle.query(
        s.FLIGHTS,
        Key("origin").eq(iata) & Key("scheduled_departure").between(iso_z(start), iso_z(end - timedelta(seconds=1))),
        index=s.ORIGIN_DEPARTURE_INDEX,
    )
    return sorted((Flight.model_validate(r) for r in rows), key=lambda f: (f.scheduled_departure, f.flight_id))


def arrivals(handle: DataHandle, iata: str, start: datetime, end: datetime) -> list[Flight]:
    """Flights scheduled to arrive at `iata` in [start, end) (one Query on destination-arrival-index)."""
    rows = handle.query(
        s.FLIGHTS,
        Key("destination").eq(iata) & Key("scheduled_arrival").between(iso_z(start), iso_z(end - timedelta(seconds=1))),
        index=s.DESTINATION_ARRIVAL_INDEX,
    )
    return sorted((Flight.model_validate(r) for r in rows), key=lambda f: (f.scheduled_departure, f.flight_id))


# Pattern 2: crew by flight.
def crew_assignments(handle: DataHandle, flight_id: str) -> list[CrewDuty]:
    rows = handle.query(s.CREW_ROSTER, Key("flight_id").eq(flight_id), index=s.FLIGHT_POSITION_INDEX)
    return [CrewDuty.model_validate(r) for r in rows]


def crew_assignments_of(handle: DataHandle, flight_ids: Iterable[str]) -> dict[str, list[CrewDuty]]:
    """Pattern 2 for many flights, their Queries sent together (``DataHandle.query_each``)."""
    answers = handle.query_each(
        s.CREW_ROSTER, {fid: Key("flight_id").eq(fid) for fid in flight_ids}, index=s.FLIGHT_POSITION_INDEX
    )
    return {fid: [CrewDuty.model_validate(r) for r in rows] for fid, rows in answers.items()}


def crews_of_flights(handle: DataHandle, flights: Iterable[Flight]) -> dict[str, list[CrewDuty]]:
    """Each flight's FLIGHT roster rows, read by day on sector-day-index: one Query per UTC day the flights leave on
    (a board's day: two), over the span of their scheduled and current departures — a sector's row leaves at one
    of them or between (an executed delay moves it). A flight none of those rows names is asked for on its own
    (flight-position-index): a sector an estimate has since moved outside the span, or a flight with no crew."""
    wanted = {f.flight_id: f for f in flights}
    out: dict[str, list[CrewDuty]] = {fid: [] for fid in wanted}
    if not wanted:
        return out
    lo = min(min(f.scheduled_departure, f.departure) for f in wanted.values())
    hi = max(max(f.scheduled_departure, f.departure) for f in wanted.values())
    days = [(lo + timedelta(days=n)).date() for n in range((hi.date() - lo.date()).days + 1)]
    answers = handle.query_each(
        s.CREW_ROSTER,
        {d: Key("sector_day").eq(d.isoformat()) & Key("sector_departure").between(iso_z(lo), iso_z(hi)) for d in days},
        index=s.SECTOR_DAY_INDEX,
    )
    for rows in answers.values():
        for r in rows:
            if r.get("flight_id") in out:
                out[r["flight_id"]].append(CrewDuty.model_validate(r))
    missing = [fid for fid, rows in out.items() if not rows]
    for fid, duties in crew_assignments_of(handle, missing).items() if missing else ():
        out[fid] = [r for r in duties if r.kind == "FLIGHT"]
    return out


def crew_members(handle: DataHandle, crew_ids: list[str]) -> list[CrewMember]:
    rows = handle.batch_get(s.CREW_MEMBERS, [{"crew_id": c} for c in crew_ids])
    return sorted((CrewMember.model_validate(r) for r in rows), key=lambda m: m.crew_id)


def duty_history(handle: DataHandle, crew_id: str, start: datetime, end: datetime) -> list[CrewDuty]:
    """A crew member's roster rows whose duty starts in [start, end) — the input of cumulative limits."""
    rows = handle.query(s.CREW_ROSTER, Key("crew_id").eq(crew_id) & Key("duty_key").between(iso_z(start), iso_z(end)))
    return [CrewDuty.model_validate(r) for r in rows]


def standby_crew(handle: DataHandle, base: str, local_day: date) -> list[CrewDuty]:
    rows = handle.query(
        s.CREW_ROSTER, Key("standby_base_date").eq(f"{base}#{local_day.isoformat()}"), index=s.STANDBY_INDEX
    )
    return [CrewDuty.model_validate(r) for r in rows]


# Pattern 3: bookings by flight.
def bookings(handle: DataHandle, flight_id: str) -> list[Booking]:
    rows = handle.query(s.BOOKINGS, Key("flight_id").eq(flight_id), index=s.FLIGHT_ID_INDEX)
    return [Booking.model_validate(r) for r in rows]


def bookings_of(handle: DataHandle, flight_ids: Iterable[str]) -> dict[str, list[Booking]]:
    """Pattern 3 for many flights, their Queries sent together."""
    answers = handle.query_each(
        s.BOOKINGS, {fid: Key("flight_id").eq(fid) for fid in flight_ids}, index=s.FLIGHT_ID_INDEX
    )
    return {fid: [Booking.model_validate(r) for r in rows] for fid, rows in answers.items()}


# Pattern 4: baggage via bookings (the bookings carry their bag tags, so one BatchGetItem fetches the bags).
def baggage(handle: DataHandle, flight_id: str, flight_bookings: list[Booking] | None = None) -> list[Bag]:
    rows = flight_bookings if flight_bookings is not None else bookings(handle, flight_id)
    tags = [{"bag_tag": tag} for b in rows for tag in b.bag_tags]
    return [Bag.model_validate(r) for r in handle.batch_get(s.BAGGAGE, tags)]


def baggage_for_booking(handle: DataHandle, booking_id: str) -> list[Bag]:
    rows = handle.query(s.BAGGAGE, Key("booking_id").eq(booking_id), index=s.BOOKING_INDEX)
    return [Bag.model_validate(r) for r in rows]


# Pattern 5: maintenance via the flight's registration.
def work_orders_for_aircraft(handle: DataHandle, registration: str) -> list[WorkOrder]:
    rows = handle.query(
        s.MAINTENANCE_WORK_ORDERS, Key("aircraft_registration").eq(registration), index=s.AIRCRAFT_REGISTRATION_INDEX
    )
    return [WorkOrder.model_validate(r) for r in rows]


def work_orders_of(handle: DataHandle, registrations: Iterable[str]) -> dict[str, list[WorkOrder]]:
    """Pattern 5 for many tails, their Queries sent together."""
    answers = handle.query_each(
        s.MAINTENANCE_WORK_ORDERS,
        {tail: Key("aircraft_registration").eq(tail) for tail in registrations},
        index=s.AIRCRAFT_REGISTRATION_INDEX,
    )
    return {tail: [WorkOrder.model_validate(r) for r in rows] for tail, rows in answers.items()}


def work_orders_for_flight(handle: DataHandle, flight_id: str) -> list[WorkOrder]:
    flight = get_flight(handle, flight_id)
    return work_orders_for_aircraft(handle, flight.aircraft_registration) if flight else []


# Pattern 6: cargo via assignments.
def cargo_assignments(handle: DataHandle, flight_id: str) -> list[CargoAssignment]:
    rows = handle.query(s.CARGO_FLIGHT_ASSIGNMENTS, Key("flight_id").eq(flight_id), index=s.FLIGHT_LOADING_INDEX)
    return [CargoAssignment.model_validate(r) for r in rows]


def cargo(handle: DataHandle, flight_id: str) -> list[tuple[CargoAssignment, CargoShipment]]:
    assignments = cargo_assignments(handle, flight_id)
    shipments = {
        r["shipment_id"]: CargoShipment.model_validate(r)
        for r in handle.batch_get(s.CARGO_SHIPMENTS, [{"shipment_id": a.shipment_id} for a in assignments])
    }
    return [(a, shipments[a.shipment_id]) for a in assignments if a.shipment_id in shipments]


# Fleet, maintenance resources, airports and weather.
def fleet_of_type(handle: DataHandle, aircraft_type: str, day: date) -> list[AircraftDay]:
    rows = handle.query(
        s.AIRCRAFT_AVAILABILITY,
        Key("aircraft_type").eq(aircraft_type) & Key("date").eq(day.isoformat()),
        index=s.TYPE_DATE_INDEX,
    )
    return [AircraftDay.model_validate(r) for r in rows]


def aircraft_days(handle: DataHandle, registration: str) -> list[AircraftDay]:
    rows = handle.query(s.AIRCRAFT_AVAILABILITY, Key("aircraft_registration").eq(registration))
    return [AircraftDay.model_validate(r) for r in rows]


def engineers_on_shift(
    handle: DataHandle, station: str, start: datetime, end: datetime
) -> list[tuple[MaintenanceShift, MaintenanceEngineer]]:
    # Shifts are at most 12 h long: look back that far for shifts already running at `start`.
    shifts = [
        MaintenanceShift.model_validate(r)
        for r in handle.query(
            s.MAINTENANCE_ROSTER,
            Key("station").eq(station) & Key("shift_start").between(iso_z(start - timedelta(hours=12)), iso_z(end)),
            index=s.STATION_SHIFT_INDEX,
        )
    ]
    shifts = [sh for sh in shifts if sh.shift_end > start]
    staff = {
        r["staff_id"]: MaintenanceEngineer.model_validate(r)
        for r in handle.batch_get(s.MAINTENANCE_STAFF, [{"staff_id": sh.staff_id} for sh in shifts])
    }
    return [(sh, staff[sh.staff_id]) for sh in shifts if sh.staff_id in staff]


def airport_profile(handle: DataHandle, iata: str) -> AirportProfile | None:
    item = handle.get(s.AIRPORTS, {"iata": iata, "record": "PROFILE"})
    return AirportProfile.model_validate(item) if item else None


def airport_profiles(handle: DataHandle, iatas: Iterable[str]) -> dict[str, AirportProfile]:
    """The profiles of several airports in one BatchGetItem (chunks of 100); an airport without one is absent."""
    rows = handle.batch_get(s.AIRPORTS, [{"iata": iata, "record": "PROFILE"} for iata in sorted(set(iatas))])
    return {p.iata: p for p in (AirportProfile.model_validate(r) for r in rows)}


def notams(handle: DataHandle, iata: str, start: datetime, end: datetime) -> list[Notam]:
    """NOTAMs at an airport in force at any time in [start, end)."""
    rows = handle.query(s.AIRPORTS, Key("iata").eq(iata) & Key("record").between("NOTAM#", f"NOTAM#{iso_z(end)}"))
    found = [Notam.model_validate(r) for r in rows]
    return [n for n in found if n.ends_at > start]


def weather(handle: DataHandle, airport: str, start: datetime, end: datetime) -> list[WeatherObservation]:
    rows = handle.query(s.WEATHER, Key("airport").eq(airport) & Key("forecast_time").between(iso_z(start), iso_z(end)))
    return [WeatherObservation.model_validate(r) for r in rows]


# Precedents: past disruptions of one type (DisruptionHistory is in no agent's row of the access matrix, so
# this needs an unrestricted handle — the arbitrator's or the workflow's, not an agent's).
def past_disruptions(
    handle: DataHandle, disruption_type: str, since: datetime | None = None, limit: int | None = None
) -> list[DisruptionRecord]:
    """Records of `disruption_type` (mechanical, crew, weather, atc, other), newest first, optionally only those
    that occurred at or after `since` and at most `limit` of them (disruption-type-index)."""
    condition = Key("disruption_type").eq(disruption_type)
    if since is not None:
        condition &= Key("occurred_at").gte(iso_z(since))
    rows = handle.query(s.DISRUPTION_HISTORY, condition, index=s.DISRUPTION_TYPE_INDEX, forward=False, limit=limit)
    return [DisruptionRecord.model_validate(r) for r in rows]


def first_day(handle: DataHandle) -> date | None:
    """The first day the data holds: the earliest aircraft availability row of any type (one Query per type on
    type-date-index, one item each) — the local default operating day."""
    from ..models.fleet import AIRCRAFT_TYPES

    days = []
    for aircraft_type in AIRCRAFT_TYPES:
        rows = handle.query(
            s.AIRCRAFT_AVAILABILITY, Key("aircraft_type").eq(aircraft_type), index=s.TYPE_DATE_INDEX, limit=1
        )
        days += [date.fromisoformat(str(row["date"])[:10]) for row in rows]
    return min(days, default=None)
