"""The keys of `DisruptionContext.memo`: one frozen dataclass per kind of cached read or check, its fields named.

Why classes and not tuples: two tuples of the same values are one key whatever read they stand for (a collision
was caught once), while a dataclass equals only an instance of its own class. A new kind of cached read gets a
class here, so every kind the arbitrator caches is listed in one place with what identifies its answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta


@dataclass(frozen=True, slots=True)
class MemoKey:
    """A kind of read or check cached once per arbitration (subclasses name what identifies the answer)."""


# ------------------------------------------------------------------ reads of one flight's or one tail's rows
# One class per read, the field in a shared base: a FlightRead and a BookingsRead of one flight are two keys.


@dataclass(frozen=True, slots=True)
class FlightKey(MemoKey):
    """A read of one flight's rows."""

    flight_id: str


@dataclass(frozen=True, slots=True)
class TailKey(MemoKey):
    """A read of one tail's rows."""

    registration: str


class FlightRead(FlightKey):
    """q.get_flight."""

    __slots__ = ()


class BookingsRead(FlightKey):
    """q.bookings of a flight."""

    __slots__ = ()


class SeatsRead(FlightKey):
    """q.crew_assignments: who is rostered on a flight."""

    __slots__ = ()


class FlightRosterRead(FlightKey):
    """The rostered crew of a flight with their rosters (arbitration.crew.chain)."""

    __slots__ = ()


class RosteredIds(FlightKey):
    """The crew ids rostered on a flight."""

    __slots__ = ()


class WorkOrdersRead(TailKey):
    """q.work_orders_for_aircraft."""

    __slots__ = ()


class TailRead(TailKey):
    """q.rotation: a tail's flights around the disruption."""

    __slots__ = ()


class AircraftDaysRead(TailKey):
    """q.aircraft_days: the days a tail is available."""

    __slots__ = ()


# ---------------------------------------------------------------- other reads of the operational tables


@dataclass(frozen=True, slots=True)
class RosterRead(MemoKey):
    """A member's roster over a window of whole UTC days (analysis.crew.roster_window)."""

    crew_id: str
    window: tuple[datetime, datetime]


@dataclass(frozen=True, slots=True)
class StandbyRead(MemoKey):
    """The standby rows filed under a station's local day."""

    station: str
    day: date


@dataclass(frozen=True, slots=True)
class WeatherRead(MemoKey):
    """The observations at an airport around a day's arrival."""

    airport: str
    day: date


@dataclass(frozen=True, slots=True)
class PositioningFlightsRead(MemoKey):
    """The flights that could carry a crew from its base to the flight's origin."""

    base: str
    origin: str


@dataclass(frozen=True, slots=True)
class ArrivalsRead(MemoKey):
    """q.arrivals: the flights scheduled to land at a station in [low, high)."""

    station: str
    low: datetime
    high: datetime


@dataclass(frozen=True, slots=True)
class FleetDayRead(MemoKey):
    """q.fleet_of_type: the aircraft of a type on a day, with where each starts it."""

    aircraft_type: str
    day: date


@dataclass(frozen=True, slots=True)
class NoProfile(MemoKey):
    """An airport read and found without a profile (DisruptionContext.read_profiles asks once)."""

    iata: str


@dataclass(frozen=True, slots=True)
class StationFlightsRead(MemoKey):
    """Departures from or arrivals at a station over whole UTC days (re-accommodation)."""

    direction: str  # "departures" | "arrivals"
    station: str
    low: datetime
    high: datetime


# ------------------------------------------------------------------------------------------- checks and plans


@dataclass(frozen=True, slots=True)
class CrewLegalityCheck(MemoKey):
    """The rostered crew's legality of a flight at a delay."""

    flight_id: str
    delay: int


@dataclass(frozen=True, slots=True)
class RestedCheck(MemoKey):
    """A member's duty re-timed to report after standing down, with the plan's move of their next duty."""

    crew_id: str
    delay: int
    report: datetime
    stood_down_at: datetime
    move: tuple[str, timedelta] | None
    cancelled: frozenset[str] = frozenset()  # the flights the plan cancels (a next duty among them is no duty)


@dataclass(frozen=True, slots=True)
class CabinCheck(MemoKey):
    """A cabin crew member's swap into a proposed duty."""

    crew_id: str
    report: datetime
    fdp_end: datetime
    at: datetime


@dataclass(frozen=True, slots=True)
class FerryCrewCheck(MemoKey):
    """A ferry crew member's findings for a ferry's departure."""

    crew_id: str
    departure: datetime


@dataclass(frozen=True, slots=True)
class ReserveCheck(MemoKey):
    """A reserve replacing a rostered member at a delay (the validation and the positioning ask the same)."""

    replaced: str
    reserve: str
    delay: int
    report: datetime


@dataclass(frozen=True, slots=True)
class RotationBreaks(MemoKey):
    """What a set of actions leaves broken on the tails it touches (each action as its JSON)."""

    actions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FirstSector(MemoKey):
    """Whether a crew member's seat on a flight is the first sector of its duty (moved_reports.first_sector)."""

    crew_id: str
    flight_id: str


@dataclass(frozen=True, slots=True)
class MovedReportCheck(MemoKey):
    """A later flight's crew member reporting at a moved time, by the crew rules (moved_duty.moved_report)."""

    crew_id: str
    flight_id: str
    report: datetime


@dataclass(frozen=True, slots=True)
class HandOverPlan(MemoKey):
    """The hand-over of the late tail's next flights to another aircraft, for the flight this late."""

    delay_minutes: int


@dataclass(frozen=True, slots=True)
class ClearanceWaits(MemoKey):
    """The waits for the cause to clear (one set per arbitration)."""


@dataclass(frozen=True, slots=True)
class KnockOnDayCost(FlightKey):
    """A later flight's EU261 compensation and care at a knock-on delay (arbitration/day_cost.py)."""

    delay_minutes: int


@dataclass(frozen=True, slots=True)
class WaysHome(MemoKey):
    """The re-accommodation of a set of cancelled flights' passengers."""

    flight_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ContinuationOnboard(MemoKey):
    """The crew on board a diverted flight."""


@dataclass(frozen=True, slots=True)
class ContinuationInDuty(MemoKey):
    """A member flying the continuation inside their duty."""

    crew_id: str
    arrival: datetime
    move: tuple[str, timedelta] | None


@dataclass(frozen=True, slots=True)
class ContinuationRested(MemoKey):
    """A member flying the continuation after standing down."""

    crew_id: str
    report: datetime
    stood_at: datetime
    move: tuple[str, timedelta] | None


@dataclass(frozen=True, slots=True)
class SwapEligibility(MemoKey):
    """Whether a tail may fly the flight at a departure (ferried to a station first, or not)."""

    registration: str
    departure: datetime | None
    ferried_to: str | None


@dataclass(frozen=True, slots=True)
class LandingCost(MemoKey):
    """What a flight's passengers' day costs when it lands at a time, its connectors' onward flights moved so."""

    flight_id: str
    arrival: datetime
    onward_moved: tuple[tuple[str, datetime], ...]
    costed: frozenset[str] = frozenset()  # onward flights the plan re-times or cancels: costed on their own rows
