"""Every crew chain a recovery touched: the roster rows of each flight an execution changed (or a caller names)
match the flight's times, and each rostered member's duty on it — with the rest before it and before their next
rostered duty, the FDP, the cumulative limits and one duty at a time — is legal by the crew rules
(``rules.crew.evaluate_duty``, ORO.FTL.205/210/235). Reads: CrewRoster on flight-position-index per flight, each
member's rows by key, CrewMembers by BatchGetItem. No Scan.

The roster as generated is legal (the generator's own tests check it); what an execution changes is what can
break it, so the check follows the executions' marks rather than re-reading every crew member's year.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..models.operational import CrewDuty, CrewMember, Flight
from ..rules._clock import as_utc
from ..rules.crew import evaluate_duty
from ..rules.rostered import rostered_duty
from . import queries as q
from .access import DataHandle

CrewBreakCode = Literal["ROSTER_NOT_MOVED", "CREW_CHAIN_BROKEN"]
HISTORY = timedelta(days=366)  # ORO.FTL.210's longest look-back
MOVED_CLAUSE = "Roster: a crew member's sector is the flight's (times as the flight now operates)"
SKIPPED = ("CANCELLED", "DEPARTED", "ARRIVED")


class CrewBreak(BaseModel):
    """One place where a rostered crew member cannot fly what the roster gives them."""

    model_config = ConfigDict(frozen=True)

    code: CrewBreakCode
    crew_id: str
    flight_id: str
    duty_id: str
    clause: str
    message: str


def crew_breaks(handle: DataHandle, flights: Iterable[Flight]) -> list[CrewBreak]:
    """The crew chains through `flights` (each once): roster rows at the flight's times, every duty legal."""
    out: list[CrewBreak] = []
    checked: set[tuple[str, str]] = set()
    for flight in sorted({f.flight_id: f for f in flights}.values(), key=lambda f: f.flight_id):
        if flight.status in SKIPPED:
            continue
        seats = [s for s in q.crew_assignments(handle, flight.flight_id) if s.kind == "FLIGHT"]
        for seat in seats:
            if seat.sector_departure is not None and as_utc(seat.sector_departure) != as_utc(flight.departure):
                out.append(
                    CrewBreak(
                        code="ROSTER_NOT_MOVED",
                        crew_id=seat.crew_id,
                        flight_id=flight.flight_id,
                        duty_id=seat.duty_id,
                        clause=MOVED_CLAUSE,
                        message=f"{seat.crew_id}'s roster has {flight.flight_id} leaving "
                        f"{seat.sector_departure:%Y-%m-%d %H:%MZ}; the flight leaves {flight.departure:%H:%MZ}.",
                    )
                )
        members = {m.crew_id: m for m in q.crew_members(handle, sorted({s.crew_id for s in seats}))}
        for seat in seats:
            member = members.get(seat.crew_id)
            if member is None or (seat.crew_id, seat.duty_id) in checked:
                continue
            checked.add((seat.crew_id, seat.duty_id))
            rows = q.duty_history(
                handle,
                seat.crew_id,
                flight.scheduled_departure - HISTORY,
                flight.scheduled_departure + timedelta(days=3),
            )
            out += _duty_breaks(member, rows, seat, flight.flight_id)
    return out


def _duty_breaks(member: CrewMember, rows: list[CrewDuty], seat: CrewDuty, flight_id: str) -> list[CrewBreak]:
    findings = evaluate_duty(member, rows, rostered_duty(rows, flight_id))
    return [
        CrewBreak(
            code="CREW_CHAIN_BROKEN",
            crew_id=member.crew_id,
            flight_id=flight_id,
            duty_id=seat.duty_id,
            clause=f.clause,
            message=f"{member.name} ({member.rank}) on {flight_id}: {f.message}",
        )
        for f in findings
        if f.status == "illegal"
    ]
