"""The hindsight optimizer's plan written into the day (``hindsight.hindsight_plan``): a cancellation, a tail and a
retime per flight, as execution writes them — save a delay the day's events impose anyway.

The model computes every flight's departure, the knock-on of the events included, so its plan lists a flight the
events alone make 40 minutes late as "delay 40". Written as such it became a decision of the plan, whose crews must
then be made legal for it (``baselines.legalize``), where the same 40 minutes on the waiting day are the events'
(a delay revealed after the crew reported, which no decision could answer: ``hindsight_crews.answered_by_none``).
On bad seed 1 that cancelled two inbound flights and their tails' next round trips and made the plan's day twice
waiting's. So a delay no longer than the one the events give the flight on the day as it stands is left to the
events (the judge realizes the same departure) — unless the plan's day then flies it earlier than the plan said, when
it is written after all: the plan's time is kept either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from ..models.operational import Flight
from ..recovery.adapter import AdaptedInstance, planned_changes
from ..recovery.model import Solution
from .realize import DayState, realize
from .stream import StreamEvent

BY = "hindsight"  # the bound's own writes, marked as a baseline's are


def applied(flight: Flight, action: str, registration: str | None, delay: int) -> Flight:
    """`flight` cancelled, or on `registration` and `delay` minutes late, as written by the hindsight."""
    if action == "cancel":
        return flight.model_copy(update={"status": "CANCELLED", "updated_by_execution": BY})
    update: dict = {"updated_by_execution": BY}
    if registration and registration != flight.aircraft_registration:
        update["aircraft_registration"] = registration
    if delay > 0:
        shift = timedelta(minutes=delay)
        update |= {
            "estimated_departure": flight.scheduled_departure + shift,
            "estimated_arrival": flight.scheduled_arrival + shift,
            "delay_minutes": delay,
            "status": "DELAYED",
        }
    return flight.model_copy(update=update) if len(update) > 1 else flight


def plan_day(state: DayState, events: Sequence[StreamEvent], adapted: AdaptedInstance, solution: Solution) -> DayState:
    """A copy of `state` with the optimizer's `solution` written in: every change but a delay the events impose."""
    out, natural = state.copy(), realize(state, events)
    left: dict[str, int] = {}  # flight → the plan's delay, left to the events
    for flight_id, change in planned_changes(adapted, solution).items():
        if change.action == "operate":
            continue
        t = natural.get(flight_id)
        if change.action == "delay" and t is not None and t.delay(state.flights[flight_id]) >= change.delay_minutes:
            left[flight_id] = change.delay_minutes
            continue
        out.flights[flight_id] = applied(
            out.flights[flight_id], change.action, change.registration, change.delay_minutes
        )
    if left:
        flown = realize(out, events)
        for flight_id, delay in left.items():
            t = flown.get(flight_id)
            if t is None or t.delay(out.flights[flight_id]) < delay:  # the plan's day would fly it sooner than planned
                out.flights[flight_id] = applied(out.flights[flight_id], "delay", None, delay)
    return out
