"""What a plan costs the day, counted as the day scorecard counts it (day/scorecard.py), for the ranking (issue 46):

- passenger minutes at the final destination: the passengers of the flight and of every later flight the plan
  re-times (the rotation's knock-on) walked to their final destinations as landed (``journeys.landing``: a
  connection made at its onward flight's delay, one missed on the earliest way home from the connection — a wait's
  knock-on beyond the flight, which the flight's own arrival delay undercounted), and every passenger of a
  cancelled flight at the arrival of the flight they are re-accommodated on (another carrier:
  ``INTERLINE_DELAY_MINUTES``);
- passengers stranded overnight: a wait at the origin or at a missed connection that covers part of the local
  night (``rules.guest.overnight_necessary``, the company's EU261 Art. 9(1)(b) rule, the scorecard's own test);
- EU261/UK261 compensation (Art. 7, the cause's Art. 5(3) standing, which the knock-on shares: CJEU C-74/19) and
  Art. 9 care owed on the knock-on's flights — the plan's own flight is costed by ``operate`` and ``cancellation``.

A cancellation's own record wins: when its costing already set ``passenger_minutes`` (the earliest way home, issue
46 item 2), it is kept. Nothing here decides legality; the ranking weighs what this counts (ranking.raw_criteria).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from ..data import queries as q
from ..models.operational import Booking, Flight
from ..rules import finance, guest
from .actions import CancelFlight, DelayFlight, RebookPassengers
from .context import DisruptionContext
from .memo_keys import BookingsRead, FlightRead, KnockOnDayCost
from .models import Scenario
from .plans.cancellation import INTERLINE_DELAY_MINUTES
from .plans.journeys import landing, origin_tz

CARE_FROM_MINUTES = 120  # EU261 Art. 6(1)(a): no care or compensation is owed below a two-hour delay


def flight(ctx: DisruptionContext, flight_id: str) -> Flight | None:
    """A flight the plan touches, from the tail's rotation when it is there, else read once per decision."""
    if flight_id == ctx.flight.flight_id:
        return ctx.flight
    found = next((x for x in ctx.rotation if x.flight_id == flight_id), None)
    return found or ctx.memo(FlightRead(flight_id), lambda: q.get_flight(ctx.handle, flight_id))


def overnight(f: Flight, until) -> bool:
    """Whether waiting at `f`'s origin from its schedule to `until` strands its passengers overnight (an airport
    missing from the reference data: its night taken in UTC)."""
    return guest.overnight_necessary(origin_tz(f), f.scheduled_departure, until)


def _bookings(ctx: DisruptionContext, f: Flight) -> list[Booking]:
    return ctx.memo(BookingsRead(f.flight_id), lambda: q.bookings(ctx.handle, f.flight_id))


def _knock_on(
    ctx: DisruptionContext, a: DelayFlight, moved: Mapping[str, datetime], costed: set[str]
) -> tuple[int, int, float]:
    """(passenger minutes, passengers overnight, compensation and care USD) of a later flight the plan re-times: its
    passengers walked home as landed (``journeys.landing``, once per flight, landing and onward moves in a
    decision: many plans re-time the same later flights alike)."""
    later = flight(ctx, a.flight_id)
    if later is None or a.delay_minutes <= 0:
        return 0, 0, 0.0
    arrival = later.arrival + (a.new_departure - later.departure)
    landed = landing(ctx, later, _bookings(ctx, later), arrival, moved, costed)
    pax = len(guest.active(_bookings(ctx, later), later.flight_id))
    stranded = pax if overnight(later, a.new_departure) else landed.stranded + landed.unplaced
    minutes = landed.minutes + landed.unplaced * INTERLINE_DELAY_MINUTES
    return minutes, stranded, ctx.memo(KnockOnDayCost(a.flight_id, a.delay_minutes), lambda: _owed(ctx, later, a))


def _owed(ctx: DisruptionContext, later: Flight, a: DelayFlight) -> float:
    """EU261/UK261 compensation and Art. 9 care owed on a later flight the plan re-times (none below two hours)."""
    owed = 0.0
    if a.delay_minutes >= CARE_FROM_MINUTES:
        rows = _bookings(ctx, later)
        owed = finance.plan_cost(
            finance.PlanCostInput(
                compensation=(
                    guest.compensation_liability(
                        later,
                        rows,
                        "delay",
                        arrival_delay_minutes=a.delay_minutes,
                        departure_delay_minutes=a.delay_minutes,
                        cause=ctx.cause,
                    ),
                ),
                care=(guest.duty_of_care(later, rows, "delay", departure_delay_minutes=a.delay_minutes),),
            )
        ).total_usd
    return owed


def _rebooked(ctx: DisruptionContext, r: RebookPassengers) -> tuple[int, int]:
    """(passenger minutes, passengers overnight) of a cancelled flight's passengers where they are re-accommodated:
    each journey home as the costing recorded it, else the arrival of the flight each is moved onto."""
    gone = flight(ctx, r.flight_id)
    if gone is None:
        return 0, 0
    journeys = getattr(r, "journeys", None) or []  # the earliest way home, when the costing wrote it (item 2)
    if journeys:
        minutes = sum(j.passengers * j.delay_minutes for j in journeys) + r.interline * INTERLINE_DELAY_MINUTES
        later = gone.scheduled_departure + timedelta(minutes=INTERLINE_DELAY_MINUTES)
        stranded = sum(j.passengers for j in journeys if j.overnight)
        return minutes, stranded + (r.interline if overnight(gone, later) else 0)
    minutes = stranded = 0
    for onto, n in r.onto.items():
        other = flight(ctx, onto)
        if other is None:  # a flight no longer in the data: as far as another carrier
            minutes, stranded = minutes + n * INTERLINE_DELAY_MINUTES, stranded + n
            continue
        minutes += n * max(0, int((other.arrival - gone.scheduled_arrival).total_seconds() // 60))
        stranded += n if overnight(gone, other.departure) else 0
    if r.interline:
        later = gone.scheduled_departure + timedelta(minutes=INTERLINE_DELAY_MINUTES)
        minutes += r.interline * INTERLINE_DELAY_MINUTES
        stranded += r.interline if overnight(gone, later) else 0
    return minutes, stranded


def day_cost(ctx: DisruptionContext, s: Scenario) -> tuple[int, int, float]:
    """(passenger minutes at the final destination, passengers stranded overnight, the knock-on's compensation and
    care in USD) of scenario `s`, as the day scorecard would count them."""
    f = ctx.flight
    minutes = stranded = 0
    owed = 0.0
    moved = {a.flight_id: a.new_departure for a in s.actions if isinstance(a, DelayFlight)}
    # a connection onto a flight the plan itself re-times or cancels is costed on that flight's own booking rows
    costed = set(moved) | {a.flight_id for a in s.actions if isinstance(a, CancelFlight)}
    if s.operates and s.departure is not None:
        pax = len(guest.active(ctx.bookings, f.flight_id))
        # at the destination as the plan gets them there: a diversion's coach is in the arrival delay, not `arrival`
        arrival = f.scheduled_arrival + timedelta(minutes=s.arrival_delay_minutes)
        landed = landing(ctx, f, ctx.bookings, arrival, moved, costed)
        minutes += landed.minutes + landed.unplaced * INTERLINE_DELAY_MINUTES
        stranded += pax if overnight(f, s.departure) else landed.stranded + landed.unplaced
    for a in s.actions:
        if isinstance(a, DelayFlight) and a.flight_id != f.flight_id:
            m, n, usd = _knock_on(ctx, a, moved, costed)
            minutes, stranded, owed = minutes + m, stranded + n, owed + usd
        elif isinstance(a, RebookPassengers) and a.ground_transport_to is None:
            m, n = _rebooked(ctx, a)
            minutes, stranded = minutes + m, stranded + n
    return minutes, stranded, round(owed, 2)


def with_day_cost(ctx: DisruptionContext, s: Scenario) -> Scenario:
    """The scenario with its day's passenger minutes, overnight passengers and knock-on liabilities recorded; a
    cancellation costing's own passenger figures are kept."""
    minutes, stranded, owed = day_cost(ctx, s)
    if s.passenger_minutes is not None:
        minutes, stranded = s.passenger_minutes, s.overnight_passengers
    return s.model_copy(update={"passenger_minutes": minutes, "overnight_passengers": stranded, "knock_on_usd": owed})
