"""A report about an airport or airspace over a window ("Abu Dhabi airport is closed by fog from 14:00 to 17:00 UTC
on January 22nd") as a `Disruption` of airport scope, checked against the data: the airport is one the airline
serves, the window is stated and sane, and the flights it touches are found through the flights' airport GSIs.

Its what-if overlay: a closure becomes an AIRPORT_CLOSED NOTAM over the window, so every reader sees the airport
shut; a capacity cut or a flow regulation keeps the airport open (the network planner reads the capacity).
Nothing is guessed: a report that names no airport the airline serves, no window, or no day is refused with a
line saying what was understood and what is missing.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING

from ..data import queries as q
from ..data import schema as s
from ..data.access import DataHandle
from ..data.overlay import Overlay, RowAddition
from ..models.airports import UnknownAirport, airport, codes_named_in, codes_of_place
from ..models.common import iso_z
from ..models.disruption import DELAY_CODES, Disruption, Fact, Scope, Window
from ..models.operational import Notam
from ..rules.what_if_policy import POLICY, slot_minutes
from .capacity import rate_facts
from .dates import find_dates
from .flight_sets import parts_of_day
from .report import (
    ABBREVIATED,
    IATA_WORD,
    MOVEMENT,
    NOT_AIRPORTS,
    Reading,
    airport_names,
    airport_zone,
    folded,
    read_report,
)
from .report_llm import read_report_with_model
from .sentences import blank_instructions
from .when import day_of, operating_day, relevant

if TYPE_CHECKING:  # the model is only passed through: no LLM framework imported offline
    from langchain_core.language_models import BaseChatModel

MAX_FLIGHTS = 300  # a report touching more is narrowed by the duty manager, not run for an hour
# A closure in an OCC's words: closed, shut, or every movement suspended (a drone, a security alert, a strike).
CLOSURE = re.compile(
    r"\b(?:closed|closure|shut|shuts|suspend(?:s|ed|ing)?\s+(?:all\s+)?(?:movements|operations|flights|traffic)"
    r"|(?:all\s+)?(?:movements|operations|flights|traffic|departures and arrivals)\s+(?:are\s+|were\s+|have\s+been\s+)?"
    r"(?:suspended|halted|stopped)|no\s+(?:movements|traffic|departures or arrivals)"
    r"|stopped\s+(?:every|all)\s+(?:movements?|traffic|flights?)|nothing\s+(?:departs|moves|lands|operates))\b",
    re.I,
)
# Where a report puts something (at, in, over, near): a place a flight must touch. "From" and "to" name movements
# ("crew on the late inbound from Jeddah"), never a contradiction by themselves.
# An airport the airline does not serve counts only written as a name with its code, "Chicago (ORD)" (a bare
# capitalised word in a log line is as often a pad or a gate as an airport); for a flight, not as a movement's end.
_NAMED_CODE = re.compile(r"(?<![\w-])(?:[A-Z][\w.-]*\s){1,3}\(([A-Z]{3})\)")


class InvalidReport(ValueError):
    """The report cannot be placed; the message says what was understood and what is missing."""


def _stated(name: str, part: Reading, value: str | int | None = None) -> Fact:
    return Fact(
        name=name, value=part.value if value is None else value, source="stated", evidence=part.words, span=part.span
    )


def served_airports(text: str, handle: DataHandle) -> set[str]:
    """The airports the report may name (by code, city or name) that the airline serves (a PROFILE row)."""
    words = {m.group(1) for m in IATA_WORD.finditer(text) if m.group(1) not in NOT_AIRPORTS}
    candidates = words | codes_named_in(text) | codes_named_in(folded(text))
    keys = [{"iata": code, "record": "PROFILE"} for code in sorted(candidates)]
    return {row["iata"] for row in handle.batch_get(s.AIRPORTS, keys)} if keys else set()


_PLACE = re.compile(r"\b(?:at|in|over|near|AT|IN|OVER|NEAR)\s+((?:[A-Z][\w'’.-]*)(?:\s+[A-Z][\w'’.-]*){0,2})")


def places_named(report: str, served: set[str]) -> list[tuple[str, set[str]]]:
    """Each place the report puts something at ("at London", "in Frankfurt") with the served airports it may mean;
    a city of several ("London": LHR, LGW) is kept whole, so a report can be checked against all of them."""
    found = []
    for m in _PLACE.finditer(blank_instructions(report)):
        words = m.group(1).split()
        for n in range(len(words), 0, -1):  # the longest name first: "Kuwait City", then "Kuwait"
            place = " ".join(words[:n])
            codes = (codes_named_in(place) | codes_named_in(folded(place))) & served
            if codes:
                found.append((place, codes))
                break
    return found


# A place named as the station that reports or handles the flight: "Sharjah ground staff report …", "Doha station".
_STATION = re.compile(
    r"(?<![\w-])((?:[A-Z][a-z'’.-]+)(?:\s+[A-Z][a-z'’.-]+)?)\s+"
    r"(?i:ground staff|ground handling|handling agents?|handlers?|station|ramp staff|check-in staff|airport staff)\b"
)


def stations_named(report: str) -> list[tuple[str, frozenset[str]]]:
    """Each place the report names as a station of the flight ("Sharjah ground staff report EY369 …"), with every
    airport of that name the world knows (served or not): a flight that touches none of them is contradicted."""
    found = []
    for m in _STATION.finditer(blank_instructions(report)):
        words = m.group(1).split()
        for n in range(len(words), 0, -1):  # "Kuwait City", then "City" is no place
            place = " ".join(words[-n:])
            if codes := codes_of_place(place):
                found.append((place, codes))
                break
    return found


def report_day(text: str, today: date) -> date | None:
    """The day the report names (intake/when.py: relative days against its operating day, none from an
    instructing sentence); a day without a year is its nearest occurrence to today."""
    ops, stated = operating_day(text, None, today)
    for mention in relevant(text, find_dates(text), [], stated):
        found = day_of(mention, ops)
        if found is not None:
            return found
    # a part of the day and no date ("gone tech this morning", "tonight"): the operating day's
    return ops if parts_of_day(text) else None


def overnight(start: time, length: timedelta) -> bool:
    """Is a window whose end is before its start a window past midnight ("23:30 to 02:00")? Only when it starts
    at noon or later and lasts at most 12 hours: "09:00 to 07:00" is a slip of the pen, not a 22-hour closure."""
    return start >= time(12) and length <= timedelta(hours=12)


def unserved_airport(report: str, served: set[str], located: bool = False) -> str | None:
    """An airport the report names by IATA code that the airline does not serve ("Kabul (KBL)"), as "KBL (Kabul)".
    `located`: only a code written beside its name ("Chicago (ORD)"), not as a movement's end, not any capitalised
    word of a log line."""
    text = blank_instructions(report)
    for m in (_NAMED_CODE if located else IATA_WORD).finditer(text):
        if located and MOVEMENT.search(text[max(0, m.start() - 60) : m.start()]):
            continue  # "the inbound from Chicago (ORD)"
        code = m.group(1)
        if code in NOT_AIRPORTS or code in ABBREVIATED or code in served:
            continue
        try:
            info = airport(code)
        except UnknownAirport:
            continue
        return f"{code} ({info.city})"
    return None


def policy_hold(code: int) -> Fact:
    """What an airport event over a window does when the report states its cause but no effect (a strike, a
    screening stoppage, a DCS outage, lightning on the ramp): each flight in the window is held by the policy's
    planned delay for the code, cited as policy for the duty manager to correct (--fact duration). Never a
    closure, never a release: it only makes the window worse than the schedule."""
    minutes = slot_minutes(code)
    return Fact(
        name="slot_delay_minutes",
        value=minutes,
        source="policy",
        evidence=f"{POLICY}: {minutes} min planned delay in the window (AHM 730 {code}; the report states no effect)",
    )


def network_report(
    report: str,
    handle: DataHandle,
    now: datetime | None = None,
    llm: BaseChatModel | None = None,
    ops_date: date | None = None,
) -> tuple[Disruption, Overlay]:
    """The airport-scope disruption a report describes and its overlay (read by the parser and, with a model,
    completed by it). Raises InvalidReport with one line."""
    served = served_airports(report, handle)
    if llm is not None:
        reading = read_report_with_model(report, llm, known_airports=served, city_codes=airport_names(served))
    else:
        reading = read_report(report, known_airports=served, city_codes=airport_names(served))
    understood = [f"cause: {DELAY_CODES[reading.cause_code]}" if reading.cause_code else "no cause"]
    if reading.airport is None and reading.airspace is not None:
        understood.append(f"airspace {reading.airspace.value}")
    if reading.airport is None:
        elsewhere = unserved_airport(report, served, located=True)  # "Kabul (KBL) airport closed"
        raise InvalidReport(
            (
                f"{elsewhere} is not an airport the airline serves"
                if elsewhere
                else "no flight number and no airport the airline serves"
            )
            + f": name the flight, or a served airport and the window (understood: {', '.join(understood)})"
        )
    iata = str(reading.airport.value)
    understood.append(f"airport {iata}")
    day = report_day(report, ops_date or (now or datetime.now(UTC)).date())
    if day is None or reading.window is None:
        missing = " and ".join(
            m
            for m, absent in (
                ("the day", day is None),
                ("the window (from HH:MM to HH:MM UTC)", reading.window is None),
            )
            if absent
        )
        raise InvalidReport(f"an airport disruption needs {missing} (understood: {', '.join(understood)})")
    window_at = reading.window_on(day, airport_zone(iata))  # a window in local time is the airport's
    assert window_at is not None and reading.window_words is not None  # a read window gives both
    start, end = window_at
    if reading.window[1] < reading.window[0] and not overnight(reading.window[0], end - start):
        raise InvalidReport(
            f"the window {reading.window_words.words!r} ends before it starts: say the times again "
            "(a window past midnight starts in the afternoon or evening and lasts at most 12 hours)"
        )
    flights = q.flights_at_airport(handle, iata, start, end)
    if not flights:
        raise InvalidReport(
            f"no flight departs from or arrives at {iata} between {start:%Y-%m-%d %H:%M}Z and {end:%H:%M}Z"
        )
    if len(flights) > MAX_FLIGHTS:
        raise InvalidReport(
            f"{len(flights)} flights touch {iata} in that window (more than {MAX_FLIGHTS}): name a narrower window"
        )
    rates = rate_facts(report)  # a capacity share, a rate or a slot delay: the airport stays open
    capacity = [f for f in rates if f.name.startswith("capacity")]
    closure = CLOSURE.search(blank_instructions(report)) is not None
    closed = not capacity and (closure or (not rates and reading.fact == "airport_restriction"))
    code = reading.cause_code or 87
    if not closed and not rates and reading.cause_code is not None:  # a cause over a window, its effect unsaid
        rates = [policy_hold(code)]
    facts = [
        _stated("airport", reading.airport),
        _stated("window", reading.window_words),
        Fact(
            name="flights",
            value=len(flights),
            source="data",
            evidence="flights (origin-departure-index, destination-arrival-index): "
            + ", ".join(f.flight_number for f in flights),
        ),
    ]
    if reading.cause is not None and reading.fact is not None:
        facts.insert(0, _stated(reading.fact, reading.cause, code))
    facts += rates
    disruption = Disruption.of_code(
        code,
        cause=reading.cause.words if reading.cause else DELAY_CODES[code],
        scope=Scope(
            kind="airspace" if reading.airspace is not None else "airport",
            airport=iata,
            airspace=str(reading.airspace.value) if reading.airspace is not None else None,
            flights=[f.flight_id for f in flights],
        ),
        window=Window(start=start, end=end),
        facts=facts,
        remarks="closed" if closed else "",
    )
    additions = []
    if closed:
        notam = Notam(
            iata=iata,
            record=f"NOTAM#{iso_z(start)}#WHATIF",
            notam_id="WHATIF",
            kind="AIRPORT_CLOSED",
            starts_at=start,
            ends_at=end,
            text=f"{iata} closed {start:%H%M}-{end:%H%M}Z: {disruption.cause} (reported; what-if, not yet a NOTAM)",
        )
        additions.append(RowAddition(table=s.AIRPORTS, item=notam.model_dump(mode="json"), fact="closure"))
    return disruption, Overlay(additions=additions)
