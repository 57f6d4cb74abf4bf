"""A route written beside a flight ("EY343 DXB-AUH", "EY474/19JAN AUH/SIN", "EY12 from LHR to AUH") must be the
route the flight flies: a flight number on a route it does not fly is an input error naming both, never a guess
at which of the two the writer meant."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..models.airports import UnknownAirport, airport
from ..models.operational import Flight
from .dates import MONTHS, WEEKDAYS
from .report import ABBREVIATED, NOT_AIRPORTS

_PAIR = re.compile(
    r"(?<![A-Za-z])(?:FROM\s+|from\s+)?(?P<a>[A-Z]{3})(?:\s?(?:-|–|/|>|→|=)\s?|\s+(?:TO|to)\s+)(?P<b>[A-Z]{3})(?![A-Za-z])"
    r"(?!\s?(?:-|–|/|>|→)\s?[A-Z]{3})"  # "LHR-AUH-LHR": a rotation, not one flight's route
)
# What may stand between a flight number and its route: its date ("18JAN", "/19", "on 18 January"), punctuation.
_DATE_WORDS = re.compile(
    r"(?<![a-z])(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b|(?<=\d)(?:st|nd|rd|th)\b|\b(?:on|the|of)\b",
    re.I,
)
_BETWEEN = re.compile(r"^[\s/.,:;()\[\]\-–0-9]*$")
WINDOW = 32  # characters after the flight number where its route is written


def _flight_mentions(text: str, flight: Flight) -> Iterable[int]:
    """Where each mention of the flight's number ends ("EY343", "EY 343", "ey0343")."""
    carrier, digits = flight.flight_number[:2], flight.flight_number[2:].lstrip("0")
    pattern = re.compile(rf"(?<![\w]){re.escape(carrier)}\s?0*{digits}(?![\d])", re.I)
    return (m.end() for m in pattern.finditer(text))


# A month or weekday written short is a date's ("19 JAN / LHR"), though JAN and MAR are airports' codes too
_CALENDAR_WORDS = frozenset(w for w in (*MONTHS, *WEEKDAYS) if len(w) == 3)


def _an_airport(code: str, served: set[str]) -> bool:
    """Is `code` an airport as a route's end: one the airline serves, or one of the world reference that is not an
    OCC abbreviation ("AOG", "ETD", "MEL" are airports' codes too, and never a route's end in a report)."""
    if code in served:
        return True
    if code in NOT_AIRPORTS or code in ABBREVIATED or code.lower() in _CALENDAR_WORDS:
        return False
    try:
        airport(code)
    except UnknownAirport:
        return False
    return True


def written_route(text: str, flight: Flight, airports: set[str]) -> tuple[str, str] | None:
    """The route written right after the flight's number, or None: one end an airport the airline serves
    (`airports`), the other one it serves or any other airport of the world reference ("EY343 AUH-DXB" is a route
    EY343 does not fly even though the airline never goes to DXB)."""
    for end in _flight_mentions(text, flight):
        window = text[end : end + WINDOW]
        for m in _PAIR.finditer(window):
            between = _DATE_WORDS.sub(" ", window[: m.start()])
            if not _BETWEEN.match(between):
                break  # words between: the pair is the report's, not the flight's route
            a, b = m["a"], m["b"]
            if a != b and (a in airports or b in airports) and _an_airport(a, airports) and _an_airport(b, airports):
                return a, b
    return None


def route_problem(text: str, flight: Flight, airports: set[str]) -> str | None:
    """One line when the route written beside the flight is not the one it flies, else None."""
    route = written_route(text, flight, airports)
    if route is None or route == (flight.origin, flight.destination):
        return None
    return (
        f"{flight.flight_number} flies {flight.origin}-{flight.destination}, not {route[0]}-{route[1]}: "
        "check the flight number or the route"
    )
