"""Which pydantic model validates each transferable table's rows (the operational tables and DisruptionHistory)."""

from __future__ import annotations

from typing import Any

from ..models.common import Row
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
    Passenger,
    WeatherObservation,
    WorkOrder,
)
from . import schema as s

ROW_MODELS: dict[str, type[Row]] = {
    s.FLIGHTS: Flight,
    s.BOOKINGS: Booking,
    s.PASSENGERS: Passenger,
    s.CREW_MEMBERS: CrewMember,
    s.CREW_ROSTER: CrewDuty,
    s.MAINTENANCE_WORK_ORDERS: WorkOrder,
    s.MAINTENANCE_STAFF: MaintenanceEngineer,
    s.MAINTENANCE_ROSTER: MaintenanceShift,
    s.AIRCRAFT_AVAILABILITY: AircraftDay,
    s.CARGO_SHIPMENTS: CargoShipment,
    s.CARGO_FLIGHT_ASSIGNMENTS: CargoAssignment,
    s.BAGGAGE: Bag,
    s.WEATHER: WeatherObservation,
    s.AIRPORTS: AirportProfile,  # NOTAM#… records use Notam, see model_for
    s.DISRUPTION_HISTORY: DisruptionRecord,
}


def model_for(table: str, row: dict[str, Any]) -> type[Row]:
    if table == s.AIRPORTS and str(row.get("record", "")).startswith("NOTAM#"):
        return Notam
    return ROW_MODELS[table]


def parse_row(table: str, row: dict[str, Any]) -> Row:
    return model_for(table, row).model_validate(row)
