"""A flight's report as a `Disruption`: the offline reading checked against the flight the data holds.

Each fact carries its source. What the report states keeps its words and span; what only the data tells (the
flight, its tail, a delay reason already on the row when the report names no cause) is marked `data`. A
report that contradicts the data (a registration that is not the flight's tail, an airport the flight does
not touch) is refused with the reason, never guessed around.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING

from ..analysis.what_if import what_if
from ..data.access import DataHandle
from ..data.overlay import Overlay
from ..models.corrections import CREW_CAUSES, MEMBER_CAUSES
from ..models.disruption import DELAY_CODES, Disruption, Fact, ReportContradictsData, Scope, Window
from ..models.operational import Flight
from .airport_facts import places_named, served_airports, stations_named, unserved_airport
from .diversion import StatedDiversion, diverted_overlay, stated_diversion
from .lexicon_words import FATIGUE
from .mvt import read_mvt
from .report import Reading, ReportReading, airport_names, airport_zone, described, read_report
from .report_llm import read_report_with_model
from .route import route_problem
from .sentences import blank_instructions

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


class NoCauseStated(ReportContradictsData):
    """The report names a flight but no cause, and the flight's row gives none: nothing to decide on."""


def _stated(name: str, part: Reading, value: str | int | None = None) -> Fact:
    return Fact(
        name=name, value=part.value if value is None else value, source="stated", evidence=part.words, span=part.span
    )


def _code_from_data(flight: Flight) -> int:
    reason = (flight.delay_reason or "").upper()
    return next((code for prefix, code in DELAY_REASON_CODES if reason.startswith(prefix)), OTHER)


def _mvt_cause(reading: ReportReading) -> None:
    """An MVT's delay code is the cause as the station coded it: it stands before the lexicon's reading, which is
    kept as a further fact (facts only add)."""
    message = read_mvt(reading.text)
    if message is None:
        return
    if message.codes and message.code_span is not None:
        code = message.codes[0]
        words = reading.text[slice(*message.code_span)]
        cue = Reading(DELAY_CODES[code], message.code_span, words)
        fact = {41: "aircraft_defect", 51: "aircraft_damage", 52: "aircraft_damage"}.get(code, reading.fact or "cause")
        if code in (64, 67) and reading.crew_position is not None:
            fact = "crew_unavailable"
        reading.causes.insert(0, (fact, code, cue))
        reading.cause_code, reading.fact, reading.cause, reading.confidence = code, fact, cue, 0.99
    if message.minutes is not None and reading.duration_minutes is None and message.code_span is not None:
        reading.duration_minutes = Reading(message.minutes, message.code_span, reading.text[slice(*message.code_span)])


def check_against(
    reading: ReportReading, flight: Flight, others: list[Flight] | None = None, alternate: str | None = None
) -> None:
    """The report's tail, airports and MVT station against the flight's row: a contradiction is refused. With
    `others` (the further flights one report names), an airport is a contradiction when no flight touches it; the
    `alternate` a stated diversion put the flight at is where it is, no contradiction."""
    registration = reading.registration.value if reading.registration else None
    message = read_mvt(reading.text)
    if registration is None and message is not None and message.registration:
        registration = message.registration
    if registration is not None and str(registration).replace("-", "") != flight.aircraft_registration.replace("-", ""):
        raise ReportContradictsData(
            f"{registration} is not {flight.flight_number}'s aircraft "
            f"({flight.aircraft_registration}): name the flight or the tail, not both"
        )
    every = [flight, *(others or [])]
    ends = {a for f in every for a in (f.origin, f.destination)}
    stations = [str(a.value) for a in reading.places]  # "at FRA"; "the inbound from Jeddah" is no contradiction
    if message is not None and message.station:
        stations.append(message.station)
    routes = ", ".join(f"{f.flight_number} {f.origin}-{f.destination}" for f in every)
    for station in stations:
        if station not in ends and station != alternate:
            raise ReportContradictsData(f"{routes}: not through {station}")


def diversion_of(reading: ReportReading, flight: Flight, others: list[Flight] | None) -> StatedDiversion | None:
    """The diversion the report states for its one flight (with several named, whose it is goes unsaid: none).
    Raises ReportContradictsData for a diversion to the flight's own destination."""
    diversion = None if others else stated_diversion(reading.text, (flight.origin, flight.destination))
    if diversion is not None and diversion.airport == flight.destination:
        raise ReportContradictsData(
            f'{flight.flight_number} flies {flight.origin}-{flight.destination}: "{diversion.reading.words}" names '
            "its destination, not a diversion"
        )
    return diversion


def flight_disruption(reading: ReportReading, flight: Flight, others: list[Flight] | None = None) -> Disruption:
    """The disruption of one flight the report names and the schedule holds (with the `others` it names beside)."""
    _mvt_cause(reading)
    diversion = diversion_of(reading, flight, others)
    check_against(reading, flight, others, diversion.airport if diversion else None)
    if reading.crew_position is not None and not MEMBER_CAUSES & {code for _, code, _ in reading.causes}:
        reading.notes.append(f"{reading.crew_position.words!r} named, but the cause is not the crew's")
        reading.crew_position = None
    facts = [
        Fact(
            name="flight",
            value=flight.flight_id,
            source="data",
            evidence=f"flights: {flight.flight_number} {flight.origin}-{flight.destination} "
            f"{flight.scheduled_departure:%Y-%m-%d %H:%M}Z, {flight.aircraft_registration}",
        )
    ]
    unexplained = reading.cause_code == OTHER  # a delay stated without its reason: the row may say why
    if unexplained and _code_from_data(flight) != OTHER:
        reading.cause_code = reading.cause = reading.fact = None
    if reading.cause is not None and reading.cause_code is not None and reading.fact is not None:
        code = reading.cause_code
        facts.append(_stated(reading.fact, reading.cause, code))
        named = {reading.fact}
        for fact, other, words in reading.causes:  # every cause the report states stays a fact
            if fact not in named and other != OTHER:
                named.add(fact)
                facts.append(_stated(fact, words, other))
        facts.append(_confidence(reading))
    else:
        code = _code_from_data(flight)
        if code == OTHER:
            raise NoCauseStated(
                f"understood {flight.flight_number} on {flight.flight_date.isoformat()} but not what happened: say the "
                "cause (a defect, a sick crew member, the weather, a slot, a late inbound...)"
            )
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
        facts.append(_stated("aircraft", reading.registration))
    if reading.airport is not None:
        facts.append(_stated("airport", reading.airport))
        if code in (71, 76, 77) and reading.airport.value == flight.destination:
            code = 72  # the weather (snow on its runways, a storm on its ramp) is at the flight's destination
    if reading.crew_position is not None:
        facts.append(_stated("crew_position", reading.crew_position))
    if reading.crew_count is not None:
        facts.append(_stated("crew_count", reading.crew_count))
    if diversion is not None:  # on the ground at the alternate, as a DIV message says it
        facts.append(_stated("diverted_to", diversion.reading))
    fatigue = _fatigue(reading.text) if code in CREW_CAUSES else None
    if fatigue is not None:
        facts.append(fatigue)
    if reading.duration_minutes is not None:
        facts.append(_stated("duration_minutes", reading.duration_minutes))
    where = str(reading.airport.value) if reading.airport else flight.origin  # a local window's clock
    window = reading.window_on(flight.scheduled_departure.date(), airport_zone(where))
    if window is not None and reading.window_words is not None:
        facts.append(_stated("window", reading.window_words))
    kind = reading.scope_kind(has_flight=True)
    assert kind in ("flight", "crew_member")  # a named flight is the scope, or a crew member on it
    scope = Scope(
        kind=kind,
        flight_numbers=[flight.flight_number],
        flights=[flight.flight_id],
        registration=flight.aircraft_registration,
        airport=diversion.airport if diversion else str(reading.airport.value) if reading.airport else None,
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


def _fatigue(text: str) -> Fact | None:
    """The report says the crew member is unfit through fatigue (a minimum rest cures it; sickness it does not)."""
    found = re.search(FATIGUE, blank_instructions(text), re.I)
    if found is None:
        return None
    return Fact(name="crew_fatigue", value=True, source="stated", evidence=found.group(0), span=found.span())


def _confidence(reading: ReportReading) -> Fact:
    others = ", ".join(f"{code}" for _, code, _ in reading.causes[1:4])
    return Fact(
        name="reading_confidence",
        value=reading.confidence,
        source="policy",
        evidence="cause lexicon (intake/lexicon.py)" + (f"; other codes read: {others}" if others else ""),
    )


def report_disruption(
    report: str,
    flight: Flight,
    llm: BaseChatModel | None = None,
    served: set[str] | None = None,
    others: list[Flight] | None = None,
) -> Disruption:
    """The report about `flight` as facts (airports named by code or by the names of the flight's own and the
    `served` airports), read by the parser and, with a model, completed by it (report_llm.py).
    Raises ReportContradictsData."""
    known = {a for f in [flight, *(others or [])] for a in (f.origin, f.destination)} | (served or set())
    if llm is not None:
        reading = read_report_with_model(report, llm, known_airports=known, city_codes=airport_names(known))
    else:
        reading = read_report(report, known_airports=known, city_codes=airport_names(known))
    ends = {a for f in [flight, *(others or [])] for a in (f.origin, f.destination)}
    if (wrong_route := route_problem(report, flight, known)) is not None:  # "EY343 DXB-AUH" for an AUH-GYD flight
        raise ReportContradictsData(wrong_route)
    diversion = diversion_of(reading, flight, others)
    if diversion is not None:  # "on the ground at Muscat" after "diverted to Muscat": where the flight now is
        ends.add(diversion.airport)
        known = known | {diversion.airport}
    for place, codes in places_named(report, known):  # "at London": one of its airports must be on a route
        if not codes & ends:
            raise ReportContradictsData(
                f"{flight.flight_number} flies {flight.origin}-{flight.destination}, not through {place} "
                f"({', '.join(sorted(codes))})"
            )
    for station, airports in stations_named(report):  # "Sharjah ground staff report EY369 …": its station
        if not airports & ends:
            raise ReportContradictsData(
                f"{flight.flight_number} flies {flight.origin}-{flight.destination}, not through {station} "
                f"({', '.join(sorted(airports))})"
            )
    elsewhere = unserved_airport(reading.text, known, located=True)
    if elsewhere is not None:
        raise ReportContradictsData(
            f"{flight.flight_number} flies {flight.origin}-{flight.destination}, not through {elsewhere}"
        )
    return flight_disruption(reading, flight, others)


def resolve_flight_report(
    report: str,
    flight: Flight,
    handle: DataHandle,
    now: datetime | None,
    llm: BaseChatModel | None = None,
    others: list[Flight] | None = None,
) -> tuple[Disruption, Overlay]:
    """The report about `flight` (and the `others` it names beside it, the same day) as facts checked against the
    data, and the what-if overlay they imply (every agent and the arbitrator read through it): one disruption whose
    scope is every flight named, each checked as the first is. Raises ReportContradictsData."""
    served = served_airports(report, handle)
    disruption = report_disruption(report, flight, llm, served, others)
    overlay, found = what_if(disruption, flight, handle, now, words=described(report))
    alternate = next((str(f.value) for f in disruption.facts if f.name == "diverted_to"), None)
    if alternate is not None:  # on the ground at the alternate: where its tail's day continues from
        overlay = diverted_overlay(overlay, flight.flight_id, alternate)
    for other in others or []:
        beside = [flight, *(o for o in others or [] if o is not other)]
        for_other = report_disruption(report, other, llm, served, beside)
        more, also = what_if(for_other, other, handle, now, words=described(report))
        overlay = Overlay(patches=[*overlay.patches, *more.patches], additions=[*overlay.additions, *more.additions])
        found += also
    if others:  # several flights are the scope, even where each loses one member ("each short by one CC")
        every = [flight, *others]
        scope = disruption.scope.model_copy(
            update={
                "kind": "flight",
                "flight_numbers": [f.flight_number for f in every],
                "flights": [f.flight_id for f in every],
            }
        )
        disruption = disruption.model_copy(update={"scope": scope})
    known = {(f.name, f.source, str(f.value)) for f in disruption.facts}
    facts = [*disruption.facts]
    for f in found:
        if (f.name, f.source, str(f.value)) not in known:
            known.add((f.name, f.source, str(f.value)))
            facts.append(f)
    return disruption.model_copy(update={"facts": facts}), overlay
