"""A flight's report as a `Disruption`: the offline reading checked against the flight the data holds.

Each fact carries its source. What the report states keeps its words and span; what only the data tells (the
flight, its tail, a delay reason already on the row when the report names no cause) is marked `data`. A
report that contradicts the data (a registration that is not the flight's tail, an airport the flight does
not touch) is refused with the reason, never guessed around.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from ..analysis.what_if import what_if
from ..data.access import DataHandle
from ..data.overlay import Overlay
from ..models.disruption import DELAY_CODES, Disruption, Fact, ReportContradictsData, Scope, Window
from ..models.operational import Flight
from .report_facts import Reading, ReportReading, airport_names, described, read_report
from .report_facts_llm import read_report_with_model

if TYPE_CHECKING:  # the model is only passed through: no LLM framework imported offline
    from langchain_core.language_models import BaseChatModel

# When the report names no cause: the code the flight row's delay reason implies (AHM 730), else 99 (other).
DELAY_REASON_CODES: tuple[tuple[str, int], ...] = (
    ("TECHNICAL", 41),
    ("ATC", 81),
    ("WEATHER", 71),
    ("CREW", 64),
    ("REACTIONARY", 93),
)
OTHER = 99


def _stated(name: str, part: Reading, value: str | int | None = None) -> Fact:
    return Fact(
        name=name, value=part.value if value is None else value, source="stated", evidence=part.words, span=part.span
    )


def _code_from_data(flight: Flight) -> int:
    reason = (flight.delay_reason or "").upper()
    return next((code for prefix, code in DELAY_REASON_CODES if reason.startswith(prefix)), OTHER)


def flight_disruption(reading: ReportReading, flight: Flight) -> Disruption:
    """The disruption of one flight the report names and the schedule holds."""
    facts = [
        Fact(
            name="flight",
            value=flight.flight_id,
            source="data",
            evidence=f"flights: {flight.flight_number} {flight.origin}-{flight.destination} "
            f"{flight.scheduled_departure:%Y-%m-%d %H:%M}Z, {flight.aircraft_registration}",
        )
    ]
    if reading.cause is not None and reading.cause_code is not None and reading.fact is not None:
        code = reading.cause_code
        facts.append(_stated(reading.fact, reading.cause, code))
    else:
        code = _code_from_data(flight)
        if code != OTHER:
            facts.append(
                Fact(
                    name="delay_reason",
                    value=code,
                    source="data",
                    evidence=f"flights: delay_reason {flight.delay_reason}",
                )
            )
    if reading.registration is not None:
        if reading.registration.value != flight.aircraft_registration:
            raise ReportContradictsData(
                f"{reading.registration.value} is not {flight.flight_number}'s aircraft "
                f"({flight.aircraft_registration}): name the flight or the tail, not both"
            )
        facts.append(_stated("aircraft", reading.registration))
    if reading.airport is not None:
        if reading.airport.value not in (flight.origin, flight.destination):
            raise ReportContradictsData(
                f"{flight.flight_number} flies {flight.origin}-{flight.destination}, "
                f"not through {reading.airport.value}"
            )
        facts.append(_stated("airport", reading.airport))
        if code == 71 and reading.airport.value == flight.destination:
            code = 72  # the weather is at the destination station
    if reading.crew_position is not None:
        facts.append(_stated("crew_position", reading.crew_position))
    if reading.duration_minutes is not None:
        facts.append(_stated("duration_minutes", reading.duration_minutes))
    window = reading.window_on(flight.scheduled_departure.date())
    if window is not None and reading.window_words is not None:
        facts.append(_stated("window", reading.window_words))
    kind = reading.scope_kind(has_flight=True)
    assert kind in ("flight", "crew_member")  # a named flight is the scope, or a crew member on it
    scope = Scope(
        kind=kind,
        flight_numbers=[flight.flight_number],
        flights=[flight.flight_id],
        registration=flight.aircraft_registration,
        airport=str(reading.airport.value) if reading.airport else None,
        crew_position=str(reading.crew_position.value) if reading.crew_position else None,
    )
    return Disruption.of_code(
        code,
        cause=reading.cause.words if reading.cause else DELAY_CODES[code],
        scope=scope,
        window=Window(start=window[0], end=window[1]) if window else None,
        severity_minutes=int(reading.duration_minutes.value) if reading.duration_minutes else None,
        facts=facts,
    )


def report_disruption(report: str, flight: Flight, llm: BaseChatModel | None = None) -> Disruption:
    """The report about `flight` as facts (airports named by code or by the flight's own cities), read by the
    parser and, with a model, completed by it (report_facts_llm.py). Raises ReportContradictsData."""
    ends = {flight.origin, flight.destination}
    if llm is not None:
        reading = read_report_with_model(report, llm, known_airports=ends, city_codes=airport_names(ends))
    else:
        reading = read_report(report, known_airports=ends, city_codes=airport_names(ends))
    return flight_disruption(reading, flight)


def resolve_flight_report(
    report: str, flight: Flight, handle: DataHandle, now: datetime | None, llm: BaseChatModel | None = None
) -> tuple[Disruption, Overlay]:
    """The report about `flight` as facts checked against the data, and the what-if overlay they imply (every
    agent and the arbitrator read through it). Raises ReportContradictsData."""
    disruption = report_disruption(report, flight, llm)
    overlay, found = what_if(disruption, flight, handle, now, words=described(report))
    known = {(f.name, f.source, str(f.value)) for f in disruption.facts}
    facts = [*disruption.facts, *(f for f in found if (f.name, f.source, str(f.value)) not in known)]
    return disruption.model_copy(update={"facts": facts}), overlay
