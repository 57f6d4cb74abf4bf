"""A late tail's next flights handed to a spare: the flight waits on its own tail, and a spare standing where the
tail's next flight leaves flies it on time, with the block that brings it back there — the late tail then flies
on once it has landed and turned round. What an OCC does rather than let one late arrival run the day late, and
what SkyMarshal's generator offers (``arbitration.plans.hand_over``, which also tries aircraft between flights);
here with the day's spares only, for the planner who knows the day (``foresight``).

The judge does not hold a flight for a crew member arriving late on another (``realize``), so a block is handed
only when every member of its flights can make it: their previous sector of the duty landed, as the day then
flies, a crew connection before the flight leaves. Nothing here decides legality: the day's crew answers
(``baselines.legalize``) and the scorecard's crew rules judge each duty.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import timedelta

from ..models.operational import AircraftDay, Flight
from .realize import DayState, Timing, realize
from .rescue import free_spares
from .stream import StreamEvent

CREW_CONNECTION = timedelta(minutes=45)  # company policy: on blocks to the next sector's departure, another aircraft
MAX_BLOCKS = 2  # the first round trip back to the station, and the first two


def _crews_make_it(state: DayState, handed: Sequence[Flight], timings: dict[str, Timing]) -> bool:
    """Whether every member of the handed flights has landed from their duty's previous sector in time."""
    for x in handed:
        for seat in state.crew_on.get(x.flight_id, ()):
            earlier = [
                r
                for r in state.rosters.get(seat.crew_id, ())
                if r.duty_id == seat.duty_id and r.flight_id and r.flight_id != x.flight_id
                and r.sector_departure is not None and seat.sector_departure is not None
                and r.sector_departure < seat.sector_departure
            ]  # fmt: skip
            if not earlier:
                continue
            inbound = timings.get(max(earlier, key=lambda r: r.sector_departure or r.duty_start).flight_id or "")
            if inbound is not None and inbound.arrival + CREW_CONNECTION > x.scheduled_departure:
                return False
    return True


def handovers(
    state: DayState, known: Sequence[StreamEvent], f: Flight, spares: Sequence[AircraftDay], by: str
) -> list[DayState]:
    """`state` with the block of `f`'s tail leading from its next departure where a spare stands handed to that
    spare, flown at its schedule — one per block length (back at the station once, twice) — when the day as known
    makes that departure late; none without a spare."""
    timings = realize(state, known)
    legs = sorted(
        (
            x
            for x in state.flights.values()
            if x.aircraft_registration == f.aircraft_registration
            and x.status != "CANCELLED"
            and x.scheduled_departure > f.scheduled_departure
        ),
        key=lambda x: (x.scheduled_departure, x.flight_id),
    )
    free = free_spares(state, f.aircraft_type, spares)
    # the tail's next departure from where a spare stands (the hub, as a rule), when the day makes it late
    start = next(
        (k for k, x in enumerate(legs) if any(a.station == x.origin and a.date == x.flight_date for a in free)), None
    )
    if (
        start is None
        or (first := timings.get(legs[start].flight_id)) is None
        or first.departure <= legs[start].scheduled_departure
    ):
        return []
    station = legs[start].origin
    spare = next(a for a in free if a.station == station and a.date == legs[start].flight_date)
    ends = [k for k, x in enumerate(legs) if k >= start and x.destination == station][:MAX_BLOCKS]
    out = []
    for end in ends:
        handed = legs[start : end + 1]
        flights = dict(state.flights)
        for x in handed:
            flights[x.flight_id] = x.model_copy(  # at its own time: a knock-on re-timing written before is undone
                update={
                    "aircraft_registration": spare.aircraft_registration,
                    "estimated_departure": None,
                    "estimated_arrival": None,
                    "status": "SCHEDULED",
                    "delay_minutes": 0,
                    "updated_by_execution": by,
                }
            )
        option = dataclasses.replace(state, flights=flights)
        if _crews_make_it(option, handed, realize(option, known)):
            out.append(option)
    return out
