"""The plan as it is about to be executed, checked against the tables as they are now: the tails it touches must
still fly their flights in sequence after it (``rules.rotation``, the same check as validation and
``data.integrity``). A plan a duty manager edited, or one the airline has moved on from since it was decided (another
plan executed in between), that would leave a flight on a tail that is elsewhere or still flying is refused before
anything is written: one line naming the flight (ROTATION_BROKEN), the tables unchanged.

Only the breaks the plan itself introduces count: a break the tables already hold is another decision's.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from ...arbitration.actions import CancelFlight, ContinueFlight, DelayFlight, DivertFlight, FerryAircraft, SwapAircraft
from ...arbitration.models import Scenario
from ...arbitration.rotation.plan import continuation_leg, ferry_leg
from ...data import schema as s
from ...models.common import iso_z
from ...models.operational import Flight
from ...rules.rotation import rotation_breaks
from ..aws.dynamodb import Key
from ..tables import WorkflowTables

AROUND = timedelta(days=2)  # the tails' flights read around the plan's flights


def _tails(scenario: Scenario) -> set[str]:
    out: set[str] = set()
    for a in scenario.actions:
        if isinstance(a, SwapAircraft):
            out |= {a.from_registration, a.to_registration}
        elif isinstance(a, (FerryAircraft, ContinueFlight)):
            out.add(a.registration)
    return out


def applied(flights: dict[str, Flight], actions: Sequence, carrier: str) -> dict[str, Flight]:
    """The flights as the actions leave them (swaps, delays, cancellations, diversions, a ferry's leg)."""
    out = dict(flights)
    for a in actions:
        x = out.get(a.flight_id)
        if isinstance(a, (FerryAircraft, ContinueFlight)):
            leg = ferry_leg(a, carrier) if isinstance(a, FerryAircraft) else continuation_leg(a, carrier)
            out[leg.flight_id] = leg
        elif x is None:
            continue
        elif isinstance(a, SwapAircraft):
            # the swap writes the new tail's type too: its turn time is the one that applies (execution_plan._swap)
            out[x.flight_id] = x.model_copy(
                update={"aircraft_registration": a.to_registration, "aircraft_type": a.to_aircraft_type}
            )
        elif isinstance(a, DelayFlight):
            out[x.flight_id] = x.model_copy(
                update={"estimated_departure": a.new_departure, "estimated_arrival": a.new_arrival}
            )
        elif isinstance(a, CancelFlight):
            out[x.flight_id] = x.model_copy(update={"status": "CANCELLED"})
        elif isinstance(a, DivertFlight):
            out[x.flight_id] = x.model_copy(update={"status": "DIVERTED", "diverted_to": a.alternate})
    return out


def rotation_refusal(tables: WorkflowTables, scenario: Scenario) -> str | None:
    """One line naming the first flight the plan would leave on a tail that cannot fly it, or None. Every tail the plan
    touches (moves a flight to or from, delays, cancels or diverts one of its flights) is read over the span of all the
    plan's flights (a network plan spans a window, a single-flight plan its flight and the legs it carries), each
    checked from the plan's first flight on it."""
    named = list(dict.fromkeys(a.flight_id for a in scenario.actions))
    rows = [r for fid in named if (r := tables.table(s.FLIGHTS).get_item(Key={"flight_id": fid}).get("Item"))]
    flights = [Flight.model_validate(r) for r in rows]
    # every tail the plan touches: those it moves flights to or from, and those of the flights it delays or cancels
    tails = _tails(scenario) | {f.aircraft_registration for f in flights}
    if not flights:
        return None
    low = iso_z(min(f.scheduled_departure for f in flights) - AROUND)
    high = iso_z(max(f.scheduled_departure for f in flights) + AROUND)
    current: dict[str, Flight] = {}
    for tail in sorted(tails):
        current |= {r["flight_id"]: Flight.model_validate(r) for r in _tail_rows(tables, tail, low, high)}
    after = applied(current, scenario.actions, flights[0].carrier)
    touched = {f.flight_id for f in flights}
    for tail in sorted(tails):
        mine = [after[f].departure for f in touched if f in after and after[f].aircraft_registration == tail]
        mine += [current[f].departure for f in touched if f in current and current[f].aircraft_registration == tail]
        since = min(mine, default=min(f.scheduled_departure for f in flights)) - timedelta(hours=1)
        before = {(b.code, b.flight_id) for b in _continuity(tail, current.values())}
        for b in _continuity(tail, after.values()):
            leaves = after[b.flight_id].departure if b.flight_id in after else None
            if (b.code, b.flight_id) not in before and leaves is not None and leaves >= since:
                return f"{b.flight_id}: {b.message}"
    return None


def _tail_rows(tables: WorkflowTables, tail: str, low: str, high: str) -> list[dict]:
    """The tail's flights leaving (as scheduled) in [low, high], every page (aircraft-registration-index)."""
    kwargs: dict = {
        "IndexName": s.AIRCRAFT_REGISTRATION_INDEX,
        "KeyConditionExpression": Key("aircraft_registration").eq(tail) & Key("scheduled_departure").between(low, high),
    }
    items: list[dict] = []
    while True:
        page = tables.table(s.FLIGHTS).query(**kwargs)
        items += page.get("Items", [])
        if "LastEvaluatedKey" not in page:
            return items
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def _continuity(tail: str, flights) -> list:
    return [b for b in rotation_breaks(tail, [f for f in flights if f.aircraft_registration == tail]) if b.continuity]
