"""A crew member's next rostered duty re-timed when a plan (a delay, its knock-on, a rest) leaves them short of rest
before it and no reserve can take it: the duty reports once the minimum rest is met (ORO.FTL.235; CS FTL.1.205(d),
the report moved before the member leaves their place of rest) and its first flight leaves as much later, with that
flight's knock-on down its own tail (``rules.network.propagate_delay``) — what an OCC does rather than refuse the
wait, or cancel the rotation a crew held away from base came to fly home.

Nothing here decides legality: validation checks every re-timed flight as any knock-on (curfews, its rostered
crew, their next duties), each moved report by the crew rules at the new report (``moved_reports``), the rested
member's rest before the moved duty (``rest.rest_checks``), and the tails' rotations (``rotation.plan``).
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from ...analysis.base import decision_time
from ...data import queries as q
from ...models.operational import Flight
from ..actions import DelayFlight, RestCrew
from ..context import DisruptionContext
from ..memo_keys import FlightRead
from ..rotation import plan as rotation_plan
from .chain import next_duty


def retimed_next_duties(
    ctx: DisruptionContext, short: dict[str, int], after: dict[str, Flight] | None = None
) -> list[DelayFlight | RestCrew]:
    """For each member short of rest before their next duty (after the disrupted flight, or `after[crew_id]`) by
    `short[crew_id]` minutes: that duty reporting as much later (rounded up to 5 minutes; the members of one flight
    all by the largest), its first flight leaving no earlier than the report allows, and that flight's knock-on on
    its tail. Members with no next duty in the data are left (validation names them)."""
    by_flight: dict[str, tuple[int, dict[str, datetime]]] = {}
    for crew_id, minutes in sorted(short.items()):
        found = next_duty(ctx, crew_id, (after or {}).get(crew_id, ctx.flight))
        if found is None:
            continue
        flight_id, duty = found
        shift, reports = by_flight.get(flight_id, (0, {}))
        by_flight[flight_id] = (max(shift, math.ceil(minutes / 5) * 5), {**reports, crew_id: duty.report})
    out: list[DelayFlight | RestCrew] = []
    stood = decision_time(ctx.flight, ctx.now)
    for flight_id, (shift, reports) in sorted(by_flight.items()):
        by = timedelta(minutes=shift)
        out += _retimed_flight(ctx, flight_id, by, reports)
        out.append(
            RestCrew(flight_id=flight_id, reports={c: at + by for c, at in reports.items()}, stood_down_at=stood)
        )
    return out


def _retimed_flight(
    ctx: DisruptionContext, flight_id: str, by: timedelta, reports: dict[str, datetime]
) -> list[DelayFlight]:
    """The flight leaving `by` after its rostered departure (never earlier than it now leaves), and every later
    flight of its tail that this makes late."""
    later = ctx.memo(FlightRead(flight_id), lambda: q.get_flight(ctx.handle, flight_id))
    if later is None or later.status not in rotation_plan.OPERABLE:
        return []  # a cancelled or flown flight is not re-timed: validation judges the moved report alone
    seats = [r for c in reports for r in ctx.roster(c, later.scheduled_departure) if r.flight_id == flight_id]
    rostered = min((r.sector_departure for r in seats if r.sector_departure), default=later.scheduled_departure)
    leaves = max(later.departure, rostered + by)
    if leaves <= later.departure:
        return []  # already late enough: only the report moves
    delay = math.ceil((leaves - later.scheduled_departure).total_seconds() / 60)
    rotation = rotation_plan.tail_flights(ctx, later.aircraft_registration)
    if not any(x.flight_id == flight_id for x in rotation):
        rotation = [*rotation, later]
    return rotation_plan.propagated(rotation, flight_id, delay)
