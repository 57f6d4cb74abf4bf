"""The one definition of every DynamoDB table: names, keys, GSIs, TTL, and the agent access matrix.

CDK (infra/) builds the tables from these specs, the local emulator creates them from the same specs,
and the runtime query layer reads index names from here. Nothing else spells a table or index name.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Literal

AttrType = Literal["S", "N"]


@dataclass(frozen=True)
class Key:
    name: str
    type: AttrType = "S"


@dataclass(frozen=True)
class Index:
    name: str
    partition: Key
    sort: Key | None = None


@dataclass(frozen=True)
class TableSpec:
    name: str
    partition: Key
    sort: Key | None = None
    indexes: tuple[Index, ...] = ()
    ttl_attribute: str | None = None
    description: str = ""
    operational: bool = True  # airline operations data (the access matrix's tables); not history or system state

    def index(self, name: str) -> Index:
        for idx in self.indexes:
            if idx.name == name:
                return idx
        raise KeyError(f"table {self.name} has no index {name}")

    @property
    def key_names(self) -> tuple[str, ...]:
        return (self.partition.name,) + ((self.sort.name,) if self.sort else ())


# Table names (exact names from the design brief).
FLIGHTS = "flights"
BOOKINGS = "bookings"
PASSENGERS = "passengers"
CREW_MEMBERS = "CrewMembers"
CREW_ROSTER = "CrewRoster"
MAINTENANCE_WORK_ORDERS = "MaintenanceWorkOrders"
MAINTENANCE_STAFF = "MaintenanceStaff"
MAINTENANCE_ROSTER = "MaintenanceRoster"
AIRCRAFT_AVAILABILITY = "AircraftAvailability"
CARGO_SHIPMENTS = "CargoShipments"
CARGO_FLIGHT_ASSIGNMENTS = "CargoFlightAssignments"
BAGGAGE = "Baggage"
WEATHER = "Weather"
AIRPORTS = "AirportReference"
DISRUPTION_HISTORY = "DisruptionHistory"
CHECKPOINTS = "Checkpoints"
AUDIT_TRAIL = "AuditTrail"

# Index names.
FLIGHT_NUMBER_DATE_INDEX = "flight-number-date-index"
AIRCRAFT_REGISTRATION_INDEX = "aircraft-registration-index"
ORIGIN_DEPARTURE_INDEX = "origin-departure-index"
DESTINATION_ARRIVAL_INDEX = "destination-arrival-index"
TYPE_DEPARTURE_INDEX = "type-departure-index"
FLIGHT_ID_INDEX = "flight-id-index"
FLIGHT_POSITION_INDEX = "flight-position-index"
STANDBY_INDEX = "standby-base-date-index"
SECTOR_DAY_INDEX = "sector-day-index"
FLIGHT_LOADING_INDEX = "flight-loading-index"
SHIPMENT_INDEX = "shipment-index"
BOOKING_INDEX = "booking-index"
LOCATION_STATUS_INDEX = "location-status-index"
TYPE_DATE_INDEX = "type-date-index"
STATION_SHIFT_INDEX = "station-shift-index"
DISRUPTION_TYPE_INDEX = "disruption-type-index"
THREAD_STATUS_INDEX = "thread-status-index"

S: AttrType = "S"
N: AttrType = "N"

TABLES: tuple[TableSpec, ...] = (
    TableSpec(
        FLIGHTS,
        Key("flight_id"),
        indexes=(
            Index(FLIGHT_NUMBER_DATE_INDEX, Key("flight_number"), Key("scheduled_departure")),
            Index(AIRCRAFT_REGISTRATION_INDEX, Key("aircraft_registration"), Key("scheduled_departure")),
            # an airport's movements in a window (a closure, a capacity cut, an ATC regulation)
            Index(ORIGIN_DEPARTURE_INDEX, Key("origin"), Key("scheduled_departure")),
            Index(DESTINATION_ARRIVAL_INDEX, Key("destination"), Key("scheduled_arrival")),
            # a fleet's flights in a window: every tail's rotation of a type with one Query (tail swaps, network plans)
            Index(TYPE_DEPARTURE_INDEX, Key("aircraft_type"), Key("scheduled_departure")),
        ),
        description="One row per scheduled flight leg; times in UTC ISO 8601.",
    ),
    TableSpec(
        BOOKINGS,
        Key("booking_id"),
        indexes=(Index(FLIGHT_ID_INDEX, Key("flight_id")),),
        description="One row per passenger per flight segment; a PNR groups a party's rows.",
    ),
    TableSpec(PASSENGERS, Key("passenger_id"), description="Passenger profiles: loyalty tier, needs."),
    TableSpec(CREW_MEMBERS, Key("crew_id"), description="Crew profiles: rank, base, type ratings, recency."),
    TableSpec(
        CREW_ROSTER,
        Key("crew_id"),
        Key("duty_key"),
        indexes=(
            Index(FLIGHT_POSITION_INDEX, Key("flight_id"), Key("position")),
            Index(STANDBY_INDEX, Key("standby_base_date"), Key("duty_start")),
            # a day's flown sectors (sparse: FLIGHT rows only, the key derived by CrewDuty): the board's crews in a
            # Query a day
            Index(SECTOR_DAY_INDEX, Key("sector_day"), Key("sector_departure")),
        ),
        description="Duty history and assignments: a crew member's rows sorted by duty start.",
    ),
    TableSpec(
        MAINTENANCE_WORK_ORDERS,
        Key("work_order_id"),
        indexes=(Index(AIRCRAFT_REGISTRATION_INDEX, Key("aircraft_registration"), Key("opened_at")),),
        description="Work orders and deferred MEL items per aircraft.",
    ),
    TableSpec(MAINTENANCE_STAFF, Key("staff_id"), description="Licensed engineers and their authorisations."),
    TableSpec(
        MAINTENANCE_ROSTER,
        Key("staff_id"),
        Key("shift_start"),
        indexes=(Index(STATION_SHIFT_INDEX, Key("station"), Key("shift_start")),),
        description="Engineer shifts per station.",
    ),
    TableSpec(
        AIRCRAFT_AVAILABILITY,
        Key("aircraft_registration"),
        Key("date"),
        indexes=(Index(TYPE_DATE_INDEX, Key("aircraft_type"), Key("date")),),
        description="Per aircraft per day: status, station at start of day, spare flag.",
    ),
    TableSpec(CARGO_SHIPMENTS, Key("shipment_id"), description="Air waybills with IATA handling codes."),
    TableSpec(
        CARGO_FLIGHT_ASSIGNMENTS,
        Key("assignment_id"),
        indexes=(
            Index(FLIGHT_LOADING_INDEX, Key("flight_id"), Key("loading_priority", N)),
            Index(SHIPMENT_INDEX, Key("shipment_id")),
        ),
        description="Which shipment flies on which flight, in loading priority.",
    ),
    TableSpec(
        BAGGAGE,
        Key("bag_tag"),
        indexes=(
            Index(BOOKING_INDEX, Key("booking_id")),
            Index(LOCATION_STATUS_INDEX, Key("current_location"), Key("status")),
        ),
        description="Checked bags.",
    ),
    TableSpec(WEATHER, Key("airport"), Key("forecast_time"), description="Hourly observations/forecasts."),
    TableSpec(
        AIRPORTS,
        Key("iata"),
        Key("record"),
        description="Airport reference: PROFILE row (tz, coordinates, curfew) and NOTAM#… rows.",
    ),
    TableSpec(
        DISRUPTION_HISTORY,
        Key("disruption_id"),
        indexes=(Index(DISRUPTION_TYPE_INDEX, Key("disruption_type"), Key("occurred_at")),),
        description="Past disruptions, decisions and outcomes, for learning and precedent.",
        operational=False,
    ),
    TableSpec(
        CHECKPOINTS,
        Key("PK"),
        Key("SK"),
        indexes=(Index(THREAD_STATUS_INDEX, Key("thread_status"), Key("updated_at")),),
        ttl_attribute="ttl",
        description="LangGraph checkpoints (DynamoDBSaver layout) and thread metadata.",
        operational=False,
    ),
    TableSpec(
        AUDIT_TRAIL,
        Key("PK"),
        Key("SK"),
        description="Append-only, hash-chained audit records per disruption (workflow/audit/trail.py); no TTL.",
        operational=False,
    ),
)

TABLES_BY_NAME: dict[str, TableSpec] = {t.name: t for t in TABLES}
OPERATIONAL_TABLES: tuple[str, ...] = tuple(t.name for t in TABLES if t.operational)
# What `data import` / `data export` (and `data generate`) carry: the airline's data, including its record of
# past disruptions (seeded by the generator, or an airline's own), but never system state such as checkpoints.
TRANSFER_TABLES: tuple[str, ...] = OPERATIONAL_TABLES + (DISRUPTION_HISTORY,)

# Which operational tables each agent may read. Enforced by the data handle in code and by each
# agent Lambda's IAM policy (infra reads this same mapping).
SAFETY_AGENTS = ("crew_compliance", "maintenance", "regulatory")
BUSINESS_AGENTS = ("network", "guest_experience", "cargo", "finance")
AGENTS = SAFETY_AGENTS + BUSINESS_AGENTS

AGENT_TABLE_ACCESS: dict[str, tuple[str, ...]] = {
    "crew_compliance": (FLIGHTS, CREW_ROSTER, CREW_MEMBERS),
    "maintenance": (FLIGHTS, MAINTENANCE_WORK_ORDERS, MAINTENANCE_STAFF, MAINTENANCE_ROSTER, AIRCRAFT_AVAILABILITY),
    "regulatory": (FLIGHTS, CREW_ROSTER, MAINTENANCE_WORK_ORDERS, WEATHER, AIRPORTS),
    "network": (FLIGHTS, AIRCRAFT_AVAILABILITY),
    "guest_experience": (FLIGHTS, BOOKINGS, BAGGAGE),
    "cargo": (FLIGHTS, CARGO_FLIGHT_ASSIGNMENTS, CARGO_SHIPMENTS),
    "finance": (FLIGHTS, BOOKINGS, CARGO_FLIGHT_ASSIGNMENTS, MAINTENANCE_WORK_ORDERS),
}


@dataclass(frozen=True)
class Naming:
    """Physical table names: the logical name behind an optional prefix (one stack per prefix)."""

    prefix: str = ""
    overrides: dict[str, str] = field(default_factory=dict)

    def __call__(self, logical: str) -> str:
        if logical not in TABLES_BY_NAME:
            raise KeyError(f"unknown table {logical!r}")
        return self.overrides.get(logical, f"{self.prefix}{logical}")

    @classmethod
    def from_env(cls) -> Naming:
        return cls(prefix=os.environ.get("SKYMARSHAL_TABLE_PREFIX", ""))
