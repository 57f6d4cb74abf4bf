"""Where a crew stands down and how its duty goes on after a rest (ORO.FTL.235): the part of the duty worked before
standing down (a record the rest is counted from), the sectors flown before the flight in the same duty (mid-duty:
an out-and-back's crew held at the outstation), when they stand down, when they report for the flight, and the duty
that is left after the rest. Pure functions of the roster rows and the decision; the crew rules judge legality.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ...analysis.base import decision_time
from ...models.operational import CrewDuty
from ...rules.crew import OperatorRules, ProposedDuty
from ...rules.rostered import rostered_duty
from ...rules.standby import REPORT_BEFORE_DEPARTURE
from ..context import DisruptionContext


def stood_down(rows: list[CrewDuty], flight_id: str, at: datetime, station: str | None = None) -> CrewDuty | None:
    """The part of the duty a member who has already reported works before standing down at `at` (at `station`:
    where the duty began unless given), as a record the rest is counted from (None: not reported yet)."""
    duty = rostered_duty(rows, flight_id)
    if duty.report >= at:
        return None
    sector = next(r for r in rows if r.flight_id == flight_id)
    flown = [
        r
        for r in rows
        if r.duty_id == sector.duty_id
        and r.kind == "FLIGHT"
        and r.flight_id != flight_id
        and (r.sector_arrival or at) < at
    ]
    return CrewDuty(
        crew_id=sector.crew_id,
        duty_key=f"{duty.report.isoformat()}#STOOD-DOWN#",
        duty_id=f"{sector.duty_id}-stood-down",
        kind="HISTORY",
        duty_start=duty.report,
        duty_end=at,
        fdp_end=at,
        start_station=sector.start_station,
        end_station=station or sector.start_station,
        block_minutes=sum(r.block_minutes for r in flown),  # the sectors flown before standing down (mid-duty)
    )


def earlier_legs(rows: list[CrewDuty], flight_id: str, departure: datetime) -> list[CrewDuty]:
    """The sectors of the duty holding `flight_id` that leave before it: flown in the same FDP (mid-duty)."""
    duty_id = next((r.duty_id for r in rows if r.flight_id == flight_id), None)
    if duty_id is None:
        raise LookupError(f"flight {flight_id} is not in this roster")  # as rules.rostered.rostered_duty says it
    return [
        x
        for x in rows
        if x.duty_id == duty_id
        and x.kind == "FLIGHT"
        and x.flight_id != flight_id
        and x.sector_departure
        and x.sector_departure < departure
    ]


def stands_down(ctx: DisruptionContext, rows: list[CrewDuty]) -> datetime:
    """When the crew stands down: at the decision, or mid-duty once the sectors before the flight are flown and their
    post-flight duties done (a crew still in the air when the decision is taken rests from its landing)."""
    f, at = ctx.flight, decision_time(ctx.flight, ctx.now)
    earlier = earlier_legs(rows, f.flight_id, f.scheduled_departure)
    if not earlier:
        return at
    landed = max(x.sector_arrival or x.duty_end for x in earlier)
    return max(at, landed + timedelta(minutes=OperatorRules().post_flight_minutes))


def report_lead(rows: list[CrewDuty], flight_id: str, departure: datetime) -> timedelta:
    """How long before the flight's departure its crew reports: as rostered for the first sector of a duty; before a
    mid-duty flight flown as a new duty after a rest, the company's report time (rules.standby)."""
    if earlier_legs(rows, flight_id, departure):
        return REPORT_BEFORE_DEPARTURE
    return departure - rostered_duty(rows, flight_id).report


def remainder(duty: ProposedDuty, earlier: list[CrewDuty], origin: str) -> ProposedDuty:
    """A mid-duty flight's duty after the crew stood down at `origin`: its sectors from this flight on, a new FDP."""
    flown = {x.flight_number for x in earlier}
    return duty.model_copy(
        update={
            "sectors": max(1, duty.sectors - len(earlier)),
            "start_station": origin,
            "block_minutes": max(0, (duty.block_minutes or 0) - sum(x.block_minutes for x in earlier)),
            "duty_id": f"{duty.duty_id}-rested",
            "label": "/".join(n for n in (duty.label or "").split("/") if n not in flown) or duty.label,
        }
    )
