"""Crew legality of a rostered flight, from CrewRoster and CrewMembers through the data handle."""

from __future__ import annotations

from datetime import timedelta

from ..data import queries as q
from ..data.access import DataHandle
from ..models.operational import Flight
from ..rules.crew import OperatorRules
from ..rules.rostered import CrewLegality, flight_crew_legality

HISTORY_DAYS = 366  # ORO.FTL.210's longest look-back is 12 months of flight time


def crew_legality(handle: DataHandle, flight: Flight, delay_minutes: int | None = None,
                  rules: OperatorRules = OperatorRules()) -> list[CrewLegality]:
    """Each rostered crew member of `flight` at `delay_minutes` (default: the flight's current delay)."""
    assignments = q.crew_assignments(handle, flight.flight_id)
    members = q.crew_members(handle, sorted({a.crew_id for a in assignments}))
    start = flight.scheduled_departure - timedelta(days=HISTORY_DAYS)
    end = flight.scheduled_departure + timedelta(days=3)  # rest before the next rostered duty
    rosters = {m.crew_id: q.duty_history(handle, m.crew_id, start, end) for m in members}
    delay = flight.delay_minutes if delay_minutes is None else delay_minutes
    return flight_crew_legality(flight.flight_id, members, rosters, delay, rules)
