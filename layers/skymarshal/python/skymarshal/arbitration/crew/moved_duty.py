"""A crew member's duty re-timed: the roster rows as a moved report leaves them (``moved``) and the crew rules for
the duty reporting then (``moved_report``: FDP, the rest before and after it, ORO.FTL.205/235) — what the moved
reports of a knock-on (moved_reports.py), a rested crew's next duty (rest.py, chain.py) and a continuation check."""

from __future__ import annotations

from datetime import datetime, timedelta

from ...data import queries as q
from ...models.findings import Finding
from ...models.operational import CrewDuty
from ...rules.crew import evaluate_duty
from ...rules.rostered import rostered_duty
from ..context import DisruptionContext

Moves = dict[str, tuple[str, timedelta]]  # crew id → (first flight of their next duty, how much later it reports)


def moved(rows: list[CrewDuty], crew_id: str, moves: Moves) -> list[CrewDuty]:
    """The member's rows with the duty `moves` names re-timed (report, sectors, end) by its move."""
    if crew_id not in moves:
        return rows
    flight_id, by = moves[crew_id]
    duty_id = next((r.duty_id for r in rows if r.flight_id == flight_id), None)
    fields = ("duty_start", "duty_end", "fdp_end", "sector_departure", "sector_arrival")

    def shift(r: CrewDuty) -> CrewDuty:
        return r.model_copy(update={k: getattr(r, k) + by for k in fields if getattr(r, k) is not None})

    return [shift(r) if r.duty_id == duty_id else r for r in rows]


def moved_report(ctx: DisruptionContext, crew_id: str, flight_id: str, report: datetime) -> list[Finding]:
    """A crew member of a later flight the plan re-times, their duty reporting at `report` instead of the roster's:
    the duty's FDP and the rest before and after it by the crew rules."""
    member = q.crew_members(ctx.handle, [crew_id])
    if not member:
        raise LookupError(f"{crew_id} is not in CrewMembers")
    rows = ctx.roster(crew_id, report)
    seat = next(r for r in rows if r.flight_id == flight_id)
    shifted = moved(rows, crew_id, {crew_id: (flight_id, report - seat.duty_start)})
    return evaluate_duty(member[0], shifted, rostered_duty(shifted, flight_id))
