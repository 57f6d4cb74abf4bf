"""A flight report's facts as the duty manager corrected them, checked against the data again.

The reading (disruption_facts.py) stands except where a correction replaces it: the AHM 730 code (its cause facts
go, one stated fact of the corrected code comes), the crew position, the window, the stated duration. The what-if
overlay is then built again from the corrected facts by the same function as the report's (analysis/what_if.py),
so the same checks run: a crew position nobody holds on the flight is refused, a defect grounds the tail. Nothing
the tables hold is relaxed — the overlay only adds to the data — and every correction keeps who made it and what
had been read, for the audit. The flights and their day are corrected before the flights are looked up
(workflow/steps/validate.py), so they are checked like the report's.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ..analysis.what_if import what_if
from ..data.access import DataHandle
from ..data.overlay import Overlay
from ..models.corrections import (
    CREW_CAUSES,
    MEMBER_CAUSES,
    CorrectionRefused,
    checked_facts,
    family_codes,
    uncertainties,
    window_times,
)
from ..models.disruption import (
    DELAY_CODES,
    Disruption,
    Fact,
    FactCorrection,
    ReportContradictsData,
    Scope,
    Window,
    family_of,
)
from ..models.operational import Flight
from .lexicon import CUES

# The facts a reading of the cause states (the lexicon's), and what the what-if built on them (rebuilt here).
CAUSE_FACTS = frozenset({c.fact for c in CUES}) | {"delay_reason", "reading_confidence"}
WHAT_IF_FACTS = frozenset(
    {
        "aircraft_on_ground",
        "estimated_rectification_hours",
        "slot_delay_minutes",
        "hold_minutes",
        "weather_below_limits",
        "weather_window",
    }
)
# The fact a corrected code states: its first cue's in the lexicon ("crew_unavailable" for 64), else "cause".
CODE_FACTS: dict[int, str] = {}
for _cue in CUES:
    CODE_FACTS.setdefault(_cue.code, _cue.fact)
# Corrections that only a flight's disruption takes (an airport's window and capacity are its report's).
FLIGHT_ONLY = ("crew_position", "window", "duration")


def _derived_crew(fact: Fact) -> bool:
    return fact.name == "crew_unavailable" and fact.source == "data"


def _by(who: str | None) -> str:
    return f"corrected by {who or '(unnamed)'}"


def bare_disruption(flight: Flight, others: list[Flight], code: int) -> Disruption:
    """The flights' disruption when the report stated no cause and the duty manager gave the code."""
    every = [flight, *others]
    return Disruption.of_code(
        code,
        scope=Scope(
            kind="flight",
            flight_numbers=[f.flight_number for f in every],
            flights=[f.flight_id for f in every],
            registration=flight.aircraft_registration,
        ),
        facts=[flight_fact(f) for f in every],
    )


def flight_fact(flight: Flight) -> Fact:
    """The flight as the data holds it: a `data` fact naming its row."""
    return Fact(
        name="flight",
        value=flight.flight_id,
        source="data",
        evidence=f"flights: {flight.flight_number} {flight.origin}-{flight.destination} "
        f"{flight.scheduled_departure:%Y-%m-%d %H:%M}Z, {flight.aircraft_registration}",
    )


def _read(disruption: Disruption, key: str) -> str | None:
    """What the reading had for `key`, as the audit shows it."""
    window = disruption.window
    return {
        "code": str(disruption.iata_delay_code),
        "family": disruption.family,
        "crew_position": disruption.scope.crew_position,
        "window": f"{window.start:%H:%M}-{window.end:%H:%M}" if window else None,
        "duration": None if disruption.severity_minutes is None else str(disruption.severity_minutes),
    }.get(key)


def _code(disruption: Disruption, facts: dict[str, str]) -> int:
    """The corrected code; a family alone keeps a code read in it and is otherwise refused (which code is not said)."""
    code = int(facts["code"]) if "code" in facts else disruption.iata_delay_code
    family = facts.get("family")
    if family is not None and family_of(code) != family:
        lo, hi = family_codes(family)
        raise CorrectionRefused(
            f"family={family}: the code read is {code} ({family_of(code).replace('_', ' ')}); say which {family} "
            f"code, e.g. code={lo} ({lo}-{hi})"
        )
    return code


def corrected_disruption(
    disruption: Disruption,
    facts: dict[str, str],
    flights: list[Flight],
    by: str | None,
    reads: dict[str, str | None] | None = None,
) -> Disruption:
    """The disruption with the duty manager's `facts` (checked KEY → VALUE) in place of the reading's.
    `reads`: what was read for keys corrected before the flights were looked up (flights, date).
    Raises CorrectionRefused."""
    facts = checked_facts(facts)  # written one way, whoever called (checking twice changes nothing)
    network = disruption.scope.kind in ("airport", "airspace")
    for key in FLIGHT_ONLY:
        if key in facts and network:
            raise CorrectionRefused(
                f"{key}={facts[key]}: an {disruption.scope.kind} disruption's {key.replace('_', ' ')} is its "
                "report's; correct the code, or report it again"
            )
    code = _code(disruption, facts)
    # What the what-if built on the reading is built again below; the reading's stated facts stay unless corrected.
    kept = [f for f in disruption.facts if f.name not in WHAT_IF_FACTS and not _derived_crew(f)]
    scope, window, severity = disruption.scope, disruption.window, disruption.severity_minutes
    added: list[Fact] = []
    if code != disruption.iata_delay_code or "code" in facts:
        kept = [f for f in kept if f.name not in CAUSE_FACTS]
        added.append(
            Fact(
                name=CODE_FACTS.get(code, "cause"),
                value=code,
                source="stated",
                evidence=f"{_by(by)}: code {code} ({DELAY_CODES[code]}), read {disruption.iata_delay_code}",
            )
        )
    if code not in MEMBER_CAUSES and scope.kind == "crew_member" and "crew_position" not in facts:
        # the cause is no longer the crew's: nobody is taken off the flight for it
        scope = scope.model_copy(update={"kind": "flight", "crew_position": None})
        kept = [f for f in kept if f.name != "crew_position"]
    if "crew_position" in facts:
        if code not in CREW_CAUSES:
            raise CorrectionRefused(
                f"crew_position={facts['crew_position']}: the cause (code {code}) is not the crew's; correct the "
                "code too (e.g. code=64 flight deck, code=67 cabin)"
            )
        scope = scope.model_copy(update={"kind": "crew_member", "crew_position": facts["crew_position"]})
        kept = [f for f in kept if f.name != "crew_position"]
        added.append(Fact(name="crew_position", value=facts["crew_position"], source="stated", evidence=_by(by)))
        if not any(f.name == "crew_unavailable" and f.source == "stated" for f in [*kept, *added]):
            added.append(Fact(name="crew_unavailable", value=code, source="stated", evidence=_by(by)))
    if "window" in facts:
        start, end = window_times(facts["window"])
        day = flights[0].scheduled_departure.date()
        begin, finish = datetime.combine(day, start, UTC), datetime.combine(day, end, UTC)
        window = Window(start=begin, end=finish if finish > begin else finish + timedelta(days=1))
        kept = [f for f in kept if f.name != "window"]
        added.append(Fact(name="window", value=facts["window"], source="stated", evidence=_by(by)))
    if "duration" in facts:
        severity = int(facts["duration"])
        kept = [f for f in kept if f.name != "duration_minutes"]
        added.append(Fact(name="duration_minutes", value=severity, source="stated", evidence=_by(by)))
    reads = reads or {}
    corrections = [
        FactCorrection(key=key, value=value, read=reads[key] if key in reads else _read(disruption, key), by=by)
        for key, value in facts.items()
    ]
    return Disruption.of_code(
        code,
        cause=DELAY_CODES[code] if code != disruption.iata_delay_code else disruption.cause,
        scope=scope,
        window=window,
        severity_minutes=severity,
        facts=[*kept, *added],
        remarks=disruption.remarks,
        corrections=corrections,
    )


def corrected_flight_report(
    disruption: Disruption,
    facts: dict[str, str],
    flights: list[Flight],
    handle: DataHandle,
    now: datetime | None,
    by: str | None,
    words: str = "",
    reads: dict[str, str | None] | None = None,
) -> tuple[Disruption, Overlay]:
    """The corrected disruption of `flights` and the overlay built again from its facts, each flight checked as the
    report's were. Raises CorrectionRefused or ReportContradictsData (one line each)."""
    fixed = corrected_disruption(disruption, facts, flights, by, reads)
    overlay = Overlay()
    found: list[Fact] = []
    for flight in flights:
        more, also = what_if(fixed, flight, handle, now, words=words)
        overlay = Overlay(patches=[*overlay.patches, *more.patches], additions=[*overlay.additions, *more.additions])
        found += also
    facts_now = [*fixed.facts]
    known = {(f.name, f.source, str(f.value)) for f in facts_now}
    for f in found:  # the data and policy facts the overlay rests on, once each
        if (f.name, f.source, str(f.value)) not in known:
            known.add((f.name, f.source, str(f.value)))
            facts_now.append(f)
    fixed = fixed.model_copy(update={"facts": facts_now})
    return with_unsure(fixed), overlay


def with_unsure(disruption: Disruption) -> Disruption:
    """The disruption with what its reading is unsure of (none for what the duty manager corrected)."""
    corrected = {c.key for c in disruption.corrections}
    return disruption.model_copy(update={"unsure": uncertainties(disruption, corrected)})


__all__ = [
    "CorrectionRefused",
    "ReportContradictsData",
    "bare_disruption",
    "corrected_disruption",
    "corrected_flight_report",
    "with_unsure",
]
