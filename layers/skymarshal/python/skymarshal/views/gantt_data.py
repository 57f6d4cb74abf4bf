"""The operational rows a decision's Gantt needs, read through the DataHandle (GetItem, Query, BatchGetItem on
keys and GSIs — never a Scan) and the run's revised collation for the regulatory agent's time windows.

Reads, for a decision with the usual three plans: the flight (GetItem); its tail's rotation and each
swapped-in tail's (Query, aircraft-registration-index); the flight's crew (Query, flight-position-index) and
each crew member's and called-out reserve's duties around it (Query on the roster's key); the flight's
bookings (Query, flight-id-index) and the onward flights they connect to (BatchGetItem); the airport
profiles of the origin, destination and alternates (GetItem).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from ..arbitration.actions import DivertFlight, ReassignCrew, SwapAircraft
from ..arbitration.models import ArbitratorOutput
from ..data import queries as q
from ..data import schema as s
from ..data.access import DataHandle
from ..models.agent_response import AgentResponse, RegulatoryConstraint
from ..models.operational import Flight
from .gantt_models import OpsSnapshot

ROTATION_BEFORE, ROTATION_AFTER = timedelta(hours=12), timedelta(hours=36)
DUTY_BEFORE, DUTY_AFTER = timedelta(hours=24), timedelta(hours=36)


class NoFlight(LookupError):
    """The decision names no flight, or its flight is not in the data."""


def gather(output: ArbitratorOutput, handle: DataHandle, collation: dict[str, Any] | None = None) -> OpsSnapshot:
    if not output.flight_id:
        raise NoFlight("the decision names no flight: there is nothing to draw")
    flight = q.get_flight(handle, output.flight_id)
    if flight is None:
        raise NoFlight(f"flight {output.flight_id} is not in the operational data")
    start, end = flight.scheduled_departure - ROTATION_BEFORE, flight.scheduled_departure + ROTATION_AFTER
    actions = [a for r in output.ranked[:3] for a in r.scenario.actions]
    tails = [flight.aircraft_registration] + [a.to_registration for a in actions if isinstance(a, SwapAircraft)]
    rotations = {t: q.rotation(handle, t, start, end) for t in dict.fromkeys(tails)}
    if flight.flight_id not in {g.flight_id for g in rotations[flight.aircraft_registration]}:
        rotations[flight.aircraft_registration].append(flight)  # departs outside the queried range: keep it drawn
    roster = q.crew_assignments(handle, flight.flight_id)
    reserves = [r for a in actions if isinstance(a, ReassignCrew) for r in a.replacements.values()]
    crew_ids = list(dict.fromkeys([d.crew_id for d in roster] + reserves))
    since, until = flight.scheduled_departure - DUTY_BEFORE, flight.scheduled_departure + DUTY_AFTER
    duties = {c: q.duty_history(handle, c, since, until) for c in crew_ids}
    bookings = q.bookings(handle, flight.flight_id)
    onward_ids = sorted({b.onward_flight_id for b in bookings if b.onward_flight_id})
    onward = {
        row["flight_id"]: Flight.model_validate(row)
        for row in handle.batch_get(s.FLIGHTS, [{"flight_id": i} for i in onward_ids])
    }
    airports = [flight.origin, flight.destination] + [a.alternate for a in actions if isinstance(a, DivertFlight)]
    profiles = {i: p for i in dict.fromkeys(airports) if (p := q.airport_profile(handle, i)) is not None}
    return OpsSnapshot(
        flight=flight,
        rotations=rotations,
        roster=roster,
        duties=duties,
        bookings=bookings,
        onward=onward,
        profiles=profiles,
        regulatory=regulatory_constraints(collation),
    )


def regulatory_constraints(collation: dict[str, Any] | None) -> list[RegulatoryConstraint]:
    """The regulatory agent's typed constraints from a revised collation (an agent that failed has none)."""
    body = (collation or {}).get("regulatory")
    if not isinstance(body, dict):
        return []
    try:
        response = AgentResponse.model_validate(body)
    except ValueError:  # a degraded entry of another shape: no windows rather than no chart
        return []
    return [c for c in response.constraints if isinstance(c, RegulatoryConstraint)]
