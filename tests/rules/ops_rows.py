"""Hand-built operational rows for the operations rules tests, and an index over generated tables.

Imported as a plain module (the name is unique across tests/).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, date, datetime, timedelta
from functools import cached_property

from row_builders import aircraft_day as aircraft_day
from row_builders import flight as flight
from row_builders import utc
from row_builders import work_order as work_order

from skymarshal.data import schema
from skymarshal.models.operational import (
    AircraftDay,
    AirportProfile,
    Booking,
    CargoAssignment,
    CargoShipment,
    CurfewWindow,
    Flight,
    MaintenanceEngineer,
    MaintenanceShift,
    MelItem,
    Notam,
    Runway,
    WeatherObservation,
    WorkOrder,
)

UTC = UTC


def booking(
    booking_id: str,
    flight_id: str,
    *,
    cabin: str = "Y",
    tier: str = "NONE",
    ssr=(),
    final: str = "FRA",
    inbound: str | None = None,
    onward: str | None = None,
    fare: float = 500.0,
    passenger: str | None = None,
    **kw,
) -> Booking:
    return Booking(
        booking_id=booking_id,
        pnr="ABC123",
        flight_id=flight_id,
        passenger_id=passenger or f"P-{booking_id}",
        passenger_name="Test Passenger",
        cabin=cabin,
        loyalty_tier=tier,
        ssr=list(ssr),
        inbound_flight_id=inbound,
        onward_flight_id=onward,
        final_destination=final,
        fare_paid=fare,
        **kw,
    )


def mel_item(category: str = "B", discovered: date = date(2027, 1, 18), **kw) -> MelItem:
    return MelItem(reference="30-42-01", category=category, discovered_on=discovered, **kw)


def engineer(staff_id: str, auth=("B1-B787",), station: str = "AUH") -> MaintenanceEngineer:
    return MaintenanceEngineer(
        staff_id=staff_id, name="Test Engineer", station=station, licence="B1", authorisations=list(auth)
    )


def shift(staff_id: str, start: datetime, hours: float = 8, station: str = "AUH") -> MaintenanceShift:
    return MaintenanceShift(
        staff_id=staff_id, shift_start=start, shift_end=start + timedelta(hours=hours), station=station
    )


def profile(
    iata: str,
    lat: float,
    lon: float,
    runways=(("09/27", 90, 3500),),
    *,
    tz: str = "Europe/London",
    curfews=(),
    mct: int | None = None,
    country: str = "GB",
    **kw,
) -> AirportProfile:
    return AirportProfile(
        iata=iata,
        icao="EGXX",
        name=f"{iata} airport",
        city=iata,
        country=country,
        tz=tz,
        lat=lat,
        lon=lon,
        elevation_ft=100,
        runways=[Runway(designator=d, heading_deg=h, length_m=m) for d, h, m in runways],
        curfews=list(curfews),
        min_connection_minutes=mct,
        **kw,
    )


def curfew(start: str = "23:00", end: str = "06:00") -> CurfewWindow:
    return CurfewWindow(start_local=start, end_local=end, source="test curfew")


def notam(iata: str, kind: str, start: datetime, end: datetime, runway: str | None = None) -> Notam:
    return Notam(
        iata=iata,
        record=f"NOTAM#{start:%Y-%m-%dT%H:%M:%SZ}#T1",
        notam_id="T1",
        kind=kind,
        starts_at=start,
        ends_at=end,
        runway=runway,
        text=f"{kind} test",
    )


def obs(
    iata: str,
    at: datetime,
    *,
    wind_dir: int = 90,
    wind: int = 5,
    gust: int | None = None,
    vis: int = 9999,
    ceiling: int | None = None,
    phenomena=(),
) -> WeatherObservation:
    return WeatherObservation(
        airport=iata,
        forecast_time=at,
        visibility_m=vis,
        ceiling_ft=ceiling,
        wind_direction_deg=wind_dir,
        wind_speed_kt=wind,
        gust_kt=gust,
        temperature_c=10,
        phenomena=list(phenomena),
    )


def shipment(
    serial: int,
    codes=(),
    *,
    weight: float = 1000,
    revenue: float = 5000,
    commodity: str = "test goods",
    ready: datetime = utc(2027, 1, 20, 2),
) -> CargoShipment:
    return CargoShipment(
        shipment_id=f"607-{serial:08d}",
        origin="AUH",
        destination="FRA",
        commodity=commodity,
        handling_codes=list(codes),
        pieces=1,
        weight_kg=weight,
        revenue_usd=revenue,
        shipper="Test",
        ready_at=ready,
    )


def assignment(
    s: CargoShipment, flight_id: str, *, weight: float | None = None, status: str = "BOOKED", priority: int = 1
) -> CargoAssignment:
    return CargoAssignment(
        assignment_id=f"{s.shipment_id}#{flight_id}",
        flight_id=flight_id,
        shipment_id=s.shipment_id,
        loading_priority=priority,
        pieces=1,
        weight_kg=weight or s.weight_kg,
        status=status,
    )


class OpsData:
    """Read-only index over a generated airline's tables (never mutate the rows: they are shared)."""

    def __init__(self, tables: dict):
        self.tables = tables

    @cached_property
    def flights(self) -> dict[str, Flight]:
        return {f.flight_id: f for f in self.tables[schema.FLIGHTS]}

    def flight(self, number: str, day: date) -> Flight:
        return next(f for f in self.tables[schema.FLIGHTS] if f.flight_number == number and f.flight_date == day)

    @cached_property
    def bookings(self) -> list[Booking]:
        return self.tables[schema.BOOKINGS]

    @cached_property
    def _bookings_by_flight(self) -> dict[str, list[Booking]]:
        index = defaultdict(list)
        for b in self.bookings:
            index[b.flight_id].append(b)
        return index

    def bookings_on(self, flight_id: str) -> list[Booking]:
        return list(self._bookings_by_flight.get(flight_id, []))

    def rotation(self, registration: str) -> list[Flight]:
        return sorted(
            (f for f in self.tables[schema.FLIGHTS] if f.aircraft_registration == registration),
            key=lambda f: f.scheduled_departure,
        )

    def work_orders(self, registration: str | None = None) -> list[WorkOrder]:
        rows = self.tables[schema.MAINTENANCE_WORK_ORDERS]
        return [w for w in rows if registration is None or w.aircraft_registration == registration]

    def aircraft_days(self, day: date) -> list[AircraftDay]:
        return [d for d in self.tables[schema.AIRCRAFT_AVAILABILITY] if d.date == day]

    @property
    def engineers(self) -> list[MaintenanceEngineer]:
        return self.tables[schema.MAINTENANCE_STAFF]

    @property
    def shifts(self) -> list[MaintenanceShift]:
        return self.tables[schema.MAINTENANCE_ROSTER]

    @cached_property
    def profiles(self) -> dict[str, AirportProfile]:
        return {p.iata: p for p in self.tables[schema.AIRPORTS] if isinstance(p, AirportProfile)}

    @cached_property
    def notams(self) -> list[Notam]:
        return [n for n in self.tables[schema.AIRPORTS] if isinstance(n, Notam)]

    @property
    def weather(self) -> list[WeatherObservation]:
        return self.tables[schema.WEATHER]

    @property
    def shipments(self) -> list[CargoShipment]:
        return self.tables[schema.CARGO_SHIPMENTS]

    @property
    def assignments(self) -> list[CargoAssignment]:
        return self.tables[schema.CARGO_FLIGHT_ASSIGNMENTS]
