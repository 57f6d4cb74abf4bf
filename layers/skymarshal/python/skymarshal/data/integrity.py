"""The whole airline's operation integrity (``rules.rotation``) read through the GSIs: every tail's rotation in
sequence, airworthy when it flies, and AircraftAvailability where the flights leave each tail.

Reads: AircraftAvailability on type-date-index (one Query per type), the flights on type-departure-index (one
Query per type over the data's days), each tail's work orders on aircraft-registration-index. No Scan.
Run after every execution in the tests, by ``skymarshal data check``, and on the tails a plan touches.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, time, timedelta

from boto3.dynamodb.conditions import Key
from pydantic import BaseModel, ConfigDict

from ..models.common import iso_z
from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import AircraftDay, Flight
from ..rules.rotation import RotationBreak, availability_breaks, rotation_breaks
from . import queries as q
from . import schema as s
from .access import DataHandle
from .crew_integrity import CrewBreak, crew_breaks


class OperationCheck(BaseModel):
    model_config = ConfigDict(frozen=True)

    first_day: date | None
    last_day: date | None
    tails: int
    flights: int
    breaks: tuple[RotationBreak, ...]
    crew: tuple[CrewBreak, ...] = ()  # the crew chains through the flights executions changed (``crew_integrity``)

    @property
    def continuity(self) -> list[RotationBreak]:
        """Breaks of a sequence: never acceptable."""
        return [b for b in self.breaks if b.continuity]

    @property
    def intact(self) -> bool:
        """Every tail flies its flights in sequence and every crew chain a recovery touched is legal."""
        return not self.continuity and not self.crew

    def lines(self) -> list[str]:
        """Each break of a sequence or a crew chain, one line each (what a test or an operator reads)."""
        return [f"{b.code}: {b.message}" for b in self.continuity] + [f"{c.code}: {c.message}" for c in self.crew]

    @property
    def grounded(self) -> list[RotationBreak]:
        """Flights still planned on a grounded tail: a disruption waiting for its decision."""
        return [b for b in self.breaks if not b.continuity]

    def summary(self) -> str:
        return (
            f"{self.tails} aircraft, {self.flights} flights ({self.first_day}..{self.last_day}): "
            f"{len(self.continuity)} continuity break(s), {len(self.grounded)} flight(s) planned on a grounded aircraft, "
            f"{len(self.crew)} crew chain break(s)"
        )


def fleet_days(
    handle: DataHandle, aircraft_types: Iterable[str] = tuple(AIRCRAFT_TYPES)
) -> dict[str, list[AircraftDay]]:
    """Every availability row, by registration (one Query per type on type-date-index)."""
    by_tail: dict[str, list[AircraftDay]] = {}
    for aircraft_type in aircraft_types:
        for row in handle.query(
            s.AIRCRAFT_AVAILABILITY, Key("aircraft_type").eq(aircraft_type), index=s.TYPE_DATE_INDEX
        ):
            day = AircraftDay.model_validate(row)
            by_tail.setdefault(day.aircraft_registration, []).append(day)
    return by_tail


def fleet_flights(handle: DataHandle, start: datetime, end: datetime) -> dict[str, list[Flight]]:
    """Every flight departing (as scheduled) in [start, end), by tail (one Query per type on type-departure-index)."""
    by_tail: dict[str, list[Flight]] = {}
    for aircraft_type in AIRCRAFT_TYPES:
        rows = handle.query(
            s.FLIGHTS,
            Key("aircraft_type").eq(aircraft_type) & Key("scheduled_departure").between(iso_z(start), iso_z(end)),
            index=s.TYPE_DEPARTURE_INDEX,
        )
        for row in rows:
            flight = Flight.model_validate(row)
            by_tail.setdefault(flight.aircraft_registration, []).append(flight)
    return by_tail


def check_operation(
    handle: DataHandle, registrations: Iterable[str] | None = None, crew_flights: Iterable[str] = ()
) -> OperationCheck:
    """Every tail's rotation and availability rows over the days the data holds (``registrations``: only those), and
    the crew chains through every flight an execution changed plus ``crew_flights`` (flights a plan re-crewed)."""
    days = fleet_days(handle)
    wanted = set(registrations) if registrations is not None else set(days)
    all_days = [d.date for rows in days.values() for d in rows]
    if not all_days:
        return OperationCheck(first_day=None, last_day=None, tails=0, flights=0, breaks=())
    first, last = min(all_days), max(all_days)
    # a flight leaving before the first midnight still places its tail; one after the last day places nothing
    first_midnight = datetime.combine(first, time(0), UTC)
    flights = fleet_flights(
        handle, first_midnight - timedelta(days=1), first_midnight + timedelta(days=(last - first).days + 2)
    )
    breaks: list[RotationBreak] = []
    for registration in sorted(wanted):
        rows = sorted(days.get(registration, []), key=lambda d: d.date)
        own = flights.get(registration, [])
        orders = q.work_orders_for_aircraft(handle, registration)
        # the first row says where the tail starts, unless a flight of the data left before that midnight
        start = rows[0].station if rows and all(f.departure >= first_midnight for f in own) else None
        breaks += rotation_breaks(registration, own, start_station=start, work_orders=orders)
        breaks += availability_breaks(rows, own)
    named = set(crew_flights)
    touched = [f for r in wanted for f in flights.get(r, []) if f.updated_by_execution or f.flight_id in named]
    touched += [f for fid in sorted(named - {f.flight_id for f in touched}) if (f := q.get_flight(handle, fid))]
    return OperationCheck(
        first_day=first,
        last_day=last,
        tails=len(wanted),
        flights=sum(len(flights.get(r, [])) for r in wanted),
        breaks=tuple(breaks),
        crew=tuple(crew_breaks(handle, touched)),
    )
