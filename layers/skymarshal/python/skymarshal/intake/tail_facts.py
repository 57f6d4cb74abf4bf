"""A report about an aircraft by its registration and no flight number ("A6-XWA grounded in Abu Dhabi on January
21st with a cracked windshield"): the disruption is the tail's, and the flight it touches first is the tail's
first departure that day — from the airport the report names, when it names one the airline serves.

Found through the flights' aircraft-registration GSI (no Scan). Nothing is guessed: no day, a tail with no
flight that day, or no departure from the named airport is one line saying what was understood.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta

from ..data import queries as q
from ..data.access import DataHandle
from ..models.disruption import Disruption
from ..models.operational import Flight
from .airport_facts import InvalidReport, places_named, report_day, served_airports
from .cause import read_cause
from .normalise import normalise
from .report import REGISTRATION, airport_names, read_report
from .sentences import blank_instructions

AIRCRAFT_ROTATION = 93  # AHM 730: the aircraft late from its previous sector (a knock-on)
# The registration as the subject of running late: "A6-EIB running", "A6-EJD is running", "A6-BMC 19JAN late rotation"
_AIRCRAFT_LATE = re.compile(
    r"(?:\s*[,/]?\s*\d{1,2}\s?[A-Za-z]{3}\w*)?\s+(?:(?:is|was|now)\s+)?(?:running|operating)\b"
    r"|(?:\s*[,/]?\s*\d{1,2}\s?[A-Za-z]{3}\w*)?\s+late\s+(?:rotation|all\s+day)\b",
    re.I,
)


def tail_flight(report: str, handle: DataHandle, now: datetime, ops_date: date | None = None) -> Flight | None:
    """The flight a tail-scope report is about; None when the report names no registration.
    Raises InvalidReport with one line."""
    found = REGISTRATION.search(report)
    if found is None:
        return None
    registration = found.group(1)
    day = report_day(report, ops_date or now.date())
    if day is None:
        raise InvalidReport(
            f"understood aircraft {registration} but no day: say which, e.g. '{registration} on 21 January'"
        )
    start = datetime.combine(day, time(), UTC)
    # The local day's flights can leave the evening before in UTC or after midnight: a day either side.
    flights = [
        f
        for f in q.rotation(handle, registration, start - timedelta(days=1), start + timedelta(days=2))
        if f.flight_date == day
    ]
    if not flights:
        raise InvalidReport(f"{registration} has no flight on {day.isoformat()}: check the registration and the day")
    served = served_airports(report, handle)
    airport = read_report(report, known_airports=served, city_codes=airport_names(served)).airport
    if airport is None:  # a city of several airports ("at London"): the tail must leave one of them
        for place, codes in places_named(report, served):
            if not any(f.origin in codes for f in flights):
                route = ", ".join(f"{f.flight_number} {f.origin}-{f.destination}" for f in flights)
                where = f"{place} ({', '.join(sorted(codes))})"
                raise InvalidReport(
                    f"{registration} does not depart {where} on {day.isoformat()} (its flights: {route})"
                )
    if airport is not None:
        leaving = [f for f in flights if f.origin == airport.value]
        if not leaving:
            route = ", ".join(f"{f.flight_number} {f.origin}-{f.destination}" for f in flights)
            raise InvalidReport(
                f"{registration} does not depart {airport.value} on {day.isoformat()} (its flights: {route})"
            )
        flights = leaving
    return min(flights, key=lambda f: f.scheduled_departure)


def tail_scope(disruption: Disruption) -> Disruption:
    """The report was about the aircraft: its scope is the tail (the flight it touches first is in `flights`)."""
    return disruption.model_copy(update={"scope": disruption.scope.model_copy(update={"kind": "tail"})})


def running_late(report: str) -> bool:
    """Whether the report is an aircraft running late through its day by its own rotation (AHM 730 93), the
    registration the subject ("A6-EIB running about an hour behind …", "A6-EJD is running late", "A6-BMC 19JAN late
    rotation all day"): the tail's disruption at its first late flight. The later flights' delays are what a plan
    computes from it — turnaround buffers absorb some, a swap can cut the chain — not facts each flight is held at.
    A set the report describes ("the whole A6-EIF rotation will go late") stays the set."""
    plain = blank_instructions(report)
    if not any(_AIRCRAFT_LATE.match(plain, m.end()) for m in REGISTRATION.finditer(plain)):
        return False  # most reports: no registration running late, and no second reading of the cause
    first = read_cause(normalise(plain)).first
    return first is not None and first.code == AIRCRAFT_ROTATION
