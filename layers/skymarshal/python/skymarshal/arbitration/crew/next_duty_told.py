"""The next duties of a rested crew that the plan re-times: told to report as much later (CS FTL.1.205(d) delayed
reporting), so the rest after the rested duty is counted to where the next duty now is — and the moves that makes,
which the crew rules read (crew/rest.py, continuation/checks.py)."""

from __future__ import annotations

from datetime import datetime, timedelta

from ...analysis.base import decision_time
from ..actions import DelayFlight, RestCrew
from ..context import DisruptionContext
from .chain import next_duty
from .moved_duty import Moves


def next_duties_told(ctx: DisruptionContext, actions: list, crew: set[str]) -> list[RestCrew]:
    """The next duties of the rested `crew` that start on a flight the plan re-times (its DelayFlight, the tail's
    knock-on) and that the plan does not move already: reporting as much later (net of a delay already executed on
    the roster), so the rest after the rested duty is counted to where the next duty now is."""
    delays = {a.flight_id: a for a in actions if isinstance(a, DelayFlight) and a.flight_id != ctx.flight.flight_id}
    told = {c for a in actions if isinstance(a, RestCrew) for c in a.reports}
    by_flight: dict[str, dict[str, datetime]] = {}
    for crew_id in sorted(crew - told):
        found = next_duty(ctx, crew_id, ctx.flight)
        later = delays.get(found[0]) if found else None
        if found is None or later is None:
            continue
        seat = next(r for r in ctx.roster(crew_id, ctx.flight.scheduled_departure) if r.flight_id == found[0])
        by = timedelta(minutes=later.delay_minutes - seat.moved_minutes)
        if by > timedelta(0):
            by_flight.setdefault(found[0], {})[crew_id] = found[1].report + by
    at = decision_time(ctx.flight, ctx.now)
    return [RestCrew(flight_id=f, reports=r, stood_down_at=at) for f, r in sorted(by_flight.items())]


def next_duty_moves(ctx: DisruptionContext, actions: list) -> Moves:
    """The next duties of the disrupted flight's crew the plan tells to report later (a RestCrew on their first
    flight): crew id → (that flight, how much later)."""
    out: Moves = {}
    for a in actions:
        if not isinstance(a, RestCrew) or a.flight_id == ctx.flight.flight_id:
            continue
        for crew_id, at in a.reports.items():
            found = next_duty(ctx, crew_id, ctx.flight)
            if found is not None and found[0] == a.flight_id:
                out[crew_id] = (a.flight_id, at - found[1].report)
    return out
