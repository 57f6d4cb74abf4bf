"""What a report is about, picked from the airline's rows: a flight, several flights, a tail's day, a crew member,
an airport or an airspace over a window, and for a contradiction the wrong airport, tail or position.

Every pick is checked against the rows it came from, so the truth holds by construction; a pick the data
cannot serve (no second flight from that station that day) returns None and the composer draws again.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta

from skymarshal.models.operational import Flight

from .airline_view import AirlineView
from .causes import CauseWords
from .described import Description, draw
from .truth import Contradiction, ScopeLabel
from .vocabulary import AIRSPACES, AT_DESTINATION, CABIN_RANKS

HUB = "AUH"  # the synthetic airline's hub: its busiest station


@dataclass
class Subject:
    scope: ScopeLabel
    day: date  # the day the report names (local for flights and tails, UTC for a window)
    flights: list[Flight] = field(default_factory=list)  # named, or the tail's flight, or those inside the window
    registration: str | None = None  # the tail the report names
    station: str | None = None  # the airport the report names
    airspace: str | None = None
    rank: str | None = None  # the crew member's roster rank
    window: tuple[datetime, datetime] | None = None
    refuse: Contradiction | None = None
    description: Description | None = None  # a set described rather than named (described.py)


def _day_flights(view: AirlineView, rng: random.Random) -> tuple[date, list[Flight]]:
    day = rng.choice(view.days)
    return day, view.by_day[day]


def one_flight(view: AirlineView, rng: random.Random, cause: CauseWords) -> Subject:
    day, flights = _day_flights(view, rng)
    flight = rng.choice(flights)
    station = flight.destination if cause.code in AT_DESTINATION else flight.origin
    return Subject("flight", day, [flight], station=station)


def several_flights(view: AirlineView, rng: random.Random, cause: CauseWords) -> Subject | None:
    """Two to four flights of one day sharing the station the cause is at (their origin, or destination)."""
    day, flights = _day_flights(view, rng)
    at_destination = cause.code in AT_DESTINATION
    station = rng.choice(flights).destination if at_destination else HUB if rng.random() < 0.6 else None
    if station is None:
        station = rng.choice(flights).origin
    sharing = [f for f in flights if (f.destination if at_destination else f.origin) == station]
    numbers = {f.flight_number for f in sharing}
    if len(numbers) < 2:
        return None
    picked = rng.sample(sorted(numbers), k=min(len(numbers), rng.choice((2, 2, 3, 4))))
    chosen = [next(f for f in sharing if f.flight_number == n) for n in picked]
    return Subject("flights", day, chosen, station=station)


def tail_day(view: AirlineView, rng: random.Random) -> Subject:
    """A tail on a day; half the time the airport it is at, and then the flight is its first departure there."""
    day, flights = _day_flights(view, rng)
    registration = rng.choice(flights).aircraft_registration
    own = view.tail_flights(registration, day)
    station = rng.choice(own).origin if rng.random() < 0.5 else None
    first = next(f for f in own if station is None or f.origin == station)
    return Subject("tail", day, [first], registration=registration, station=station)


def crew_member(view: AirlineView, rng: random.Random, cause: CauseWords) -> Subject | None:
    day, flights = _day_flights(view, rng)
    flight = rng.choice(flights)
    wanted = CABIN_RANKS if cause.code == 67 else ("CPT", "FO")
    ranks = sorted(set(wanted) & view.ranks_on.get(flight.flight_id, set()))
    if not ranks:
        return None
    return Subject("crew_member", day, [flight], rank=rng.choice(ranks), station=flight.origin)


def _hours(at: datetime, minutes: int) -> datetime:
    return at + timedelta(minutes=minutes)


def airport_window(view: AirlineView, rng: random.Random, cause: CauseWords) -> Subject | None:
    """A station over a UTC window. A closure: any window with a flight well inside it. A capacity cut: a window
    holding the station's busiest departure hour of the day, where at least two leave (so half the rate limits
    a flight: the report is sound against the data)."""
    day = rng.choice(view.days)
    start_of_day = datetime.combine(day, time(), UTC)
    if cause.closes:
        station = HUB if rng.random() < 0.3 else rng.choice(view.served)
        times = [
            t
            for f in view.flights
            for t in ((f.scheduled_departure,) if f.origin == station else ())
            + ((f.scheduled_arrival,) if f.destination == station else ())
            if start_of_day + timedelta(hours=2) <= t < start_of_day + timedelta(hours=21)
        ]
        if not times:
            return None
        anchor = rng.choice(times).replace(minute=0, second=0, microsecond=0)
        start = anchor - timedelta(hours=rng.choice((0, 1)))
        end = _hours(start, rng.choice((90, 120, 180)))
    else:
        busy = [s for s in view.served if max(view.departures_per_hour(s, day).values(), default=0) >= 2]
        if not busy:
            return None
        station = HUB if HUB in busy and rng.random() < 0.7 else rng.choice(busy)
        counts = view.departures_per_hour(station, day)
        peak = max(sorted(counts), key=lambda h: counts[h])
        start = max(start_of_day, peak - timedelta(minutes=rng.choice((0, 30, 60))))
        end = min(start_of_day + timedelta(hours=23, minutes=59), max(peak + timedelta(hours=1), _hours(start, 120)))
    inside = view.touching(station, start, end)
    if not inside or end.date() != day:
        return None
    return Subject("airport", day, inside, station=station, window=(start, end))


def airspace_window(view: AirlineView, rng: random.Random) -> Subject | None:
    """An FIR regulated over a window, restricting departures from the hub (the flights leaving inside it)."""
    day = rng.choice(view.days)
    start = datetime.combine(day, time(rng.randrange(3, 20)), UTC)
    end = _hours(start, rng.choice((60, 90, 120)))
    leaving = [f for f in view.touching(HUB, start, end) if f.origin == HUB]
    if not leaving:
        return None
    return Subject("airspace", day, leaving, station=HUB, airspace=rng.choice(AIRSPACES), window=(start, end))


def described_set(view: AirlineView, rng: random.Random, cause: CauseWords, empty: bool = False) -> Subject | None:
    """Flights described (a tail's, or to or from a place, over a part of the day); `empty`: none fits."""
    drawn = draw(view, rng, cause, empty)
    if drawn is None:
        return None
    day, flights, description, station = drawn
    refuse: Contradiction | None = "description_matches_none" if empty else None
    return Subject("described", day, flights, station=station, description=description, refuse=refuse)


def pick(view: AirlineView, rng: random.Random, cause: CauseWords, scope: ScopeLabel) -> Subject | None:
    if scope == "described":
        return described_set(view, rng, cause)
    if scope == "flight":
        return one_flight(view, rng, cause)
    if scope == "flights":
        return several_flights(view, rng, cause)
    if scope == "tail":
        return tail_day(view, rng)
    if scope == "crew_member":
        return crew_member(view, rng, cause)
    if scope == "airport":
        return airport_window(view, rng, cause)
    return airspace_window(view, rng)


def contradicted(view: AirlineView, rng: random.Random, subject: Subject, kind: Contradiction) -> Subject | None:
    """The subject with one thing the data contradicts: an airport off the route, another tail, a position
    the airline never rosters, an airport the tail does not leave that day."""
    if kind == "airport_not_on_route":  # off every named flight's route
        ends = {a for f in subject.flights for a in (f.origin, f.destination)}
        subject.station = rng.choice([a for a in view.served if a not in ends])
    elif kind == "tail_not_the_flights":
        named = {f.aircraft_registration for f in subject.flights}
        others = sorted({f.aircraft_registration for f in view.by_day[subject.day]} - named)
        subject.registration = rng.choice(others)
    elif kind == "position_not_rostered":
        subject.rank = "SO"
    else:
        assert subject.registration is not None
        leaves = {f.origin for f in view.tail_flights(subject.registration, subject.day)}
        subject.station = rng.choice([a for a in view.served if a not in leaves])
    subject.refuse = kind
    return subject
