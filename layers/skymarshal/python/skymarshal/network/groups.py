"""The network planner's input per rating group: every tail of the group on the affected day (spares too) with its
flights to the horizon and the bookings on the flights still free to change, each tail as the optimizer may use it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pydantic import BaseModel, ConfigDict

from ..data import queries as q
from ..data import schema as s
from ..data.access import DataHandle
from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import AircraftDay, Booking, Flight
from ..recovery.adapter import TailOutage
from ..rules.mel import aircraft_airworthiness
from .scope import NetworkScope

DATA_END = timedelta(days=31)  # past the longest airline the generator writes: read to the end of the data


class GroupData(BaseModel):
    """One rating group's tails, their flights over the horizon and the bookings on the free ones."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    group: str
    fleet: list[AircraftDay]
    rotations: dict[str, list[Flight]]
    bookings: list[Booking]


def load_groups(handle: DataHandle, scope: NetworkScope) -> list[GroupData]:
    """Each rating group the scope touches: every tail of the group that day (spares too: swaps stay in the group)
    and their flights from the UTC day's start (so a rotation starts at the tail's station) to the horizon. The day
    is the earliest affected flight's (an arrival in the window may leave the evening before), never the report's:
    a closure announced days ahead is planned on its own day's fleet and flights."""
    day_start = rotation_start(scope)
    day = day_start.date()
    groups = sorted({AIRCRAFT_TYPES[f.aircraft_type].rating_group for f in scope.flights})
    out = []
    for group in groups:
        types = [t for t, spec in AIRCRAFT_TYPES.items() if spec.rating_group == group]
        fleet = [grounded(handle, d, scope) for t in types for d in q.fleet_of_type(handle, t, day)]
        rotations = {
            d.aircraft_registration: q.rotation(handle, d.aircraft_registration, day_start, scope.horizon_end)
            for d in fleet
        }
        free = sorted(
            {f.flight_id for rows in rotations.values() for f in rows if f.scheduled_departure >= scope.decision}
        )
        bookings = [b for fid in free for b in q.bookings(handle, fid)] if handle.allowed(s.BOOKINGS) else []
        out.append(GroupData(group=group, fleet=fleet, rotations=rotations, bookings=bookings))
    return out


def rotation_start(scope: NetworkScope) -> datetime:
    """Where the groups' rotations start: 00:00 UTC of the earliest affected flight's day."""
    return datetime.combine(min(f.scheduled_departure for f in scope.affected).date(), datetime.min.time(), UTC)


def inbound(handle: DataHandle, groups: list[GroupData], scope: NetworkScope) -> dict[str, list[Flight]]:
    """Each group tail's last flight before its rotation starts (one newest-first Query per tail on
    aircraft-registration-index): the flight that brings it into the day, arriving after midnight or not. Its
    arrival is where and when the tail's first flight of the day (or one a plan swaps onto it) can leave."""
    start = rotation_start(scope)
    tails = sorted({reg for g in groups for reg in g.rotations})
    return {reg: [f] for reg in tails if (f := q.last_flight_before(handle, reg, start)) is not None}


def inbound_outages(group: GroupData, scope: NetworkScope, rotations: dict[str, list[Flight]]) -> list[TailOutage]:
    """A tail still flying into the day (its last flight before the rotations arrives after the decision) cannot
    fly before that arrival plus the type's minimum turn (IATA AHM 810 turn-round), or its own first flight's
    scheduled departure when that is sooner and after the arrival (the schedule's own turn is the operator's)."""
    start, out = rotation_start(scope), []
    for reg, own in group.rotations.items():
        before = [f for f in rotations.get(reg, []) if f.scheduled_departure < start]
        if not before:
            continue
        last = before[-1]
        spec = AIRCRAFT_TYPES.get(own[0].aircraft_type if own else last.aircraft_type)
        ready = last.arrival + timedelta(minutes=spec.min_turn_minutes if spec else 60)
        first = min((f.scheduled_departure for f in own), default=ready)
        if last.arrival <= first < ready:
            ready = first
        if ready > scope.decision:
            out.append(TailOutage(registration=reg, start=scope.decision, end=ready))
    return out


def past_horizon(handle: DataHandle, groups: list[GroupData], scope: NetworkScope) -> dict[str, list[Flight]]:
    """Every group tail's flights after the horizon to the data's end (one Query per aircraft type): a plan must
    leave each tail it touches able to fly them (network.continuity)."""
    types = sorted({d.aircraft_type for g in groups for d in g.fleet})
    tails = sorted({reg for g in groups for reg in g.rotations})
    return q.tail_rotations(handle, types, tails, scope.horizon_end, scope.horizon_end + DATA_END)


def grounded(handle: DataHandle, day: AircraftDay, scope: NetworkScope) -> AircraftDay:
    """The tail as the optimizer may use it: one its work orders known when the plan is made ground (an AOG defect,
    an expired MEL item) at the decision or by the horizon's end is unavailable over the window (Part-M M.A.403),
    like an AOG tail. Read only when the handle may read maintenance; the validation re-checks every flight's tail
    anyway."""
    if day.status in ("AOG", "MAINTENANCE") or not handle.allowed(s.MAINTENANCE_WORK_ORDERS):
        return day
    orders = scope.work_orders(handle, day.aircraft_registration)
    for at in (scope.decision, scope.horizon_end):
        if not aircraft_airworthiness(orders, at, registration=day.aircraft_registration).airworthy:
            return day.model_copy(update={"status": "AOG", "note": f"not airworthy at {at:%Y-%m-%d %H:%MZ}"})
    return day
