"""From roster rows to the duty the crew rules check: the flight duty period that contains a flight.

The roster (CrewRoster rows) says who flies a flight and the whole duty around it; the crew rules take a
`ProposedDuty`. A flight's current delay moves on-blocks and release of the duty with the report
unchanged (ORO.FTL.205: the FDP runs from report to the last on-blocks).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import BaseModel, ConfigDict

from ..models.findings import Finding
from ..models.operational import CrewDuty, CrewMember
from .crew import OperatorRules, ProposedDuty, evaluate_delay, is_legal


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
        duty = rostered_duty(rows, flight_id)
        findings = evaluate_delay(member, rows, duty, delay_minutes, rules)
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
