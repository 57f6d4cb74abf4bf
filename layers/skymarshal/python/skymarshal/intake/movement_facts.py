"""A movement message (MVT, MVA, DIV) as a `Disruption`: the same facts a report becomes, read from the message's
elements (intake/movement.py) instead of from prose, and checked against the data the same way.

- the flight: its number on the day of month nearest the operating day; a registration that is not the flight's
  tail, or a station the flight does not touch, is a contradiction, refused;
- the cause: the DIV's reason (DR) or the first delay code (DL), as the station coded it; with neither, the delay the
  message states (DL durations, an ED estimate) is AHM 730 99 unless the flight's row says why; with no delay at all,
  nothing to decide on (one line);
- the delay: the DL durations added up, else the ED estimate past the scheduled departure;
- a DIV: the flight is on the ground at the airport it diverted to — a stated fact, and the flight's row seen as
  DIVERTED there through the overlay (rotation checks then start the tail's day from the alternate).
Facts only add: every entry grounds, delays or moves the flight away from where the schedule has it.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from ..data import queries as q
from ..data.access import DataHandle
from ..data.overlay import Overlay
from ..models.disruption import DELAY_CODES, Disruption, Fact, ReportContradictsData, Scope
from ..models.operational import Flight
from .corrected_facts import CODE_FACTS, flight_fact
from .disruption_facts import DELAY_REASON_CODES, OTHER
from .diversion import diverted_overlay
from .movement import Movement


def message_day(day_of_month: int, ops: date) -> date:
    """The date with that day of month nearest the operating day (a message names its day, not its month)."""
    candidates = []
    for shift in (-1, 0, 1):
        month, year = ops.month + shift, ops.year
        if month == 0:
            month, year = 12, year - 1
        if month == 13:
            month, year = 1, year + 1
        try:
            candidates.append(date(year, month, day_of_month))
        except ValueError:
            continue
    return min(candidates, key=lambda d: abs((d - ops).days))


def _words(text: str, pattern: str) -> tuple[str, tuple[int, int]] | None:
    """The element's words in the message and their span (for the console's highlighting)."""
    found = re.search(pattern, text, re.I | re.M)
    return (found.group(0).strip(), found.span()) if found else None


def _stated(name: str, value: str | int, text: str, pattern: str, fallback: str) -> Fact:
    where = _words(text, pattern)
    return Fact(
        name=name,
        value=value,
        source="stated",
        evidence=where[0] if where else fallback,
        span=where[1] if where else None,
    )


def movement_flight(movement: Movement, handle: DataHandle, ops: date) -> Flight:
    """The flight the message is about, checked against its registration and station. Raises ReportContradictsData."""
    day = message_day(movement.day_of_month, ops)
    flight = q.find_flight(handle, movement.flight_number, day)
    if flight is None:
        raise ReportContradictsData(
            f"{movement.kind} {movement.flight_number}/{movement.day_of_month:02d}: {movement.flight_number} on "
            f"{day.isoformat()} is not in the schedule"
        )
    tail = flight.aircraft_registration.replace("-", "")
    if movement.registration and movement.registration.replace("-", "") != tail:
        raise ReportContradictsData(
            f"{movement.kind} {movement.flight_number}: {movement.registration} is not its aircraft "
            f"({flight.aircraft_registration})"
        )
    if movement.station and movement.station not in (flight.origin, flight.destination):
        raise ReportContradictsData(
            f"{movement.kind} {movement.flight_number}: flies {flight.origin}-{flight.destination}, not through "
            f"{movement.station}"
        )
    if movement.diverted_to == flight.destination:
        raise ReportContradictsData(
            f"DIV {movement.flight_number}: {movement.diverted_to} is its destination, not a diversion"
        )
    return flight


def _minutes_late(movement: Movement, flight: Flight) -> int | None:
    if movement.delay_minutes:
        return sum(movement.delay_minutes)
    if movement.estimated_departure is None:
        return None
    day, hour, minute = movement.estimated_departure
    scheduled = flight.scheduled_departure
    estimate = scheduled.replace(hour=hour, minute=minute, second=0, microsecond=0)
    if day is not None:
        estimate = estimate.replace(day=day) if day == scheduled.day else estimate + timedelta(days=1)
    late = int((estimate - scheduled).total_seconds() // 60)
    return late if late > 0 else None


def movement_disruption(movement: Movement, text: str, flight: Flight) -> Disruption:
    """The message's facts about `flight`. Raises ReportContradictsData when it states nothing to decide on."""
    late = _minutes_late(movement, flight)
    code = movement.first_code
    facts = [flight_fact(flight)]
    if code is not None:
        element = r"^DR\s*\d{2}" if movement.kind == "DIV" and movement.diversion_code else r"\bDL\s*\d{2}[\d/]*"
        facts.append(_stated(CODE_FACTS.get(code, "cause"), code, text, element, f"{movement.kind} code {code}"))
    else:
        reason = (flight.delay_reason or "").upper()
        code = next((c for prefix, c in DELAY_REASON_CODES if reason.startswith(prefix)), OTHER)
        if code == OTHER and late is None and movement.kind != "DIV":
            raise ReportContradictsData(
                f"{movement.kind} {movement.flight_number}/{movement.day_of_month:02d}: no delay code (DL), no "
                "estimate (ED) and no diversion: nothing to decide on"
            )
        if code != OTHER:
            facts.append(Fact(name="delay_reason", value=code, source="data", evidence=f"flights: {reason}"))
    for extra in movement.delay_codes:  # every code the station gave stays a fact
        if extra != code:
            facts.append(_stated(CODE_FACTS.get(extra, "cause"), extra, text, r"\bDL\s*\d{2}[\d/]*", f"DL{extra}"))
    if late is not None:
        pattern = r"\bDL\s*\d{2}[\d/]*" if movement.delay_minutes else r"\bED\d{4,6}\b"
        facts.append(_stated("duration_minutes", late, text, pattern, f"{late} min"))
    if movement.diverted_to:
        facts.append(
            _stated("diverted_to", movement.diverted_to, text, rf"\bEA\d{{4,6}}\s+{movement.diverted_to}\b", "DIV")
        )
    if movement.registration:
        facts.append(
            _stated("aircraft", flight.aircraft_registration, text, r"^[A-Z0-9]{2}\d{1,4}[A-Z]?/\d{2}\.\w+", "MVT")
        )
    return Disruption.of_code(
        code,
        cause=DELAY_CODES[code],
        scope=Scope(
            kind="flight",
            flight_numbers=[flight.flight_number],
            flights=[flight.flight_id],
            registration=flight.aircraft_registration,
            airport=movement.diverted_to,
        ),
        severity_minutes=late,
        facts=facts,
        remarks=movement.supplementary,
    )


def _masked_alternate(text: str, movement: Movement) -> str:
    """The message with a DIV's alternate blanked (offsets kept): the airport it diverted to is no place the report
    reader may call off the route."""
    if not movement.diverted_to:
        return text
    return re.sub(rf"\bEA\d{{4,6}}\s+{movement.diverted_to}\b", lambda m: " " * len(m.group(0)), text, flags=re.I)


def _merged(structured: Disruption, read: Disruption | None, movement: Movement) -> Disruption:
    """The message's elements beside what the report reader found in its free text (an SI naming the sick captain,
    a place off the route, a further cause): the station's code leads, every fact of either stays (facts only
    add), the reader's crew position and window stand."""
    if read is None:
        return structured
    code = structured.iata_delay_code if movement.first_code is not None else read.iata_delay_code
    known = {(f.name, str(f.value)) for f in read.facts}
    facts = [
        *(f for f in read.facts if f.name != "reading_confidence" or movement.first_code is None),
        *(f for f in structured.facts if (f.name, str(f.value)) not in known),
    ]
    scope = read.scope
    if movement.diverted_to:
        scope = scope.model_copy(update={"airport": movement.diverted_to})
    return Disruption.of_code(
        code,
        cause=DELAY_CODES[code] if code != read.iata_delay_code else read.cause,
        scope=scope,
        window=read.window,
        severity_minutes=read.severity_minutes if read.severity_minutes is not None else structured.severity_minutes,
        facts=facts,
        remarks=structured.remarks,
    )


def resolve_movement(
    movement: Movement, text: str, handle: DataHandle, now: datetime, ops: date
) -> tuple[Flight, Disruption, Overlay]:
    """The flight, its disruption and the what-if overlay, as for a report: the message's elements, and its free text
    read and checked by the report reader (a place off the route there is a contradiction too).
    Raises ReportContradictsData."""
    from .corrected_facts import corrected_flight_report
    from .disruption_facts import NoCauseStated, resolve_flight_report

    flight = movement_flight(movement, handle, ops)
    structured = movement_disruption(movement, text, flight)
    try:
        read, _ = resolve_flight_report(_masked_alternate(text, movement), flight, handle, now, None)
    except NoCauseStated:
        read = None
    disruption, overlay = corrected_flight_report(
        _merged(structured, read, movement), {}, [flight], handle, now, None, movement.supplementary.lower()
    )
    if movement.diverted_to:  # on the ground at the alternate: where its tail's day continues from
        overlay = diverted_overlay(overlay, flight.flight_id, movement.diverted_to)
    return flight, disruption, overlay
