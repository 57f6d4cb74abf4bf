"""From roster rows to the duty the crew rules check: the flight duty period that contains a flight.

The roster (CrewRoster rows) says who flies a flight and the whole duty around it; the crew rules take a
`ProposedDuty`. A flight's current delay moves on-blocks and release of the duty with the report
unchanged (ORO.FTL.205: the FDP runs from report to the last on-blocks). An executed delay has already moved the
roster's times (``CrewDuty.moved_minutes``): a delay from the schedule is applied net of it (``duty_at_delay``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import BaseModel, ConfigDict

from ..models.findings import Finding
from ..models.operational import CrewDuty, CrewMember
from .crew import OperatorRules, ProposedDuty, evaluate_duty, is_legal


class CrewLegality(BaseModel):
    """One rostered crew member's findings on a flight at a given delay."""

    model_config = ConfigDict(frozen=True)

    crew_id: str
    name: str
    rank: str
    position: str | None
    legal: bool
    findings: list[Finding]


def rostered_duty(rows: Sequence[CrewDuty], flight_id: str) -> ProposedDuty:
    """The duty in `rows` (one member's roster) that contains `flight_id`."""
    sector = next((r for r in rows if r.flight_id == flight_id), None)
    if sector is None:
        raise LookupError(f"flight {flight_id} is not in this roster")
    legs = sorted(
        (r for r in rows if r.duty_id == sector.duty_id and r.kind == "FLIGHT"),
        key=lambda r: r.sector_departure or r.duty_start,
    )
    pilots = sector.pilots_on_board or 2
    return ProposedDuty(
        report=sector.duty_start,
        fdp_end=sector.fdp_end or legs[-1].sector_arrival,
        release=sector.duty_end,
        sectors=sector.sectors,
        aircraft_type=sector.aircraft_type,
        pilots_on_board=pilots,
        rest_facility_class=1 if pilots > 2 else None,
        start_station=sector.start_station,
        end_station=sector.end_station,
        block_minutes=sum(r.block_minutes for r in legs),
        duty_id=sector.duty_id,
        label="/".join(r.flight_number for r in legs if r.flight_number),
    )


def duty_at_delay(rows: Sequence[CrewDuty], flight_id: str, delay_minutes: int) -> ProposedDuty:
    """The duty containing `flight_id` with the flight `delay_minutes` late from its schedule: the roster's times
    moved by what an executed delay has not already moved them (a smaller delay than executed moves them back)."""
    duty = rostered_duty(rows, flight_id)
    moved = next((r.moved_minutes for r in rows if r.flight_id == flight_id), 0)
    return duty.delayed(delay_minutes - moved) if delay_minutes != moved else duty


def flight_crew_legality(
    flight_id: str,
    members: Iterable[CrewMember],
    rosters: dict[str, Sequence[CrewDuty]],
    delay_minutes: int = 0,
    rules: OperatorRules = OperatorRules(),
) -> list[CrewLegality]:
    """Every rostered member of `flight_id`, their duty delayed by `delay_minutes`, checked by the crew rules."""
    results = []
    for member in members:
        rows = rosters[member.crew_id]
        findings = evaluate_duty(member, rows, duty_at_delay(rows, flight_id, delay_minutes), rules)
        position = next((r.position for r in rows if r.flight_id == flight_id), None)
        results.append(
            CrewLegality(
                crew_id=member.crew_id,
                name=member.name,
                rank=member.rank,
                position=position,
                legal=is_legal(findings),
                findings=findings,
            )
        )
    return results


def next_rostered_duty(rows: Sequence[CrewDuty], flight_id: str) -> tuple[str, ProposedDuty] | None:
    """The member's first flight duty after the one holding `flight_id` — its first flight and the duty — or None
    (ORO.FTL.235: the rest after a duty is counted up to the report of this one)."""
    sector = next((r for r in rows if r.flight_id == flight_id), None)
    if sector is None:
        return None
    later = [r for r in rows if r.kind == "FLIGHT" and r.duty_id != sector.duty_id and r.duty_start > sector.duty_start]
    if not later:
        return None
    first = min(later, key=lambda r: (r.duty_start, r.sector_departure or r.duty_start))
    assert first.flight_id is not None  # a FLIGHT row names its flight
    return first.flight_id, rostered_duty(rows, first.flight_id)
