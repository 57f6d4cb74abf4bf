"""The flights a report describes instead of naming ("all our London flights this evening", "A6-BLQ's flights
today", "every departure to Bahrain tomorrow morning"), found in the data for the report's day.

The day is the one the report names, its relative days against the operating day (intake/when.py); the flights are
those of that day (`flight_date`, the local day of departure) still to operate (scheduled or delayed), read
through the flights' GSIs — a tail's on aircraft-registration-index, a place's on origin-departure-index and
destination-arrival-index (no Scan) — and kept when they fit every constraint: the tail, each end's places (several
places at one end are alternatives: "to Bahrain and Kuwait"), and the parts of the day in the local time each
flight leaves (intake/flight_sets.PARTS_OF_DAY). Several described sets in one report are their union.

A place described with a clock window ("departures to Bahrain from 06:00 to 09:00 UTC") is an airport over a
window, left to the airport reading (intake/airport_facts.py). Nothing is guessed: a description no flight fits,
or a report naming two days for its set, is one line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from ..data import queries as q
from ..data.access import DataHandle
from ..models.airports import UnknownAirport, airport, codes_of_place
from ..models.disruption import Fact
from ..models.operational import Flight
from .airport_facts import InvalidReport, served_airports
from .dates import DateMention, find_dates
from .flight_sets import PARTS_OF_DAY, Constraint, FlightSet, flight_sets
from .report import WINDOW
from .sentences import blank_instructions
from .when import day_of, operating_day, relevant

# Of a set only (a report's "this morning" beside a flight's date is when something happened, not a second day).
_THIS_PART = re.compile(r"\bthis\s+(?:morning|afternoon|evening)\b", re.I)
CLOCK_SLACK_MINUTES = 10  # "the 3:45 pm local" for a departure at 15:50
TO_OPERATE = ("SCHEDULED", "DELAYED")  # a flight gone (departed, arrived, diverted) or cancelled is no one's to hold


def no_departure_left(flight: Flight) -> str | None:
    """Why a report about `flight` starts nothing, when the data has it cancelled (an earlier plan, the schedule):
    no departure is left to hold, re-time or re-crew, and its passengers are that cancellation's (None: it may)."""
    if flight.status != "CANCELLED":
        return None
    by = f" by {flight.updated_by_execution}" if flight.updated_by_execution else ""
    return (
        f"{flight.flight_number} on {flight.flight_date.isoformat()} is cancelled in the data{by}: no departure is "
        "left to recover (its passengers were re-accommodated with the cancellation); reinstating it is a schedule change"
    )


@dataclass(frozen=True)
class DescribedFlights:
    """The flights a report describes, in departure order, with the words that described them."""

    flights: list[Flight]
    sets: list[FlightSet]
    day: date

    def unworded(self, report: str) -> str:
        """The report with the sets' flight nouns blanked (offsets kept): "the A6-BLE rotation" names the flights,
        it states no rotation delay (AHM 93), so the cause is read without them."""
        out = list(report)
        for described in self.sets:
            start, end = described.noun
            out[start:end] = " " * (end - start)
        return "".join(out)

    @property
    def by_tail(self) -> bool:
        """Every set is a tail's ("A6-EIB … on the Bahrain shuttle")."""
        return all(s.registration for s in self.sets)

    @property
    def by_tail_only(self) -> bool:
        """Every set is a tail's with no place: one flight found is the tail's flight (a tail scope)."""
        return all(s.registration and not s.places for s in self.sets)

    def fact(self) -> Fact:
        """The description as a stated fact: what the report said, and what it was read as."""
        first = self.sets[0]
        found = ", ".join(f.flight_number for f in self.flights)
        return Fact(
            name="flights_described",
            value=f"{'; '.join(_explained(s) for s in self.sets)} on {self.day.isoformat()}: {found}",
            source="stated",
            evidence=" / ".join(s.words for s in self.sets),
            span=first.span,
        )


def _place_codes(served: set[str]):
    """The served airports `words` name; a place the airline does not serve, named ("every departure to Doha"), is
    its own airports, so the set it describes holds none of our flights and is refused in one line, never read as
    the set without the place. An unserved code is no place here: a log line's capitals are words ("ALL FLTS")."""

    def codes(words: str) -> set[str]:
        if len(words) == 3 and words.isupper():
            return {words} & served
        named = set(codes_of_place(words))
        return named & served or named

    return codes


def _local_departure(flight: Flight) -> time:
    try:
        zone = ZoneInfo(airport(flight.origin).tz)
    except UnknownAirport:
        zone = ZoneInfo("UTC")
    return flight.scheduled_departure.astimezone(zone).time()


def in_part(flight: Flight, part: str) -> bool:
    start, end = PARTS_OF_DAY[part]
    leaves = _local_departure(flight)
    return start <= leaves and (end is None or leaves < end)


def fits(flight: Flight, described: FlightSet) -> bool:
    """Does the flight fit the description: its tail, each end's places, a part of the day it leaves in?"""
    if described.registration and flight.aircraft_registration != described.registration:
        return False
    if described.types and flight.aircraft_type not in described.types:
        return False
    ends: dict[str, set[str]] = {}
    for place in described.places:
        ends.setdefault(place.end, set()).update(place.codes)
    touching = {"origin": {flight.origin}, "destination": {flight.destination}}
    for end, codes in ends.items():
        if not codes & touching.get(end, {flight.origin, flight.destination}):
            return False
    if described.clocks and not any(_near(_local_departure(flight), at) for at in described.clocks):
        return False
    return not described.parts or any(in_part(flight, p) for p in described.parts)


def _near(leaves: time, at: time) -> bool:
    """Within CLOCK_SLACK of a clock time the report gives (a departure called by its rounded time)."""
    minutes = abs((leaves.hour * 60 + leaves.minute) - (at.hour * 60 + at.minute))
    return min(minutes, 24 * 60 - minutes) <= CLOCK_SLACK_MINUTES


def _explained(described: FlightSet) -> str:
    ends = {"origin": "from", "destination": "to", "either": "to or from"}
    parts = [f"of {described.registration}"] if described.registration else []
    if described.types:
        parts.append(f"flown by {' or '.join(sorted(described.types))}")
    by_end: dict[str, list[Constraint]] = {}
    for place in described.places:
        by_end.setdefault(place.end, []).append(place)
    for end, places in by_end.items():
        names = " or ".join(f"{p.words} ({', '.join(sorted(p.codes))})" for p in places)
        parts.append(f"{ends[end]} {names}")
    when = " or ".join(
        f"{p} ({PARTS_OF_DAY[p][0]:%H:%M}-{PARTS_OF_DAY[p][1] or time(0):%H:%M} local)" for p in described.parts
    )
    clock = " or ".join(f"{at:%H:%M}" for at in described.clocks)
    return (
        ("the flight " if described.one else "flights ")
        + " ".join(parts)
        + (f" leaving in the {when}" if when else "")
        + (f" leaving at {clock} local" if clock else "")
    )


def _days(report: str, base: date, sets: list[FlightSet]) -> list[date]:
    """The days the report names for its sets (relative days against its operating day; where its dates disagree,
    those in the sentences describing a set), in order."""
    ops, stated = operating_day(report, None, base)
    mentions = find_dates(report)
    for m in _THIS_PART.finditer(blank_instructions(report)):  # "this evening": the operating day, a time of it
        mentions.append(DateMention(m.group(0), m.start(), m.end(), "relative", offset=0, word="today"))
    days: list[date] = []
    for mention in relevant(report, mentions, [s.span for s in sets], stated):
        found = day_of(mention, ops)
        if found is not None and found not in days:
            days.append(found)
    return days or [ops]


def _candidates(handle: DataHandle, described: FlightSet, day: date) -> list[Flight]:
    """The flights of the local day that may fit: the tail's, else those at the most selective end's places."""
    start = datetime.combine(day, time(), UTC)
    # a local day leaves from the evening before (UTC) to the morning after: a day either side
    low, high = start - timedelta(days=1), start + timedelta(days=2)
    if described.registration:
        found = q.rotation(handle, described.registration, low, high)
    else:
        ends: dict[str, set[str]] = {}
        for place in described.places:
            ends.setdefault(place.end, set()).update(place.codes)
        codes = min(ends.values(), key=len)
        found = [f for code in sorted(codes) for f in q.flights_at_airport(handle, code, low, high)]
    return [f for f in found if f.flight_date == day]


def described_flights(
    report: str, handle: DataHandle, now: datetime, ops_date: date | None = None
) -> DescribedFlights | None:
    """The flights the report describes; None when it describes no set (it names flights, one tail's flight, or an
    airport over a window). Raises InvalidReport with one line."""
    served = served_airports(report, handle)
    sets = flight_sets(report, _place_codes(served))
    if not sets:
        return None
    if any(s.by_place for s in sets) and WINDOW.search(blank_instructions(report)):
        return None  # a place over a clock window: the airport's (airport_facts.py)
    days = _days(report, ops_date or now.date(), sets)
    words = " / ".join(f"'{s.words}'" for s in sets)
    if len(days) > 1:
        named = ", ".join(d.isoformat() for d in days)
        raise InvalidReport(f"{words}: the flights described are on different days ({named}): report one day at a time")
    day = days[0]
    found: dict[str, Flight] = {}
    for described in sets:
        fitting = [f for f in _candidates(handle, described, day) if fits(f, described)]
        if described.one and len(fitting) > 1:
            numbers = ", ".join(f"{f.flight_number} {f.origin}-{f.destination}" for f in fitting)
            raise InvalidReport(
                f"'{described.words}' fits {len(fitting)} flights on {day.isoformat()} ({numbers}): name one"
            )
        for flight in fitting:
            found.setdefault(flight.flight_id, flight)
    flights = sorted(found.values(), key=lambda f: (f.scheduled_departure, f.flight_id))
    to_operate = [f for f in flights if f.status in TO_OPERATE]
    if not to_operate:
        gone = ", ".join(f"{f.flight_number} {f.status.lower()}" for f in flights)
        explained = "; ".join(_explained(s) for s in sets)
        raise InvalidReport(
            f"{words}: no flight still to operate fits ({explained} on {day.isoformat()})"
            + (f"; in the data: {gone}" if gone else "")
        )
    return DescribedFlights(to_operate, sets, day)


__all__ = ["DescribedFlights", "described_flights", "fits", "in_part", "no_departure_left"]
