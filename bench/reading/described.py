"""Sets of flights described rather than named, picked from the airline's rows with their truth: a tail's flights of
a day, or the flights to, from, or to or from a place, either over the whole day or a part of it.

A part of the day is judged in the local time the flight leaves, by the bench's own bands: a flight surely in
the part ("morning": 06:00-11:00), surely out of it, or in between (10:59 is morning to everyone, 12:15 to some):
a set with a flight in between is not drawn, so the corpus measures reading, not where one draws the line. A
description no flight surely fits (and none is in between) is a contradiction the reader must refuse.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, time

from skymarshal.models.operational import Flight

from .airline_view import AirlineView
from .causes import CauseWords
from .vocabulary import AT_DESTINATION

HUB = "AUH"
# (surely in from, surely in until, unsure from, unsure until): local departure times, the day ending at 24:00.
BANDS: dict[str, tuple[time, time, time, time | None]] = {
    "morning": (time(6), time(11), time(3), time(13)),
    "afternoon": (time(13), time(16), time(11), time(18, 30)),
    "evening": (time(18, 30), time(23, 30), time(16), None),
}
ENDS = ("destination", "origin", "either")
MIN_SET = 2  # a set is at least two flights (one found is that flight: the single-flight reports measure it)


@dataclass(frozen=True)
class Description:
    """What the report says picks the set: a tail, or a place and which end of the flight it is; a part of the day."""

    registration: str | None = None
    place: str | None = None  # IATA code
    end: str | None = None  # destination, origin, either
    part: str | None = None


def in_band(view: AirlineView, flight: Flight, part: str) -> bool | None:
    """True surely in the part, False surely out, None in between."""
    start, end, unsure_from, unsure_until = BANDS[part]
    leaves = view.local_departure(flight).time()
    if start <= leaves <= end:
        return True
    if unsure_from <= leaves and (unsure_until is None or leaves < unsure_until):
        return None
    return False


def _at(flight: Flight, place: str, end: str) -> bool:
    if end == "destination":
        return flight.destination == place
    if end == "origin":
        return flight.origin == place
    return place in (flight.origin, flight.destination)


def fitting(view: AirlineView, candidates: list[Flight], part: str | None) -> list[Flight] | None:
    """The candidates surely in the part (all without one); None when one of them is in between."""
    if part is None:
        return candidates
    verdicts = [(f, in_band(view, f, part)) for f in candidates]
    if any(v is None for _, v in verdicts):
        return None
    return [f for f, v in verdicts if v]


def _station(cause: CauseWords, flights: list[Flight], description: Description) -> str | None:
    """Where the cause is: the place when every flight touches it at the cause's end (the destination for
    destination weather and slots), else the end every flight shares, else none (the clause names none)."""
    end = "destination" if cause.code in AT_DESTINATION else "origin"
    shared = {getattr(f, end) for f in flights}
    if description.place and (description.end in (end, "either")):
        return description.place
    return next(iter(shared)) if len(shared) == 1 else None


def draw(
    view: AirlineView, rng: random.Random, cause: CauseWords, empty: bool = False
) -> tuple[date, list[Flight], Description, str | None] | None:
    """A described set (day, flights, description, the cause's station), or with `empty` a description no flight
    fits; None when this draw cannot give one (the composer draws again)."""
    day = rng.choice(view.days)
    part = rng.choice((None, "morning", "afternoon", "evening"))
    if empty and part is None:
        part = rng.choice(tuple(BANDS))
    if not empty and "tail" in cause.scopes and rng.random() < 0.5:
        registration = rng.choice(view.by_day[day]).aircraft_registration
        description = Description(registration=registration, part=part)
        candidates = view.tail_flights(registration, day)
    else:
        place = rng.choice([a for a in view.served if a != HUB])
        end = rng.choice(ENDS)
        description = Description(place=place, end=end, part=part)
        candidates = [f for f in view.by_day[day] if _at(f, place, end)]
    flights = fitting(view, candidates, part)
    if flights is None or (empty and (flights or not candidates)) or (not empty and len(flights) < MIN_SET):
        return None
    station = description.place if empty else _station(cause, flights, description)
    if station is None and not empty and any("{station}" in c for c in (*cause.clauses, *cause.shorthand)):
        return None
    return day, flights, description, station
