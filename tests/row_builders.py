"""The tests' hand-built rows: a flight, a crew member's flight duty and a bare scenario, with every field the
models require and defaults any test may override. Each folder's helpers (ops_rows, day_rows, gantt_helpers, …)
build their own small worlds from these, so a model gaining a required field is mended here once.

Imported as a plain module (tests/ is on the path through its conftest; the name is unique across tests/).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from skymarshal.arbitration.models import Scenario
from skymarshal.models.disruption import Window
from skymarshal.models.fleet import AIRCRAFT_TYPES
from skymarshal.models.network_plan import NetworkRestriction
from skymarshal.models.operational import AircraftDay, Booking, CrewDuty, Flight, MelItem, WorkOrder


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def flight(
    number: str = "EY123",
    origin: str = "AUH",
    destination: str = "FRA",
    dep: datetime = utc(2027, 1, 20, 10),
    block: int = 360,
    reg: str = "A6-BLA",
    type_code: str = "B789",
    distance_km: int = 4800,
    booked: dict | None = None,
    capacity: dict | None = None,
    **kw: Any,
) -> Flight:
    """A scheduled flight `block` minutes long; the id is number-date unless `flight_id` is given, the cabins the
    type's unless `capacity` is, the load 20 J + 200 Y unless `booked` is."""
    return Flight(
        flight_id=kw.pop("flight_id", f"{number}-{dep:%Y%m%d}"),
        flight_number=number,
        carrier="EY",
        origin=origin,
        destination=destination,
        flight_date=kw.pop("flight_date", dep.date()),
        scheduled_departure=dep,
        scheduled_arrival=dep + timedelta(minutes=block),
        aircraft_registration=reg,
        aircraft_type=type_code,
        block_minutes=block,
        distance_km=distance_km,
        capacity=capacity if capacity is not None else dict(AIRCRAFT_TYPES[type_code].capacity),
        booked=booked if booked is not None else {"J": 20, "Y": 200},
        **kw,
    )


def flight_duty(
    crew_id: str,
    f: Flight,
    position: str = "CPT",
    *,
    report: timedelta = timedelta(minutes=75),
    release: timedelta = timedelta(minutes=30),
    duty_key: str | None = None,
    sector_times: bool = True,
    **kw: Any,
) -> CrewDuty:
    """A one-sector flight duty on `f`: reporting `report` before departure, released `release` after arrival;
    `sector_times=False` leaves the sector's times out, as rows written before they were kept."""
    start = f.scheduled_departure - report
    sector: dict[str, Any] = (
        {"sector_departure": f.scheduled_departure, "sector_arrival": f.scheduled_arrival} if sector_times else {}
    )
    return CrewDuty(
        crew_id=crew_id,
        duty_key=duty_key or f"{start.isoformat()}#{f.scheduled_departure.isoformat()}#{f.flight_id}",
        duty_id=kw.pop("duty_id", f"D-{crew_id}"),
        kind="FLIGHT",
        duty_start=start,
        duty_end=f.scheduled_arrival + release,
        start_station=f.origin,
        end_station=f.destination,
        flight_id=f.flight_id,
        flight_number=f.flight_number,
        position=position,
        **sector,
        **kw,
    )


def standby_duty(crew_id: str, station: str, start: datetime, hours: float = 12, **kw: Any) -> CrewDuty:
    """A standby at `station` from `start` for `hours`; the duty key the standby's start, unless given."""
    return CrewDuty(
        crew_id=crew_id,
        duty_key=kw.pop("duty_key", f"{start.isoformat()}#STANDBY#"),
        duty_id=kw.pop("duty_id", f"S-{crew_id}"),
        kind="STANDBY",
        duty_start=start,
        duty_end=start + timedelta(hours=hours),
        start_station=station,
        end_station=station,
        **kw,
    )


def booking(booking_id: str, flight_id: str, final_destination: str, **kw: Any) -> Booking:
    """One passenger's booking in Y on `flight_id` to `final_destination`: passenger and PNR named after the
    booking unless given."""
    return Booking(
        booking_id=booking_id,
        pnr=kw.pop("pnr", f"PNR{booking_id}"),
        flight_id=flight_id,
        passenger_id=kw.pop("passenger_id", f"P{booking_id}"),
        passenger_name=kw.pop("passenger_name", "Test Passenger"),
        cabin=kw.pop("cabin", "Y"),
        final_destination=final_destination,
        fare_paid=kw.pop("fare_paid", 100.0),
        **kw,
    )


def work_order(
    wo_id: str = "WO-1",
    reg: str = "A6-BLA",
    *,
    opened: datetime = utc(2027, 1, 20, 8),
    aog: bool = True,
    labour: float = 5.5,
    auth: str | None = "B1-B787",
    parts: datetime | None = utc(2027, 1, 20, 11),
    station: str = "AUH",
    mel: MelItem | None = None,
    **kw,
) -> WorkOrder:
    """A work order on `reg`: an open AOG defect unless told (a deferred MEL item when `mel` is given)."""
    kind = kw.pop("kind", "MEL_DEFERRAL" if mel else "DEFECT")
    return WorkOrder(
        work_order_id=wo_id,
        aircraft_registration=reg,
        opened_at=opened,
        kind=kind,
        status=kw.pop("status", "DEFERRED" if mel else "OPEN"),
        ata_chapter="29",
        description="test defect",
        station=station,
        aog=aog,
        mel=mel,
        estimated_labour_hours=labour,
        required_authorisation=auth,
        parts_available_at=parts,
        **kw,
    )


def aircraft_day(
    reg: str = "A6-BLT",
    type_code: str = "B789",
    station: str = "AUH",
    status: str = "SPARE",
    day: date = date(2027, 1, 20),
) -> AircraftDay:
    """The tail's AircraftAvailability row for `day` (a spare at AUH unless told)."""
    return AircraftDay(
        aircraft_registration=reg,
        date=day,
        aircraft_type=type_code,
        status=status,
        station=station,
        capacity=dict(AIRCRAFT_TYPES[type_code].capacity),
    )


def bare_scenario(actions: list, scenario_id: str = "test", kind: str = "delay") -> Scenario:
    """A scenario that is only its actions: every derived figure zero or empty (what validation recomputes)."""
    return Scenario(
        scenario_id=scenario_id,
        kind=kind,
        title=scenario_id,
        sources=["test"],
        actions=actions,
        operates=True,
        registration=None,
        aircraft_type=None,
        departure=None,
        arrival=None,
        arrival_airport=None,
        delay_minutes=0,
        arrival_delay_minutes=0,
        passengers_impacted=0,
        cost_usd=0,
    )


def capacity_cut(window: Window, rate: int, normal: int, airport: str = "AUH") -> NetworkRestriction:
    """A capacity restriction at `airport` over `window`: `rate` departures and arrivals an hour, `normal` outside."""
    return NetworkRestriction(
        kind="capacity",
        airport=airport,
        window=window,
        departures_per_hour=rate,
        arrivals_per_hour=rate,
        normal_departures_per_hour=normal,
        normal_arrivals_per_hour=normal,
    )


def sector_item(**overrides: Any) -> dict[str, Any]:
    """A CrewRoster FLIGHT row as a DynamoDB item (a raw dict, as the executor and the emulator's tables hold one):
    EY1 AUH-LHR leaving 22:30Z on 20 Jan, its duty from 21:00Z."""
    return {
        "crew_id": "C1",
        "duty_key": "2027-01-20T21:00:00Z#2027-01-20T22:30:00Z#EY1-20270120",
        "duty_id": "D1",
        "kind": "FLIGHT",
        "duty_start": "2027-01-20T21:00:00Z",
        "duty_end": "2027-01-21T09:00:00Z",
        "start_station": "AUH",
        "end_station": "LHR",
        "flight_id": "EY1-20270120",
        "position": "FO",
        "sector_departure": "2027-01-20T22:30:00Z",
    } | overrides


def bare_context(flight: Flight, disruption, *, rotation=None, now: datetime | None = None, handle=None, **kw: Any):
    """A decision's context for `flight` whose reads the test seeds (`ctx.memo`) or stubs (`handle`): no agents, no
    bounds, no bookings, no airport profiles, an hour before departure unless told."""
    from skymarshal.arbitration.context import DisruptionContext

    fields: dict[str, Any] = {
        "prompt": "",
        "flight": flight,
        "collation": {},
        "handle": handle,
        "now": now or flight.scheduled_departure - timedelta(hours=1),
        "bookings": [],
        "rotation": rotation if rotation is not None else [flight],
        "profiles": {},
        "bounds": [],
        "disruption_type": "other",
        "release_at": None,
        "tail_grounded": False,
        "weather_window": None,
        "disruption": disruption,
    }
    return DisruptionContext(**{**fields, **kw})
