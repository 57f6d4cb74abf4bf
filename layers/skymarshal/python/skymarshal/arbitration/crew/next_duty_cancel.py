"""A crew member's next duty cancelled when a plan leaves them short of rest before it and no reserve can take it:
the other answer an OCC has besides re-timing that duty (crew/next_duty_retime.py), and the better one when the
re-timed duty would carry the shortfall into the next day's duties and other tails' flights. The duty's flights
are cancelled with their passengers on their earliest ways home (plans/cancellation.py, the same costing as any
cancellation), and the member, with no duty to rest for, is judged by the crew rules without it.

Nothing here decides legality: validation checks the member's re-timed duty without the cancelled one (rest.py),
and the rotation of the tail that was to fly the cancelled duty (``rotation.plan``: a duty that is not a way back to
where the tail stands breaks it, and the plan is refused).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ...data import queries as q
from ...models.operational import CrewDuty, Flight
from ...rules import finance
from ..actions import CancelFlight
from ..context import DisruptionContext
from ..memo_keys import FlightRead
from ..models import Scenario
from ..plans.cancellation import Cancelled, cancelled
from ..rotation import plan as rotation_plan
from .chain import next_duty


def next_duty_flights(
    ctx: DisruptionContext, crew_ids: Iterable[str], after: Mapping[str, Flight] | None = None
) -> list[Flight]:
    """Every operable flight of each member's next rostered duty after the disrupted flight (or `after[crew_id]`), in
    departure order."""
    found: dict[str, Flight] = {}
    for crew_id in sorted(crew_ids):
        since = (after or {}).get(crew_id, ctx.flight)
        duty = next_duty(ctx, crew_id, since)
        if duty is None:
            continue
        rows = ctx.roster(crew_id, since.scheduled_departure)  # the window next_duty read it in
        first = next((r for r in rows if r.flight_id == duty[0]), None)
        for r in rows:
            if first is None or r.duty_id != first.duty_id or r.kind != "FLIGHT" or not r.flight_id:
                continue
            x = ctx.memo(FlightRead(r.flight_id), lambda fid=r.flight_id: q.get_flight(ctx.handle, fid))
            if x is not None and x.status in rotation_plan.OPERABLE:
                found[x.flight_id] = x
    return sorted(found.values(), key=lambda x: (x.departure, x.flight_id))


@dataclass(frozen=True)
class DroppedDuties:
    """Next duties cancelled: their flights and the cancellation's record (actions, liabilities, passengers)."""

    flights: tuple[Flight, ...]
    gone: Cancelled
    members: tuple[str, ...]  # the crew whose next duty this is

    @property
    def actions(self) -> list:
        return list(self.gone.actions)

    @property
    def note(self) -> str:
        numbers = ", ".join(dict.fromkeys(x.flight_number for x in self.flights))
        return (
            f"{numbers} cancelled: no legal crew for it after the rest and no reserve (ORO.FTL.235), "
            f"{self.gone.passengers} passengers re-accommodated"
        )

    def costed(self, scenario: Scenario) -> dict:
        """The scenario's cost with the cancelled duties' compensation, care and refunds (rules.finance)."""
        gone = self.gone
        extra = finance.plan_cost(
            finance.PlanCostInput(
                compensation=tuple(gone.compensation), care=tuple(gone.care), cancelled_bookings=tuple(gone.bookings)
            )
        )
        components = dict(scenario.cost_by_component)
        for k, v in extra.by_component().items():
            components[k] = round(components.get(k, 0.0) + v, 2)
        return {
            "crew_next_duty_cancelled": sorted({*scenario.crew_next_duty_cancelled, *self.members}),
            "cost_usd": round(scenario.cost_usd + extra.total_usd, 2),
            "cost_by_component": {k: v for k, v in components.items() if v},
            "passengers_impacted": scenario.passengers_impacted + gone.passengers,
        }


def cancelled_duties(
    ctx: DisruptionContext, short: Iterable[str], after: Mapping[str, Flight] | None = None
) -> DroppedDuties | None:
    """The next duties of the members `short` of rest that no reserve takes (after the disrupted flight, or
    `after[crew_id]`), cancelled with their passengers re-accommodated on their earliest ways home (None: no such
    duty in the data)."""
    members = sorted(short)
    flights = next_duty_flights(ctx, members, after)
    if not flights:
        return None
    gone = cancelled(ctx, flights, "its crew cannot be rested for it, no reserve")
    return DroppedDuties(tuple(flights), gone, tuple(members))


def without_cancelled(rows: Sequence[CrewDuty], cancelled: frozenset[str]) -> list[CrewDuty]:
    """A member's roster rows as a plan that cancels `cancelled` leaves them: a duty every flight of which is
    cancelled is no duty (nothing to report for, no rest owed before it)."""
    if not cancelled:
        return list(rows)
    gone = {
        r.duty_id
        for r in rows
        if r.kind == "FLIGHT"
        and all(x.flight_id in cancelled for x in rows if x.duty_id == r.duty_id and x.kind == "FLIGHT")
    }
    return [r for r in rows if r.duty_id not in gone]


def cancelled_ids(actions: Iterable[object]) -> frozenset[str]:
    """The flights a plan's actions cancel."""
    return frozenset(a.flight_id for a in actions if isinstance(a, CancelFlight))
