"""The conservative baseline that always exists: cancel the flight — with the flights of its rotation its aircraft
can then no longer reach (the return of an out-and-back) — and re-accommodate everyone on the next own flights of
the same number, then on partners. Costed by the rules engine (EU261 compensation and care, refunds)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from ...data import queries as q
from ...models.operational import Booking, Flight
from ...rules import finance, guest
from ..actions import CancelFlight, RebookPassengers
from ..context import DisruptionContext
from ..models import Scenario
from ..rotation import plan as rotation_plan
from .text import pros_cons

INTERLINE_DELAY_MINUTES = 24 * 60  # a passenger nobody can seat on an own flight: next day on a partner


def cancellation(ctx: DisruptionContext) -> Scenario:
    """The conservative baseline: cancel, with the flights of the rotation the aircraft can then no longer reach
    (the return of an out-and-back), and re-accommodate everyone on the next own flights, then partners."""
    return rotation_plan.first_whole(ctx, (_cancel(ctx, b) for b in rotation_plan.blocks(ctx)), lambda s: s.actions)


@dataclass
class Cancelled:
    """Flights cancelled with their passengers re-accommodated: the actions and what the costing needs."""

    actions: list = field(default_factory=list)
    compensation: list = field(default_factory=list)
    care: list = field(default_factory=list)
    bookings: list[Booking] = field(default_factory=list)
    passengers: int = 0
    wait: int = 0  # the disrupted flight's passengers' mean wait (minutes)


def cancelled(ctx: DisruptionContext, flights: Sequence[Flight], why: str) -> Cancelled:
    """Each of `flights` cancelled (CancelFlight, `why` on a later flight of the rotation) and its passengers
    re-accommodated on the next own flights, then partners (RebookPassengers), with their EU261 compensation and
    care."""
    f, out = ctx.flight, Cancelled()
    for x in flights:
        bookings = (
            ctx.bookings
            if x.flight_id == f.flight_id
            else ctx.memo(("bookings", x.flight_id), lambda x=x: q.bookings(ctx.handle, x.flight_id))
        )
        pax = len(guest.active(bookings, x.flight_id))
        onto, interline, waited = _reaccommodation(ctx, x, pax)
        reason = f"{ctx.disruption_type} disruption" + (f" ({why})" if x.flight_id != f.flight_id else "")
        out.actions += [
            CancelFlight(flight_id=x.flight_id, reason=reason),
            RebookPassengers(flight_id=x.flight_id, passengers=pax, onto=onto, interline=interline),
        ]
        out.compensation.append(guest.compensation_liability(x, bookings, "cancellation", cause=ctx.cause))
        out.care.append(guest.duty_of_care(x, bookings, "cancellation", departure_delay_minutes=waited))
        out.bookings += bookings
        out.passengers += pax
        out.wait = waited if x.flight_id == f.flight_id else out.wait
    return out


def _cancel(ctx: DisruptionContext, block: list[Flight]) -> Scenario:
    gone = cancelled(ctx, block, f"rotation of {ctx.flight.flight_number}: its aircraft is not there")
    actions, total, wait = gone.actions, gone.passengers, gone.wait
    cost = finance.plan_cost(
        finance.PlanCostInput(
            compensation=tuple(gone.compensation), care=tuple(gone.care), cancelled_bookings=tuple(gone.bookings)
        )
    )
    numbers = " and ".join(x.flight_number for x in block)
    scenario = Scenario(
        scenario_id="cancel",
        kind="cancel",
        title=f"Cancel {numbers} and re-accommodate all {total} passengers",
        sources=["generator"],
        actions=actions,
        operates=False,
        registration=None,
        aircraft_type=None,
        departure=None,
        arrival=None,
        arrival_airport=None,
        delay_minutes=wait,
        arrival_delay_minutes=wait,
        passengers_impacted=total,
        cost_usd=round(cost.total_usd, 2),
        cost_by_component={k: round(v, 2) for k, v in cost.by_component().items() if v},
    )
    return scenario.model_copy(update=pros_cons(ctx, scenario, 0))


def _reaccommodation(ctx: DisruptionContext, f: Flight, pax: int) -> tuple[dict[str, int], int, int]:
    """Seats on the next own flights of the same number (within two days), then partners: (onto, interline, the
    passengers' mean wait in minutes)."""
    later = sorted(
        (
            x
            for x in q.flights_by_number(ctx.handle, f.flight_number, f.flight_date, days=2)
            if x.scheduled_departure > f.scheduled_departure and x.status != "CANCELLED"
        ),
        key=lambda x: x.scheduled_departure,
    )
    onto, left, waits = {}, pax, []
    for other in later:
        free = max(0, sum(other.capacity.values()) - sum(other.booked.values()))
        take = min(free, left)
        if take:
            onto[other.flight_id] = take
            waits.append((take, minutes_after(f.scheduled_arrival, other.scheduled_arrival)))
            left -= take
        if not left:
            break
    waits.append((left, INTERLINE_DELAY_MINUTES))
    return onto, left, int(sum(n * m for n, m in waits) / pax) if pax else 0


def minutes_after(start: datetime, end: datetime) -> int:
    """Whole minutes from ``start`` to ``end``, rounded up, never negative."""
    return max(0, math.ceil((end - start).total_seconds() / 60))
