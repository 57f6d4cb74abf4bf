"""Rows of the operational tables (see skymarshal.data.schema for keys and indexes)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Literal

from pydantic import Field, NonNegativeInt, PositiveInt, model_validator

from .common import FlightNumber, Iata, Registration, Row, UtcDatetime

Cabin = Literal["F", "J", "Y"]
LoyaltyTier = Literal["NONE", "BRONZE", "SILVER", "GOLD", "PLATINUM"]
CrewRank = Literal["CPT", "FO", "CD", "CA"]  # captain, first officer, cabin director, cabin attendant
CABIN_RANKS: frozenset[str] = frozenset({"CD", "CA"})
PILOT_RANKS: tuple[str, ...] = ("CPT", "FO")


class Flight(Row):
    flight_id: str
    flight_number: FlightNumber
    carrier: str = Field(pattern=r"^[A-Z0-9]{2}$")
    origin: Iata
    destination: Iata
    flight_date: date  # local date at the origin, as printed on the ticket
    scheduled_departure: UtcDatetime
    scheduled_arrival: UtcDatetime
    estimated_departure: UtcDatetime | None = None
    estimated_arrival: UtcDatetime | None = None
    aircraft_registration: Registration
    aircraft_type: str
    status: Literal["SCHEDULED", "DELAYED", "CANCELLED", "DIVERTED", "DEPARTED", "ARRIVED"] = "SCHEDULED"
    delay_minutes: NonNegativeInt = 0
    delay_reason: str | None = None
    diverted_to: Iata | None = None
    updated_by_execution: str | None = None  # the workflow execution that last changed the row (audit)
    block_minutes: PositiveInt
    distance_km: PositiveInt
    capacity: dict[Cabin, NonNegativeInt]
    booked: dict[Cabin, NonNegativeInt] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _times_in_order(self) -> Flight:
        if self.scheduled_arrival <= self.scheduled_departure:
            raise ValueError("scheduled_arrival must be after scheduled_departure")
        if self.origin == self.destination:
            raise ValueError("origin and destination must differ")
        return self

    @property
    def departure(self) -> datetime:
        """Best known departure time: the estimate when there is one."""
        return self.estimated_departure or self.scheduled_departure

    @property
    def arrival(self) -> datetime:
        return self.estimated_arrival or self.scheduled_arrival


class Booking(Row):
    booking_id: str
    pnr: str = Field(pattern=r"^[A-Z0-9]{6}$")
    flight_id: str
    passenger_id: str
    passenger_name: str
    cabin: Cabin
    loyalty_tier: LoyaltyTier = "NONE"
    ssr: list[str] = Field(default_factory=list)  # special service requests: UMNR, WCHR, MEDA, ...
    segment: PositiveInt = 1
    inbound_flight_id: str | None = None  # previous segment of the itinerary, if connecting in
    onward_flight_id: str | None = None  # next segment of the itinerary, if connecting out
    final_destination: Iata
    fare_paid: float = Field(ge=0)
    currency: str = "USD"
    status: Literal["CONFIRMED", "CHECKED_IN", "BOARDED", "REBOOKED", "CANCELLED"] = "CONFIRMED"
    bag_tags: list[str] = Field(default_factory=list)
    rebooked_from: str | None = None  # the flight the passenger bought, which a recovery moved the booking off
    rebooked_to: str | None = None  # "INTERLINE" when placed on another carrier
    updated_by_execution: str | None = None


class Passenger(Row):
    passenger_id: str
    name: str
    loyalty_tier: LoyaltyTier = "NONE"
    loyalty_number: str | None = None
    nationality: str = Field(pattern=r"^[A-Z]{2}$")
    birth_year: int = Field(ge=1900, le=2030)
    email: str
    needs: list[str] = Field(default_factory=list)


class LandingRecord(Row):
    aircraft_type: str
    at: UtcDatetime


class CrewMember(Row):
    crew_id: str
    name: str
    rank: CrewRank
    base: Iata
    type_ratings: list[str]  # type-rating groups: A320, B787, B777, A350
    recent_landings: list[LandingRecord] = Field(default_factory=list)  # pilots: recency (61.57 / FCL.060)
    reserve: bool = False
    status: Literal["ACTIVE", "SICK", "LEAVE"] = "ACTIVE"


class CrewDuty(Row):
    """One CrewRoster row: a flight sector, a standby, or a past duty summarised for history."""

    crew_id: str
    duty_key: str  # f"{duty_start}#{sector_departure or kind}#{flight_id or ''}": sorts a member's rows in time
    duty_id: str  # groups the sectors of one flight duty period
    kind: Literal["FLIGHT", "STANDBY", "HISTORY", "POSITIONING"]
    duty_start: UtcDatetime  # report time
    duty_end: UtcDatetime  # release time of the whole duty
    fdp_end: UtcDatetime | None = None  # on-blocks of the last sector (FLIGHT/HISTORY)
    start_station: Iata
    end_station: Iata
    flight_id: str | None = None
    flight_number: str | None = None
    position: CrewRank | None = None
    sector_departure: UtcDatetime | None = None
    sector_arrival: UtcDatetime | None = None
    sectors: PositiveInt = 1  # sectors in the whole duty
    block_minutes: NonNegativeInt = 0  # flight time credited by this row
    aircraft_type: str | None = None
    pilots_on_board: PositiveInt | None = None  # 2 = unaugmented, 3/4 = augmented
    standby_base_date: str | None = None  # f"{base}#{YYYY-MM-DD}" on STANDBY rows only (sparse index)
    sector_day: str | None = None  # derived, never given: `sector_day_of` (the sector-day index's partition key)
    moved_minutes: int = 0  # an executed delay moved this sector: its times are the schedule's plus this
    updated_by_execution: str | None = None  # set on a duty a recovery created (a reserve called out)

    @model_validator(mode="after")
    def _duty_in_order(self) -> CrewDuty:
        if self.duty_end <= self.duty_start:
            raise ValueError("duty_end must be after duty_start")
        self.sector_day = sector_day_of(self.kind, self.sector_departure)  # whatever a writer carried over
        return self


def sector_day_of(kind: str, sector_departure: datetime | str | None) -> str | None:
    """The UTC day (YYYY-MM-DD) a flown sector leaves on, at its current time: the sparse sector-day index keys a
    day's FLIGHT rows by it, so the operation board reads a day's crews in one Query, not one per flight. Other
    rows (standby, history, positioning) stay out of the index."""
    if kind != "FLIGHT" or sector_departure is None:
        return None
    if isinstance(sector_departure, str):  # a raw item's ISO-8601 UTC time, as `to_item` and the executor write it
        sector_departure = datetime.fromisoformat(sector_departure.replace("Z", "+00:00"))
    return sector_departure.astimezone(UTC).date().isoformat()


class MelItem(Row):
    reference: str  # MEL item number, e.g. "29-11-01"
    category: Literal["A", "B", "C", "D"]
    discovered_on: date
    interval_days: PositiveInt | None = None  # category A: as stated in the item's remarks
    restrictions: list[str] = Field(default_factory=list)  # e.g. APU_INOP_GROUND_POWER, ALT_LIMIT_FL250

    @model_validator(mode="after")
    def _category_a_needs_interval(self) -> MelItem:
        if self.category == "A" and self.interval_days is None:
            raise ValueError("a category A item states its own interval (interval_days)")
        return self


class WorkOrder(Row):
    work_order_id: str
    aircraft_registration: Registration
    opened_at: UtcDatetime
    kind: Literal["DEFECT", "MEL_DEFERRAL", "SCHEDULED_CHECK"]
    status: Literal["OPEN", "IN_PROGRESS", "DEFERRED", "CLOSED"]
    ata_chapter: str = Field(pattern=r"^\d{2}$")
    description: str
    station: Iata
    aog: bool = False  # the defect grounds the aircraft until rectified
    mel: MelItem | None = None
    estimated_labour_hours: float = Field(default=0, ge=0)
    required_authorisation: str | None = None  # e.g. "B1-B787": the licence an engineer needs
    parts_available_at: UtcDatetime | None = None
    closed_at: UtcDatetime | None = None
    updated_by_execution: str | None = None  # a grounding a report stated, recorded by a recovery's execution


class MaintenanceEngineer(Row):
    staff_id: str
    name: str
    station: Iata
    licence: Literal["B1", "B2", "A"]
    authorisations: list[str]  # e.g. "B1-B787"


class MaintenanceShift(Row):
    staff_id: str
    shift_start: UtcDatetime
    shift_end: UtcDatetime
    station: Iata


class AircraftDay(Row):
    aircraft_registration: Registration
    date: date
    aircraft_type: str
    status: Literal["IN_SERVICE", "SPARE", "MAINTENANCE", "AOG"]
    station: Iata  # where the aircraft is at the start of the day (UTC)
    capacity: dict[Cabin, NonNegativeInt]
    first_departure: UtcDatetime | None = None
    last_arrival: UtcDatetime | None = None
    note: str | None = None
    updated_by_execution: str | None = None  # the recovery that last moved the tail (its station, its day)


class CargoShipment(Row):
    shipment_id: str = Field(pattern=r"^\d{3}-\d{8}$")  # air waybill number
    origin: Iata
    destination: Iata
    commodity: str
    handling_codes: list[str] = Field(default_factory=list)  # IATA: PER COL FRO ICE PIL AVI DGR VAL HUM
    pieces: PositiveInt
    weight_kg: float = Field(gt=0)
    revenue_usd: float = Field(ge=0)
    shipper: str
    ready_at: UtcDatetime


class CargoAssignment(Row):
    assignment_id: str
    flight_id: str
    shipment_id: str
    loading_priority: PositiveInt
    pieces: PositiveInt
    weight_kg: float = Field(gt=0)
    status: Literal["BOOKED", "LOADED", "OFFLOADED", "DELIVERED"] = "BOOKED"


class Bag(Row):
    bag_tag: str = Field(pattern=r"^\d{10}$")
    booking_id: str
    passenger_id: str
    flight_id: str
    current_location: Iata
    final_destination: Iata
    status: Literal["CHECKED", "LOADED", "IN_TRANSIT", "ARRIVED", "MISHANDLED"] = "CHECKED"
    weight_kg: float = Field(gt=0, le=45)
    priority: bool = False


class WeatherObservation(Row):
    airport: Iata
    forecast_time: UtcDatetime
    visibility_m: NonNegativeInt
    ceiling_ft: NonNegativeInt | None = None  # None: no ceiling (no BKN/OVC layer)
    wind_direction_deg: int = Field(ge=0, le=360)
    wind_speed_kt: NonNegativeInt
    gust_kt: NonNegativeInt | None = None
    temperature_c: float
    phenomena: list[str] = Field(default_factory=list)  # METAR codes: FG, BR, TS, SN, RA, SQ


class CurfewWindow(Row):
    start_local: str = Field(pattern=r"^\d{2}:\d{2}$")
    end_local: str = Field(pattern=r"^\d{2}:\d{2}$")
    kind: Literal["curfew", "night_quota"] = "curfew"
    applies_to: Literal["departures", "arrivals", "both"] = "both"
    source: str


class Runway(Row):
    designator: str  # e.g. "09L/27R"
    heading_deg: int = Field(ge=0, le=360)  # magnetic heading of the lower-numbered end
    length_m: PositiveInt


class AirportProfile(Row):
    iata: Iata
    record: Literal["PROFILE"] = "PROFILE"
    icao: str = Field(pattern=r"^[A-Z0-9]{4}$")
    name: str
    city: str
    country: str = Field(pattern=r"^[A-Z]{2}$")
    tz: str
    lat: float
    lon: float
    elevation_ft: int
    runways: list[Runway] = Field(default_factory=list)
    curfews: list[CurfewWindow] = Field(default_factory=list)
    min_connection_minutes: PositiveInt | None = None
    slot_tolerance_minutes: PositiveInt = 15
    minima_visibility_m: PositiveInt = 550  # CAT I unless the airport/operator says otherwise
    minima_ceiling_ft: NonNegativeInt = 200


class Notam(Row):
    iata: Iata
    record: str = Field(pattern=r"^NOTAM#")  # f"NOTAM#{starts_at}#{notam_id}"
    notam_id: str
    kind: Literal["AIRPORT_CLOSED", "RUNWAY_CLOSED", "NAVAID_UNSERVICEABLE", "OTHER"]
    starts_at: UtcDatetime
    ends_at: UtcDatetime
    runway: str | None = None
    text: str
