"""Validate's part of a duty manager's corrections: which flights the run is about, and the facts as corrected.

The flights and their day are corrected before the schedule is looked up, so a flight the schedule does not hold
is refused like a report's; the other facts after the reading (intake/corrected_facts.py), through the same checks
against the data. A report the reader refused for naming no cause is analysed when the correction gives the code.
Every refusal is one line (InvalidDisruption); nothing runs.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from ...data import queries as q
from ...data.access import DataHandle
from ...data.overlay import Overlay
from ...intake.corrected_facts import bare_disruption, corrected_flight_report, with_unsure
from ...intake.disruption_facts import NoCauseStated, ReportContradictsData, resolve_flight_report
from ...intake.extraction_core import ExtractionResult
from ...intake.movement import MalformedMessage, is_movement_message, read_movement
from ...intake.movement_facts import resolve_movement
from ...intake.sentences import described
from ...models.corrections import CorrectionRefused
from ...models.disruption import Disruption
from ...models.operational import Flight


class FactsRefused(ValueError):
    """A correction the data or the reading refuses: the message is its one line."""


def corrected_flights(
    facts: dict[str, str], extraction: ExtractionResult, ops: date | None, handle: DataHandle
) -> tuple[list[Flight], dict[str, str | None]] | None:
    """The flights the duty manager named (`flights`, `date`), each found in the schedule, and what had been read;
    None when neither is corrected."""
    if "flights" not in facts and "date" not in facts:
        return None
    infos = extraction.flight_infos or ([extraction.flight_info] if extraction.flight_info else [])
    read_numbers = [i.flight_number for i in infos] or list(extraction.understood.get("flight_numbers") or [])
    numbers = facts["flights"].split(",") if "flights" in facts else read_numbers
    read_day = infos[0].date if infos else None
    day = date.fromisoformat(facts["date"]) if "date" in facts else read_day or ops
    if not numbers:
        raise FactsRefused(f"date={facts['date']}: the report names no flight; correct flights too (flights=EY123)")
    if day is None:
        raise FactsRefused(f"flights={','.join(numbers)}: which day? correct the date too (date=YYYY-MM-DD)")
    flights = []
    for number in numbers:
        if (flight := q.find_flight(handle, number, day)) is None:
            raise FactsRefused(f"{number} on {day.isoformat()} is not in the schedule: check the corrected flights")
        flights.append(flight)
    reads = {"flights": ",".join(read_numbers) or None, "date": read_day.isoformat() if read_day else None}
    return flights, reads


def flight_facts(
    prompt: str,
    flight: Flight,
    others: list[Flight],
    handle: DataHandle,
    now: datetime,
    llm: Any,
    facts: dict[str, str],
    by: str | None,
    reads: dict[str, str | None] | None = None,
) -> tuple[Disruption, Overlay]:
    """The report about the flights as facts checked against the data, with the duty manager's corrections in place
    of what they correct, and what the reading is unsure of. Raises FactsRefused or ReportContradictsData."""
    try:
        disruption, overlay = resolve_flight_report(prompt, flight, handle, now, llm, others=others)
    except NoCauseStated:
        if "code" not in facts:
            raise
        disruption, overlay = bare_disruption(flight, others, int(facts["code"])), Overlay()
    # Corrected flights are the disruption's scope, whatever the report's words named.
    every = [flight, *others]
    if reads:
        scope = disruption.scope.model_copy(
            update={"flight_numbers": [f.flight_number for f in every], "flights": [f.flight_id for f in every]}
        )
        disruption = disruption.model_copy(update={"scope": scope})
    if not facts:
        return with_unsure(disruption), overlay
    try:
        return corrected_flight_report(disruption, facts, every, handle, now, by, described(prompt), reads)
    except CorrectionRefused as exc:
        raise FactsRefused(str(exc)) from None


def movement_facts(
    text: str, handle: DataHandle, now: datetime, ops: date | None, facts: dict[str, str], by: str | None
) -> tuple[Flight, str, Disruption, Overlay] | None:
    """A movement message's flight, description, facts (with the duty manager's corrections) and overlay; None when
    the text is not a movement message. Raises FactsRefused (a malformed message, a bad correction) or
    ReportContradictsData."""
    if not is_movement_message(text):
        return None
    try:
        movement = read_movement(text)
    except MalformedMessage as exc:
        raise FactsRefused(str(exc)) from None
    flight, disruption, overlay = resolve_movement(movement, text, handle, now, ops or now.date())
    description = f"{movement.kind} {movement.flight_number}/{movement.day_of_month:02d}"
    if not facts:
        return flight, description, with_unsure(disruption), overlay
    try:
        fixed, rebuilt = corrected_flight_report(disruption, facts, [flight], handle, now, by, movement.supplementary)
    except CorrectionRefused as exc:
        raise FactsRefused(str(exc)) from None
    diverted = [p for p in overlay.patches if p.fact == "diverted_to"]  # the diversion is the message's, kept
    return flight, description, fixed, Overlay(patches=[*rebuilt.patches, *diverted], additions=rebuilt.additions)


def corrected_network(disruption: Disruption, facts: dict[str, str], by: str | None) -> Disruption:
    """An airport or airspace disruption with its code corrected (its window and capacity are its report's)."""
    from ...intake.corrected_facts import corrected_disruption

    if not facts:
        return with_unsure(disruption)
    if "flights" in facts or "date" in facts:
        raise FactsRefused("an airport or airspace disruption's flights are the window's: correct the code only")
    try:
        return with_unsure(corrected_disruption(disruption, facts, [], by))
    except CorrectionRefused as exc:
        raise FactsRefused(str(exc)) from None


__all__ = [
    "FactsRefused",
    "ReportContradictsData",
    "corrected_flights",
    "corrected_network",
    "flight_facts",
    "movement_facts",
]
