"""The rows a plan's messages are written from, read by key and index (GetItem in batches, the crew by flight)."""

from __future__ import annotations

from ..arbitration.actions import CancelFlight, DelayFlight, RebookPassengers
from ..arbitration.models import Scenario
from ..data import queries as q
from ..data import schema as s
from ..data.access import DataHandle
from ..models.operational import Flight
from .build import PlanFacts


def plan_facts(handle: DataHandle, scenario: Scenario) -> PlanFacts:
    """The flights the plan acts on and rebooks onto; the rostered crew of each flight it cancels or delays."""
    ids = {a.flight_id for a in scenario.actions}
    ids |= {onto for a in scenario.actions if isinstance(a, RebookPassengers) for onto in a.onto}
    rows = handle.batch_get(s.FLIGHTS, [{"flight_id": i} for i in sorted(ids)])
    flights = {f.flight_id: f for f in (Flight.model_validate(r) for r in rows)}
    moved = {a.flight_id for a in scenario.actions if isinstance(a, (CancelFlight, DelayFlight))}
    crew = {flight_id: q.crew_assignments(handle, flight_id) for flight_id in sorted(moved)}
    return PlanFacts(flights=flights, crew=crew)
