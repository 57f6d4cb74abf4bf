"""The conservative baseline that always exists: cancel the flight — with the flights of its rotation its aircraft
can then no longer reach (the return of an out-and-back) — and re-accommodate everyone on the earliest way home the
own network offers (``plans.journeys``: any flight number, through the hub, the same day or the next, seats checked),
then on partners. Costed by the rules engine (EU261 compensation and care, refunds) with the journeys' passenger
minutes and overnight stays (``Scenario.passenger_minutes``, ``Scenario.overnight_passengers``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from ...data import queries as q
from ...models.operational import Booking, Flight
from ...rules import finance, guest
from ...rules.reaccommodation import Reaccommodation
from ..actions import CancelFlight, RebookPassengers
from ..context import DisruptionContext
from ..memo_keys import BookingsRead, WaysHome
from ..models import Scenario
from ..rotation import plan as rotation_plan
from . import journeys as ways_home
from .text import pros_cons

INTERLINE_DELAY_MINUTES = 24 * 60  # a passenger nobody can seat on an own flight: next day on a partner


def cancellation(ctx: DisruptionContext) -> Scenario:
    """The conservative baseline: cancel, with the flights of the rotation the aircraft can then no longer reach
    (the return of an out-and-back), and re-accommodate everyone on the earliest way home, then partners."""
    return rotation_plan.first_whole(ctx, (_cancel(ctx, b) for b in rotation_plan.blocks(ctx)), lambda s: s.actions)


@dataclass
class Cancelled:
    """Flights cancelled with their passengers re-accommodated: the actions and what the costing needs."""

    actions: list = field(default_factory=list)
    compensation: list = field(default_factory=list)
    care: list = field(default_factory=list)
    bookings: list[Booking] = field(default_factory=list)
    passengers: int = 0
    wait: int = 0  # the disrupted flight's passengers' mean delay at their final destination (minutes)
    passenger_minutes: int = 0  # every cancelled flight's passengers' delay at their final destination
    overnight: int = 0  # passengers whose way home waits over the local night (hotel)


def cancelled(ctx: DisruptionContext, flights: Sequence[Flight], why: str) -> Cancelled:
    """Each of `flights` cancelled (CancelFlight, `why` on a later flight of the rotation) and its passengers
    re-accommodated on their earliest ways home, then partners (RebookPassengers with the journeys), with their
    EU261 compensation and care."""
    f, out = ctx.flight, Cancelled()
    rows = {x.flight_id: ctx.bookings if x.flight_id == f.flight_id else _bookings(ctx, x) for x in flights}
    placed = ctx.memo(
        WaysHome(tuple(x.flight_id for x in flights)), lambda: ways_home.reaccommodation(ctx, flights, rows)
    )
    for x in flights:
        bookings = rows[x.flight_id]
        pax = len(guest.active(bookings, x.flight_id))
        home = placed[x.flight_id]
        interline = max(0, pax - sum(j.passengers for j in home.journeys))
        onto: dict[str, int] = {}
        for j in home.journeys:
            onto[j.flight_ids[0]] = onto.get(j.flight_ids[0], 0) + j.passengers
        reason = f"{ctx.disruption_type} disruption" + (f" ({why})" if x.flight_id != f.flight_id else "")
        out.actions += [
            CancelFlight(flight_id=x.flight_id, reason=reason),
            RebookPassengers(
                flight_id=x.flight_id,
                passengers=pax,
                onto=onto,
                interline=interline,
                journeys=ways_home.journeys(home),
            ),
        ]
        minutes = home.passenger_delay_minutes + interline * INTERLINE_DELAY_MINUTES
        overnight = home.overnight + (interline if _interline_overnight(x) else 0)
        out.compensation.append(guest.compensation_liability(x, bookings, "cancellation", cause=ctx.cause))
        out.care += _care(x, bookings, home, interline)
        out.bookings += bookings
        out.passengers += pax
        out.passenger_minutes += minutes
        out.overnight += overnight
        out.wait = (math.ceil(minutes / pax) if pax else 0) if x.flight_id == f.flight_id else out.wait
    return out


def _bookings(ctx: DisruptionContext, x: Flight) -> list[Booking]:
    return ctx.memo(BookingsRead(x.flight_id), lambda: q.bookings(ctx.handle, x.flight_id))


def _interline_overnight(x: Flight) -> bool:
    later = x.scheduled_departure + timedelta(minutes=INTERLINE_DELAY_MINUTES)
    return guest.overnight_necessary(ways_home.origin_tz(x), x.scheduled_departure, later)


def _care(x: Flight, bookings: Sequence[Booking], home: Reaccommodation, interline: int) -> list:
    """Art. 9 care for `x`'s passengers: a hotel for those whose way home waits over the night (and those on a
    partner the next day), meals for the wait until their first flight leaves."""
    active = guest.active(bookings, x.flight_id)
    nights = [j for j in home.journeys if j.overnight]
    days = [j for j in home.journeys if not j.overnight]
    out = []
    start = 0
    for group, overnight, extra in ((nights, True, interline), (days, False, 0)):
        n = sum(j.passengers for j in group) + extra
        if not n:
            continue
        wait = sum(j.passengers * _wait(x, j.legs[0].departure) for j in group) + extra * INTERLINE_DELAY_MINUTES
        out.append(
            guest.duty_of_care(
                x,
                active[start : start + n],
                "cancellation",
                departure_delay_minutes=math.ceil(wait / n),
                overnight=(overnight and bool(group)) or (extra > 0 and _interline_overnight(x)),
            )
        )
        start += n
    return out


def _wait(x: Flight, departure: datetime) -> int:
    return minutes_after(x.scheduled_departure, departure)


def _cancel(ctx: DisruptionContext, block: list[Flight]) -> Scenario:
    gone = cancelled(ctx, block, f"rotation of {ctx.flight.flight_number}: its aircraft is not there")
    actions, total, wait = gone.actions, gone.passengers, gone.wait
    cost = finance.plan_cost(
        finance.PlanCostInput(
            compensation=tuple(gone.compensation), care=tuple(gone.care), cancelled_bookings=tuple(gone.bookings)
        )
    )
    numbers = block_words(block)
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
        passenger_minutes=gone.passenger_minutes,  # the journeys' (day_cost keeps a cancellation's own record)
        overnight_passengers=gone.overnight,
    )
    return scenario.model_copy(update=pros_cons(ctx, scenario, 0))


def block_words(block: list[Flight]) -> str:
    """The flights a cancellation takes, as a duty manager reads them: "EY21 and EY22" within one day; across days
    the first and how many later ones through which day, each flight number once ("EY312 and the rotation's 12
    later flights through 23 Jan: EY337, EY338, EY329, EY330"), not the same numbers again day after day."""
    if len({x.flight_date for x in block}) <= 1:
        return " and ".join(x.flight_number for x in block)
    first, later = block[0], block[1:]
    numbers = ", ".join(dict.fromkeys(x.flight_number for x in later))
    last = max(x.scheduled_departure for x in later)
    return f"{first.flight_number} and the rotation's {len(later)} later flights through {last:%d %b}: {numbers}"


def minutes_after(start: datetime, end: datetime) -> int:
    """Whole minutes from ``start`` to ``end``, rounded up, never negative."""
    return max(0, math.ceil((end - start).total_seconds() / 60))
