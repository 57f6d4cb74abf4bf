"""The stream's windows in the recovery model's terms, read as the day's judge reads them (``realize``), so the
bound plans against the day it is then scored by.

A tail's outage holds its departures from the event's start (``realize``: a flight already in the air when the
defect is found lands); the model forbids any flight overlapping the outage, so the outage starts for it once the
flight airborne then has landed.

A station window is metered as ``realize.capacity_queue`` meters it, its backlog after it too. The model counts
every movement of a clock hour against that hour's limit; the judge queues only the movements the
window regulates. So each clock hour the window touches allows what the judge gives the regulated movements
(``rules.slots.hour_capacity``: the cut rate, the part of it in the hour the window opens, none while a closure
lasts) and, beside them, our movements scheduled in that hour outside the window (before it opens, after it
ends), which the judge lets go unqueued: a closure from 14:10 no longer shuts the 14:00 hour's earlier departures.
At an airport that declares its rate, the judge queues our flights with every airline's by ration-by-schedule
(``rules.slots``): each flight's wait is then a hold, as the network planner imposes it.
"""

from __future__ import annotations

from datetime import timedelta

from ..models.disruption import Window
from ..recovery.adapter import CapacityLimit, TailOutage
from ..rules.slots import declared_rate, hour_capacity
from .realize import DayState, Timing, busiest_hour, capacity_queue, cut_rate, station_moves
from .stream import StreamEvent

HOUR = timedelta(hours=1)


def hour_limits(state: DayState, e: StreamEvent) -> list[CapacityLimit]:
    """One limit per clock hour the window touches, and as many after it as it lasted: the judge meters the
    backlog it leaves at the cut rate (a closure's at the normal rate) while it lasts (see the module's doc). None
    for a cut at an airport declaring its rate: its ration-by-schedule waits are holds (`declared_waits`), the judge
    meters no hour there."""
    assert e.station is not None
    if not e.closes and declared_rate(e.station) is not None:
        return []
    departures, arrivals = station_moves(state, e.station)
    day = e.start.date()
    rates = (0, 0) if e.closes else (cut_rate(departures, day), cut_rate(arrivals, day))
    reopened = (busiest_hour(departures, day), busiest_hour(arrivals, day))
    window = Window(start=e.start, end=e.end)
    out, hour = [], e.start.replace(minute=0, second=0, microsecond=0)
    while hour < e.end + (e.end - e.start):
        allowed = [
            hour_capacity(window, hour, rate, normal)
            + sum(1 for at, _ in moves if hour <= at < hour + HOUR and not e.start <= at < e.end)
            for moves, rate, normal in ((departures, rates[0], reopened[0]), (arrivals, rates[1], reopened[1]))
        ]
        out.append(
            CapacityLimit(
                airport=e.station,
                start=hour,
                end=hour + HOUR,
                departures_per_hour=allowed[0],
                arrivals_per_hour=allowed[1],
            )
        )
        hour += HOUR
    return out


def declared_waits(state: DayState, e: StreamEvent) -> dict[str, int]:
    """Flight id → minutes from its filed movement its slot holds it, at an airport that declares its rate (a cut
    there; else none: the model's hours meter the others)."""
    if e.closes or e.station is None or declared_rate(e.station) is None:
        return {}
    return {fid: -(-int(wait.total_seconds()) // 60) for fid, wait in capacity_queue(state, e).items()}


def outage(state: DayState, timings: dict[str, Timing], e: StreamEvent) -> TailOutage:
    """The tail's outage as the model reads it: from the event's start, or the landing of its flight in the air then
    (`timings`: the day as flown by waiting)."""
    assert e.registration is not None
    airborne = [
        t.arrival
        for fid, t in timings.items()
        if state.flights[fid].aircraft_registration == e.registration and t.departure < e.start < t.arrival
    ]
    return TailOutage(registration=e.registration, start=max([e.start, *airborne]), end=e.end)
