"""A plan is an operation: what a swap, a delay or a cancellation does to the rest of each rotation it touches,
and the check that every touched tail can still fly its flights in sequence (``rules.rotation``, the same
function ``skymarshal data check`` runs over the whole airline after execution).

- ``knock_on``       a delay's reactionary delay through the tail's later flights (``rules.network.propagate_delay``),
                     as one DelayFlight per later flight it reaches (a later flight already as late is left alone).
- ``blocks``         the flights of the disrupted tail a swap or a cancellation takes with the flight: up to the
                     first return to the flight's origin (an out-and-back; the tails swap back there), the second,
                     ..., or everything left in the data. The builder takes the first block the check accepts.
- ``planned``        each touched tail's flights as the plan leaves them (the actions applied in memory).
- ``retimed_sequence`` a tail's new sequence (after a swap or a hand-over) flown as early as it can be.
- ``plan_breaks``    the breaks of those rotations from the disrupted flight on: a continuity break anywhere, a
                     flight on a grounded tail within ``GROUNDED_HORIZON`` of the flight (later groundings are the
                     next decision's, once maintenance knows more), each typed ROTATION_BROKEN by validation.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta
from typing import TypeVar, cast

from ...analysis.base import decision_time
from ...data import queries as q
from ...intake.own_estimate import released_flight_ids
from ...models.fleet import AIRCRAFT_TYPES
from ...models.operational import Flight
from ...rules.network import propagate_delay
from ...rules.rotation import RotationBreak, flying, rotation_breaks
from ..actions import CancelFlight, ContinueFlight, DelayFlight, DivertFlight, FerryAircraft, SwapAircraft
from ..context import DisruptionContext
from ..memo_keys import FlightRead, RotationBreaks, TailRead, WorkOrdersRead

LOOK_BACK = timedelta(hours=24)  # the flight that brought the tail: where it stands
LOOK_AHEAD = timedelta(days=4)  # far enough for a rotation to come back to plan (ultra long haul out and back)
GROUNDED_HORIZON = timedelta(hours=24)
OPERABLE = ("SCHEDULED", "DELAYED")
T = TypeVar("T")
A = TypeVar("A")


def tail_flights(ctx: DisruptionContext, registration: str) -> list[Flight]:
    """The tail's flights around the disrupted one, as the data (with the report's overlay) holds them."""
    start = ctx.flight.scheduled_departure - LOOK_BACK
    end = ctx.flight.scheduled_departure + LOOK_AHEAD
    return ctx.memo(TailRead(registration), lambda: q.rotation(ctx.handle, registration, start, end))


def knock_on(ctx: DisruptionContext, delay_minutes: int, only: Iterable[str] | None = None) -> list[DelayFlight]:
    """The later flights of the flight's own tail that its delay of ``delay_minutes`` makes late (``only``: those
    of these flights, e.g. the ones a swap carries to the other tail)."""
    rotation = tail_flights(ctx, ctx.flight.aircraft_registration)
    flies = any(f.flight_id == ctx.flight.flight_id and f.status != "CANCELLED" for f in rotation)
    if not flies:  # a flight already cancelled moves nothing after it
        return []
    wanted = None if only is None else set(only)
    later = propagated(rotation, ctx.flight.flight_id, delay_minutes)[1:] if delay_minutes > 0 else []
    # a re-decision's later flights whose estimate the run it follows set (intake.own_estimate.released_later): the
    # knock-on above re-times those it reaches; the others are written back to their released estimate
    moved = {a.flight_id for a in later} | {ctx.flight.flight_id}
    released = released_flight_ids(getattr(ctx.handle, "overlay", None))
    later += [retimed(f, f.delay_minutes) for f in rotation if f.flight_id in released - moved]
    return [a for a in later if wanted is None or a.flight_id in wanted]


def propagated(rotation: Sequence[Flight], flight_id: str, delay_minutes: int) -> list[DelayFlight]:
    """The flight `delay_minutes` late and every later flight of `rotation` it makes later than it now leaves
    (``rules.network.propagate_delay``), operable ones only; the flight itself first when it is one of them."""
    by_id = {f.flight_id: f for f in rotation}
    out = []
    for moved in propagate_delay(rotation, flight_id, delay_minutes).flights:
        f, minutes = by_id[moved.flight_id], moved.departure_delay_minutes
        if minutes > f.delay_minutes and f.status in OPERABLE:
            out.append(retimed(f, minutes))
    return out if out and out[0].flight_id == flight_id else [retimed(by_id[flight_id], delay_minutes), *out]


def retimed(f: Flight, minutes: int) -> DelayFlight:
    """`f` leaving `minutes` after its schedule, its block time kept."""
    return DelayFlight(
        flight_id=f.flight_id,
        delay_minutes=minutes,
        new_departure=f.scheduled_departure + timedelta(minutes=minutes),
        new_arrival=f.scheduled_arrival + timedelta(minutes=minutes),
    )


def latest_delays(actions: Sequence[A]) -> list[A]:
    """The actions with one DelayFlight per flight, the latest, where the first stood: a later flight re-timed twice
    (the tail's knock-on, then its crew's moved report) leaves at the later time."""
    latest: dict[str, DelayFlight] = {}
    for a in actions:
        if isinstance(a, DelayFlight) and (
            a.flight_id not in latest or a.delay_minutes > latest[a.flight_id].delay_minutes
        ):
            latest[a.flight_id] = a
    out: list[A] = []
    placed: set[str] = set()
    for a in actions:
        if isinstance(a, DelayFlight):
            if a.flight_id in placed:
                continue
            placed.add(a.flight_id)
            out.append(cast(A, latest[a.flight_id]))
        else:
            out.append(a)
    return out


def blocks(ctx: DisruptionContext) -> list[list[Flight]]:
    """Candidate sets of the tail's flights to move or cancel with the disrupted flight, smallest first: up to each
    return to the flight's origin with more flying after it, then everything left."""
    f = ctx.flight
    # in the rotation's order (its schedule): a report's ETD on the flight (the overlay) can put it after the tail's
    # next flights' times, which then still follow it — an out-and-back's return was left out of every block
    rest = [
        x for x in flying(tail_flights(ctx, f.aircraft_registration)) if x.scheduled_departure >= f.scheduled_departure
    ]
    rest = [x for x in rest if x.flight_id != f.flight_id and x.status in OPERABLE]
    sequence = [f, *rest]
    # the last flight is never a swap-back point (nothing follows it): "everything left" is a candidate of its own
    out = [sequence[: i + 1] for i, x in enumerate(sequence[:-1]) if x.destination == f.origin]
    return [*out, sequence]


def planned(ctx: DisruptionContext, actions: Sequence) -> dict[str, list[Flight]]:
    """Each tail the actions touch, with its flights as the plan leaves them."""
    tails = _moved_tails(ctx, actions)
    flights = {x.flight_id: x for t in sorted(tails) for x in tail_flights(ctx, t)}
    flights.setdefault(ctx.flight.flight_id, ctx.flight)
    for a in actions:  # a flight of another tail the plan re-times or cancels (a crew's next duty): that tail too
        if isinstance(a, (DelayFlight, CancelFlight)) and a.flight_id not in flights:
            x = ctx.memo(FlightRead(a.flight_id), lambda a=a: q.get_flight(ctx.handle, a.flight_id))
            if x is not None:
                tails.add(x.aircraft_registration)
                flights |= {y.flight_id: y for y in tail_flights(ctx, x.aircraft_registration)}
                flights.setdefault(x.flight_id, x)
    for a in actions:
        x = flights.get(a.flight_id)
        if isinstance(a, FerryAircraft):
            leg = ferry_leg(a, ctx.flight.carrier)
            flights[leg.flight_id] = leg
        elif isinstance(a, ContinueFlight):
            leg = continuation_leg(a, ctx.flight.carrier)
            flights[leg.flight_id] = leg
        elif x is None:
            continue
        elif isinstance(a, SwapAircraft):
            flights[x.flight_id] = x.model_copy(
                update={"aircraft_registration": a.to_registration, "aircraft_type": a.to_aircraft_type}
            )
        elif isinstance(a, DelayFlight):
            flights[x.flight_id] = x.model_copy(
                update={
                    "estimated_departure": a.new_departure,
                    "estimated_arrival": a.new_arrival,
                    "delay_minutes": a.delay_minutes,
                    "status": "DELAYED",
                }
            )
        elif isinstance(a, CancelFlight):
            flights[x.flight_id] = x.model_copy(update={"status": "CANCELLED"})
        elif isinstance(a, DivertFlight):
            flights[x.flight_id] = x.model_copy(
                update={"status": "DIVERTED", "diverted_to": a.alternate, "estimated_arrival": a.new_arrival}
            )
    by_tail: dict[str, list[Flight]] = {t: [] for t in sorted(tails)}
    for x in flights.values():
        by_tail.setdefault(x.aircraft_registration, []).append(x)
    return by_tail


def ferry_leg(a: FerryAircraft, carrier: str) -> Flight:
    """The empty ferry as a leg of its tail's rotation, under the id of the row execution writes (`a.ferry_id`), so
    a plan checked again once its ferry is in the table counts the ferry once (constructed: no seats; a rescue
    ferry's number, the rescued flight's with F, is not known here)."""
    return _added_leg(a.ferry_id, a.flight_number or "FERRY", a, carrier)


def continuation_leg(a: ContinueFlight, carrier: str) -> Flight:
    """A diverted flight's continuation from its alternate as a leg of its tail's rotation (the row execution
    writes, `{flight_id}-CONT`)."""
    return _added_leg(f"{a.flight_id}-CONT", "CONTINUATION", a, carrier)


def _added_leg(flight_id: str, number: str, a: FerryAircraft | ContinueFlight, carrier: str) -> Flight:
    return Flight.model_construct(
        flight_id=flight_id,
        flight_number=number,
        carrier=carrier,
        flight_date=a.departure.date(),
        origin=a.origin,
        destination=a.destination,
        scheduled_departure=a.departure,
        scheduled_arrival=a.arrival,
        estimated_departure=None,
        estimated_arrival=None,
        aircraft_registration=a.registration,
        aircraft_type=a.aircraft_type,
        status="SCHEDULED",
        diverted_to=None,
        delay_minutes=0,
        block_minutes=max(1, int((a.arrival - a.departure).total_seconds() // 60)),
        distance_km=1,  # not flown for revenue: no distance-based rule reads a ferry leg here
        capacity={},
    )


def grounding(ctx: DisruptionContext) -> tuple[datetime, datetime | None] | None:
    """The disrupted tail's grounding as the analysis found it: from the decision to maintenance's estimated
    release (open-ended without one)."""
    if not ctx.tail_grounded:
        return None
    return decision_time(ctx.flight, ctx.now), ctx.release_at


def plan_breaks(ctx: DisruptionContext, actions: Sequence) -> list[RotationBreak]:
    """What the plan leaves broken on the tails it touches, from the disrupted flight's departure on (once per set
    of actions: the builder's choice and the validation ask for the same plan)."""
    key = RotationBreaks(tuple(a.model_dump_json() for a in actions))
    return ctx.memo(key, lambda: _plan_breaks(ctx, actions))


def _plan_breaks(ctx: DisruptionContext, actions: Sequence) -> list[RotationBreak]:
    f = ctx.flight
    since = min(f.scheduled_departure, f.departure)
    horizon = since + GROUNDED_HORIZON
    out: list[RotationBreak] = []
    moved = _moved_tails(ctx, actions)
    for registration, sequence in planned(ctx, actions).items():
        own = registration == f.aircraft_registration and ctx.tail_grounded
        orders = (
            ()
            if own
            else ctx.memo(
                WorkOrdersRead(registration), lambda r=registration: q.work_orders_for_aircraft(ctx.handle, r)
            )
        )
        # a tail the plan only re-times (a crew's next duty) answers for the breaks the plan makes, not its own
        before = (
            set()
            if registration in moved
            else {
                (b.code, b.flight_id)
                for b in rotation_breaks(registration, tail_flights(ctx, registration), work_orders=orders)
            }
        )
        departures = {x.flight_id: x.departure for x in sequence}
        for b in rotation_breaks(
            registration, sequence, work_orders=orders, grounded_between=grounding(ctx) if own else None
        ):
            leaves = departures.get(b.flight_id or "")
            if leaves is None or leaves < since or (b.code, b.flight_id) in before:
                continue
            if b.code == "GROUNDED" and leaves >= horizon:
                continue
            out.append(b)
    return out


def _moved_tails(ctx: DisruptionContext, actions: Sequence) -> set[str]:
    """The disrupted flight's tail and every tail the plan moves a flight to or flies (a swap, a ferry, a
    continuation): the rotations the plan answers for whole."""
    tails = {ctx.flight.aircraft_registration}
    tails |= {a.to_registration for a in actions if isinstance(a, SwapAircraft)}
    tails |= {a.registration for a in actions if isinstance(a, (FerryAircraft, ContinueFlight))}
    return tails


def first_whole(ctx: DisruptionContext, candidates: Iterable[T], actions_of: Callable[[T], Sequence]) -> T:
    """The first candidate whose actions leave every touched rotation whole, else the last one (validation then
    rejects it with its breaks named)."""
    last: T | None = None
    for candidate in candidates:
        if not plan_breaks(ctx, actions_of(candidate)):
            return candidate
        last = candidate
    assert last is not None, "blocks() always gives at least the flight itself"
    return last


def passenger_minutes_added(flights: Sequence[Flight], retimed: Sequence[DelayFlight]) -> int:
    """The delay re-timing adds to `flights`, in booked passenger-minutes (a flight with no count: one)."""
    by_id = {x.flight_id: x for x in flights}
    return sum(
        (a.delay_minutes - by_id[a.flight_id].delay_minutes) * max(1, sum(by_id[a.flight_id].booked.values()))
        for a in retimed
    )


def swaps(flights: Sequence[Flight], tail: str, aircraft_type: str) -> list[SwapAircraft]:
    """Each of `flights` moved to `tail`."""
    return [
        SwapAircraft(
            flight_id=x.flight_id,
            from_registration=x.aircraft_registration,
            to_registration=tail,
            to_aircraft_type=aircraft_type,
        )
        for x in flights
    ]


def retimed_sequence(sequence: Sequence[Flight], ready: datetime) -> list[DelayFlight]:
    """Each flight of a tail's new sequence that leaves later than it now does: no earlier than its schedule, the
    tail's `ready` time for the first, and the previous arrival plus the type's minimum turn for the others."""
    out: list[DelayFlight] = []
    free = ready
    for x in sequence:
        leaves = max(x.departure, x.scheduled_departure, free)
        arrives = leaves + (x.scheduled_arrival - x.scheduled_departure)
        if leaves > x.departure:
            out.append(retimed(x, math.ceil((leaves - x.scheduled_departure).total_seconds() / 60)))
        free = arrives + timedelta(minutes=AIRCRAFT_TYPES[x.aircraft_type].min_turn_minutes)
    return out
